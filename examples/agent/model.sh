#!/bin/sh
# A stand-in model for `toolcall loop`: no network, no weights.
#
# It reads the prompt on stdin and prints the reply stored for this
# iteration: the first file named $TOOLCALL_ITERATION.* in the replies
# folder ($STANDIN_REPLIES, else replies/ beside this script). A reply may be
# plain model text (1.txt), Ollama NDJSON (1.ndjson) or OpenAI SSE (1.sse);
# `toolcall loop` reads all three. With $STANDIN_PROMPTS set to a folder,
# each prompt is saved there as prompt-N.txt, so a test can check what the
# model was shown.
#
#   toolcall loop --model-cmd examples/agent/model.sh \
#     --tools examples/agent/tools.json "What is the weather in Paris?"
set -eu
n="${TOOLCALL_ITERATION:-1}"
dir="${STANDIN_REPLIES:-$(dirname "$0")/replies}"
if [ -n "${STANDIN_PROMPTS:-}" ]; then
  cat > "$STANDIN_PROMPTS/prompt-$n.txt"
else
  cat > /dev/null
fi
for f in "$dir/$n".*; do
  if [ -f "$f" ]; then
    if [ -n "${STANDIN_DELAY:-}" ]; then sleep "$STANDIN_DELAY"; fi
    cat "$f"
    exit 0
  fi
done
echo "I have nothing more to add."
