
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
            cand --label 'The name standard input goes by in records (`doc`) and messages'
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
            cand -s 'No messages about files that do not exist or cannot be read (the exit status is still 2), as `grep -s`'
            cand --no-messages 'No messages about files that do not exist or cannot be read (the exit status is still 2), as `grep -s`'
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
            cand -l 'Print only the names of the documents with a call, one a line, as `grep -l` does (each document is read only up to its first call)'
            cand --files-with-calls 'Print only the names of the documents with a call, one a line, as `grep -l` does (each document is read only up to its first call)'
            cand -0 'With `-l`, end each name with a NUL byte instead of a newline (for `xargs -0`)'
            cand --null 'With `-l`, end each name with a NUL byte instead of a newline (for `xargs -0`)'
            cand -H 'With `-c`, prefix every count with its document''s name, even for a single document'
            cand --with-filename 'With `-c`, prefix every count with its document''s name, even for a single document'
            cand --no-filename 'With `-c`, never prefix counts with the document''s name'
            cand --fail-on-error 'Exit 2 when an `error` record was written (a call was found but broken), after every record'
            cand --pretty 'Indent each record over several lines, for reading and reviewing golden files (the output is then a JSON stream, no longer NDJSON)'
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
            cand --label 'The name standard input goes by in records (`doc`) and messages'
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
            cand --fail-on-error 'Exit 2 when an `error` record was written (a call was found but broken), after every record'
            cand --pretty 'Indent each record over several lines, for reading and reviewing golden files (the output is then a JSON stream, no longer NDJSON)'
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
            cand --label 'The name standard input goes by in records (`doc`) and messages'
            cand --input 'Input kind: auto, text, terminal, ollama, openai or llama-server'
            cand --max-buffer 'Most bytes held for one wire line, the open streamed calls together, or an undecided line'
            cand --tools 'Tools file (JSON or JSON5) to validate calls against.'
            cand --max-tools-size 'Largest tools file read, in bytes [default: 16 MiB]'
            cand --unknown-risk 'Risk given to tools the tools file does not list [default: medium].'
            cand --auto-approve 'Calls whose risk is above this level require approval [default: safe].'
            cand --config 'Configuration file (JSON5) [default: .toolcall.json5 found upward].'
            cand --lines 'Each input line is its own document'
            cand -s 'No messages about files that do not exist or cannot be read (the exit status is still 2), as `grep -s`'
            cand --no-messages 'No messages about files that do not exist or cannot be read (the exit status is still 2), as `grep -s`'
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
            cand --fail-on-error 'Exit 2 when an `error` record was written (a call was found but broken), after every record'
            cand --pretty 'Indent each record over several lines, for reading and reviewing golden files (the output is then a JSON stream, no longer NDJSON)'
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
            cand --label 'The name standard input goes by in records (`doc`) and messages'
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
            cand --color 'Colour diagnostics: auto (when stderr is a terminal and NO_COLOR is unset or empty), always or never'
            cand --lines 'Each input line is its own document'
            cand -s 'No messages about files that do not exist or cannot be read (the exit status is still 2), as `grep -s`'
            cand --no-messages 'No messages about files that do not exist or cannot be read (the exit status is still 2), as `grep -s`'
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
            cand -q 'No records, no diagnostics, no summary: the exit status only (0 every call valid, 1 any invalid, 2 error)'
            cand --quiet 'No records, no diagnostics, no summary: the exit status only (0 every call valid, 1 any invalid, 2 error)'
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
        &'toolcall;help'= {
            cand parse 'Find the tool calls in whole documents.'
            cand stream 'Parse a live stream, writing events as soon as they are certain.'
            cand split 'Separate text, reasoning and calls, losslessly.'
            cand repair 'Repair malformed JSON: print it fixed, or a report of what was fixed'
            cand validate 'Check tool calls against a tools file.'
            cand formats 'List the formats toolcall knows, with their model families and markers.'
            cand render 'Render the prompt side of a tool loop for a model family.'
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
        &'toolcall;help;help'= {
        }
    ]
    $completions[$command]
}
