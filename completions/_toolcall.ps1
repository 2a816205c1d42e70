
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'toolcall' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'toolcall'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'toolcall' {
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('parse', 'parse', [CompletionResultType]::ParameterValue, 'Find the tool calls in whole documents.')
            [CompletionResult]::new('stream', 'stream', [CompletionResultType]::ParameterValue, 'Parse a live stream, writing events as soon as they are certain.')
            [CompletionResult]::new('split', 'split', [CompletionResultType]::ParameterValue, 'Separate text, reasoning and calls, losslessly.')
            [CompletionResult]::new('repair', 'repair', [CompletionResultType]::ParameterValue, 'Repair malformed JSON: print it fixed, or a report of what was fixed')
            [CompletionResult]::new('validate', 'validate', [CompletionResultType]::ParameterValue, 'Check tool calls against a tools file.')
            [CompletionResult]::new('formats', 'formats', [CompletionResultType]::ParameterValue, 'List the formats toolcall knows, with their model families and markers.')
            [CompletionResult]::new('render', 'render', [CompletionResultType]::ParameterValue, 'Render the prompt side of a tool loop for a model family.')
            [CompletionResult]::new('exec', 'exec', [CompletionResultType]::ParameterValue, 'Run tool calls through their commands, asking before risky ones.')
            [CompletionResult]::new('loop', 'loop', [CompletionResultType]::ParameterValue, 'Run the tool loop: model, calls, results, until the model answers.')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script on stdout.')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'toolcall;parse' {
            [CompletionResult]::new('--field', '--field', [CompletionResultType]::ParameterName, 'Each input line is a JSON record; the document is the string at PATH')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Process this many files in parallel (output stays in input order; 1 to 256)')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Process this many files in parallel (output stays in input order; 1 to 256)')
            [CompletionResult]::new('--threads', '--threads', [CompletionResultType]::ParameterName, 'Process this many files in parallel (output stays in input order; 1 to 256)')
            [CompletionResult]::new('--max-input', '--max-input', [CompletionResultType]::ParameterName, 'Largest document read whole into memory, in bytes [default: 256 MiB]')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'Only read files in directories whose path matches GLOB (`!GLOB` excludes); repeatable. Files named on the command line are always read')
            [CompletionResult]::new('--glob', '--glob', [CompletionResultType]::ParameterName, 'Only read files in directories whose path matches GLOB (`!GLOB` excludes); repeatable. Files named on the command line are always read')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Format to look for: auto (detect per document) or a format id')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Format to look for: auto (detect per document) or a format id')
            [CompletionResult]::new('--repair-max-size', '--repair-max-size', [CompletionResultType]::ParameterName, 'Largest broken argument JSON to repair, in bytes')
            [CompletionResult]::new('--think-window', '--think-window', [CompletionResultType]::ParameterName, 'How far into a document to look for a reasoning closer the prompt opened, in bytes (default: the whole document for parse, split and validate; 0, not at all, for stream, exec and loop)')
            [CompletionResult]::new('--generation-prompt', '--generation-prompt', [CompletionResultType]::ParameterName, 'The text the chat template appended after the last message')
            [CompletionResult]::new('--model', '--model', [CompletionResultType]::ParameterName, 'The model that wrote the output: its format and default generation prompt')
            [CompletionResult]::new('--finish-reason', '--finish-reason', [CompletionResultType]::ParameterName, 'Why the output ended: `stop` (an end token) or `length` (the token limit)')
            [CompletionResult]::new('--max-block', '--max-block', [CompletionResultType]::ParameterName, 'Largest candidate block held back while undecided, in bytes')
            [CompletionResult]::new('--max-errors-per-block', '--max-errors-per-block', [CompletionResultType]::ParameterName, 'Most error records written for one block [default: 8]')
            [CompletionResult]::new('--label', '--label', [CompletionResultType]::ParameterName, 'The name standard input goes by in records (`doc`) and messages')
            [CompletionResult]::new('--input', '--input', [CompletionResultType]::ParameterName, 'Input kind: auto, text, terminal, ollama, openai, llama-server or messages')
            [CompletionResult]::new('--max-buffer', '--max-buffer', [CompletionResultType]::ParameterName, 'Most bytes held for one wire line, the open streamed calls together, or an undecided line')
            [CompletionResult]::new('-m', '-m', [CompletionResultType]::ParameterName, 'Stop after N calls per document (`-m1`: the first call)')
            [CompletionResult]::new('--max-count', '--max-count', [CompletionResultType]::ParameterName, 'Stop after N calls per document (`-m1`: the first call)')
            [CompletionResult]::new('--shape', '--shape', [CompletionResultType]::ParameterName, 'Record shape: native (ours), openai or ollama')
            [CompletionResult]::new('--tools', '--tools', [CompletionResultType]::ParameterName, 'Tools file (JSON or JSON5) to validate calls against.')
            [CompletionResult]::new('--max-tools-size', '--max-tools-size', [CompletionResultType]::ParameterName, 'Largest tools file read, in bytes [default: 16 MiB]')
            [CompletionResult]::new('--max-schema-depth', '--max-schema-depth', [CompletionResultType]::ParameterName, 'How deeply a tool''s schema may nest, in levels of JSON objects and arrays [default: 256]')
            [CompletionResult]::new('--max-schema-checks', '--max-schema-checks', [CompletionResultType]::ParameterName, 'How many times a schema''s combinators may check one value [default: 100000]')
            [CompletionResult]::new('--max-json5-depth', '--max-json5-depth', [CompletionResultType]::ParameterName, 'How deeply a tools file written in JSON5 may nest [default: 128]')
            [CompletionResult]::new('--unknown-risk', '--unknown-risk', [CompletionResultType]::ParameterName, 'Risk given to tools the tools file does not list [default: medium].')
            [CompletionResult]::new('--auto-approve', '--auto-approve', [CompletionResultType]::ParameterName, 'Calls whose risk is above this level require approval [default: safe].')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file (JSON5) [default: .toolcall.json5 found upward].')
            [CompletionResult]::new('--lines', '--lines', [CompletionResultType]::ParameterName, 'Each input line is its own document')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'No messages about files that do not exist or cannot be read (the exit status is still 2), as `grep -s`')
            [CompletionResult]::new('--no-messages', '--no-messages', [CompletionResultType]::ParameterName, 'No messages about files that do not exist or cannot be read (the exit status is still 2), as `grep -s`')
            [CompletionResult]::new('-L', '-L ', [CompletionResultType]::ParameterName, 'Follow symbolic links found in directories (loops are detected)')
            [CompletionResult]::new('--follow', '--follow', [CompletionResultType]::ParameterName, 'Follow symbolic links found in directories (loops are detected)')
            [CompletionResult]::new('--hidden', '--hidden', [CompletionResultType]::ParameterName, 'Also read hidden files and directories (names starting with `.`)')
            [CompletionResult]::new('--no-ignore', '--no-ignore', [CompletionResultType]::ParameterName, 'Do not honour `.gitignore`, `.ignore` and git''s exclude files')
            [CompletionResult]::new('-a', '-a', [CompletionResultType]::ParameterName, 'Also read binary files found in directories (a NUL byte in the first 8 KiB marks a file binary; they are skipped by default)')
            [CompletionResult]::new('--binary', '--binary', [CompletionResultType]::ParameterName, 'Also read binary files found in directories (a NUL byte in the first 8 KiB marks a file binary; they are skipped by default)')
            [CompletionResult]::new('--no-json-blocks', '--no-json-blocks', [CompletionResultType]::ParameterName, 'Do not treat call-shaped ```json fences as calls')
            [CompletionResult]::new('--inline-json', '--inline-json', [CompletionResultType]::ParameterName, 'Also look for call-shaped JSON inline in prose (least reliable)')
            [CompletionResult]::new('--no-repair', '--no-repair', [CompletionResultType]::ParameterName, 'Do not repair broken argument JSON')
            [CompletionResult]::new('--reasoning-calls', '--reasoning-calls', [CompletionResultType]::ParameterName, 'Also report calls drafted inside reasoning, flagged `in_reasoning`')
            [CompletionResult]::new('--think-open', '--think-open', [CompletionResultType]::ParameterName, 'The output starts inside a think block opened by the prompt')
            [CompletionResult]::new('--line-buffered', '--line-buffered', [CompletionResultType]::ParameterName, 'Flush after every record')
            [CompletionResult]::new('--block-buffered', '--block-buffered', [CompletionResultType]::ParameterName, 'Buffer output in blocks even on a terminal')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No output; exit status only (0: a call was found)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No output; exit status only (0: a call was found)')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Print only the number of calls per document (`NAME:COUNT` when there are several documents)')
            [CompletionResult]::new('--count', '--count', [CompletionResultType]::ParameterName, 'Print only the number of calls per document (`NAME:COUNT` when there are several documents)')
            [CompletionResult]::new('-l', '-l', [CompletionResultType]::ParameterName, 'Print only the names of the documents with a call, one a line, as `grep -l` does (each document is read only up to its first call)')
            [CompletionResult]::new('--files-with-calls', '--files-with-calls', [CompletionResultType]::ParameterName, 'Print only the names of the documents with a call, one a line, as `grep -l` does (each document is read only up to its first call)')
            [CompletionResult]::new('-0', '-0', [CompletionResultType]::ParameterName, 'With `-l`, end each name with a NUL byte instead of a newline (for `xargs -0`)')
            [CompletionResult]::new('--null', '--null', [CompletionResultType]::ParameterName, 'With `-l`, end each name with a NUL byte instead of a newline (for `xargs -0`)')
            [CompletionResult]::new('-H', '-H ', [CompletionResultType]::ParameterName, 'With `-c`, prefix every count with its document''s name, even for a single document')
            [CompletionResult]::new('--with-filename', '--with-filename', [CompletionResultType]::ParameterName, 'With `-c`, prefix every count with its document''s name, even for a single document')
            [CompletionResult]::new('--no-filename', '--no-filename', [CompletionResultType]::ParameterName, 'With `-c`, never prefix counts with the document''s name')
            [CompletionResult]::new('--fail-on-error', '--fail-on-error', [CompletionResultType]::ParameterName, 'Exit 2 when an `error` record was written (a call was found but broken), after every record')
            [CompletionResult]::new('--pretty', '--pretty', [CompletionResultType]::ParameterName, 'Indent each record over several lines, for reading and reviewing golden files (the output is then a JSON stream, no longer NDJSON)')
            [CompletionResult]::new('--no-call-ok', '--no-call-ok', [CompletionResultType]::ParameterName, 'Exit 0 when no call was found (instead of 1), so a golden-file loop under `set -eo pipefail` needs no `|| true`')
            [CompletionResult]::new('--no-strict', '--no-strict', [CompletionResultType]::ParameterName, 'Lenient mode: accept properties the schema does not declare, and calls to tools the file does not list (with a warning).')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Strict mode even when the config file turns it off.')
            [CompletionResult]::new('--no-config', '--no-config', [CompletionResultType]::ParameterName, 'Do not look for a `.toolcall.json5` configuration file.')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log to stderr (`-vv`: also argument values), per document with a correlation id.')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log to stderr (`-vv`: also argument values), per document with a correlation id.')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'toolcall;stream' {
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Format to look for: auto (detect per document) or a format id')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Format to look for: auto (detect per document) or a format id')
            [CompletionResult]::new('--repair-max-size', '--repair-max-size', [CompletionResultType]::ParameterName, 'Largest broken argument JSON to repair, in bytes')
            [CompletionResult]::new('--think-window', '--think-window', [CompletionResultType]::ParameterName, 'How far into a document to look for a reasoning closer the prompt opened, in bytes (default: the whole document for parse, split and validate; 0, not at all, for stream, exec and loop)')
            [CompletionResult]::new('--generation-prompt', '--generation-prompt', [CompletionResultType]::ParameterName, 'The text the chat template appended after the last message')
            [CompletionResult]::new('--model', '--model', [CompletionResultType]::ParameterName, 'The model that wrote the output: its format and default generation prompt')
            [CompletionResult]::new('--finish-reason', '--finish-reason', [CompletionResultType]::ParameterName, 'Why the output ended: `stop` (an end token) or `length` (the token limit)')
            [CompletionResult]::new('--max-block', '--max-block', [CompletionResultType]::ParameterName, 'Largest candidate block held back while undecided, in bytes')
            [CompletionResult]::new('--max-errors-per-block', '--max-errors-per-block', [CompletionResultType]::ParameterName, 'Most error records written for one block [default: 8]')
            [CompletionResult]::new('--label', '--label', [CompletionResultType]::ParameterName, 'The name standard input goes by in records (`doc`) and messages')
            [CompletionResult]::new('--input', '--input', [CompletionResultType]::ParameterName, 'Input kind: auto, text, terminal, ollama, openai or llama-server')
            [CompletionResult]::new('--max-buffer', '--max-buffer', [CompletionResultType]::ParameterName, 'Most bytes held for one wire line, the open streamed calls together, or an undecided line')
            [CompletionResult]::new('--chunk-size', '--chunk-size', [CompletionResultType]::ParameterName, 'Read size in bytes (small values simulate token-by-token arrival)')
            [CompletionResult]::new('--tools', '--tools', [CompletionResultType]::ParameterName, 'Tools file (JSON or JSON5) to validate calls against.')
            [CompletionResult]::new('--max-tools-size', '--max-tools-size', [CompletionResultType]::ParameterName, 'Largest tools file read, in bytes [default: 16 MiB]')
            [CompletionResult]::new('--max-schema-depth', '--max-schema-depth', [CompletionResultType]::ParameterName, 'How deeply a tool''s schema may nest, in levels of JSON objects and arrays [default: 256]')
            [CompletionResult]::new('--max-schema-checks', '--max-schema-checks', [CompletionResultType]::ParameterName, 'How many times a schema''s combinators may check one value [default: 100000]')
            [CompletionResult]::new('--max-json5-depth', '--max-json5-depth', [CompletionResultType]::ParameterName, 'How deeply a tools file written in JSON5 may nest [default: 128]')
            [CompletionResult]::new('--unknown-risk', '--unknown-risk', [CompletionResultType]::ParameterName, 'Risk given to tools the tools file does not list [default: medium].')
            [CompletionResult]::new('--auto-approve', '--auto-approve', [CompletionResultType]::ParameterName, 'Calls whose risk is above this level require approval [default: safe].')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file (JSON5) [default: .toolcall.json5 found upward].')
            [CompletionResult]::new('--no-json-blocks', '--no-json-blocks', [CompletionResultType]::ParameterName, 'Do not treat call-shaped ```json fences as calls')
            [CompletionResult]::new('--inline-json', '--inline-json', [CompletionResultType]::ParameterName, 'Also look for call-shaped JSON inline in prose (least reliable)')
            [CompletionResult]::new('--no-repair', '--no-repair', [CompletionResultType]::ParameterName, 'Do not repair broken argument JSON')
            [CompletionResult]::new('--reasoning-calls', '--reasoning-calls', [CompletionResultType]::ParameterName, 'Also report calls drafted inside reasoning, flagged `in_reasoning`')
            [CompletionResult]::new('--think-open', '--think-open', [CompletionResultType]::ParameterName, 'The output starts inside a think block opened by the prompt')
            [CompletionResult]::new('--block-buffered', '--block-buffered', [CompletionResultType]::ParameterName, 'Buffer output in blocks instead of flushing after every read')
            [CompletionResult]::new('--no-strict', '--no-strict', [CompletionResultType]::ParameterName, 'Lenient mode: accept properties the schema does not declare, and calls to tools the file does not list (with a warning).')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Strict mode even when the config file turns it off.')
            [CompletionResult]::new('--no-config', '--no-config', [CompletionResultType]::ParameterName, 'Do not look for a `.toolcall.json5` configuration file.')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log to stderr (`-vv`: also argument values), per document with a correlation id.')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log to stderr (`-vv`: also argument values), per document with a correlation id.')
            [CompletionResult]::new('--fail-on-error', '--fail-on-error', [CompletionResultType]::ParameterName, 'Exit 2 when an `error` record was written (a call was found but broken), after every record')
            [CompletionResult]::new('--pretty', '--pretty', [CompletionResultType]::ParameterName, 'Indent each record over several lines, for reading and reviewing golden files (the output is then a JSON stream, no longer NDJSON)')
            [CompletionResult]::new('--no-call-ok', '--no-call-ok', [CompletionResultType]::ParameterName, 'Exit 0 when no call was found (instead of 1), so a golden-file loop under `set -eo pipefail` needs no `|| true`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'toolcall;split' {
            [CompletionResult]::new('--field', '--field', [CompletionResultType]::ParameterName, 'Each input line is a JSON record; the document is the string at PATH')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Process this many files in parallel (output stays in input order; 1 to 256)')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Process this many files in parallel (output stays in input order; 1 to 256)')
            [CompletionResult]::new('--threads', '--threads', [CompletionResultType]::ParameterName, 'Process this many files in parallel (output stays in input order; 1 to 256)')
            [CompletionResult]::new('--max-input', '--max-input', [CompletionResultType]::ParameterName, 'Largest document read whole into memory, in bytes [default: 256 MiB]')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'Only read files in directories whose path matches GLOB (`!GLOB` excludes); repeatable. Files named on the command line are always read')
            [CompletionResult]::new('--glob', '--glob', [CompletionResultType]::ParameterName, 'Only read files in directories whose path matches GLOB (`!GLOB` excludes); repeatable. Files named on the command line are always read')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Format to look for: auto (detect per document) or a format id')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Format to look for: auto (detect per document) or a format id')
            [CompletionResult]::new('--repair-max-size', '--repair-max-size', [CompletionResultType]::ParameterName, 'Largest broken argument JSON to repair, in bytes')
            [CompletionResult]::new('--think-window', '--think-window', [CompletionResultType]::ParameterName, 'How far into a document to look for a reasoning closer the prompt opened, in bytes (default: the whole document for parse, split and validate; 0, not at all, for stream, exec and loop)')
            [CompletionResult]::new('--generation-prompt', '--generation-prompt', [CompletionResultType]::ParameterName, 'The text the chat template appended after the last message')
            [CompletionResult]::new('--model', '--model', [CompletionResultType]::ParameterName, 'The model that wrote the output: its format and default generation prompt')
            [CompletionResult]::new('--finish-reason', '--finish-reason', [CompletionResultType]::ParameterName, 'Why the output ended: `stop` (an end token) or `length` (the token limit)')
            [CompletionResult]::new('--max-block', '--max-block', [CompletionResultType]::ParameterName, 'Largest candidate block held back while undecided, in bytes')
            [CompletionResult]::new('--max-errors-per-block', '--max-errors-per-block', [CompletionResultType]::ParameterName, 'Most error records written for one block [default: 8]')
            [CompletionResult]::new('--label', '--label', [CompletionResultType]::ParameterName, 'The name standard input goes by in records (`doc`) and messages')
            [CompletionResult]::new('--input', '--input', [CompletionResultType]::ParameterName, 'Input kind: auto, text, terminal, ollama, openai or llama-server')
            [CompletionResult]::new('--max-buffer', '--max-buffer', [CompletionResultType]::ParameterName, 'Most bytes held for one wire line, the open streamed calls together, or an undecided line')
            [CompletionResult]::new('--tools', '--tools', [CompletionResultType]::ParameterName, 'Tools file (JSON or JSON5) to validate calls against.')
            [CompletionResult]::new('--max-tools-size', '--max-tools-size', [CompletionResultType]::ParameterName, 'Largest tools file read, in bytes [default: 16 MiB]')
            [CompletionResult]::new('--max-schema-depth', '--max-schema-depth', [CompletionResultType]::ParameterName, 'How deeply a tool''s schema may nest, in levels of JSON objects and arrays [default: 256]')
            [CompletionResult]::new('--max-schema-checks', '--max-schema-checks', [CompletionResultType]::ParameterName, 'How many times a schema''s combinators may check one value [default: 100000]')
            [CompletionResult]::new('--max-json5-depth', '--max-json5-depth', [CompletionResultType]::ParameterName, 'How deeply a tools file written in JSON5 may nest [default: 128]')
            [CompletionResult]::new('--unknown-risk', '--unknown-risk', [CompletionResultType]::ParameterName, 'Risk given to tools the tools file does not list [default: medium].')
            [CompletionResult]::new('--auto-approve', '--auto-approve', [CompletionResultType]::ParameterName, 'Calls whose risk is above this level require approval [default: safe].')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file (JSON5) [default: .toolcall.json5 found upward].')
            [CompletionResult]::new('--lines', '--lines', [CompletionResultType]::ParameterName, 'Each input line is its own document')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'No messages about files that do not exist or cannot be read (the exit status is still 2), as `grep -s`')
            [CompletionResult]::new('--no-messages', '--no-messages', [CompletionResultType]::ParameterName, 'No messages about files that do not exist or cannot be read (the exit status is still 2), as `grep -s`')
            [CompletionResult]::new('-L', '-L ', [CompletionResultType]::ParameterName, 'Follow symbolic links found in directories (loops are detected)')
            [CompletionResult]::new('--follow', '--follow', [CompletionResultType]::ParameterName, 'Follow symbolic links found in directories (loops are detected)')
            [CompletionResult]::new('--hidden', '--hidden', [CompletionResultType]::ParameterName, 'Also read hidden files and directories (names starting with `.`)')
            [CompletionResult]::new('--no-ignore', '--no-ignore', [CompletionResultType]::ParameterName, 'Do not honour `.gitignore`, `.ignore` and git''s exclude files')
            [CompletionResult]::new('-a', '-a', [CompletionResultType]::ParameterName, 'Also read binary files found in directories (a NUL byte in the first 8 KiB marks a file binary; they are skipped by default)')
            [CompletionResult]::new('--binary', '--binary', [CompletionResultType]::ParameterName, 'Also read binary files found in directories (a NUL byte in the first 8 KiB marks a file binary; they are skipped by default)')
            [CompletionResult]::new('--no-json-blocks', '--no-json-blocks', [CompletionResultType]::ParameterName, 'Do not treat call-shaped ```json fences as calls')
            [CompletionResult]::new('--inline-json', '--inline-json', [CompletionResultType]::ParameterName, 'Also look for call-shaped JSON inline in prose (least reliable)')
            [CompletionResult]::new('--no-repair', '--no-repair', [CompletionResultType]::ParameterName, 'Do not repair broken argument JSON')
            [CompletionResult]::new('--reasoning-calls', '--reasoning-calls', [CompletionResultType]::ParameterName, 'Also report calls drafted inside reasoning, flagged `in_reasoning`')
            [CompletionResult]::new('--think-open', '--think-open', [CompletionResultType]::ParameterName, 'The output starts inside a think block opened by the prompt')
            [CompletionResult]::new('--line-buffered', '--line-buffered', [CompletionResultType]::ParameterName, 'Flush after every record')
            [CompletionResult]::new('--block-buffered', '--block-buffered', [CompletionResultType]::ParameterName, 'Buffer output in blocks even on a terminal')
            [CompletionResult]::new('--fail-on-error', '--fail-on-error', [CompletionResultType]::ParameterName, 'Exit 2 when an `error` record was written (a call was found but broken), after every record')
            [CompletionResult]::new('--pretty', '--pretty', [CompletionResultType]::ParameterName, 'Indent each record over several lines, for reading and reviewing golden files (the output is then a JSON stream, no longer NDJSON)')
            [CompletionResult]::new('--no-call-ok', '--no-call-ok', [CompletionResultType]::ParameterName, 'Exit 0 when no call was found (instead of 1), so a golden-file loop under `set -eo pipefail` needs no `|| true`')
            [CompletionResult]::new('--text', '--text', [CompletionResultType]::ParameterName, 'Print only the prose (calls, reasoning and markup removed)')
            [CompletionResult]::new('--no-strict', '--no-strict', [CompletionResultType]::ParameterName, 'Lenient mode: accept properties the schema does not declare, and calls to tools the file does not list (with a warning).')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Strict mode even when the config file turns it off.')
            [CompletionResult]::new('--no-config', '--no-config', [CompletionResultType]::ParameterName, 'Do not look for a `.toolcall.json5` configuration file.')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log to stderr (`-vv`: also argument values), per document with a correlation id.')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log to stderr (`-vv`: also argument values), per document with a correlation id.')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'toolcall;repair' {
            [CompletionResult]::new('--max-depth', '--max-depth', [CompletionResultType]::ParameterName, 'Deepest nesting a repair may handle')
            [CompletionResult]::new('--timeout-ms', '--timeout-ms', [CompletionResultType]::ParameterName, 'Time budget per document in milliseconds (0: none)')
            [CompletionResult]::new('--max-size', '--max-size', [CompletionResultType]::ParameterName, 'Largest invalid document, in bytes, to repair (default: no limit)')
            [CompletionResult]::new('--max-input', '--max-input', [CompletionResultType]::ParameterName, 'Largest input read, in bytes [default: 256 MiB]')
            [CompletionResult]::new('--lines', '--lines', [CompletionResultType]::ParameterName, 'Treat every input line as its own document')
            [CompletionResult]::new('--report', '--report', [CompletionResultType]::ParameterName, 'Write a `repair` record per document instead of the JSON')
            [CompletionResult]::new('--text-as-string', '--text-as-string', [CompletionResultType]::ParameterName, 'Read a document of prose with no JSON at all (`not json at all`) as one string, `"not json at all"`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'toolcall;validate' {
            [CompletionResult]::new('--field', '--field', [CompletionResultType]::ParameterName, 'Each input line is a JSON record; the document is the string at PATH')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Process this many files in parallel (output stays in input order; 1 to 256)')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Process this many files in parallel (output stays in input order; 1 to 256)')
            [CompletionResult]::new('--threads', '--threads', [CompletionResultType]::ParameterName, 'Process this many files in parallel (output stays in input order; 1 to 256)')
            [CompletionResult]::new('--max-input', '--max-input', [CompletionResultType]::ParameterName, 'Largest document read whole into memory, in bytes [default: 256 MiB]')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'Only read files in directories whose path matches GLOB (`!GLOB` excludes); repeatable. Files named on the command line are always read')
            [CompletionResult]::new('--glob', '--glob', [CompletionResultType]::ParameterName, 'Only read files in directories whose path matches GLOB (`!GLOB` excludes); repeatable. Files named on the command line are always read')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Format to look for: auto (detect per document) or a format id')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Format to look for: auto (detect per document) or a format id')
            [CompletionResult]::new('--repair-max-size', '--repair-max-size', [CompletionResultType]::ParameterName, 'Largest broken argument JSON to repair, in bytes')
            [CompletionResult]::new('--think-window', '--think-window', [CompletionResultType]::ParameterName, 'How far into a document to look for a reasoning closer the prompt opened, in bytes (default: the whole document for parse, split and validate; 0, not at all, for stream, exec and loop)')
            [CompletionResult]::new('--generation-prompt', '--generation-prompt', [CompletionResultType]::ParameterName, 'The text the chat template appended after the last message')
            [CompletionResult]::new('--model', '--model', [CompletionResultType]::ParameterName, 'The model that wrote the output: its format and default generation prompt')
            [CompletionResult]::new('--finish-reason', '--finish-reason', [CompletionResultType]::ParameterName, 'Why the output ended: `stop` (an end token) or `length` (the token limit)')
            [CompletionResult]::new('--max-block', '--max-block', [CompletionResultType]::ParameterName, 'Largest candidate block held back while undecided, in bytes')
            [CompletionResult]::new('--max-errors-per-block', '--max-errors-per-block', [CompletionResultType]::ParameterName, 'Most error records written for one block [default: 8]')
            [CompletionResult]::new('--label', '--label', [CompletionResultType]::ParameterName, 'The name standard input goes by in records (`doc`) and messages')
            [CompletionResult]::new('--input', '--input', [CompletionResultType]::ParameterName, 'Input kind: auto, text, terminal, ollama, openai, llama-server or messages')
            [CompletionResult]::new('--max-buffer', '--max-buffer', [CompletionResultType]::ParameterName, 'Most bytes held for one wire line, the open streamed calls together, or an undecided line')
            [CompletionResult]::new('--tools', '--tools', [CompletionResultType]::ParameterName, 'Tools file (JSON or JSON5) to validate calls against.')
            [CompletionResult]::new('--max-tools-size', '--max-tools-size', [CompletionResultType]::ParameterName, 'Largest tools file read, in bytes [default: 16 MiB]')
            [CompletionResult]::new('--max-schema-depth', '--max-schema-depth', [CompletionResultType]::ParameterName, 'How deeply a tool''s schema may nest, in levels of JSON objects and arrays [default: 256]')
            [CompletionResult]::new('--max-schema-checks', '--max-schema-checks', [CompletionResultType]::ParameterName, 'How many times a schema''s combinators may check one value [default: 100000]')
            [CompletionResult]::new('--max-json5-depth', '--max-json5-depth', [CompletionResultType]::ParameterName, 'How deeply a tools file written in JSON5 may nest [default: 128]')
            [CompletionResult]::new('--unknown-risk', '--unknown-risk', [CompletionResultType]::ParameterName, 'Risk given to tools the tools file does not list [default: medium].')
            [CompletionResult]::new('--auto-approve', '--auto-approve', [CompletionResultType]::ParameterName, 'Calls whose risk is above this level require approval [default: safe].')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file (JSON5) [default: .toolcall.json5 found upward].')
            [CompletionResult]::new('--retry-cmd', '--retry-cmd', [CompletionResultType]::ParameterName, 'Shell command that plays the model for retries (run with `sh -c`).')
            [CompletionResult]::new('--max-retries', '--max-retries', [CompletionResultType]::ParameterName, 'Most attempts per failing call [default: 3, or max_retries].')
            [CompletionResult]::new('--retry-timeout', '--retry-timeout', [CompletionResultType]::ParameterName, 'Seconds the retry command may run [default: 120, or retry_timeout_secs]')
            [CompletionResult]::new('--retry-max-output', '--retry-max-output', [CompletionResultType]::ParameterName, 'Most bytes of the retry command''s reply read [default: 16 MiB, or retry_max_output]')
            [CompletionResult]::new('--retry-template', '--retry-template', [CompletionResultType]::ParameterName, 'Retry prompt template file [default: built in, or retry_prompt_template].')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour diagnostics: auto (when stderr is a terminal and NO_COLOR is unset or empty), always or never')
            [CompletionResult]::new('--allow', '--allow', [CompletionResultType]::ParameterName, 'Switch a conversation check off by its code (repeatable or comma-separated): TLP-009 unanswered call, TLP-010 result without a call, TLP-011 duplicate call id, TLP-012 tool not offered, TLP-013 arguments string that does not parse, TLP-014 call left in the content.')
            [CompletionResult]::new('--messages-at', '--messages-at', [CompletionResultType]::ParameterName, 'Read the conversation at this JSON Pointer of each document (`/history`, `/answer_generation/train_messages/0`) when the search for one finds the wrong list or none.')
            [CompletionResult]::new('--output-format', '--output-format', [CompletionResultType]::ParameterName, 'What stdout carries: `records` (a `validation` record per call), `github` (GitHub Actions annotations), `sarif` (SARIF 2.1.0, for code scanning), `junit` (JUnit XML: GitLab, Jenkins) or `json` (one summary object with every finding). Diagnostics on stderr and the exit status are the same in every format.')
            [CompletionResult]::new('--keep', '--keep', [CompletionResultType]::ParameterName, 'Write the rows (JSONL lines, or whole JSON documents) whose conversations are all valid (`valid`), or those with a finding (`invalid`), back out byte for byte instead of records: a dataset is cleaned in one pass.')
            [CompletionResult]::new('--convert', '--convert', [CompletionResultType]::ParameterName, 'Write each conversation converted to FORMAT instead of records: `openai`, one OpenAI chat row a line (`{"messages": [...], "tools": [...]}`, calls as `tool_calls` with ids, results as `tool` messages linked to them, double-encoded arguments decoded, calls written as text lifted out of it, split messages merged, tools declared in a system prompt as the row''s `tools`). Diagnostics and the exit status are validate''s; with --keep, only the rows of conversations with that verdict.')
            [CompletionResult]::new('--max-conversation', '--max-conversation', [CompletionResultType]::ParameterName, 'Most bytes of one JSON conversation read whole: a document (a large top-level array is read an element at a time, each element bounded so). A larger one is a TLP-007 error, not read: a conversation held takes some 30 times its size in memory. Write one conversation a line (JSONL) to check larger ones.')
            [CompletionResult]::new('--lines', '--lines', [CompletionResultType]::ParameterName, 'Each input line is its own document')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'No messages about files that do not exist or cannot be read (the exit status is still 2), as `grep -s`')
            [CompletionResult]::new('--no-messages', '--no-messages', [CompletionResultType]::ParameterName, 'No messages about files that do not exist or cannot be read (the exit status is still 2), as `grep -s`')
            [CompletionResult]::new('-L', '-L ', [CompletionResultType]::ParameterName, 'Follow symbolic links found in directories (loops are detected)')
            [CompletionResult]::new('--follow', '--follow', [CompletionResultType]::ParameterName, 'Follow symbolic links found in directories (loops are detected)')
            [CompletionResult]::new('--hidden', '--hidden', [CompletionResultType]::ParameterName, 'Also read hidden files and directories (names starting with `.`)')
            [CompletionResult]::new('--no-ignore', '--no-ignore', [CompletionResultType]::ParameterName, 'Do not honour `.gitignore`, `.ignore` and git''s exclude files')
            [CompletionResult]::new('-a', '-a', [CompletionResultType]::ParameterName, 'Also read binary files found in directories (a NUL byte in the first 8 KiB marks a file binary; they are skipped by default)')
            [CompletionResult]::new('--binary', '--binary', [CompletionResultType]::ParameterName, 'Also read binary files found in directories (a NUL byte in the first 8 KiB marks a file binary; they are skipped by default)')
            [CompletionResult]::new('--no-json-blocks', '--no-json-blocks', [CompletionResultType]::ParameterName, 'Do not treat call-shaped ```json fences as calls')
            [CompletionResult]::new('--inline-json', '--inline-json', [CompletionResultType]::ParameterName, 'Also look for call-shaped JSON inline in prose (least reliable)')
            [CompletionResult]::new('--no-repair', '--no-repair', [CompletionResultType]::ParameterName, 'Do not repair broken argument JSON')
            [CompletionResult]::new('--reasoning-calls', '--reasoning-calls', [CompletionResultType]::ParameterName, 'Also report calls drafted inside reasoning, flagged `in_reasoning`')
            [CompletionResult]::new('--think-open', '--think-open', [CompletionResultType]::ParameterName, 'The output starts inside a think block opened by the prompt')
            [CompletionResult]::new('--no-strict', '--no-strict', [CompletionResultType]::ParameterName, 'Lenient mode: accept properties the schema does not declare, and calls to tools the file does not list (with a warning).')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Strict mode even when the config file turns it off.')
            [CompletionResult]::new('--no-config', '--no-config', [CompletionResultType]::ParameterName, 'Do not look for a `.toolcall.json5` configuration file.')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log to stderr (`-vv`: also argument values), per document with a correlation id.')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log to stderr (`-vv`: also argument values), per document with a correlation id.')
            [CompletionResult]::new('--retry-prompt', '--retry-prompt', [CompletionResultType]::ParameterName, 'Print only the retry prompt for each failing call; run nothing.')
            [CompletionResult]::new('--line-buffered', '--line-buffered', [CompletionResultType]::ParameterName, 'Flush after every record')
            [CompletionResult]::new('--block-buffered', '--block-buffered', [CompletionResultType]::ParameterName, 'Buffer output in blocks even on a terminal')
            [CompletionResult]::new('--no-diagnostics', '--no-diagnostics', [CompletionResultType]::ParameterName, 'Do not print diagnostics on stderr (records only).')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No records, no diagnostics, no summary: the exit status only (0 every call valid, 1 any invalid, 2 error)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No records, no diagnostics, no summary: the exit status only (0 every call valid, 1 any invalid, 2 error)')
            [CompletionResult]::new('--stats', '--stats', [CompletionResultType]::ParameterName, 'After the records, one `summary` record: documents read and skipped (and why), conversations, calls, valid and invalid, counts per code, calls per conversation, calls per tool name.')
            [CompletionResult]::new('--verdicts', '--verdicts', [CompletionResultType]::ParameterName, 'After each conversation''s records, one `conversation` record: its `doc`, `pointer`, `shape`, `calls`, `invalid` (findings) and `valid`; clean conversations included, so every row of a dataset has a verdict.')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'toolcall;formats' {
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'One JSON record per format instead of a table')
            [CompletionResult]::new('--models', '--models', [CompletionResultType]::ParameterName, 'The known models instead: name, format and the generation prompt their chat template appends (what `--model NAME` sets)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'toolcall;render' {
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('tools', 'tools', [CompletionResultType]::ParameterValue, 'The tool-definition block a family expects in its system prompt.')
            [CompletionResult]::new('result', 'result', [CompletionResultType]::ParameterValue, 'The tool-result message for a family.')
            [CompletionResult]::new('call', 'call', [CompletionResultType]::ParameterValue, 'Calls written the way a family writes them.')
            [CompletionResult]::new('families', 'families', [CompletionResultType]::ParameterValue, 'The families and where each rendering comes from.')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'toolcall;render;tools' {
            [CompletionResult]::new('--family', '--family', [CompletionResultType]::ParameterName, 'The model family: a format id (`toolcall render families`) or a model name (`qwen3`, `llama3.2`, `Qwen/Qwen3-8B`).')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'Expose every tool as SERVER___NAME (MCP style).')
            [CompletionResult]::new('--max-tools-size', '--max-tools-size', [CompletionResultType]::ParameterName, 'Largest tools file read, in bytes [default: 16 MiB], as for `validate --tools`: a larger one is refused before it is parsed (exit 2)')
            [CompletionResult]::new('--max-schema-depth', '--max-schema-depth', [CompletionResultType]::ParameterName, 'How deeply a tool''s schema may nest, in levels of JSON objects and arrays [default: 256]')
            [CompletionResult]::new('--max-schema-checks', '--max-schema-checks', [CompletionResultType]::ParameterName, 'How many times a schema''s combinators may check one value [default: 100000]')
            [CompletionResult]::new('--max-json5-depth', '--max-json5-depth', [CompletionResultType]::ParameterName, 'How deeply a tools file written in JSON5 may nest [default: 128]')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'toolcall;render;result' {
            [CompletionResult]::new('--family', '--family', [CompletionResultType]::ParameterName, 'The model family: a format id (`toolcall render families`) or a model name (`qwen3`, `llama3.2`, `Qwen/Qwen3-8B`).')
            [CompletionResult]::new('--id', '--id', [CompletionResultType]::ParameterName, 'The id of the call this result answers.')
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'The tool''s name (unless --ndjson, or the input is records with one).')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The tool''s server: the name is written as SERVER___NAME.')
            [CompletionResult]::new('--max-tokens', '--max-tokens', [CompletionResultType]::ParameterName, 'Token budget per result, 4 bytes a token; 0: no limit.')
            [CompletionResult]::new('--error', '--error', [CompletionResultType]::ParameterName, 'The input is an error message, not output.')
            [CompletionResult]::new('--ndjson', '--ndjson', [CompletionResultType]::ParameterName, 'Each input line is a JSON result {"id", "name", "content"|"error"}.')
            [CompletionResult]::new('--body', '--body', [CompletionResultType]::ParameterName, 'Only the message content, without the role tokens around it.')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'toolcall;render;call' {
            [CompletionResult]::new('--family', '--family', [CompletionResultType]::ParameterName, 'The model family: a format id (`toolcall render families`) or a model name (`qwen3`, `llama3.2`, `Qwen/Qwen3-8B`).')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'toolcall;render;families' {
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'One JSON record per family instead of a table')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'toolcall;render;help' {
            [CompletionResult]::new('tools', 'tools', [CompletionResultType]::ParameterValue, 'The tool-definition block a family expects in its system prompt.')
            [CompletionResult]::new('result', 'result', [CompletionResultType]::ParameterValue, 'The tool-result message for a family.')
            [CompletionResult]::new('call', 'call', [CompletionResultType]::ParameterValue, 'Calls written the way a family writes them.')
            [CompletionResult]::new('families', 'families', [CompletionResultType]::ParameterValue, 'The families and where each rendering comes from.')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'toolcall;render;help;tools' {
            break
        }
        'toolcall;render;help;result' {
            break
        }
        'toolcall;render;help;call' {
            break
        }
        'toolcall;render;help;families' {
            break
        }
        'toolcall;render;help;help' {
            break
        }
        'toolcall;exec' {
            [CompletionResult]::new('--tools', '--tools', [CompletionResultType]::ParameterName, 'Tools file (JSON or JSON5) to validate calls against.')
            [CompletionResult]::new('--max-tools-size', '--max-tools-size', [CompletionResultType]::ParameterName, 'Largest tools file read, in bytes [default: 16 MiB]')
            [CompletionResult]::new('--max-schema-depth', '--max-schema-depth', [CompletionResultType]::ParameterName, 'How deeply a tool''s schema may nest, in levels of JSON objects and arrays [default: 256]')
            [CompletionResult]::new('--max-schema-checks', '--max-schema-checks', [CompletionResultType]::ParameterName, 'How many times a schema''s combinators may check one value [default: 100000]')
            [CompletionResult]::new('--max-json5-depth', '--max-json5-depth', [CompletionResultType]::ParameterName, 'How deeply a tools file written in JSON5 may nest [default: 128]')
            [CompletionResult]::new('--unknown-risk', '--unknown-risk', [CompletionResultType]::ParameterName, 'Risk given to tools the tools file does not list [default: medium].')
            [CompletionResult]::new('--auto-approve', '--auto-approve', [CompletionResultType]::ParameterName, 'Calls whose risk is above this level require approval [default: safe].')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file (JSON5) [default: .toolcall.json5 found upward].')
            [CompletionResult]::new('--approve', '--approve', [CompletionResultType]::ParameterName, 'What to do with a call that needs approval: ask, deny or yes.')
            [CompletionResult]::new('--approver', '--approver', [CompletionResultType]::ParameterName, 'Command that decides instead of a person (run with `sh -c`).')
            [CompletionResult]::new('--allow', '--allow', [CompletionResultType]::ParameterName, 'Run calls that match RULE without asking (repeatable).')
            [CompletionResult]::new('--deny', '--deny', [CompletionResultType]::ParameterName, 'Never run calls that match RULE (repeatable; deny wins over allow).')
            [CompletionResult]::new('--max-risk', '--max-risk', [CompletionResultType]::ParameterName, 'Never run calls whose risk is above LEVEL.')
            [CompletionResult]::new('--permissions', '--permissions', [CompletionResultType]::ParameterName, 'Remembered permissions (JSON): always_allow, always_deny, allowed_patterns, denied_patterns. "Always" answers are saved here (merged under a lock with what other runs saved). Refused, as ssh refuses its files, when owned by another user or writable by group or others, when a symbolic link or not a regular file, or over 4 MiB.')
            [CompletionResult]::new('--session-file', '--session-file', [CompletionResultType]::ParameterName, 'Session cache (JSON): decisions remembered "for the session" are kept here between runs of one conversation.')
            [CompletionResult]::new('--approval-timeout', '--approval-timeout', [CompletionResultType]::ParameterName, 'Seconds a person or the approver has to answer, 1 to 86400 (a day) [default: 300]')
            [CompletionResult]::new('--disable', '--disable', [CompletionResultType]::ParameterName, 'Never run TOOL (repeatable; a glob; wins over --enable)')
            [CompletionResult]::new('--enable', '--enable', [CompletionResultType]::ParameterName, 'Run only these tools (repeatable; globs)')
            [CompletionResult]::new('--disable-category', '--disable-category', [CompletionResultType]::ParameterName, 'Never run tools of this x-toolcall.category (repeatable), e.g. terminal, network, files')
            [CompletionResult]::new('--bind', '--bind', [CompletionResultType]::ParameterName, 'Run tool NAME with the shell command CMD (repeatable; wins over the tools file). The arguments reach CMD on stdin and in TOOLCALL_ARGUMENTS, never on its command line.')
            [CompletionResult]::new('--tool-dir', '--tool-dir', [CompletionResultType]::ParameterName, 'Run tool NAME as the executable DIR/NAME when nothing else binds it (NAME of letters, digits, `_`, `.`, `-` only).')
            [CompletionResult]::new('--tool-timeout', '--tool-timeout', [CompletionResultType]::ParameterName, 'Seconds a tool may run, 5 to 86400 (a day) [default: 120]; then its process group gets SIGTERM, and SIGKILL 5 s later. A tool''s own `x-toolcall.timeout_s` wins')
            [CompletionResult]::new('--max-output', '--max-output', [CompletionResultType]::ParameterName, 'Most bytes of a tool''s output kept, note included [default: 16384, 4096 tokens, or result_cap_tokens]; the rest is dropped with a note and `truncated: true`. 1 B to 16 MiB (16777216)')
            [CompletionResult]::new('--max-parallel', '--max-parallel', [CompletionResultType]::ParameterName, 'Most tools running at once, 1 to 10 [default: 3]')
            [CompletionResult]::new('--max-tool-runs', '--max-tool-runs', [CompletionResultType]::ParameterName, 'Most tool runs of one `exec` run or one whole `loop`, 1 to 100000 [default: 256]; a call past it is not run (`skipped`, the result says why), so one reply cannot start tools without end')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Format to look for: auto (detect per document) or a format id')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Format to look for: auto (detect per document) or a format id')
            [CompletionResult]::new('--repair-max-size', '--repair-max-size', [CompletionResultType]::ParameterName, 'Largest broken argument JSON to repair, in bytes')
            [CompletionResult]::new('--think-window', '--think-window', [CompletionResultType]::ParameterName, 'How far into a document to look for a reasoning closer the prompt opened, in bytes (default: the whole document for parse, split and validate; 0, not at all, for stream, exec and loop)')
            [CompletionResult]::new('--generation-prompt', '--generation-prompt', [CompletionResultType]::ParameterName, 'The text the chat template appended after the last message')
            [CompletionResult]::new('--model', '--model', [CompletionResultType]::ParameterName, 'The model that wrote the output: its format and default generation prompt')
            [CompletionResult]::new('--finish-reason', '--finish-reason', [CompletionResultType]::ParameterName, 'Why the output ended: `stop` (an end token) or `length` (the token limit)')
            [CompletionResult]::new('--max-block', '--max-block', [CompletionResultType]::ParameterName, 'Largest candidate block held back while undecided, in bytes')
            [CompletionResult]::new('--max-errors-per-block', '--max-errors-per-block', [CompletionResultType]::ParameterName, 'Most error records written for one block [default: 8]')
            [CompletionResult]::new('--label', '--label', [CompletionResultType]::ParameterName, 'The name standard input goes by in records (`doc`) and messages')
            [CompletionResult]::new('--input', '--input', [CompletionResultType]::ParameterName, 'Input kind: auto, text, terminal, ollama, openai or llama-server')
            [CompletionResult]::new('--max-buffer', '--max-buffer', [CompletionResultType]::ParameterName, 'Most bytes held for one wire line, the open streamed calls together, or an undecided line')
            [CompletionResult]::new('--no-strict', '--no-strict', [CompletionResultType]::ParameterName, 'Lenient mode: accept properties the schema does not declare, and calls to tools the file does not list (with a warning).')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Strict mode even when the config file turns it off.')
            [CompletionResult]::new('--no-config', '--no-config', [CompletionResultType]::ParameterName, 'Do not look for a `.toolcall.json5` configuration file.')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log to stderr (`-vv`: also argument values), per document with a correlation id.')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log to stderr (`-vv`: also argument values), per document with a correlation id.')
            [CompletionResult]::new('--clear-session', '--clear-session', [CompletionResultType]::ParameterName, 'Forget the session cache first')
            [CompletionResult]::new('--retry-failed', '--retry-failed', [CompletionResultType]::ParameterName, 'Run a failed tool (non-zero exit) once more')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Decide everything, run nothing: each result says what would run. --approve deny|yes decide as in a real run (a denied call''s result is `denied`); with --approve ask nobody is asked and the result says the call would be asked about')
            [CompletionResult]::new('--inherit-env', '--inherit-env', [CompletionResultType]::ParameterName, 'Give tools toolcall''s whole environment. By default a tool gets only PATH, HOME, LANG, LC_*, TERM, TMPDIR, USER, TZ and TOOLCALL_*, plus what its `x-toolcall.env` lists (names, or NAME=value)')
            [CompletionResult]::new('--no-timestamps', '--no-timestamps', [CompletionResultType]::ParameterName, 'Leave timestamps and durations out of the records (golden files)')
            [CompletionResult]::new('--require-sandbox', '--require-sandbox', [CompletionResultType]::ParameterName, 'Refuse to run a tool whose `x-toolcall.sandbox` the kernel cannot enforce (no Landlock, or too old for it): its result is `failed`, "not run: --require-sandbox …". Without it such a tool runs unconfined after a warning on stderr')
            [CompletionResult]::new('--no-json-blocks', '--no-json-blocks', [CompletionResultType]::ParameterName, 'Do not treat call-shaped ```json fences as calls')
            [CompletionResult]::new('--inline-json', '--inline-json', [CompletionResultType]::ParameterName, 'Also look for call-shaped JSON inline in prose (least reliable)')
            [CompletionResult]::new('--no-repair', '--no-repair', [CompletionResultType]::ParameterName, 'Do not repair broken argument JSON')
            [CompletionResult]::new('--reasoning-calls', '--reasoning-calls', [CompletionResultType]::ParameterName, 'Also report calls drafted inside reasoning, flagged `in_reasoning`')
            [CompletionResult]::new('--think-open', '--think-open', [CompletionResultType]::ParameterName, 'The output starts inside a think block opened by the prompt')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'toolcall;loop' {
            [CompletionResult]::new('--model-cmd', '--model-cmd', [CompletionResultType]::ParameterName, 'The model command (run with `sh -c`; prompt on stdin, reply on stdout).')
            [CompletionResult]::new('--max-iterations', '--max-iterations', [CompletionResultType]::ParameterName, 'Most iterations, 1 to 100 [default: 10]; one generation and its tool runs is one iteration. At the limit the run completes with stop reason max_iterations (exit 1)')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Seconds the whole request may take, 5 to 604800 (a week) and at least the tool timeout [default: 600]; the pauses of --delay count. Then the run ends with an error (exit 124)')
            [CompletionResult]::new('--delay', '--delay', [CompletionResultType]::ParameterName, 'Milliseconds between iterations, 0 (none) to 3600000 (an hour) [default: 100]')
            [CompletionResult]::new('--result-cap', '--result-cap', [CompletionResultType]::ParameterName, 'Cap of one tool result fed back, in tokens (4 bytes each), 100 to 4194304 (16 MiB) [default: 4096]')
            [CompletionResult]::new('--system', '--system', [CompletionResultType]::ParameterName, 'The tool-use system prompt (TEXT, or @FILE to read it)')
            [CompletionResult]::new('--prompt-style', '--prompt-style', [CompletionResultType]::ParameterName, 'Prompt layout: plain (a transcript) or messages (OpenAI-style JSON)')
            [CompletionResult]::new('--attach', '--attach', [CompletionResultType]::ParameterName, 'Attach a file to the message, FILE or FILE:START-END for a line range (1-based, inclusive); repeatable. The model reads it after the message, fenced, tagged with its language, cut at --attach-max')
            [CompletionResult]::new('--attach-max', '--attach-max', [CompletionResultType]::ParameterName, 'Most bytes of one attached file shown to the model (the rest is cut, with a note saying so); 1 B to 16 MiB')
            [CompletionResult]::new('--history', '--history', [CompletionResultType]::ParameterName, 'Resume a conversation: the `message` records of an earlier run''s output (other records are skipped)')
            [CompletionResult]::new('--max-reply', '--max-reply', [CompletionResultType]::ParameterName, 'Most bytes of one generation (the model command''s stdout), 1 to 4 GiB [default: 16 MiB]. Past it the model command''s group is stopped and the run ends with an `agent_error` and `complete` (exit 2)')
            [CompletionResult]::new('--max-input', '--max-input', [CompletionResultType]::ParameterName, 'Most bytes read from each side input: the message on stdin, --attach, --system @FILE and --history [default: 256 MiB]. A larger input is an error (exit 2)')
            [CompletionResult]::new('--request-id', '--request-id', [CompletionResultType]::ParameterName, 'The request id written in every record [default: derived from the time and process id]')
            [CompletionResult]::new('--tools', '--tools', [CompletionResultType]::ParameterName, 'Tools file (JSON or JSON5) to validate calls against.')
            [CompletionResult]::new('--max-tools-size', '--max-tools-size', [CompletionResultType]::ParameterName, 'Largest tools file read, in bytes [default: 16 MiB]')
            [CompletionResult]::new('--max-schema-depth', '--max-schema-depth', [CompletionResultType]::ParameterName, 'How deeply a tool''s schema may nest, in levels of JSON objects and arrays [default: 256]')
            [CompletionResult]::new('--max-schema-checks', '--max-schema-checks', [CompletionResultType]::ParameterName, 'How many times a schema''s combinators may check one value [default: 100000]')
            [CompletionResult]::new('--max-json5-depth', '--max-json5-depth', [CompletionResultType]::ParameterName, 'How deeply a tools file written in JSON5 may nest [default: 128]')
            [CompletionResult]::new('--unknown-risk', '--unknown-risk', [CompletionResultType]::ParameterName, 'Risk given to tools the tools file does not list [default: medium].')
            [CompletionResult]::new('--auto-approve', '--auto-approve', [CompletionResultType]::ParameterName, 'Calls whose risk is above this level require approval [default: safe].')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file (JSON5) [default: .toolcall.json5 found upward].')
            [CompletionResult]::new('--approve', '--approve', [CompletionResultType]::ParameterName, 'What to do with a call that needs approval: ask, deny or yes.')
            [CompletionResult]::new('--approver', '--approver', [CompletionResultType]::ParameterName, 'Command that decides instead of a person (run with `sh -c`).')
            [CompletionResult]::new('--allow', '--allow', [CompletionResultType]::ParameterName, 'Run calls that match RULE without asking (repeatable).')
            [CompletionResult]::new('--deny', '--deny', [CompletionResultType]::ParameterName, 'Never run calls that match RULE (repeatable; deny wins over allow).')
            [CompletionResult]::new('--max-risk', '--max-risk', [CompletionResultType]::ParameterName, 'Never run calls whose risk is above LEVEL.')
            [CompletionResult]::new('--permissions', '--permissions', [CompletionResultType]::ParameterName, 'Remembered permissions (JSON): always_allow, always_deny, allowed_patterns, denied_patterns. "Always" answers are saved here (merged under a lock with what other runs saved). Refused, as ssh refuses its files, when owned by another user or writable by group or others, when a symbolic link or not a regular file, or over 4 MiB.')
            [CompletionResult]::new('--session-file', '--session-file', [CompletionResultType]::ParameterName, 'Session cache (JSON): decisions remembered "for the session" are kept here between runs of one conversation.')
            [CompletionResult]::new('--approval-timeout', '--approval-timeout', [CompletionResultType]::ParameterName, 'Seconds a person or the approver has to answer, 1 to 86400 (a day) [default: 300]')
            [CompletionResult]::new('--disable', '--disable', [CompletionResultType]::ParameterName, 'Never run TOOL (repeatable; a glob; wins over --enable)')
            [CompletionResult]::new('--enable', '--enable', [CompletionResultType]::ParameterName, 'Run only these tools (repeatable; globs)')
            [CompletionResult]::new('--disable-category', '--disable-category', [CompletionResultType]::ParameterName, 'Never run tools of this x-toolcall.category (repeatable), e.g. terminal, network, files')
            [CompletionResult]::new('--bind', '--bind', [CompletionResultType]::ParameterName, 'Run tool NAME with the shell command CMD (repeatable; wins over the tools file). The arguments reach CMD on stdin and in TOOLCALL_ARGUMENTS, never on its command line.')
            [CompletionResult]::new('--tool-dir', '--tool-dir', [CompletionResultType]::ParameterName, 'Run tool NAME as the executable DIR/NAME when nothing else binds it (NAME of letters, digits, `_`, `.`, `-` only).')
            [CompletionResult]::new('--tool-timeout', '--tool-timeout', [CompletionResultType]::ParameterName, 'Seconds a tool may run, 5 to 86400 (a day) [default: 120]; then its process group gets SIGTERM, and SIGKILL 5 s later. A tool''s own `x-toolcall.timeout_s` wins')
            [CompletionResult]::new('--max-output', '--max-output', [CompletionResultType]::ParameterName, 'Most bytes of a tool''s output kept, note included [default: 16384, 4096 tokens, or result_cap_tokens]; the rest is dropped with a note and `truncated: true`. 1 B to 16 MiB (16777216)')
            [CompletionResult]::new('--max-parallel', '--max-parallel', [CompletionResultType]::ParameterName, 'Most tools running at once, 1 to 10 [default: 3]')
            [CompletionResult]::new('--max-tool-runs', '--max-tool-runs', [CompletionResultType]::ParameterName, 'Most tool runs of one `exec` run or one whole `loop`, 1 to 100000 [default: 256]; a call past it is not run (`skipped`, the result says why), so one reply cannot start tools without end')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Format to look for: auto (detect per document) or a format id')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Format to look for: auto (detect per document) or a format id')
            [CompletionResult]::new('--repair-max-size', '--repair-max-size', [CompletionResultType]::ParameterName, 'Largest broken argument JSON to repair, in bytes')
            [CompletionResult]::new('--think-window', '--think-window', [CompletionResultType]::ParameterName, 'How far into a document to look for a reasoning closer the prompt opened, in bytes (default: the whole document for parse, split and validate; 0, not at all, for stream, exec and loop)')
            [CompletionResult]::new('--generation-prompt', '--generation-prompt', [CompletionResultType]::ParameterName, 'The text the chat template appended after the last message')
            [CompletionResult]::new('--model', '--model', [CompletionResultType]::ParameterName, 'The model that wrote the output: its format and default generation prompt')
            [CompletionResult]::new('--finish-reason', '--finish-reason', [CompletionResultType]::ParameterName, 'Why the output ended: `stop` (an end token) or `length` (the token limit)')
            [CompletionResult]::new('--max-block', '--max-block', [CompletionResultType]::ParameterName, 'Largest candidate block held back while undecided, in bytes')
            [CompletionResult]::new('--max-errors-per-block', '--max-errors-per-block', [CompletionResultType]::ParameterName, 'Most error records written for one block [default: 8]')
            [CompletionResult]::new('--label', '--label', [CompletionResultType]::ParameterName, 'The name standard input goes by in records (`doc`) and messages')
            [CompletionResult]::new('--input', '--input', [CompletionResultType]::ParameterName, 'Input kind: auto, text, terminal, ollama, openai or llama-server')
            [CompletionResult]::new('--max-buffer', '--max-buffer', [CompletionResultType]::ParameterName, 'Most bytes held for one wire line, the open streamed calls together, or an undecided line')
            [CompletionResult]::new('--drop-results', '--drop-results', [CompletionResultType]::ParameterName, 'Do not keep tool results in the history after the iteration that used them (only a note that the tool ran stays)')
            [CompletionResult]::new('--no-tools', '--no-tools', [CompletionResultType]::ParameterName, 'Offer no tools (a plain chat through the same loop)')
            [CompletionResult]::new('--text', '--text', [CompletionResultType]::ParameterName, 'Print only the final reply, no events. On a terminal, control characters in it (ESC included) are shown escaped (`\u{1b}`), so the model''s text cannot move the cursor or restyle the terminal; newlines and tabs stay')
            [CompletionResult]::new('--no-strict', '--no-strict', [CompletionResultType]::ParameterName, 'Lenient mode: accept properties the schema does not declare, and calls to tools the file does not list (with a warning).')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Strict mode even when the config file turns it off.')
            [CompletionResult]::new('--no-config', '--no-config', [CompletionResultType]::ParameterName, 'Do not look for a `.toolcall.json5` configuration file.')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log to stderr (`-vv`: also argument values), per document with a correlation id.')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log to stderr (`-vv`: also argument values), per document with a correlation id.')
            [CompletionResult]::new('--clear-session', '--clear-session', [CompletionResultType]::ParameterName, 'Forget the session cache first')
            [CompletionResult]::new('--retry-failed', '--retry-failed', [CompletionResultType]::ParameterName, 'Run a failed tool (non-zero exit) once more')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Decide everything, run nothing: each result says what would run. --approve deny|yes decide as in a real run (a denied call''s result is `denied`); with --approve ask nobody is asked and the result says the call would be asked about')
            [CompletionResult]::new('--inherit-env', '--inherit-env', [CompletionResultType]::ParameterName, 'Give tools toolcall''s whole environment. By default a tool gets only PATH, HOME, LANG, LC_*, TERM, TMPDIR, USER, TZ and TOOLCALL_*, plus what its `x-toolcall.env` lists (names, or NAME=value)')
            [CompletionResult]::new('--no-timestamps', '--no-timestamps', [CompletionResultType]::ParameterName, 'Leave timestamps and durations out of the records (golden files)')
            [CompletionResult]::new('--require-sandbox', '--require-sandbox', [CompletionResultType]::ParameterName, 'Refuse to run a tool whose `x-toolcall.sandbox` the kernel cannot enforce (no Landlock, or too old for it): its result is `failed`, "not run: --require-sandbox …". Without it such a tool runs unconfined after a warning on stderr')
            [CompletionResult]::new('--no-json-blocks', '--no-json-blocks', [CompletionResultType]::ParameterName, 'Do not treat call-shaped ```json fences as calls')
            [CompletionResult]::new('--inline-json', '--inline-json', [CompletionResultType]::ParameterName, 'Also look for call-shaped JSON inline in prose (least reliable)')
            [CompletionResult]::new('--no-repair', '--no-repair', [CompletionResultType]::ParameterName, 'Do not repair broken argument JSON')
            [CompletionResult]::new('--reasoning-calls', '--reasoning-calls', [CompletionResultType]::ParameterName, 'Also report calls drafted inside reasoning, flagged `in_reasoning`')
            [CompletionResult]::new('--think-open', '--think-open', [CompletionResultType]::ParameterName, 'The output starts inside a think block opened by the prompt')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'toolcall;completions' {
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'toolcall;help' {
            [CompletionResult]::new('parse', 'parse', [CompletionResultType]::ParameterValue, 'Find the tool calls in whole documents.')
            [CompletionResult]::new('stream', 'stream', [CompletionResultType]::ParameterValue, 'Parse a live stream, writing events as soon as they are certain.')
            [CompletionResult]::new('split', 'split', [CompletionResultType]::ParameterValue, 'Separate text, reasoning and calls, losslessly.')
            [CompletionResult]::new('repair', 'repair', [CompletionResultType]::ParameterValue, 'Repair malformed JSON: print it fixed, or a report of what was fixed')
            [CompletionResult]::new('validate', 'validate', [CompletionResultType]::ParameterValue, 'Check tool calls against a tools file.')
            [CompletionResult]::new('formats', 'formats', [CompletionResultType]::ParameterValue, 'List the formats toolcall knows, with their model families and markers.')
            [CompletionResult]::new('render', 'render', [CompletionResultType]::ParameterValue, 'Render the prompt side of a tool loop for a model family.')
            [CompletionResult]::new('exec', 'exec', [CompletionResultType]::ParameterValue, 'Run tool calls through their commands, asking before risky ones.')
            [CompletionResult]::new('loop', 'loop', [CompletionResultType]::ParameterValue, 'Run the tool loop: model, calls, results, until the model answers.')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script on stdout.')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'toolcall;help;parse' {
            break
        }
        'toolcall;help;stream' {
            break
        }
        'toolcall;help;split' {
            break
        }
        'toolcall;help;repair' {
            break
        }
        'toolcall;help;validate' {
            break
        }
        'toolcall;help;formats' {
            break
        }
        'toolcall;help;render' {
            [CompletionResult]::new('tools', 'tools', [CompletionResultType]::ParameterValue, 'The tool-definition block a family expects in its system prompt.')
            [CompletionResult]::new('result', 'result', [CompletionResultType]::ParameterValue, 'The tool-result message for a family.')
            [CompletionResult]::new('call', 'call', [CompletionResultType]::ParameterValue, 'Calls written the way a family writes them.')
            [CompletionResult]::new('families', 'families', [CompletionResultType]::ParameterValue, 'The families and where each rendering comes from.')
            break
        }
        'toolcall;help;render;tools' {
            break
        }
        'toolcall;help;render;result' {
            break
        }
        'toolcall;help;render;call' {
            break
        }
        'toolcall;help;render;families' {
            break
        }
        'toolcall;help;exec' {
            break
        }
        'toolcall;help;loop' {
            break
        }
        'toolcall;help;completions' {
            break
        }
        'toolcall;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
