# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_toolcall_global_optspecs
    string join \n h/help V/version
end

function __fish_toolcall_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_toolcall_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_toolcall_using_subcommand
    set -l cmd (__fish_toolcall_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c toolcall -n "__fish_toolcall_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c toolcall -n "__fish_toolcall_needs_command" -s V -l version -d 'Print version'
complete -c toolcall -n "__fish_toolcall_needs_command" -f -a "parse" -d 'Find the tool calls in whole documents.'
complete -c toolcall -n "__fish_toolcall_needs_command" -f -a "stream" -d 'Parse a live stream, writing events as soon as they are certain.'
complete -c toolcall -n "__fish_toolcall_needs_command" -f -a "split" -d 'Separate text, reasoning and calls, losslessly.'
complete -c toolcall -n "__fish_toolcall_needs_command" -f -a "repair" -d 'Repair malformed JSON: print it fixed, or a report of what was fixed'
complete -c toolcall -n "__fish_toolcall_needs_command" -f -a "validate" -d 'Check tool calls against a tools file.'
complete -c toolcall -n "__fish_toolcall_needs_command" -f -a "formats" -d 'List the formats toolcall knows, with their model families and markers.'
complete -c toolcall -n "__fish_toolcall_needs_command" -f -a "render" -d 'Render the prompt side of a tool loop for a model family.'
complete -c toolcall -n "__fish_toolcall_needs_command" -f -a "exec" -d 'Run tool calls through their commands, asking before risky ones.'
complete -c toolcall -n "__fish_toolcall_needs_command" -f -a "loop" -d 'Run the tool loop: model, calls, results, until the model answers.'
complete -c toolcall -n "__fish_toolcall_needs_command" -f -a "completions" -d 'Print a shell completion script on stdout.'
complete -c toolcall -n "__fish_toolcall_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c toolcall -n "__fish_toolcall_using_subcommand parse" -l field -d 'Each input line is a JSON record; the document is the string at PATH' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand parse" -s j -l jobs -d 'Process this many files in parallel (output stays in input order; 1 to 256)' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand parse" -l max-input -d 'Largest document read whole into memory, in bytes [default: 256 MiB]' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand parse" -s g -l glob -d 'Only read files in directories whose path matches GLOB (`!GLOB` excludes); repeatable. Files named on the command line are always read' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand parse" -s f -l format -d 'Format to look for: auto (detect per document) or a format id' -r -f -a "auto\t'detect the format per document'
hermes\t'Hermes 2 Pro/3, Qwen2.5, Qwen3, QwQ, Granite 4, DeepSeek-R1 distills, many fine-tunes'
qwen3-coder-xml\t'Qwen3-Coder, Qwen3.5/3.6, Nemotron-3 Nano, MiniCPM, Step-3.5'
glm4-moe\t'GLM-4.5, GLM-4.6, GLM-4.7, GLM-5'
functionary\t'Llama 3.1/3.2/3.3 custom tools, Functionary v3.1'
fenced-tool-call\t'prompted models, agent frameworks, llama.cpp generic fallback'
fenced-json\t'Gemma, Phi, Mistral-instruct fine-tunes, xLAM and llama3 models that over-format'
bare-json\t'any model in JSON mode, Ollama templates whose tool tag is `{`'
llama3-json\t'Llama 3.1/3.2/3.3 JSON tool prompt'
xlam\t'Salesforce xLAM-1, xLAM-2'
granite\t'IBM Granite 3.0-3.3, granite-20b-functioncalling'
cohere\t'Cohere Command R, R+, R7B, Command A'
internlm\t'InternLM 2, InternLM 2.5, Intern-S1 (early)'
jamba\t'AI21 Jamba 1.5/1.6, Tencent Hunyuan-A13B'
minimax\t'MiniMax-M1, MiniMax-Text-01'
minimax-m2\t'MiniMax-M2, M2.1, M2.5'
minimax-m3\t'MiniMax M3'
seed-oss\t'ByteDance Seed-OSS'
longcat\t'Meituan LongCat-Flash'
nemotron-toolcall\t'NVIDIA Nemotron (Llama-3.1-Nemotron, Nemotron-4 tool templates)'
inkling\t'Inkling'
hunyuan-v4\t'Tencent Hunyuan v4 (Hy4-preview), Hy3'
ernie45\t'Baidu ERNIE 4.5 (incl. 21B-A3B-Thinking)'
mistral\t'Mistral 7B v0.3, Mixtral 8x22B, Nemo, Small, Ministral, Codestral, Magistral, Devstral, Medium/Large'
deepseek-v3\t'DeepSeek-V3 (0324), DeepSeek-R1 (0528), R1 distills with the DeepSeek template'
deepseek-v3.1\t'DeepSeek-V3.1, V3.1-Terminus, V3.2-Exp'
deepseek-dsml\t'DeepSeek V3.2, DeepSeek V4, GigaChat 3.5 (as ｜GCML｜)'
kimi-k2\t'Moonshot Kimi K2, K2-Instruct-0905, K2-Thinking, K2.5'
kimi-k3\t'Moonshot Kimi K3'
step3\t'StepFun Step-3'
harmony\t'OpenAI gpt-oss-20b, gpt-oss-120b and fine-tunes'
pythonic\t'Llama 3.2 1B/3B, Llama 4 (pythonic template), ToolACE, Granite pythonic, small fine-tunes'
lfm2\t'Liquid LFM2, LFM2.5'
olmo3\t'AllenAI OLMo 3'
llama-python-tag\t'Llama 3.1/3.2/3.3 built-in tools (brave_search, wolfram_alpha, code_interpreter), Functionary v3.1 code'
phi4-mini\t'Phi-4-mini-instruct, FireFunction v2'
functionary-v3.2\t'Functionary v3.2 (MeetKai)'
gemini-function-call\t'Gemini API imitations, FunctionGemma, Gemma 2/3 (tool_code fences), Gemma 4'
sarashina\t'SB Intuitions Sarashina'
apertus\t'Swiss AI Apertus'
gigachat3\t'Sber GigaChat 3 (3-10B-A1.8B, 3-702B-A36B), GigaChat 3.1'
minicpm5\t'OpenBMB MiniCPM 5'
solar-open\t'Upstage Solar Open 2'
plamo3\t'Preferred Networks PLaMo 3'
iquest\t'IQuest-Coder-V2, IQuest Q1'
dots\t'rednote dots'
k2-v3\t'MBZUAI IFM K2-V3 (K2-Horizon)'
glm53-flash\t'GLM-5.3-Flash'
muse-glimmer\t'Muse Glimmer'
prompt-wrapper\t'models prompted by LM Studio (no tool template), agent prompts'"
complete -c toolcall -n "__fish_toolcall_using_subcommand parse" -l repair-max-size -d 'Largest broken argument JSON to repair, in bytes' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand parse" -l think-window -d 'How far into a document to look for a reasoning closer the prompt opened, in bytes (default 0: not at all; 8192 covers about 2,000 tokens of reasoning)' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand parse" -l generation-prompt -d 'The text the chat template appended after the last message' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand parse" -l model -d 'The model that wrote the output: its format and default generation prompt' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand parse" -l finish-reason -d 'Why the output ended: `stop` (an end token) or `length` (the token limit)' -r -f -a "stop\t''
length\t''"
complete -c toolcall -n "__fish_toolcall_using_subcommand parse" -l max-block -d 'Largest candidate block held back while undecided, in bytes' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand parse" -l label -d 'The name standard input goes by in records (`doc`) and messages' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand parse" -l input -d 'Input kind: auto, text, terminal, ollama, openai or llama-server' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand parse" -l max-buffer -d 'Most bytes held for one wire line, the open streamed calls together, or an undecided line' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand parse" -s m -l max-count -d 'Stop after N calls per document (`-m1`: the first call)' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand parse" -l shape -d 'Record shape: native (ours), openai or ollama' -r -f -a "native\t''
openai\t''
ollama\t''"
complete -c toolcall -n "__fish_toolcall_using_subcommand parse" -l tools -d 'Tools file (JSON or JSON5) to validate calls against.' -r -F
complete -c toolcall -n "__fish_toolcall_using_subcommand parse" -l max-tools-size -d 'Largest tools file read, in bytes [default: 16 MiB]' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand parse" -l unknown-risk -d 'Risk given to tools the tools file does not list [default: medium].' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand parse" -l auto-approve -d 'Calls whose risk is above this level require approval [default: safe].' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand parse" -l config -d 'Configuration file (JSON5) [default: .toolcall.json5 found upward].' -r -F
complete -c toolcall -n "__fish_toolcall_using_subcommand parse" -l lines -d 'Each input line is its own document'
complete -c toolcall -n "__fish_toolcall_using_subcommand parse" -s s -l no-messages -d 'No messages about files that do not exist or cannot be read (the exit status is still 2), as `grep -s`'
complete -c toolcall -n "__fish_toolcall_using_subcommand parse" -s L -l follow -d 'Follow symbolic links found in directories (loops are detected)'
complete -c toolcall -n "__fish_toolcall_using_subcommand parse" -l hidden -d 'Also read hidden files and directories (names starting with `.`)'
complete -c toolcall -n "__fish_toolcall_using_subcommand parse" -l no-ignore -d 'Do not honour `.gitignore`, `.ignore` and git\'s exclude files'
complete -c toolcall -n "__fish_toolcall_using_subcommand parse" -s a -l binary -d 'Also read binary files found in directories (a NUL byte in the first 8 KiB marks a file binary; they are skipped by default)'
complete -c toolcall -n "__fish_toolcall_using_subcommand parse" -l no-json-blocks -d 'Do not treat call-shaped ```json fences as calls'
complete -c toolcall -n "__fish_toolcall_using_subcommand parse" -l inline-json -d 'Also look for call-shaped JSON inline in prose (least reliable)'
complete -c toolcall -n "__fish_toolcall_using_subcommand parse" -l no-repair -d 'Do not repair broken argument JSON'
complete -c toolcall -n "__fish_toolcall_using_subcommand parse" -l reasoning-calls -d 'Also report calls drafted inside reasoning, flagged `in_reasoning`'
complete -c toolcall -n "__fish_toolcall_using_subcommand parse" -l think-open -d 'The output starts inside a think block opened by the prompt'
complete -c toolcall -n "__fish_toolcall_using_subcommand parse" -l line-buffered -d 'Flush after every record'
complete -c toolcall -n "__fish_toolcall_using_subcommand parse" -l block-buffered -d 'Buffer output in blocks even on a terminal'
complete -c toolcall -n "__fish_toolcall_using_subcommand parse" -s q -l quiet -d 'No output; exit status only (0: a call was found)'
complete -c toolcall -n "__fish_toolcall_using_subcommand parse" -s c -l count -d 'Print only the number of calls per document (`NAME:COUNT` when there are several documents)'
complete -c toolcall -n "__fish_toolcall_using_subcommand parse" -s l -l files-with-calls -d 'Print only the names of the documents with a call, one a line, as `grep -l` does (each document is read only up to its first call)'
complete -c toolcall -n "__fish_toolcall_using_subcommand parse" -s 0 -l null -d 'With `-l`, end each name with a NUL byte instead of a newline (for `xargs -0`)'
complete -c toolcall -n "__fish_toolcall_using_subcommand parse" -s H -l with-filename -d 'With `-c`, prefix every count with its document\'s name, even for a single document'
complete -c toolcall -n "__fish_toolcall_using_subcommand parse" -l no-filename -d 'With `-c`, never prefix counts with the document\'s name'
complete -c toolcall -n "__fish_toolcall_using_subcommand parse" -l fail-on-error -d 'Exit 2 when an `error` record was written (a call was found but broken), after every record'
complete -c toolcall -n "__fish_toolcall_using_subcommand parse" -l pretty -d 'Indent each record over several lines, for reading and reviewing golden files (the output is then a JSON stream, no longer NDJSON)'
complete -c toolcall -n "__fish_toolcall_using_subcommand parse" -l no-strict -d 'Lenient mode: accept properties the schema does not declare, and calls to tools the file does not list (with a warning).'
complete -c toolcall -n "__fish_toolcall_using_subcommand parse" -l strict -d 'Strict mode even when the config file turns it off.'
complete -c toolcall -n "__fish_toolcall_using_subcommand parse" -l no-config -d 'Do not look for a `.toolcall.json5` configuration file.'
complete -c toolcall -n "__fish_toolcall_using_subcommand parse" -s v -l verbose -d 'Log to stderr (`-vv`: also argument values), per document with a correlation id.'
complete -c toolcall -n "__fish_toolcall_using_subcommand parse" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c toolcall -n "__fish_toolcall_using_subcommand stream" -s f -l format -d 'Format to look for: auto (detect per document) or a format id' -r -f -a "auto\t'detect the format per document'
hermes\t'Hermes 2 Pro/3, Qwen2.5, Qwen3, QwQ, Granite 4, DeepSeek-R1 distills, many fine-tunes'
qwen3-coder-xml\t'Qwen3-Coder, Qwen3.5/3.6, Nemotron-3 Nano, MiniCPM, Step-3.5'
glm4-moe\t'GLM-4.5, GLM-4.6, GLM-4.7, GLM-5'
functionary\t'Llama 3.1/3.2/3.3 custom tools, Functionary v3.1'
fenced-tool-call\t'prompted models, agent frameworks, llama.cpp generic fallback'
fenced-json\t'Gemma, Phi, Mistral-instruct fine-tunes, xLAM and llama3 models that over-format'
bare-json\t'any model in JSON mode, Ollama templates whose tool tag is `{`'
llama3-json\t'Llama 3.1/3.2/3.3 JSON tool prompt'
xlam\t'Salesforce xLAM-1, xLAM-2'
granite\t'IBM Granite 3.0-3.3, granite-20b-functioncalling'
cohere\t'Cohere Command R, R+, R7B, Command A'
internlm\t'InternLM 2, InternLM 2.5, Intern-S1 (early)'
jamba\t'AI21 Jamba 1.5/1.6, Tencent Hunyuan-A13B'
minimax\t'MiniMax-M1, MiniMax-Text-01'
minimax-m2\t'MiniMax-M2, M2.1, M2.5'
minimax-m3\t'MiniMax M3'
seed-oss\t'ByteDance Seed-OSS'
longcat\t'Meituan LongCat-Flash'
nemotron-toolcall\t'NVIDIA Nemotron (Llama-3.1-Nemotron, Nemotron-4 tool templates)'
inkling\t'Inkling'
hunyuan-v4\t'Tencent Hunyuan v4 (Hy4-preview), Hy3'
ernie45\t'Baidu ERNIE 4.5 (incl. 21B-A3B-Thinking)'
mistral\t'Mistral 7B v0.3, Mixtral 8x22B, Nemo, Small, Ministral, Codestral, Magistral, Devstral, Medium/Large'
deepseek-v3\t'DeepSeek-V3 (0324), DeepSeek-R1 (0528), R1 distills with the DeepSeek template'
deepseek-v3.1\t'DeepSeek-V3.1, V3.1-Terminus, V3.2-Exp'
deepseek-dsml\t'DeepSeek V3.2, DeepSeek V4, GigaChat 3.5 (as ｜GCML｜)'
kimi-k2\t'Moonshot Kimi K2, K2-Instruct-0905, K2-Thinking, K2.5'
kimi-k3\t'Moonshot Kimi K3'
step3\t'StepFun Step-3'
harmony\t'OpenAI gpt-oss-20b, gpt-oss-120b and fine-tunes'
pythonic\t'Llama 3.2 1B/3B, Llama 4 (pythonic template), ToolACE, Granite pythonic, small fine-tunes'
lfm2\t'Liquid LFM2, LFM2.5'
olmo3\t'AllenAI OLMo 3'
llama-python-tag\t'Llama 3.1/3.2/3.3 built-in tools (brave_search, wolfram_alpha, code_interpreter), Functionary v3.1 code'
phi4-mini\t'Phi-4-mini-instruct, FireFunction v2'
functionary-v3.2\t'Functionary v3.2 (MeetKai)'
gemini-function-call\t'Gemini API imitations, FunctionGemma, Gemma 2/3 (tool_code fences), Gemma 4'
sarashina\t'SB Intuitions Sarashina'
apertus\t'Swiss AI Apertus'
gigachat3\t'Sber GigaChat 3 (3-10B-A1.8B, 3-702B-A36B), GigaChat 3.1'
minicpm5\t'OpenBMB MiniCPM 5'
solar-open\t'Upstage Solar Open 2'
plamo3\t'Preferred Networks PLaMo 3'
iquest\t'IQuest-Coder-V2, IQuest Q1'
dots\t'rednote dots'
k2-v3\t'MBZUAI IFM K2-V3 (K2-Horizon)'
glm53-flash\t'GLM-5.3-Flash'
muse-glimmer\t'Muse Glimmer'
prompt-wrapper\t'models prompted by LM Studio (no tool template), agent prompts'"
complete -c toolcall -n "__fish_toolcall_using_subcommand stream" -l repair-max-size -d 'Largest broken argument JSON to repair, in bytes' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand stream" -l think-window -d 'How far into a document to look for a reasoning closer the prompt opened, in bytes (default 0: not at all; 8192 covers about 2,000 tokens of reasoning)' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand stream" -l generation-prompt -d 'The text the chat template appended after the last message' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand stream" -l model -d 'The model that wrote the output: its format and default generation prompt' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand stream" -l finish-reason -d 'Why the output ended: `stop` (an end token) or `length` (the token limit)' -r -f -a "stop\t''
length\t''"
complete -c toolcall -n "__fish_toolcall_using_subcommand stream" -l max-block -d 'Largest candidate block held back while undecided, in bytes' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand stream" -l label -d 'The name standard input goes by in records (`doc`) and messages' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand stream" -l input -d 'Input kind: auto, text, terminal, ollama, openai or llama-server' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand stream" -l max-buffer -d 'Most bytes held for one wire line, the open streamed calls together, or an undecided line' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand stream" -l chunk-size -d 'Read size in bytes (small values simulate token-by-token arrival)' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand stream" -l tools -d 'Tools file (JSON or JSON5) to validate calls against.' -r -F
complete -c toolcall -n "__fish_toolcall_using_subcommand stream" -l max-tools-size -d 'Largest tools file read, in bytes [default: 16 MiB]' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand stream" -l unknown-risk -d 'Risk given to tools the tools file does not list [default: medium].' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand stream" -l auto-approve -d 'Calls whose risk is above this level require approval [default: safe].' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand stream" -l config -d 'Configuration file (JSON5) [default: .toolcall.json5 found upward].' -r -F
complete -c toolcall -n "__fish_toolcall_using_subcommand stream" -l no-json-blocks -d 'Do not treat call-shaped ```json fences as calls'
complete -c toolcall -n "__fish_toolcall_using_subcommand stream" -l inline-json -d 'Also look for call-shaped JSON inline in prose (least reliable)'
complete -c toolcall -n "__fish_toolcall_using_subcommand stream" -l no-repair -d 'Do not repair broken argument JSON'
complete -c toolcall -n "__fish_toolcall_using_subcommand stream" -l reasoning-calls -d 'Also report calls drafted inside reasoning, flagged `in_reasoning`'
complete -c toolcall -n "__fish_toolcall_using_subcommand stream" -l think-open -d 'The output starts inside a think block opened by the prompt'
complete -c toolcall -n "__fish_toolcall_using_subcommand stream" -l block-buffered -d 'Buffer output in blocks instead of flushing after every read'
complete -c toolcall -n "__fish_toolcall_using_subcommand stream" -l no-strict -d 'Lenient mode: accept properties the schema does not declare, and calls to tools the file does not list (with a warning).'
complete -c toolcall -n "__fish_toolcall_using_subcommand stream" -l strict -d 'Strict mode even when the config file turns it off.'
complete -c toolcall -n "__fish_toolcall_using_subcommand stream" -l no-config -d 'Do not look for a `.toolcall.json5` configuration file.'
complete -c toolcall -n "__fish_toolcall_using_subcommand stream" -s v -l verbose -d 'Log to stderr (`-vv`: also argument values), per document with a correlation id.'
complete -c toolcall -n "__fish_toolcall_using_subcommand stream" -l fail-on-error -d 'Exit 2 when an `error` record was written (a call was found but broken), after every record'
complete -c toolcall -n "__fish_toolcall_using_subcommand stream" -l pretty -d 'Indent each record over several lines, for reading and reviewing golden files (the output is then a JSON stream, no longer NDJSON)'
complete -c toolcall -n "__fish_toolcall_using_subcommand stream" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c toolcall -n "__fish_toolcall_using_subcommand split" -l field -d 'Each input line is a JSON record; the document is the string at PATH' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand split" -s j -l jobs -d 'Process this many files in parallel (output stays in input order; 1 to 256)' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand split" -l max-input -d 'Largest document read whole into memory, in bytes [default: 256 MiB]' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand split" -s g -l glob -d 'Only read files in directories whose path matches GLOB (`!GLOB` excludes); repeatable. Files named on the command line are always read' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand split" -s f -l format -d 'Format to look for: auto (detect per document) or a format id' -r -f -a "auto\t'detect the format per document'
hermes\t'Hermes 2 Pro/3, Qwen2.5, Qwen3, QwQ, Granite 4, DeepSeek-R1 distills, many fine-tunes'
qwen3-coder-xml\t'Qwen3-Coder, Qwen3.5/3.6, Nemotron-3 Nano, MiniCPM, Step-3.5'
glm4-moe\t'GLM-4.5, GLM-4.6, GLM-4.7, GLM-5'
functionary\t'Llama 3.1/3.2/3.3 custom tools, Functionary v3.1'
fenced-tool-call\t'prompted models, agent frameworks, llama.cpp generic fallback'
fenced-json\t'Gemma, Phi, Mistral-instruct fine-tunes, xLAM and llama3 models that over-format'
bare-json\t'any model in JSON mode, Ollama templates whose tool tag is `{`'
llama3-json\t'Llama 3.1/3.2/3.3 JSON tool prompt'
xlam\t'Salesforce xLAM-1, xLAM-2'
granite\t'IBM Granite 3.0-3.3, granite-20b-functioncalling'
cohere\t'Cohere Command R, R+, R7B, Command A'
internlm\t'InternLM 2, InternLM 2.5, Intern-S1 (early)'
jamba\t'AI21 Jamba 1.5/1.6, Tencent Hunyuan-A13B'
minimax\t'MiniMax-M1, MiniMax-Text-01'
minimax-m2\t'MiniMax-M2, M2.1, M2.5'
minimax-m3\t'MiniMax M3'
seed-oss\t'ByteDance Seed-OSS'
longcat\t'Meituan LongCat-Flash'
nemotron-toolcall\t'NVIDIA Nemotron (Llama-3.1-Nemotron, Nemotron-4 tool templates)'
inkling\t'Inkling'
hunyuan-v4\t'Tencent Hunyuan v4 (Hy4-preview), Hy3'
ernie45\t'Baidu ERNIE 4.5 (incl. 21B-A3B-Thinking)'
mistral\t'Mistral 7B v0.3, Mixtral 8x22B, Nemo, Small, Ministral, Codestral, Magistral, Devstral, Medium/Large'
deepseek-v3\t'DeepSeek-V3 (0324), DeepSeek-R1 (0528), R1 distills with the DeepSeek template'
deepseek-v3.1\t'DeepSeek-V3.1, V3.1-Terminus, V3.2-Exp'
deepseek-dsml\t'DeepSeek V3.2, DeepSeek V4, GigaChat 3.5 (as ｜GCML｜)'
kimi-k2\t'Moonshot Kimi K2, K2-Instruct-0905, K2-Thinking, K2.5'
kimi-k3\t'Moonshot Kimi K3'
step3\t'StepFun Step-3'
harmony\t'OpenAI gpt-oss-20b, gpt-oss-120b and fine-tunes'
pythonic\t'Llama 3.2 1B/3B, Llama 4 (pythonic template), ToolACE, Granite pythonic, small fine-tunes'
lfm2\t'Liquid LFM2, LFM2.5'
olmo3\t'AllenAI OLMo 3'
llama-python-tag\t'Llama 3.1/3.2/3.3 built-in tools (brave_search, wolfram_alpha, code_interpreter), Functionary v3.1 code'
phi4-mini\t'Phi-4-mini-instruct, FireFunction v2'
functionary-v3.2\t'Functionary v3.2 (MeetKai)'
gemini-function-call\t'Gemini API imitations, FunctionGemma, Gemma 2/3 (tool_code fences), Gemma 4'
sarashina\t'SB Intuitions Sarashina'
apertus\t'Swiss AI Apertus'
gigachat3\t'Sber GigaChat 3 (3-10B-A1.8B, 3-702B-A36B), GigaChat 3.1'
minicpm5\t'OpenBMB MiniCPM 5'
solar-open\t'Upstage Solar Open 2'
plamo3\t'Preferred Networks PLaMo 3'
iquest\t'IQuest-Coder-V2, IQuest Q1'
dots\t'rednote dots'
k2-v3\t'MBZUAI IFM K2-V3 (K2-Horizon)'
glm53-flash\t'GLM-5.3-Flash'
muse-glimmer\t'Muse Glimmer'
prompt-wrapper\t'models prompted by LM Studio (no tool template), agent prompts'"
complete -c toolcall -n "__fish_toolcall_using_subcommand split" -l repair-max-size -d 'Largest broken argument JSON to repair, in bytes' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand split" -l think-window -d 'How far into a document to look for a reasoning closer the prompt opened, in bytes (default 0: not at all; 8192 covers about 2,000 tokens of reasoning)' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand split" -l generation-prompt -d 'The text the chat template appended after the last message' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand split" -l model -d 'The model that wrote the output: its format and default generation prompt' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand split" -l finish-reason -d 'Why the output ended: `stop` (an end token) or `length` (the token limit)' -r -f -a "stop\t''
length\t''"
complete -c toolcall -n "__fish_toolcall_using_subcommand split" -l max-block -d 'Largest candidate block held back while undecided, in bytes' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand split" -l label -d 'The name standard input goes by in records (`doc`) and messages' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand split" -l input -d 'Input kind: auto, text, terminal, ollama, openai or llama-server' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand split" -l max-buffer -d 'Most bytes held for one wire line, the open streamed calls together, or an undecided line' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand split" -l tools -d 'Tools file (JSON or JSON5) to validate calls against.' -r -F
complete -c toolcall -n "__fish_toolcall_using_subcommand split" -l max-tools-size -d 'Largest tools file read, in bytes [default: 16 MiB]' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand split" -l unknown-risk -d 'Risk given to tools the tools file does not list [default: medium].' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand split" -l auto-approve -d 'Calls whose risk is above this level require approval [default: safe].' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand split" -l config -d 'Configuration file (JSON5) [default: .toolcall.json5 found upward].' -r -F
complete -c toolcall -n "__fish_toolcall_using_subcommand split" -l lines -d 'Each input line is its own document'
complete -c toolcall -n "__fish_toolcall_using_subcommand split" -s s -l no-messages -d 'No messages about files that do not exist or cannot be read (the exit status is still 2), as `grep -s`'
complete -c toolcall -n "__fish_toolcall_using_subcommand split" -s L -l follow -d 'Follow symbolic links found in directories (loops are detected)'
complete -c toolcall -n "__fish_toolcall_using_subcommand split" -l hidden -d 'Also read hidden files and directories (names starting with `.`)'
complete -c toolcall -n "__fish_toolcall_using_subcommand split" -l no-ignore -d 'Do not honour `.gitignore`, `.ignore` and git\'s exclude files'
complete -c toolcall -n "__fish_toolcall_using_subcommand split" -s a -l binary -d 'Also read binary files found in directories (a NUL byte in the first 8 KiB marks a file binary; they are skipped by default)'
complete -c toolcall -n "__fish_toolcall_using_subcommand split" -l no-json-blocks -d 'Do not treat call-shaped ```json fences as calls'
complete -c toolcall -n "__fish_toolcall_using_subcommand split" -l inline-json -d 'Also look for call-shaped JSON inline in prose (least reliable)'
complete -c toolcall -n "__fish_toolcall_using_subcommand split" -l no-repair -d 'Do not repair broken argument JSON'
complete -c toolcall -n "__fish_toolcall_using_subcommand split" -l reasoning-calls -d 'Also report calls drafted inside reasoning, flagged `in_reasoning`'
complete -c toolcall -n "__fish_toolcall_using_subcommand split" -l think-open -d 'The output starts inside a think block opened by the prompt'
complete -c toolcall -n "__fish_toolcall_using_subcommand split" -l line-buffered -d 'Flush after every record'
complete -c toolcall -n "__fish_toolcall_using_subcommand split" -l block-buffered -d 'Buffer output in blocks even on a terminal'
complete -c toolcall -n "__fish_toolcall_using_subcommand split" -l fail-on-error -d 'Exit 2 when an `error` record was written (a call was found but broken), after every record'
complete -c toolcall -n "__fish_toolcall_using_subcommand split" -l pretty -d 'Indent each record over several lines, for reading and reviewing golden files (the output is then a JSON stream, no longer NDJSON)'
complete -c toolcall -n "__fish_toolcall_using_subcommand split" -l text -d 'Print only the prose (calls, reasoning and markup removed)'
complete -c toolcall -n "__fish_toolcall_using_subcommand split" -l no-strict -d 'Lenient mode: accept properties the schema does not declare, and calls to tools the file does not list (with a warning).'
complete -c toolcall -n "__fish_toolcall_using_subcommand split" -l strict -d 'Strict mode even when the config file turns it off.'
complete -c toolcall -n "__fish_toolcall_using_subcommand split" -l no-config -d 'Do not look for a `.toolcall.json5` configuration file.'
complete -c toolcall -n "__fish_toolcall_using_subcommand split" -s v -l verbose -d 'Log to stderr (`-vv`: also argument values), per document with a correlation id.'
complete -c toolcall -n "__fish_toolcall_using_subcommand split" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c toolcall -n "__fish_toolcall_using_subcommand repair" -l max-depth -d 'Deepest nesting a repair may handle' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand repair" -l timeout-ms -d 'Time budget per document in milliseconds (0: none)' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand repair" -l max-size -d 'Largest invalid document, in bytes, to repair (default: no limit)' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand repair" -l max-input -d 'Largest input read, in bytes [default: 256 MiB]' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand repair" -l lines -d 'Treat every input line as its own document'
complete -c toolcall -n "__fish_toolcall_using_subcommand repair" -l report -d 'Write a `repair` record per document instead of the JSON'
complete -c toolcall -n "__fish_toolcall_using_subcommand repair" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c toolcall -n "__fish_toolcall_using_subcommand validate" -l field -d 'Each input line is a JSON record; the document is the string at PATH' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand validate" -s j -l jobs -d 'Process this many files in parallel (output stays in input order; 1 to 256)' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand validate" -l max-input -d 'Largest document read whole into memory, in bytes [default: 256 MiB]' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand validate" -s g -l glob -d 'Only read files in directories whose path matches GLOB (`!GLOB` excludes); repeatable. Files named on the command line are always read' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand validate" -s f -l format -d 'Format to look for: auto (detect per document) or a format id' -r -f -a "auto\t'detect the format per document'
hermes\t'Hermes 2 Pro/3, Qwen2.5, Qwen3, QwQ, Granite 4, DeepSeek-R1 distills, many fine-tunes'
qwen3-coder-xml\t'Qwen3-Coder, Qwen3.5/3.6, Nemotron-3 Nano, MiniCPM, Step-3.5'
glm4-moe\t'GLM-4.5, GLM-4.6, GLM-4.7, GLM-5'
functionary\t'Llama 3.1/3.2/3.3 custom tools, Functionary v3.1'
fenced-tool-call\t'prompted models, agent frameworks, llama.cpp generic fallback'
fenced-json\t'Gemma, Phi, Mistral-instruct fine-tunes, xLAM and llama3 models that over-format'
bare-json\t'any model in JSON mode, Ollama templates whose tool tag is `{`'
llama3-json\t'Llama 3.1/3.2/3.3 JSON tool prompt'
xlam\t'Salesforce xLAM-1, xLAM-2'
granite\t'IBM Granite 3.0-3.3, granite-20b-functioncalling'
cohere\t'Cohere Command R, R+, R7B, Command A'
internlm\t'InternLM 2, InternLM 2.5, Intern-S1 (early)'
jamba\t'AI21 Jamba 1.5/1.6, Tencent Hunyuan-A13B'
minimax\t'MiniMax-M1, MiniMax-Text-01'
minimax-m2\t'MiniMax-M2, M2.1, M2.5'
minimax-m3\t'MiniMax M3'
seed-oss\t'ByteDance Seed-OSS'
longcat\t'Meituan LongCat-Flash'
nemotron-toolcall\t'NVIDIA Nemotron (Llama-3.1-Nemotron, Nemotron-4 tool templates)'
inkling\t'Inkling'
hunyuan-v4\t'Tencent Hunyuan v4 (Hy4-preview), Hy3'
ernie45\t'Baidu ERNIE 4.5 (incl. 21B-A3B-Thinking)'
mistral\t'Mistral 7B v0.3, Mixtral 8x22B, Nemo, Small, Ministral, Codestral, Magistral, Devstral, Medium/Large'
deepseek-v3\t'DeepSeek-V3 (0324), DeepSeek-R1 (0528), R1 distills with the DeepSeek template'
deepseek-v3.1\t'DeepSeek-V3.1, V3.1-Terminus, V3.2-Exp'
deepseek-dsml\t'DeepSeek V3.2, DeepSeek V4, GigaChat 3.5 (as ｜GCML｜)'
kimi-k2\t'Moonshot Kimi K2, K2-Instruct-0905, K2-Thinking, K2.5'
kimi-k3\t'Moonshot Kimi K3'
step3\t'StepFun Step-3'
harmony\t'OpenAI gpt-oss-20b, gpt-oss-120b and fine-tunes'
pythonic\t'Llama 3.2 1B/3B, Llama 4 (pythonic template), ToolACE, Granite pythonic, small fine-tunes'
lfm2\t'Liquid LFM2, LFM2.5'
olmo3\t'AllenAI OLMo 3'
llama-python-tag\t'Llama 3.1/3.2/3.3 built-in tools (brave_search, wolfram_alpha, code_interpreter), Functionary v3.1 code'
phi4-mini\t'Phi-4-mini-instruct, FireFunction v2'
functionary-v3.2\t'Functionary v3.2 (MeetKai)'
gemini-function-call\t'Gemini API imitations, FunctionGemma, Gemma 2/3 (tool_code fences), Gemma 4'
sarashina\t'SB Intuitions Sarashina'
apertus\t'Swiss AI Apertus'
gigachat3\t'Sber GigaChat 3 (3-10B-A1.8B, 3-702B-A36B), GigaChat 3.1'
minicpm5\t'OpenBMB MiniCPM 5'
solar-open\t'Upstage Solar Open 2'
plamo3\t'Preferred Networks PLaMo 3'
iquest\t'IQuest-Coder-V2, IQuest Q1'
dots\t'rednote dots'
k2-v3\t'MBZUAI IFM K2-V3 (K2-Horizon)'
glm53-flash\t'GLM-5.3-Flash'
muse-glimmer\t'Muse Glimmer'
prompt-wrapper\t'models prompted by LM Studio (no tool template), agent prompts'"
complete -c toolcall -n "__fish_toolcall_using_subcommand validate" -l repair-max-size -d 'Largest broken argument JSON to repair, in bytes' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand validate" -l think-window -d 'How far into a document to look for a reasoning closer the prompt opened, in bytes (default 0: not at all; 8192 covers about 2,000 tokens of reasoning)' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand validate" -l generation-prompt -d 'The text the chat template appended after the last message' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand validate" -l model -d 'The model that wrote the output: its format and default generation prompt' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand validate" -l finish-reason -d 'Why the output ended: `stop` (an end token) or `length` (the token limit)' -r -f -a "stop\t''
length\t''"
complete -c toolcall -n "__fish_toolcall_using_subcommand validate" -l max-block -d 'Largest candidate block held back while undecided, in bytes' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand validate" -l label -d 'The name standard input goes by in records (`doc`) and messages' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand validate" -l input -d 'Input kind: auto, text, terminal, ollama, openai or llama-server' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand validate" -l max-buffer -d 'Most bytes held for one wire line, the open streamed calls together, or an undecided line' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand validate" -l tools -d 'Tools file (JSON or JSON5) to validate calls against.' -r -F
complete -c toolcall -n "__fish_toolcall_using_subcommand validate" -l max-tools-size -d 'Largest tools file read, in bytes [default: 16 MiB]' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand validate" -l unknown-risk -d 'Risk given to tools the tools file does not list [default: medium].' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand validate" -l auto-approve -d 'Calls whose risk is above this level require approval [default: safe].' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand validate" -l config -d 'Configuration file (JSON5) [default: .toolcall.json5 found upward].' -r -F
complete -c toolcall -n "__fish_toolcall_using_subcommand validate" -l retry-cmd -d 'Shell command that plays the model for retries (run with `sh -c`).' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand validate" -l max-retries -d 'Most attempts per failing call [default: 3, or max_retries].' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand validate" -l retry-timeout -d 'Seconds the retry command may run [default: 120, or retry_timeout_secs]' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand validate" -l retry-max-output -d 'Most bytes of the retry command\'s reply read [default: 16 MiB, or retry_max_output]' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand validate" -l retry-template -d 'Retry prompt template file [default: built in, or retry_prompt_template].' -r -F
complete -c toolcall -n "__fish_toolcall_using_subcommand validate" -l color -d 'Colour diagnostics: auto (when stderr is a terminal and NO_COLOR is unset or empty), always or never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c toolcall -n "__fish_toolcall_using_subcommand validate" -l lines -d 'Each input line is its own document'
complete -c toolcall -n "__fish_toolcall_using_subcommand validate" -s s -l no-messages -d 'No messages about files that do not exist or cannot be read (the exit status is still 2), as `grep -s`'
complete -c toolcall -n "__fish_toolcall_using_subcommand validate" -s L -l follow -d 'Follow symbolic links found in directories (loops are detected)'
complete -c toolcall -n "__fish_toolcall_using_subcommand validate" -l hidden -d 'Also read hidden files and directories (names starting with `.`)'
complete -c toolcall -n "__fish_toolcall_using_subcommand validate" -l no-ignore -d 'Do not honour `.gitignore`, `.ignore` and git\'s exclude files'
complete -c toolcall -n "__fish_toolcall_using_subcommand validate" -s a -l binary -d 'Also read binary files found in directories (a NUL byte in the first 8 KiB marks a file binary; they are skipped by default)'
complete -c toolcall -n "__fish_toolcall_using_subcommand validate" -l no-json-blocks -d 'Do not treat call-shaped ```json fences as calls'
complete -c toolcall -n "__fish_toolcall_using_subcommand validate" -l inline-json -d 'Also look for call-shaped JSON inline in prose (least reliable)'
complete -c toolcall -n "__fish_toolcall_using_subcommand validate" -l no-repair -d 'Do not repair broken argument JSON'
complete -c toolcall -n "__fish_toolcall_using_subcommand validate" -l reasoning-calls -d 'Also report calls drafted inside reasoning, flagged `in_reasoning`'
complete -c toolcall -n "__fish_toolcall_using_subcommand validate" -l think-open -d 'The output starts inside a think block opened by the prompt'
complete -c toolcall -n "__fish_toolcall_using_subcommand validate" -l no-strict -d 'Lenient mode: accept properties the schema does not declare, and calls to tools the file does not list (with a warning).'
complete -c toolcall -n "__fish_toolcall_using_subcommand validate" -l strict -d 'Strict mode even when the config file turns it off.'
complete -c toolcall -n "__fish_toolcall_using_subcommand validate" -l no-config -d 'Do not look for a `.toolcall.json5` configuration file.'
complete -c toolcall -n "__fish_toolcall_using_subcommand validate" -s v -l verbose -d 'Log to stderr (`-vv`: also argument values), per document with a correlation id.'
complete -c toolcall -n "__fish_toolcall_using_subcommand validate" -l retry-prompt -d 'Print only the retry prompt for each failing call; run nothing.'
complete -c toolcall -n "__fish_toolcall_using_subcommand validate" -l line-buffered -d 'Flush after every record'
complete -c toolcall -n "__fish_toolcall_using_subcommand validate" -l block-buffered -d 'Buffer output in blocks even on a terminal'
complete -c toolcall -n "__fish_toolcall_using_subcommand validate" -l no-diagnostics -d 'Do not print diagnostics on stderr (records only).'
complete -c toolcall -n "__fish_toolcall_using_subcommand validate" -s q -l quiet -d 'No records, no diagnostics, no summary: the exit status only (0 every call valid, 1 any invalid, 2 error)'
complete -c toolcall -n "__fish_toolcall_using_subcommand validate" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c toolcall -n "__fish_toolcall_using_subcommand formats" -l json -d 'One JSON record per format instead of a table'
complete -c toolcall -n "__fish_toolcall_using_subcommand formats" -l models -d 'The known models instead: name, format and the generation prompt their chat template appends (what `--model NAME` sets)'
complete -c toolcall -n "__fish_toolcall_using_subcommand formats" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c toolcall -n "__fish_toolcall_using_subcommand render; and not __fish_seen_subcommand_from tools result call families help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c toolcall -n "__fish_toolcall_using_subcommand render; and not __fish_seen_subcommand_from tools result call families help" -f -a "tools" -d 'The tool-definition block a family expects in its system prompt.'
complete -c toolcall -n "__fish_toolcall_using_subcommand render; and not __fish_seen_subcommand_from tools result call families help" -f -a "result" -d 'The tool-result message for a family.'
complete -c toolcall -n "__fish_toolcall_using_subcommand render; and not __fish_seen_subcommand_from tools result call families help" -f -a "call" -d 'Calls written the way a family writes them.'
complete -c toolcall -n "__fish_toolcall_using_subcommand render; and not __fish_seen_subcommand_from tools result call families help" -f -a "families" -d 'The families and where each rendering comes from.'
complete -c toolcall -n "__fish_toolcall_using_subcommand render; and not __fish_seen_subcommand_from tools result call families help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c toolcall -n "__fish_toolcall_using_subcommand render; and __fish_seen_subcommand_from tools" -l family -d 'The model family (a format id, see `toolcall render families`).' -r -f -a "hermes\t''
qwen3-coder-xml\t''
glm4-moe\t''
functionary\t''
fenced-tool-call\t''
fenced-json\t''
bare-json\t''
llama3-json\t''
xlam\t''
granite\t''
cohere\t''
internlm\t''
jamba\t''
minimax\t''
minimax-m2\t''
minimax-m3\t''
seed-oss\t''
longcat\t''
nemotron-toolcall\t''
inkling\t''
hunyuan-v4\t''
ernie45\t''
mistral\t''
deepseek-v3\t''
deepseek-v3.1\t''
deepseek-dsml\t''
kimi-k2\t''
kimi-k3\t''
step3\t''
harmony\t''
pythonic\t''
lfm2\t''
olmo3\t''
llama-python-tag\t''
phi4-mini\t''
functionary-v3.2\t''
gemini-function-call\t''
sarashina\t''
apertus\t''
gigachat3\t''
minicpm5\t''
solar-open\t''
plamo3\t''
iquest\t''
dots\t''
k2-v3\t''
glm53-flash\t''
muse-glimmer\t''
prompt-wrapper\t''"
complete -c toolcall -n "__fish_toolcall_using_subcommand render; and __fish_seen_subcommand_from tools" -l server -d 'Expose every tool as SERVER___NAME (MCP style).' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand render; and __fish_seen_subcommand_from tools" -l max-tools-size -d 'Largest tools file read, in bytes [default: 16 MiB], as for `validate --tools`: a larger one is refused before it is parsed (exit 2)' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand render; and __fish_seen_subcommand_from tools" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c toolcall -n "__fish_toolcall_using_subcommand render; and __fish_seen_subcommand_from result" -l family -d 'The model family (a format id, see `toolcall render families`).' -r -f -a "hermes\t''
qwen3-coder-xml\t''
glm4-moe\t''
functionary\t''
fenced-tool-call\t''
fenced-json\t''
bare-json\t''
llama3-json\t''
xlam\t''
granite\t''
cohere\t''
internlm\t''
jamba\t''
minimax\t''
minimax-m2\t''
minimax-m3\t''
seed-oss\t''
longcat\t''
nemotron-toolcall\t''
inkling\t''
hunyuan-v4\t''
ernie45\t''
mistral\t''
deepseek-v3\t''
deepseek-v3.1\t''
deepseek-dsml\t''
kimi-k2\t''
kimi-k3\t''
step3\t''
harmony\t''
pythonic\t''
lfm2\t''
olmo3\t''
llama-python-tag\t''
phi4-mini\t''
functionary-v3.2\t''
gemini-function-call\t''
sarashina\t''
apertus\t''
gigachat3\t''
minicpm5\t''
solar-open\t''
plamo3\t''
iquest\t''
dots\t''
k2-v3\t''
glm53-flash\t''
muse-glimmer\t''
prompt-wrapper\t''"
complete -c toolcall -n "__fish_toolcall_using_subcommand render; and __fish_seen_subcommand_from result" -l id -d 'The id of the call this result answers.' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand render; and __fish_seen_subcommand_from result" -l name -d 'The tool\'s name (required unless --ndjson).' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand render; and __fish_seen_subcommand_from result" -l server -d 'The tool\'s server: the name is written as SERVER___NAME.' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand render; and __fish_seen_subcommand_from result" -l max-tokens -d 'Token budget per result, 4 bytes a token; 0: no limit.' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand render; and __fish_seen_subcommand_from result" -l error -d 'The input is an error message, not output.'
complete -c toolcall -n "__fish_toolcall_using_subcommand render; and __fish_seen_subcommand_from result" -l ndjson -d 'Each input line is a JSON result {"id", "name", "content"|"error"}.'
complete -c toolcall -n "__fish_toolcall_using_subcommand render; and __fish_seen_subcommand_from result" -l body -d 'Only the message content, without the role tokens around it.'
complete -c toolcall -n "__fish_toolcall_using_subcommand render; and __fish_seen_subcommand_from result" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c toolcall -n "__fish_toolcall_using_subcommand render; and __fish_seen_subcommand_from call" -l family -d 'The model family (a format id, see `toolcall render families`).' -r -f -a "hermes\t''
qwen3-coder-xml\t''
glm4-moe\t''
functionary\t''
fenced-tool-call\t''
fenced-json\t''
bare-json\t''
llama3-json\t''
xlam\t''
granite\t''
cohere\t''
internlm\t''
jamba\t''
minimax\t''
minimax-m2\t''
minimax-m3\t''
seed-oss\t''
longcat\t''
nemotron-toolcall\t''
inkling\t''
hunyuan-v4\t''
ernie45\t''
mistral\t''
deepseek-v3\t''
deepseek-v3.1\t''
deepseek-dsml\t''
kimi-k2\t''
kimi-k3\t''
step3\t''
harmony\t''
pythonic\t''
lfm2\t''
olmo3\t''
llama-python-tag\t''
phi4-mini\t''
functionary-v3.2\t''
gemini-function-call\t''
sarashina\t''
apertus\t''
gigachat3\t''
minicpm5\t''
solar-open\t''
plamo3\t''
iquest\t''
dots\t''
k2-v3\t''
glm53-flash\t''
muse-glimmer\t''
prompt-wrapper\t''"
complete -c toolcall -n "__fish_toolcall_using_subcommand render; and __fish_seen_subcommand_from call" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c toolcall -n "__fish_toolcall_using_subcommand render; and __fish_seen_subcommand_from families" -l json -d 'One JSON record per family instead of a table'
complete -c toolcall -n "__fish_toolcall_using_subcommand render; and __fish_seen_subcommand_from families" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c toolcall -n "__fish_toolcall_using_subcommand render; and __fish_seen_subcommand_from help" -f -a "tools" -d 'The tool-definition block a family expects in its system prompt.'
complete -c toolcall -n "__fish_toolcall_using_subcommand render; and __fish_seen_subcommand_from help" -f -a "result" -d 'The tool-result message for a family.'
complete -c toolcall -n "__fish_toolcall_using_subcommand render; and __fish_seen_subcommand_from help" -f -a "call" -d 'Calls written the way a family writes them.'
complete -c toolcall -n "__fish_toolcall_using_subcommand render; and __fish_seen_subcommand_from help" -f -a "families" -d 'The families and where each rendering comes from.'
complete -c toolcall -n "__fish_toolcall_using_subcommand render; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c toolcall -n "__fish_toolcall_using_subcommand exec" -l tools -d 'Tools file (JSON or JSON5) to validate calls against.' -r -F
complete -c toolcall -n "__fish_toolcall_using_subcommand exec" -l max-tools-size -d 'Largest tools file read, in bytes [default: 16 MiB]' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand exec" -l unknown-risk -d 'Risk given to tools the tools file does not list [default: medium].' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand exec" -l auto-approve -d 'Calls whose risk is above this level require approval [default: safe].' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand exec" -l config -d 'Configuration file (JSON5) [default: .toolcall.json5 found upward].' -r -F
complete -c toolcall -n "__fish_toolcall_using_subcommand exec" -l approve -d 'What to do with a call that needs approval: ask, deny or yes.' -r -f -a "ask\t'Ask on /dev/tty (or the --approver command); with neither, deny'
deny\t'Deny every call that would need asking (CI)'
yes\t'Approve every call that would need asking. Deny rules, --max-risk and remembered denials still hold'"
complete -c toolcall -n "__fish_toolcall_using_subcommand exec" -l approver -d 'Command that decides instead of a person (run with `sh -c`).' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand exec" -l allow -d 'Run calls that match RULE without asking (repeatable).' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand exec" -l deny -d 'Never run calls that match RULE (repeatable; deny wins over allow).' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand exec" -l max-risk -d 'Never run calls whose risk is above LEVEL.' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand exec" -l permissions -d 'Remembered permissions (JSON): always_allow, always_deny, allowed_patterns, denied_patterns. "Always" answers are saved here (merged under a lock with what other runs saved). Refused, as ssh refuses its files, when owned by another user or writable by group or others, when a symbolic link or not a regular file, or over 4 MiB.' -r -F
complete -c toolcall -n "__fish_toolcall_using_subcommand exec" -l session-file -d 'Session cache (JSON): decisions remembered "for the session" are kept here between runs of one conversation. Checked, locked and merged as --permissions is.' -r -F
complete -c toolcall -n "__fish_toolcall_using_subcommand exec" -l approval-timeout -d 'Seconds a person or the approver has to answer, 1 to 86400 (a day) [default: 300]' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand exec" -l disable -d 'Never run TOOL (repeatable; a glob; wins over --enable)' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand exec" -l enable -d 'Run only these tools (repeatable; globs)' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand exec" -l disable-category -d 'Never run tools of this x-toolcall.category (repeatable), e.g. terminal, network, files' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand exec" -l bind -d 'Run tool NAME with the shell command CMD (repeatable; wins over the tools file). The arguments reach CMD on stdin and in TOOLCALL_ARGUMENTS, never on its command line.' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand exec" -l tool-dir -d 'Run tool NAME as the executable DIR/NAME when nothing else binds it (NAME of letters, digits, `_`, `.`, `-` only).' -r -F
complete -c toolcall -n "__fish_toolcall_using_subcommand exec" -l tool-timeout -d 'Seconds a tool may run, 5 to 86400 (a day) [default: 120]; then its process group gets SIGTERM, and SIGKILL 5 s later. A tool\'s own `x-toolcall.timeout_s` wins' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand exec" -l max-output -d 'Most bytes of a tool\'s output kept, note included [default: 16384, 4096 tokens, or result_cap_tokens]; the rest is dropped with a note and `truncated: true`. 1 B to 16 MiB (16777216)' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand exec" -l max-parallel -d 'Most tools running at once, 1 to 10 [default: 3]' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand exec" -l max-tool-runs -d 'Most tool runs of one `exec` run or one whole `loop`, 1 to 100000 [default: 256]; a call past it is not run (`skipped`, the result says why), so one reply cannot start tools without end' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand exec" -s f -l format -d 'Format to look for: auto (detect per document) or a format id' -r -f -a "auto\t'detect the format per document'
hermes\t'Hermes 2 Pro/3, Qwen2.5, Qwen3, QwQ, Granite 4, DeepSeek-R1 distills, many fine-tunes'
qwen3-coder-xml\t'Qwen3-Coder, Qwen3.5/3.6, Nemotron-3 Nano, MiniCPM, Step-3.5'
glm4-moe\t'GLM-4.5, GLM-4.6, GLM-4.7, GLM-5'
functionary\t'Llama 3.1/3.2/3.3 custom tools, Functionary v3.1'
fenced-tool-call\t'prompted models, agent frameworks, llama.cpp generic fallback'
fenced-json\t'Gemma, Phi, Mistral-instruct fine-tunes, xLAM and llama3 models that over-format'
bare-json\t'any model in JSON mode, Ollama templates whose tool tag is `{`'
llama3-json\t'Llama 3.1/3.2/3.3 JSON tool prompt'
xlam\t'Salesforce xLAM-1, xLAM-2'
granite\t'IBM Granite 3.0-3.3, granite-20b-functioncalling'
cohere\t'Cohere Command R, R+, R7B, Command A'
internlm\t'InternLM 2, InternLM 2.5, Intern-S1 (early)'
jamba\t'AI21 Jamba 1.5/1.6, Tencent Hunyuan-A13B'
minimax\t'MiniMax-M1, MiniMax-Text-01'
minimax-m2\t'MiniMax-M2, M2.1, M2.5'
minimax-m3\t'MiniMax M3'
seed-oss\t'ByteDance Seed-OSS'
longcat\t'Meituan LongCat-Flash'
nemotron-toolcall\t'NVIDIA Nemotron (Llama-3.1-Nemotron, Nemotron-4 tool templates)'
inkling\t'Inkling'
hunyuan-v4\t'Tencent Hunyuan v4 (Hy4-preview), Hy3'
ernie45\t'Baidu ERNIE 4.5 (incl. 21B-A3B-Thinking)'
mistral\t'Mistral 7B v0.3, Mixtral 8x22B, Nemo, Small, Ministral, Codestral, Magistral, Devstral, Medium/Large'
deepseek-v3\t'DeepSeek-V3 (0324), DeepSeek-R1 (0528), R1 distills with the DeepSeek template'
deepseek-v3.1\t'DeepSeek-V3.1, V3.1-Terminus, V3.2-Exp'
deepseek-dsml\t'DeepSeek V3.2, DeepSeek V4, GigaChat 3.5 (as ｜GCML｜)'
kimi-k2\t'Moonshot Kimi K2, K2-Instruct-0905, K2-Thinking, K2.5'
kimi-k3\t'Moonshot Kimi K3'
step3\t'StepFun Step-3'
harmony\t'OpenAI gpt-oss-20b, gpt-oss-120b and fine-tunes'
pythonic\t'Llama 3.2 1B/3B, Llama 4 (pythonic template), ToolACE, Granite pythonic, small fine-tunes'
lfm2\t'Liquid LFM2, LFM2.5'
olmo3\t'AllenAI OLMo 3'
llama-python-tag\t'Llama 3.1/3.2/3.3 built-in tools (brave_search, wolfram_alpha, code_interpreter), Functionary v3.1 code'
phi4-mini\t'Phi-4-mini-instruct, FireFunction v2'
functionary-v3.2\t'Functionary v3.2 (MeetKai)'
gemini-function-call\t'Gemini API imitations, FunctionGemma, Gemma 2/3 (tool_code fences), Gemma 4'
sarashina\t'SB Intuitions Sarashina'
apertus\t'Swiss AI Apertus'
gigachat3\t'Sber GigaChat 3 (3-10B-A1.8B, 3-702B-A36B), GigaChat 3.1'
minicpm5\t'OpenBMB MiniCPM 5'
solar-open\t'Upstage Solar Open 2'
plamo3\t'Preferred Networks PLaMo 3'
iquest\t'IQuest-Coder-V2, IQuest Q1'
dots\t'rednote dots'
k2-v3\t'MBZUAI IFM K2-V3 (K2-Horizon)'
glm53-flash\t'GLM-5.3-Flash'
muse-glimmer\t'Muse Glimmer'
prompt-wrapper\t'models prompted by LM Studio (no tool template), agent prompts'"
complete -c toolcall -n "__fish_toolcall_using_subcommand exec" -l repair-max-size -d 'Largest broken argument JSON to repair, in bytes' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand exec" -l think-window -d 'How far into a document to look for a reasoning closer the prompt opened, in bytes (default 0: not at all; 8192 covers about 2,000 tokens of reasoning)' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand exec" -l generation-prompt -d 'The text the chat template appended after the last message' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand exec" -l model -d 'The model that wrote the output: its format and default generation prompt' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand exec" -l finish-reason -d 'Why the output ended: `stop` (an end token) or `length` (the token limit)' -r -f -a "stop\t''
length\t''"
complete -c toolcall -n "__fish_toolcall_using_subcommand exec" -l max-block -d 'Largest candidate block held back while undecided, in bytes' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand exec" -l label -d 'The name standard input goes by in records (`doc`) and messages' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand exec" -l input -d 'Input kind: auto, text, terminal, ollama, openai or llama-server' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand exec" -l max-buffer -d 'Most bytes held for one wire line, the open streamed calls together, or an undecided line' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand exec" -l no-strict -d 'Lenient mode: accept properties the schema does not declare, and calls to tools the file does not list (with a warning).'
complete -c toolcall -n "__fish_toolcall_using_subcommand exec" -l strict -d 'Strict mode even when the config file turns it off.'
complete -c toolcall -n "__fish_toolcall_using_subcommand exec" -l no-config -d 'Do not look for a `.toolcall.json5` configuration file.'
complete -c toolcall -n "__fish_toolcall_using_subcommand exec" -s v -l verbose -d 'Log to stderr (`-vv`: also argument values), per document with a correlation id.'
complete -c toolcall -n "__fish_toolcall_using_subcommand exec" -l clear-session -d 'Forget the session cache first'
complete -c toolcall -n "__fish_toolcall_using_subcommand exec" -l retry-failed -d 'Run a failed tool (non-zero exit) once more'
complete -c toolcall -n "__fish_toolcall_using_subcommand exec" -l dry-run -d 'Decide everything, run nothing: each result says what would run. --approve deny|yes decide as in a real run (a denied call\'s result is `denied`); with --approve ask nobody is asked and the result says the call would be asked about'
complete -c toolcall -n "__fish_toolcall_using_subcommand exec" -l inherit-env -d 'Give tools toolcall\'s whole environment. By default a tool gets only PATH, HOME, LANG, LC_*, TERM, TMPDIR, USER, TZ and TOOLCALL_*, plus what its `x-toolcall.env` lists (names, or NAME=value)'
complete -c toolcall -n "__fish_toolcall_using_subcommand exec" -l no-timestamps -d 'Leave timestamps and durations out of the records (golden files)'
complete -c toolcall -n "__fish_toolcall_using_subcommand exec" -l require-sandbox -d 'Refuse to run a tool whose `x-toolcall.sandbox` the kernel cannot enforce (no Landlock, or too old for it): its result is `failed`, "not run: --require-sandbox …". Without it such a tool runs unconfined after a warning on stderr'
complete -c toolcall -n "__fish_toolcall_using_subcommand exec" -l no-json-blocks -d 'Do not treat call-shaped ```json fences as calls'
complete -c toolcall -n "__fish_toolcall_using_subcommand exec" -l inline-json -d 'Also look for call-shaped JSON inline in prose (least reliable)'
complete -c toolcall -n "__fish_toolcall_using_subcommand exec" -l no-repair -d 'Do not repair broken argument JSON'
complete -c toolcall -n "__fish_toolcall_using_subcommand exec" -l reasoning-calls -d 'Also report calls drafted inside reasoning, flagged `in_reasoning`'
complete -c toolcall -n "__fish_toolcall_using_subcommand exec" -l think-open -d 'The output starts inside a think block opened by the prompt'
complete -c toolcall -n "__fish_toolcall_using_subcommand exec" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c toolcall -n "__fish_toolcall_using_subcommand loop" -l model-cmd -d 'The model command (run with `sh -c`; prompt on stdin, reply on stdout).' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand loop" -l max-iterations -d 'Most iterations, 1 to 100 [default: 10]; one generation and its tool runs is one iteration. At the limit the run completes with stop reason max_iterations (exit 1)' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand loop" -l request-timeout -d 'Seconds the whole request may take, 5 to 604800 (a week) and at least the tool timeout [default: 600]; the pauses of --delay count. Then the run ends with an error (exit 124)' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand loop" -l delay -d 'Milliseconds between iterations, 0 (none) to 3600000 (an hour) [default: 100]' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand loop" -l result-cap -d 'Cap of one tool result fed back, in tokens (4 bytes each), 100 to 4194304 (16 MiB) [default: 4096]' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand loop" -l system -d 'The tool-use system prompt (TEXT, or @FILE to read it)' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand loop" -l prompt-style -d 'Prompt layout: plain (a transcript) or messages (OpenAI-style JSON)' -r -f -a "plain\t'A plain-text transcript with `### ROLE` headers'
messages\t'`{"messages": [...]}` JSON, for `curl … -d @-`'"
complete -c toolcall -n "__fish_toolcall_using_subcommand loop" -l attach -d 'Attach a file to the message, FILE or FILE:START-END for a line range (1-based, inclusive); repeatable. The model reads it after the message, fenced, tagged with its language, cut at --attach-max' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand loop" -l attach-max -d 'Most bytes of one attached file shown to the model (the rest is cut, with a note saying so); 1 B to 16 MiB' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand loop" -l history -d 'Resume a conversation: the `message` records of an earlier run\'s output (other records are skipped)' -r -F
complete -c toolcall -n "__fish_toolcall_using_subcommand loop" -l max-reply -d 'Most bytes of one generation (the model command\'s stdout), 1 to 4 GiB [default: 16 MiB]. Past it the model command\'s group is stopped and the run ends with an `agent_error` and `complete` (exit 2)' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand loop" -l max-input -d 'Most bytes read from each side input: the message on stdin, --attach, --system @FILE and --history [default: 256 MiB]. A larger input is an error (exit 2)' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand loop" -l request-id -d 'The request id written in every record [default: derived from the time and process id]' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand loop" -l tools -d 'Tools file (JSON or JSON5) to validate calls against.' -r -F
complete -c toolcall -n "__fish_toolcall_using_subcommand loop" -l max-tools-size -d 'Largest tools file read, in bytes [default: 16 MiB]' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand loop" -l unknown-risk -d 'Risk given to tools the tools file does not list [default: medium].' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand loop" -l auto-approve -d 'Calls whose risk is above this level require approval [default: safe].' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand loop" -l config -d 'Configuration file (JSON5) [default: .toolcall.json5 found upward].' -r -F
complete -c toolcall -n "__fish_toolcall_using_subcommand loop" -l approve -d 'What to do with a call that needs approval: ask, deny or yes.' -r -f -a "ask\t'Ask on /dev/tty (or the --approver command); with neither, deny'
deny\t'Deny every call that would need asking (CI)'
yes\t'Approve every call that would need asking. Deny rules, --max-risk and remembered denials still hold'"
complete -c toolcall -n "__fish_toolcall_using_subcommand loop" -l approver -d 'Command that decides instead of a person (run with `sh -c`).' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand loop" -l allow -d 'Run calls that match RULE without asking (repeatable).' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand loop" -l deny -d 'Never run calls that match RULE (repeatable; deny wins over allow).' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand loop" -l max-risk -d 'Never run calls whose risk is above LEVEL.' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand loop" -l permissions -d 'Remembered permissions (JSON): always_allow, always_deny, allowed_patterns, denied_patterns. "Always" answers are saved here (merged under a lock with what other runs saved). Refused, as ssh refuses its files, when owned by another user or writable by group or others, when a symbolic link or not a regular file, or over 4 MiB.' -r -F
complete -c toolcall -n "__fish_toolcall_using_subcommand loop" -l session-file -d 'Session cache (JSON): decisions remembered "for the session" are kept here between runs of one conversation. Checked, locked and merged as --permissions is.' -r -F
complete -c toolcall -n "__fish_toolcall_using_subcommand loop" -l approval-timeout -d 'Seconds a person or the approver has to answer, 1 to 86400 (a day) [default: 300]' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand loop" -l disable -d 'Never run TOOL (repeatable; a glob; wins over --enable)' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand loop" -l enable -d 'Run only these tools (repeatable; globs)' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand loop" -l disable-category -d 'Never run tools of this x-toolcall.category (repeatable), e.g. terminal, network, files' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand loop" -l bind -d 'Run tool NAME with the shell command CMD (repeatable; wins over the tools file). The arguments reach CMD on stdin and in TOOLCALL_ARGUMENTS, never on its command line.' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand loop" -l tool-dir -d 'Run tool NAME as the executable DIR/NAME when nothing else binds it (NAME of letters, digits, `_`, `.`, `-` only).' -r -F
complete -c toolcall -n "__fish_toolcall_using_subcommand loop" -l tool-timeout -d 'Seconds a tool may run, 5 to 86400 (a day) [default: 120]; then its process group gets SIGTERM, and SIGKILL 5 s later. A tool\'s own `x-toolcall.timeout_s` wins' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand loop" -l max-output -d 'Most bytes of a tool\'s output kept, note included [default: 16384, 4096 tokens, or result_cap_tokens]; the rest is dropped with a note and `truncated: true`. 1 B to 16 MiB (16777216)' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand loop" -l max-parallel -d 'Most tools running at once, 1 to 10 [default: 3]' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand loop" -l max-tool-runs -d 'Most tool runs of one `exec` run or one whole `loop`, 1 to 100000 [default: 256]; a call past it is not run (`skipped`, the result says why), so one reply cannot start tools without end' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand loop" -s f -l format -d 'Format to look for: auto (detect per document) or a format id' -r -f -a "auto\t'detect the format per document'
hermes\t'Hermes 2 Pro/3, Qwen2.5, Qwen3, QwQ, Granite 4, DeepSeek-R1 distills, many fine-tunes'
qwen3-coder-xml\t'Qwen3-Coder, Qwen3.5/3.6, Nemotron-3 Nano, MiniCPM, Step-3.5'
glm4-moe\t'GLM-4.5, GLM-4.6, GLM-4.7, GLM-5'
functionary\t'Llama 3.1/3.2/3.3 custom tools, Functionary v3.1'
fenced-tool-call\t'prompted models, agent frameworks, llama.cpp generic fallback'
fenced-json\t'Gemma, Phi, Mistral-instruct fine-tunes, xLAM and llama3 models that over-format'
bare-json\t'any model in JSON mode, Ollama templates whose tool tag is `{`'
llama3-json\t'Llama 3.1/3.2/3.3 JSON tool prompt'
xlam\t'Salesforce xLAM-1, xLAM-2'
granite\t'IBM Granite 3.0-3.3, granite-20b-functioncalling'
cohere\t'Cohere Command R, R+, R7B, Command A'
internlm\t'InternLM 2, InternLM 2.5, Intern-S1 (early)'
jamba\t'AI21 Jamba 1.5/1.6, Tencent Hunyuan-A13B'
minimax\t'MiniMax-M1, MiniMax-Text-01'
minimax-m2\t'MiniMax-M2, M2.1, M2.5'
minimax-m3\t'MiniMax M3'
seed-oss\t'ByteDance Seed-OSS'
longcat\t'Meituan LongCat-Flash'
nemotron-toolcall\t'NVIDIA Nemotron (Llama-3.1-Nemotron, Nemotron-4 tool templates)'
inkling\t'Inkling'
hunyuan-v4\t'Tencent Hunyuan v4 (Hy4-preview), Hy3'
ernie45\t'Baidu ERNIE 4.5 (incl. 21B-A3B-Thinking)'
mistral\t'Mistral 7B v0.3, Mixtral 8x22B, Nemo, Small, Ministral, Codestral, Magistral, Devstral, Medium/Large'
deepseek-v3\t'DeepSeek-V3 (0324), DeepSeek-R1 (0528), R1 distills with the DeepSeek template'
deepseek-v3.1\t'DeepSeek-V3.1, V3.1-Terminus, V3.2-Exp'
deepseek-dsml\t'DeepSeek V3.2, DeepSeek V4, GigaChat 3.5 (as ｜GCML｜)'
kimi-k2\t'Moonshot Kimi K2, K2-Instruct-0905, K2-Thinking, K2.5'
kimi-k3\t'Moonshot Kimi K3'
step3\t'StepFun Step-3'
harmony\t'OpenAI gpt-oss-20b, gpt-oss-120b and fine-tunes'
pythonic\t'Llama 3.2 1B/3B, Llama 4 (pythonic template), ToolACE, Granite pythonic, small fine-tunes'
lfm2\t'Liquid LFM2, LFM2.5'
olmo3\t'AllenAI OLMo 3'
llama-python-tag\t'Llama 3.1/3.2/3.3 built-in tools (brave_search, wolfram_alpha, code_interpreter), Functionary v3.1 code'
phi4-mini\t'Phi-4-mini-instruct, FireFunction v2'
functionary-v3.2\t'Functionary v3.2 (MeetKai)'
gemini-function-call\t'Gemini API imitations, FunctionGemma, Gemma 2/3 (tool_code fences), Gemma 4'
sarashina\t'SB Intuitions Sarashina'
apertus\t'Swiss AI Apertus'
gigachat3\t'Sber GigaChat 3 (3-10B-A1.8B, 3-702B-A36B), GigaChat 3.1'
minicpm5\t'OpenBMB MiniCPM 5'
solar-open\t'Upstage Solar Open 2'
plamo3\t'Preferred Networks PLaMo 3'
iquest\t'IQuest-Coder-V2, IQuest Q1'
dots\t'rednote dots'
k2-v3\t'MBZUAI IFM K2-V3 (K2-Horizon)'
glm53-flash\t'GLM-5.3-Flash'
muse-glimmer\t'Muse Glimmer'
prompt-wrapper\t'models prompted by LM Studio (no tool template), agent prompts'"
complete -c toolcall -n "__fish_toolcall_using_subcommand loop" -l repair-max-size -d 'Largest broken argument JSON to repair, in bytes' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand loop" -l think-window -d 'How far into a document to look for a reasoning closer the prompt opened, in bytes (default 0: not at all; 8192 covers about 2,000 tokens of reasoning)' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand loop" -l generation-prompt -d 'The text the chat template appended after the last message' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand loop" -l model -d 'The model that wrote the output: its format and default generation prompt' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand loop" -l finish-reason -d 'Why the output ended: `stop` (an end token) or `length` (the token limit)' -r -f -a "stop\t''
length\t''"
complete -c toolcall -n "__fish_toolcall_using_subcommand loop" -l max-block -d 'Largest candidate block held back while undecided, in bytes' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand loop" -l label -d 'The name standard input goes by in records (`doc`) and messages' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand loop" -l input -d 'Input kind: auto, text, terminal, ollama, openai or llama-server' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand loop" -l max-buffer -d 'Most bytes held for one wire line, the open streamed calls together, or an undecided line' -r
complete -c toolcall -n "__fish_toolcall_using_subcommand loop" -l drop-results -d 'Do not keep tool results in the history after the iteration that used them (only a note that the tool ran stays)'
complete -c toolcall -n "__fish_toolcall_using_subcommand loop" -l no-tools -d 'Offer no tools (a plain chat through the same loop)'
complete -c toolcall -n "__fish_toolcall_using_subcommand loop" -l text -d 'Print only the final reply, no events. On a terminal, control characters in it (ESC included) are shown escaped (`\\u{1b}`), so the model\'s text cannot move the cursor or restyle the terminal; newlines and tabs stay'
complete -c toolcall -n "__fish_toolcall_using_subcommand loop" -l no-strict -d 'Lenient mode: accept properties the schema does not declare, and calls to tools the file does not list (with a warning).'
complete -c toolcall -n "__fish_toolcall_using_subcommand loop" -l strict -d 'Strict mode even when the config file turns it off.'
complete -c toolcall -n "__fish_toolcall_using_subcommand loop" -l no-config -d 'Do not look for a `.toolcall.json5` configuration file.'
complete -c toolcall -n "__fish_toolcall_using_subcommand loop" -s v -l verbose -d 'Log to stderr (`-vv`: also argument values), per document with a correlation id.'
complete -c toolcall -n "__fish_toolcall_using_subcommand loop" -l clear-session -d 'Forget the session cache first'
complete -c toolcall -n "__fish_toolcall_using_subcommand loop" -l retry-failed -d 'Run a failed tool (non-zero exit) once more'
complete -c toolcall -n "__fish_toolcall_using_subcommand loop" -l dry-run -d 'Decide everything, run nothing: each result says what would run. --approve deny|yes decide as in a real run (a denied call\'s result is `denied`); with --approve ask nobody is asked and the result says the call would be asked about'
complete -c toolcall -n "__fish_toolcall_using_subcommand loop" -l inherit-env -d 'Give tools toolcall\'s whole environment. By default a tool gets only PATH, HOME, LANG, LC_*, TERM, TMPDIR, USER, TZ and TOOLCALL_*, plus what its `x-toolcall.env` lists (names, or NAME=value)'
complete -c toolcall -n "__fish_toolcall_using_subcommand loop" -l no-timestamps -d 'Leave timestamps and durations out of the records (golden files)'
complete -c toolcall -n "__fish_toolcall_using_subcommand loop" -l require-sandbox -d 'Refuse to run a tool whose `x-toolcall.sandbox` the kernel cannot enforce (no Landlock, or too old for it): its result is `failed`, "not run: --require-sandbox …". Without it such a tool runs unconfined after a warning on stderr'
complete -c toolcall -n "__fish_toolcall_using_subcommand loop" -l no-json-blocks -d 'Do not treat call-shaped ```json fences as calls'
complete -c toolcall -n "__fish_toolcall_using_subcommand loop" -l inline-json -d 'Also look for call-shaped JSON inline in prose (least reliable)'
complete -c toolcall -n "__fish_toolcall_using_subcommand loop" -l no-repair -d 'Do not repair broken argument JSON'
complete -c toolcall -n "__fish_toolcall_using_subcommand loop" -l reasoning-calls -d 'Also report calls drafted inside reasoning, flagged `in_reasoning`'
complete -c toolcall -n "__fish_toolcall_using_subcommand loop" -l think-open -d 'The output starts inside a think block opened by the prompt'
complete -c toolcall -n "__fish_toolcall_using_subcommand loop" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c toolcall -n "__fish_toolcall_using_subcommand completions" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c toolcall -n "__fish_toolcall_using_subcommand help; and not __fish_seen_subcommand_from parse stream split repair validate formats render exec loop completions help" -f -a "parse" -d 'Find the tool calls in whole documents.'
complete -c toolcall -n "__fish_toolcall_using_subcommand help; and not __fish_seen_subcommand_from parse stream split repair validate formats render exec loop completions help" -f -a "stream" -d 'Parse a live stream, writing events as soon as they are certain.'
complete -c toolcall -n "__fish_toolcall_using_subcommand help; and not __fish_seen_subcommand_from parse stream split repair validate formats render exec loop completions help" -f -a "split" -d 'Separate text, reasoning and calls, losslessly.'
complete -c toolcall -n "__fish_toolcall_using_subcommand help; and not __fish_seen_subcommand_from parse stream split repair validate formats render exec loop completions help" -f -a "repair" -d 'Repair malformed JSON: print it fixed, or a report of what was fixed'
complete -c toolcall -n "__fish_toolcall_using_subcommand help; and not __fish_seen_subcommand_from parse stream split repair validate formats render exec loop completions help" -f -a "validate" -d 'Check tool calls against a tools file.'
complete -c toolcall -n "__fish_toolcall_using_subcommand help; and not __fish_seen_subcommand_from parse stream split repair validate formats render exec loop completions help" -f -a "formats" -d 'List the formats toolcall knows, with their model families and markers.'
complete -c toolcall -n "__fish_toolcall_using_subcommand help; and not __fish_seen_subcommand_from parse stream split repair validate formats render exec loop completions help" -f -a "render" -d 'Render the prompt side of a tool loop for a model family.'
complete -c toolcall -n "__fish_toolcall_using_subcommand help; and not __fish_seen_subcommand_from parse stream split repair validate formats render exec loop completions help" -f -a "exec" -d 'Run tool calls through their commands, asking before risky ones.'
complete -c toolcall -n "__fish_toolcall_using_subcommand help; and not __fish_seen_subcommand_from parse stream split repair validate formats render exec loop completions help" -f -a "loop" -d 'Run the tool loop: model, calls, results, until the model answers.'
complete -c toolcall -n "__fish_toolcall_using_subcommand help; and not __fish_seen_subcommand_from parse stream split repair validate formats render exec loop completions help" -f -a "completions" -d 'Print a shell completion script on stdout.'
complete -c toolcall -n "__fish_toolcall_using_subcommand help; and not __fish_seen_subcommand_from parse stream split repair validate formats render exec loop completions help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c toolcall -n "__fish_toolcall_using_subcommand help; and __fish_seen_subcommand_from render" -f -a "tools" -d 'The tool-definition block a family expects in its system prompt.'
complete -c toolcall -n "__fish_toolcall_using_subcommand help; and __fish_seen_subcommand_from render" -f -a "result" -d 'The tool-result message for a family.'
complete -c toolcall -n "__fish_toolcall_using_subcommand help; and __fish_seen_subcommand_from render" -f -a "call" -d 'Calls written the way a family writes them.'
complete -c toolcall -n "__fish_toolcall_using_subcommand help; and __fish_seen_subcommand_from render" -f -a "families" -d 'The families and where each rendering comes from.'
