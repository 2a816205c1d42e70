#!/usr/bin/env bash
# Whole-process speed as a user sees it: median of 5 runs of
#   toolcall parse FILE >/dev/null
#   cat FILE | toolcall stream >/dev/null
#   toolcall split --text FILE >/dev/null
# on a generated ~40 MB hermes transcript, next to a bare `cat FILE
# >/dev/null` pass, and the peak RSS of split and validate on a 200 MB one.
#
#   benches/whole-process.sh [TOOLCALL_BINARY] [MB]
#
# The binary defaults to target/dist/toolcall, the shipped build (built with
# `cargo build --profile dist` if missing); set
# BIG_MB=0 to skip the 200 MB runs. Uses hyperfine when installed.
set -euo pipefail
cd "$(dirname "$0")/.."
TC=${1:-target/dist/toolcall}
MB=${2:-40}
BIG_MB=${BIG_MB:-200}
RUNS=${RUNS:-5}
[ -x "$TC" ] || cargo build --profile dist --bin toolcall
cargo build --release --example transcript >/dev/null 2>&1
DIR=${TMPDIR:-/tmp}/toolcall-whole-process
mkdir -p "$DIR"
FILE=$DIR/hermes-$MB.txt
[ -s "$FILE" ] || target/release/examples/transcript "$MB" >"$FILE"
SIZE=$(stat -c %s "$FILE")

median() { # command string -> median seconds of $RUNS runs
    local i t times=()
    for i in $(seq "$RUNS"); do
        /usr/bin/time -o "$DIR/t" -f %e bash -c "$1 >/dev/null" >/dev/null 2>&1
        times+=("$(tail -1 "$DIR/t")")
    done
    printf '%s\n' "${times[@]}" | sort -n | sed -n "$(( (RUNS + 1) / 2 ))p"
}

row() { # name, command (its stdout is discarded)
    local s
    if command -v hyperfine >/dev/null; then
        # no intermediate shell unless the command is a pipeline
        local shell=(-N)
        case "$2" in *"|"*) shell=() ;; esac
        s=$(hyperfine "${shell[@]}" --warmup 2 --runs "$RUNS" --export-json "$DIR/h.json" "$2" >/dev/null 2>&1 &&
            python3 -c "import json;print(json.load(open('$DIR/h.json'))['results'][0]['median'])")
    else
        s=$(median "$2")
    fi
    awk -v n="$1" -v s="$s" -v b="$SIZE" \
        'BEGIN { printf "| %s | %.3f s | %.0f MB/s |\n", n, s, (s > 0 ? b / s / 1e6 : 0) }'
}

echo "input: $FILE ($SIZE bytes), median of $RUNS runs, $(nproc) cores"
echo
echo "| what | time | throughput |"
echo "|---|---|---|"
row "cat FILE" "cat $FILE"
row "toolcall parse FILE" "$TC parse $FILE"
row "cat FILE \| toolcall stream" "cat $FILE | $TC stream"
row "toolcall split --text FILE" "$TC split --text $FILE"

if [ "$BIG_MB" != 0 ]; then
    BIG=$DIR/hermes-$BIG_MB.txt
    [ -s "$BIG" ] || target/release/examples/transcript "$BIG_MB" >"$BIG"
    BSIZE=$(stat -c %s "$BIG")
    TOOLS=fixtures/validate/tools/openai-chat.json
    echo
    echo "| peak RSS, $BIG_MB MB input | RSS | RSS / input | time |"
    echo "|---|---|---|---|"
    for cmd in "parse" "split --text" "validate --no-config --no-strict --tools $TOOLS"; do
        /usr/bin/time -o "$DIR/t" -f '%M %e' $TC $cmd "$BIG" >/dev/null 2>&1 || true
        out=$(tail -1 "$DIR/t")
        awk -v c="${cmd%% --no-config*}" -v kb="${out% *}" -v s="${out#* }" -v b="$BSIZE" \
            'BEGIN { printf "| %s | %.0f MB | %.2f | %.2f s |\n", c, kb / 1024, kb * 1024 / b, s }'
    done
fi
