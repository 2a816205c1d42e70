
use builtin;
use str;

set edit:completion:arg-completer[toolcall] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'toolcall'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'toolcall'= {
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand parse 'Find the tool calls in whole documents.'
            cand stream 'Parse a live stream, writing events as soon as they are certain.'
            cand split 'Separate text, reasoning and calls, losslessly.'
            cand repair 'Repair malformed JSON: print it fixed, or a report of what was fixed'
            cand validate 'Check tool calls against a tools file.'
            cand formats 'List the formats toolcall knows, with their model families and markers.'
            cand render 'Render the prompt side of a tool loop for a model family.'
            cand exec 'Run tool calls through their commands, asking before risky ones.'
            cand loop 'Run the tool loop: model, calls, results, until the model answers.'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'toolcall;parse'= {
            cand --field 'Each input line is a JSON record; the document is the string at PATH'
            cand -j 'Process this many files in parallel (output stays in input order; 1 to 256)'
            cand --jobs 'Process this many files in parallel (output stays in input order; 1 to 256)'
            cand --max-input 'Largest document read whole into memory, in bytes [default: 256 MiB]'
            cand -g 'Only read files in directories whose path matches GLOB (`!GLOB` excludes); repeatable. Files named on the command line are always read'
            cand --glob 'Only read files in directories whose path matches GLOB (`!GLOB` excludes); repeatable. Files named on the command line are always read'
            cand -f 'Format to look for: auto (detect per document) or a format id'
            cand --format 'Format to look for: auto (detect per document) or a format id'
            cand --repair-max-size 'Largest broken argument JSON to repair, in bytes'
            cand --generation-prompt 'The text the chat template appended after the last message'
            cand --model 'The model that wrote the output: its format and default generation prompt'
            cand --finish-reason 'Why the output ended: `stop` (an end token) or `length` (the token limit)'
            cand --max-block 'Largest candidate block held back while undecided, in bytes'
            cand --input 'Input kind: auto, text, terminal, ollama, openai or llama-server'
            cand --max-buffer 'Most bytes held for one wire line, the open streamed calls together, or an undecided line'
            cand -m 'Stop after N calls per document (`-m1`: the first call)'
            cand --max-count 'Stop after N calls per document (`-m1`: the first call)'
            cand --shape 'Record shape: native (ours), openai or ollama'
            cand --tools 'Tools file (JSON or JSON5) to validate calls against.'
            cand --max-tools-size 'Largest tools file read, in bytes [default: 16 MiB]'
            cand --unknown-risk 'Risk given to tools the tools file does not list [default: medium].'
            cand --auto-approve 'Calls whose risk is above this level require approval [default: safe].'
            cand --config 'Configuration file (JSON5) [default: .toolcall.json5 found upward].'
            cand --lines 'Each input line is its own document'
            cand -L 'Follow symbolic links found in directories (loops are detected)'
            cand --follow 'Follow symbolic links found in directories (loops are detected)'
            cand --hidden 'Also read hidden files and directories (names starting with `.`)'
            cand --no-ignore 'Do not honour `.gitignore`, `.ignore` and git''s exclude files'
            cand -a 'Also read binary files found in directories (a NUL byte in the first 8 KiB marks a file binary; they are skipped by default)'
            cand --binary 'Also read binary files found in directories (a NUL byte in the first 8 KiB marks a file binary; they are skipped by default)'
            cand --no-json-blocks 'Do not treat call-shaped ```json fences as calls'
            cand --inline-json 'Also look for call-shaped JSON inline in prose (least reliable)'
            cand --no-repair 'Do not repair broken argument JSON'
            cand --reasoning-calls 'Also report calls drafted inside reasoning, flagged `in_reasoning`'
            cand --think-open 'The output starts inside a think block opened by the prompt'
            cand --line-buffered 'Flush after every record'
            cand --block-buffered 'Buffer output in blocks even on a terminal'
            cand -q 'No output; exit status only (0: a call was found)'
            cand --quiet 'No output; exit status only (0: a call was found)'
            cand -c 'Print only the number of calls per document (`NAME:COUNT` when there are several documents)'
            cand --count 'Print only the number of calls per document (`NAME:COUNT` when there are several documents)'
            cand --no-strict 'Lenient mode: accept properties the schema does not declare, and calls to tools the file does not list (with a warning).'
            cand --strict 'Strict mode even when the config file turns it off.'
            cand --no-config 'Do not look for a `.toolcall.json5` configuration file.'
            cand -v 'Log to stderr (`-vv`: also argument values), per document with a correlation id.'
            cand --verbose 'Log to stderr (`-vv`: also argument values), per document with a correlation id.'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'toolcall;stream'= {
            cand -f 'Format to look for: auto (detect per document) or a format id'
            cand --format 'Format to look for: auto (detect per document) or a format id'
            cand --repair-max-size 'Largest broken argument JSON to repair, in bytes'
            cand --generation-prompt 'The text the chat template appended after the last message'
            cand --model 'The model that wrote the output: its format and default generation prompt'
            cand --finish-reason 'Why the output ended: `stop` (an end token) or `length` (the token limit)'
            cand --max-block 'Largest candidate block held back while undecided, in bytes'
            cand --input 'Input kind: auto, text, terminal, ollama, openai or llama-server'
            cand --max-buffer 'Most bytes held for one wire line, the open streamed calls together, or an undecided line'
            cand --chunk-size 'Read size in bytes (small values simulate token-by-token arrival)'
            cand --tools 'Tools file (JSON or JSON5) to validate calls against.'
            cand --max-tools-size 'Largest tools file read, in bytes [default: 16 MiB]'
            cand --unknown-risk 'Risk given to tools the tools file does not list [default: medium].'
            cand --auto-approve 'Calls whose risk is above this level require approval [default: safe].'
            cand --config 'Configuration file (JSON5) [default: .toolcall.json5 found upward].'
            cand --no-json-blocks 'Do not treat call-shaped ```json fences as calls'
            cand --inline-json 'Also look for call-shaped JSON inline in prose (least reliable)'
            cand --no-repair 'Do not repair broken argument JSON'
            cand --reasoning-calls 'Also report calls drafted inside reasoning, flagged `in_reasoning`'
            cand --think-open 'The output starts inside a think block opened by the prompt'
            cand --block-buffered 'Buffer output in blocks instead of flushing per event'
            cand --no-strict 'Lenient mode: accept properties the schema does not declare, and calls to tools the file does not list (with a warning).'
            cand --strict 'Strict mode even when the config file turns it off.'
            cand --no-config 'Do not look for a `.toolcall.json5` configuration file.'
            cand -v 'Log to stderr (`-vv`: also argument values), per document with a correlation id.'
            cand --verbose 'Log to stderr (`-vv`: also argument values), per document with a correlation id.'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'toolcall;split'= {
            cand --field 'Each input line is a JSON record; the document is the string at PATH'
            cand -j 'Process this many files in parallel (output stays in input order; 1 to 256)'
            cand --jobs 'Process this many files in parallel (output stays in input order; 1 to 256)'
            cand --max-input 'Largest document read whole into memory, in bytes [default: 256 MiB]'
            cand -g 'Only read files in directories whose path matches GLOB (`!GLOB` excludes); repeatable. Files named on the command line are always read'
            cand --glob 'Only read files in directories whose path matches GLOB (`!GLOB` excludes); repeatable. Files named on the command line are always read'
            cand -f 'Format to look for: auto (detect per document) or a format id'
            cand --format 'Format to look for: auto (detect per document) or a format id'
            cand --repair-max-size 'Largest broken argument JSON to repair, in bytes'
            cand --generation-prompt 'The text the chat template appended after the last message'
            cand --model 'The model that wrote the output: its format and default generation prompt'
            cand --finish-reason 'Why the output ended: `stop` (an end token) or `length` (the token limit)'
            cand --max-block 'Largest candidate block held back while undecided, in bytes'
            cand --input 'Input kind: auto, text, terminal, ollama, openai or llama-server'
            cand --max-buffer 'Most bytes held for one wire line, the open streamed calls together, or an undecided line'
            cand --tools 'Tools file (JSON or JSON5) to validate calls against.'
            cand --max-tools-size 'Largest tools file read, in bytes [default: 16 MiB]'
            cand --unknown-risk 'Risk given to tools the tools file does not list [default: medium].'
            cand --auto-approve 'Calls whose risk is above this level require approval [default: safe].'
            cand --config 'Configuration file (JSON5) [default: .toolcall.json5 found upward].'
            cand --lines 'Each input line is its own document'
            cand -L 'Follow symbolic links found in directories (loops are detected)'
            cand --follow 'Follow symbolic links found in directories (loops are detected)'
            cand --hidden 'Also read hidden files and directories (names starting with `.`)'
            cand --no-ignore 'Do not honour `.gitignore`, `.ignore` and git''s exclude files'
            cand -a 'Also read binary files found in directories (a NUL byte in the first 8 KiB marks a file binary; they are skipped by default)'
            cand --binary 'Also read binary files found in directories (a NUL byte in the first 8 KiB marks a file binary; they are skipped by default)'
            cand --no-json-blocks 'Do not treat call-shaped ```json fences as calls'
            cand --inline-json 'Also look for call-shaped JSON inline in prose (least reliable)'
            cand --no-repair 'Do not repair broken argument JSON'
            cand --reasoning-calls 'Also report calls drafted inside reasoning, flagged `in_reasoning`'
            cand --think-open 'The output starts inside a think block opened by the prompt'
            cand --line-buffered 'Flush after every record'
            cand --block-buffered 'Buffer output in blocks even on a terminal'
            cand --text 'Print only the prose (calls, reasoning and markup removed)'
            cand --no-strict 'Lenient mode: accept properties the schema does not declare, and calls to tools the file does not list (with a warning).'
            cand --strict 'Strict mode even when the config file turns it off.'
            cand --no-config 'Do not look for a `.toolcall.json5` configuration file.'
            cand -v 'Log to stderr (`-vv`: also argument values), per document with a correlation id.'
            cand --verbose 'Log to stderr (`-vv`: also argument values), per document with a correlation id.'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'toolcall;repair'= {
            cand --max-depth 'Deepest nesting a repair may handle'
            cand --timeout-ms 'Time budget per document in milliseconds (0: none)'
            cand --max-size 'Largest invalid document, in bytes, to repair (default: no limit)'
            cand --max-input 'Largest input read, in bytes [default: 256 MiB]'
            cand --lines 'Treat every input line as its own document'
            cand --report 'Write a `repair` record per document instead of the JSON'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'toolcall;validate'= {
            cand --field 'Each input line is a JSON record; the document is the string at PATH'
            cand -j 'Process this many files in parallel (output stays in input order; 1 to 256)'
            cand --jobs 'Process this many files in parallel (output stays in input order; 1 to 256)'
            cand --max-input 'Largest document read whole into memory, in bytes [default: 256 MiB]'
            cand -g 'Only read files in directories whose path matches GLOB (`!GLOB` excludes); repeatable. Files named on the command line are always read'
            cand --glob 'Only read files in directories whose path matches GLOB (`!GLOB` excludes); repeatable. Files named on the command line are always read'
            cand -f 'Format to look for: auto (detect per document) or a format id'
            cand --format 'Format to look for: auto (detect per document) or a format id'
            cand --repair-max-size 'Largest broken argument JSON to repair, in bytes'
            cand --generation-prompt 'The text the chat template appended after the last message'
            cand --model 'The model that wrote the output: its format and default generation prompt'
            cand --finish-reason 'Why the output ended: `stop` (an end token) or `length` (the token limit)'
            cand --max-block 'Largest candidate block held back while undecided, in bytes'
            cand --input 'Input kind: auto, text, terminal, ollama, openai or llama-server'
            cand --max-buffer 'Most bytes held for one wire line, the open streamed calls together, or an undecided line'
            cand --tools 'Tools file (JSON or JSON5) to validate calls against.'
            cand --max-tools-size 'Largest tools file read, in bytes [default: 16 MiB]'
            cand --unknown-risk 'Risk given to tools the tools file does not list [default: medium].'
            cand --auto-approve 'Calls whose risk is above this level require approval [default: safe].'
            cand --config 'Configuration file (JSON5) [default: .toolcall.json5 found upward].'
            cand --retry-cmd 'Shell command that plays the model for retries (run with `sh -c`).'
            cand --max-retries 'Most attempts per failing call [default: 3, or max_retries].'
            cand --retry-timeout 'Seconds the retry command may run [default: 120, or retry_timeout_secs]'
            cand --retry-max-output 'Most bytes of the retry command''s reply read [default: 16 MiB, or retry_max_output]'
            cand --retry-template 'Retry prompt template file [default: built in, or retry_prompt_template].'
            cand --lines 'Each input line is its own document'
            cand -L 'Follow symbolic links found in directories (loops are detected)'
            cand --follow 'Follow symbolic links found in directories (loops are detected)'
            cand --hidden 'Also read hidden files and directories (names starting with `.`)'
            cand --no-ignore 'Do not honour `.gitignore`, `.ignore` and git''s exclude files'
            cand -a 'Also read binary files found in directories (a NUL byte in the first 8 KiB marks a file binary; they are skipped by default)'
            cand --binary 'Also read binary files found in directories (a NUL byte in the first 8 KiB marks a file binary; they are skipped by default)'
            cand --no-json-blocks 'Do not treat call-shaped ```json fences as calls'
            cand --inline-json 'Also look for call-shaped JSON inline in prose (least reliable)'
            cand --no-repair 'Do not repair broken argument JSON'
            cand --reasoning-calls 'Also report calls drafted inside reasoning, flagged `in_reasoning`'
            cand --think-open 'The output starts inside a think block opened by the prompt'
            cand --no-strict 'Lenient mode: accept properties the schema does not declare, and calls to tools the file does not list (with a warning).'
            cand --strict 'Strict mode even when the config file turns it off.'
            cand --no-config 'Do not look for a `.toolcall.json5` configuration file.'
            cand -v 'Log to stderr (`-vv`: also argument values), per document with a correlation id.'
            cand --verbose 'Log to stderr (`-vv`: also argument values), per document with a correlation id.'
            cand --retry-prompt 'Print only the retry prompt for each failing call; run nothing.'
            cand --line-buffered 'Flush after every record'
            cand --block-buffered 'Buffer output in blocks even on a terminal'
            cand --no-diagnostics 'Do not print diagnostics on stderr (records only).'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'toolcall;formats'= {
            cand --json 'One JSON record per format instead of a table'
            cand --models 'The known models instead: name, format and the generation prompt their chat template appends (what `--model NAME` sets)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'toolcall;render'= {
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand tools 'The tool-definition block a family expects in its system prompt.'
            cand result 'The tool-result message for a family.'
            cand call 'Calls written the way a family writes them.'
            cand families 'The families and where each rendering comes from.'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'toolcall;render;tools'= {
            cand --family 'The model family (a format id, see `toolcall render families`).'
            cand --server 'Expose every tool as SERVER___NAME (MCP style).'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'toolcall;render;result'= {
            cand --family 'The model family (a format id, see `toolcall render families`).'
            cand --id 'The id of the call this result answers.'
            cand --name 'The tool''s name (required unless --ndjson).'
            cand --server 'The tool''s server: the name is written as SERVER___NAME.'
            cand --max-tokens 'Token budget per result, 4 bytes a token; 0: no limit.'
            cand --error 'The input is an error message, not output.'
            cand --ndjson 'Each input line is a JSON result {"id", "name", "content"|"error"}.'
            cand --body 'Only the message content, without the role tokens around it.'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'toolcall;render;call'= {
            cand --family 'The model family (a format id, see `toolcall render families`).'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'toolcall;render;families'= {
            cand --json 'One JSON record per family instead of a table'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'toolcall;render;help'= {
            cand tools 'The tool-definition block a family expects in its system prompt.'
            cand result 'The tool-result message for a family.'
            cand call 'Calls written the way a family writes them.'
            cand families 'The families and where each rendering comes from.'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'toolcall;render;help;tools'= {
        }
        &'toolcall;render;help;result'= {
        }
        &'toolcall;render;help;call'= {
        }
        &'toolcall;render;help;families'= {
        }
        &'toolcall;render;help;help'= {
        }
        &'toolcall;exec'= {
            cand --tools 'Tools file (JSON or JSON5) to validate calls against.'
            cand --max-tools-size 'Largest tools file read, in bytes [default: 16 MiB]'
            cand --unknown-risk 'Risk given to tools the tools file does not list [default: medium].'
            cand --auto-approve 'Calls whose risk is above this level require approval [default: safe].'
            cand --config 'Configuration file (JSON5) [default: .toolcall.json5 found upward].'
            cand --approve 'What to do with a call that needs approval: ask, deny or yes.'
            cand --approver 'Command that decides instead of a person (run with `sh -c`).'
            cand --allow 'Run calls that match RULE without asking (repeatable).'
            cand --deny 'Never run calls that match RULE (repeatable; deny wins over allow).'
            cand --max-risk 'Never run calls whose risk is above LEVEL.'
            cand --permissions 'Remembered permissions (JSON): always_allow, always_deny, allowed_patterns, denied_patterns. "Always" answers are saved here.'
            cand --session-file 'Session cache (JSON): decisions remembered "for the session" are kept here between runs of one conversation.'
            cand --approval-timeout 'Seconds a person or the approver has to answer [default: 300]'
            cand --disable 'Never run TOOL (repeatable; a glob; wins over --enable)'
            cand --enable 'Run only these tools (repeatable; globs)'
            cand --disable-category 'Never run tools of this x-toolcall.category (repeatable), e.g. terminal, network, files'
            cand --bind 'Run tool NAME with the shell command CMD (repeatable; wins over the tools file). The arguments reach CMD on stdin and in TOOLCALL_ARGUMENTS, never on its command line.'
            cand --tool-dir 'Run tool NAME as the executable DIR/NAME when nothing else binds it (NAME of letters, digits, `_`, `.`, `-` only).'
            cand --tool-timeout 'Seconds a tool may run (at least 5) [default: 120]; then its process group gets SIGTERM, and SIGKILL 5 s later. A tool''s own `x-toolcall.timeout_s` wins'
            cand --max-output 'Most bytes of a tool''s output kept, note included [default: 16384, 4096 tokens, or result_cap_tokens]; the rest is dropped with a note and `truncated: true`'
            cand --max-parallel 'Most tools running at once, 1 to 10 [default: 3]'
            cand -f 'Format to look for: auto (detect per document) or a format id'
            cand --format 'Format to look for: auto (detect per document) or a format id'
            cand --repair-max-size 'Largest broken argument JSON to repair, in bytes'
            cand --generation-prompt 'The text the chat template appended after the last message'
            cand --model 'The model that wrote the output: its format and default generation prompt'
            cand --finish-reason 'Why the output ended: `stop` (an end token) or `length` (the token limit)'
            cand --max-block 'Largest candidate block held back while undecided, in bytes'
            cand --input 'Input kind: auto, text, terminal, ollama, openai or llama-server'
            cand --max-buffer 'Most bytes held for one wire line, the open streamed calls together, or an undecided line'
            cand --no-strict 'Lenient mode: accept properties the schema does not declare, and calls to tools the file does not list (with a warning).'
            cand --strict 'Strict mode even when the config file turns it off.'
            cand --no-config 'Do not look for a `.toolcall.json5` configuration file.'
            cand -v 'Log to stderr (`-vv`: also argument values), per document with a correlation id.'
            cand --verbose 'Log to stderr (`-vv`: also argument values), per document with a correlation id.'
            cand --clear-session 'Forget the session cache first'
            cand --retry-failed 'Run a failed tool (non-zero exit) once more'
            cand --dry-run 'Decide everything, run nothing: each result says what would run'
            cand --no-timestamps 'Leave timestamps and durations out of the records (golden files)'
            cand --no-json-blocks 'Do not treat call-shaped ```json fences as calls'
            cand --inline-json 'Also look for call-shaped JSON inline in prose (least reliable)'
            cand --no-repair 'Do not repair broken argument JSON'
            cand --reasoning-calls 'Also report calls drafted inside reasoning, flagged `in_reasoning`'
            cand --think-open 'The output starts inside a think block opened by the prompt'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'toolcall;loop'= {
            cand --model-cmd 'The model command (run with `sh -c`; prompt on stdin, reply on stdout).'
            cand --max-iterations 'Most iterations, 1 to 100 [default: 10]; one generation and its tool runs is one iteration. At the limit the run completes with stop reason max_iterations (exit 1)'
            cand --request-timeout 'Seconds the whole request may take, at least the tool timeout [default: 600]; then the run ends with an error (exit 124)'
            cand --delay 'Milliseconds between iterations (0: none) [default: 100]'
            cand --result-cap 'Cap of one tool result fed back, in tokens (4 bytes each; at least 100) [default: 4096]'
            cand --system 'The tool-use system prompt (TEXT, or @FILE to read it)'
            cand --prompt-style 'Prompt layout: plain (a transcript) or messages (OpenAI-style JSON)'
            cand --history 'Resume a conversation: the `message` records of an earlier run''s output (other records are skipped)'
            cand --request-id 'The request id written in every record [default: derived from the time and process id]'
            cand --tools 'Tools file (JSON or JSON5) to validate calls against.'
            cand --max-tools-size 'Largest tools file read, in bytes [default: 16 MiB]'
            cand --unknown-risk 'Risk given to tools the tools file does not list [default: medium].'
            cand --auto-approve 'Calls whose risk is above this level require approval [default: safe].'
            cand --config 'Configuration file (JSON5) [default: .toolcall.json5 found upward].'
            cand --approve 'What to do with a call that needs approval: ask, deny or yes.'
            cand --approver 'Command that decides instead of a person (run with `sh -c`).'
            cand --allow 'Run calls that match RULE without asking (repeatable).'
            cand --deny 'Never run calls that match RULE (repeatable; deny wins over allow).'
            cand --max-risk 'Never run calls whose risk is above LEVEL.'
            cand --permissions 'Remembered permissions (JSON): always_allow, always_deny, allowed_patterns, denied_patterns. "Always" answers are saved here.'
            cand --session-file 'Session cache (JSON): decisions remembered "for the session" are kept here between runs of one conversation.'
            cand --approval-timeout 'Seconds a person or the approver has to answer [default: 300]'
            cand --disable 'Never run TOOL (repeatable; a glob; wins over --enable)'
            cand --enable 'Run only these tools (repeatable; globs)'
            cand --disable-category 'Never run tools of this x-toolcall.category (repeatable), e.g. terminal, network, files'
            cand --bind 'Run tool NAME with the shell command CMD (repeatable; wins over the tools file). The arguments reach CMD on stdin and in TOOLCALL_ARGUMENTS, never on its command line.'
            cand --tool-dir 'Run tool NAME as the executable DIR/NAME when nothing else binds it (NAME of letters, digits, `_`, `.`, `-` only).'
            cand --tool-timeout 'Seconds a tool may run (at least 5) [default: 120]; then its process group gets SIGTERM, and SIGKILL 5 s later. A tool''s own `x-toolcall.timeout_s` wins'
            cand --max-output 'Most bytes of a tool''s output kept, note included [default: 16384, 4096 tokens, or result_cap_tokens]; the rest is dropped with a note and `truncated: true`'
            cand --max-parallel 'Most tools running at once, 1 to 10 [default: 3]'
            cand -f 'Format to look for: auto (detect per document) or a format id'
            cand --format 'Format to look for: auto (detect per document) or a format id'
            cand --repair-max-size 'Largest broken argument JSON to repair, in bytes'
            cand --generation-prompt 'The text the chat template appended after the last message'
            cand --model 'The model that wrote the output: its format and default generation prompt'
            cand --finish-reason 'Why the output ended: `stop` (an end token) or `length` (the token limit)'
            cand --max-block 'Largest candidate block held back while undecided, in bytes'
            cand --input 'Input kind: auto, text, terminal, ollama, openai or llama-server'
            cand --max-buffer 'Most bytes held for one wire line, the open streamed calls together, or an undecided line'
            cand --drop-results 'Do not keep tool results in the history after the iteration that used them (only a note that the tool ran stays)'
            cand --no-tools 'Offer no tools (a plain chat through the same loop)'
            cand --text 'Print only the final reply, no events'
            cand --no-strict 'Lenient mode: accept properties the schema does not declare, and calls to tools the file does not list (with a warning).'
            cand --strict 'Strict mode even when the config file turns it off.'
            cand --no-config 'Do not look for a `.toolcall.json5` configuration file.'
            cand -v 'Log to stderr (`-vv`: also argument values), per document with a correlation id.'
            cand --verbose 'Log to stderr (`-vv`: also argument values), per document with a correlation id.'
            cand --clear-session 'Forget the session cache first'
            cand --retry-failed 'Run a failed tool (non-zero exit) once more'
            cand --dry-run 'Decide everything, run nothing: each result says what would run'
            cand --no-timestamps 'Leave timestamps and durations out of the records (golden files)'
            cand --no-json-blocks 'Do not treat call-shaped ```json fences as calls'
            cand --inline-json 'Also look for call-shaped JSON inline in prose (least reliable)'
            cand --no-repair 'Do not repair broken argument JSON'
            cand --reasoning-calls 'Also report calls drafted inside reasoning, flagged `in_reasoning`'
            cand --think-open 'The output starts inside a think block opened by the prompt'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'toolcall;help'= {
            cand parse 'Find the tool calls in whole documents.'
            cand stream 'Parse a live stream, writing events as soon as they are certain.'
            cand split 'Separate text, reasoning and calls, losslessly.'
            cand repair 'Repair malformed JSON: print it fixed, or a report of what was fixed'
            cand validate 'Check tool calls against a tools file.'
            cand formats 'List the formats toolcall knows, with their model families and markers.'
            cand render 'Render the prompt side of a tool loop for a model family.'
            cand exec 'Run tool calls through their commands, asking before risky ones.'
            cand loop 'Run the tool loop: model, calls, results, until the model answers.'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'toolcall;help;parse'= {
        }
        &'toolcall;help;stream'= {
        }
        &'toolcall;help;split'= {
        }
        &'toolcall;help;repair'= {
        }
        &'toolcall;help;validate'= {
        }
        &'toolcall;help;formats'= {
        }
        &'toolcall;help;render'= {
            cand tools 'The tool-definition block a family expects in its system prompt.'
            cand result 'The tool-result message for a family.'
            cand call 'Calls written the way a family writes them.'
            cand families 'The families and where each rendering comes from.'
        }
        &'toolcall;help;render;tools'= {
        }
        &'toolcall;help;render;result'= {
        }
        &'toolcall;help;render;call'= {
        }
        &'toolcall;help;render;families'= {
        }
        &'toolcall;help;exec'= {
        }
        &'toolcall;help;loop'= {
        }
        &'toolcall;help;help'= {
        }
    ]
    $completions[$command]
}
