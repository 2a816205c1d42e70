_toolcall() {
    local i cur prev opts cmd
    COMPREPLY=()
    if [[ "${BASH_VERSINFO[0]}" -ge 4 ]]; then
        cur="$2"
    else
        cur="${COMP_WORDS[COMP_CWORD]}"
    fi
    prev="$3"
    cmd=""
    opts=""

    for i in "${COMP_WORDS[@]:0:COMP_CWORD}"
    do
        case "${cmd},${i}" in
            ",$1")
                cmd="toolcall"
                ;;
            toolcall,completions)
                cmd="toolcall__subcmd__completions"
                ;;
            toolcall,exec)
                cmd="toolcall__subcmd__exec"
                ;;
            toolcall,formats)
                cmd="toolcall__subcmd__formats"
                ;;
            toolcall,help)
                cmd="toolcall__subcmd__help"
                ;;
            toolcall,loop)
                cmd="toolcall__subcmd__loop"
                ;;
            toolcall,parse)
                cmd="toolcall__subcmd__parse"
                ;;
            toolcall,render)
                cmd="toolcall__subcmd__render"
                ;;
            toolcall,repair)
                cmd="toolcall__subcmd__repair"
                ;;
            toolcall,split)
                cmd="toolcall__subcmd__split"
                ;;
            toolcall,stream)
                cmd="toolcall__subcmd__stream"
                ;;
            toolcall,validate)
                cmd="toolcall__subcmd__validate"
                ;;
            toolcall__subcmd__help,completions)
                cmd="toolcall__subcmd__help__subcmd__completions"
                ;;
            toolcall__subcmd__help,exec)
                cmd="toolcall__subcmd__help__subcmd__exec"
                ;;
            toolcall__subcmd__help,formats)
                cmd="toolcall__subcmd__help__subcmd__formats"
                ;;
            toolcall__subcmd__help,help)
                cmd="toolcall__subcmd__help__subcmd__help"
                ;;
            toolcall__subcmd__help,loop)
                cmd="toolcall__subcmd__help__subcmd__loop"
                ;;
            toolcall__subcmd__help,parse)
                cmd="toolcall__subcmd__help__subcmd__parse"
                ;;
            toolcall__subcmd__help,render)
                cmd="toolcall__subcmd__help__subcmd__render"
                ;;
            toolcall__subcmd__help,repair)
                cmd="toolcall__subcmd__help__subcmd__repair"
                ;;
            toolcall__subcmd__help,split)
                cmd="toolcall__subcmd__help__subcmd__split"
                ;;
            toolcall__subcmd__help,stream)
                cmd="toolcall__subcmd__help__subcmd__stream"
                ;;
            toolcall__subcmd__help,validate)
                cmd="toolcall__subcmd__help__subcmd__validate"
                ;;
            toolcall__subcmd__help__subcmd__render,call)
                cmd="toolcall__subcmd__help__subcmd__render__subcmd__call"
                ;;
            toolcall__subcmd__help__subcmd__render,families)
                cmd="toolcall__subcmd__help__subcmd__render__subcmd__families"
                ;;
            toolcall__subcmd__help__subcmd__render,result)
                cmd="toolcall__subcmd__help__subcmd__render__subcmd__result"
                ;;
            toolcall__subcmd__help__subcmd__render,tools)
                cmd="toolcall__subcmd__help__subcmd__render__subcmd__tools"
                ;;
            toolcall__subcmd__render,call)
                cmd="toolcall__subcmd__render__subcmd__call"
                ;;
            toolcall__subcmd__render,families)
                cmd="toolcall__subcmd__render__subcmd__families"
                ;;
            toolcall__subcmd__render,help)
                cmd="toolcall__subcmd__render__subcmd__help"
                ;;
            toolcall__subcmd__render,result)
                cmd="toolcall__subcmd__render__subcmd__result"
                ;;
            toolcall__subcmd__render,tools)
                cmd="toolcall__subcmd__render__subcmd__tools"
                ;;
            toolcall__subcmd__render__subcmd__help,call)
                cmd="toolcall__subcmd__render__subcmd__help__subcmd__call"
                ;;
            toolcall__subcmd__render__subcmd__help,families)
                cmd="toolcall__subcmd__render__subcmd__help__subcmd__families"
                ;;
            toolcall__subcmd__render__subcmd__help,help)
                cmd="toolcall__subcmd__render__subcmd__help__subcmd__help"
                ;;
            toolcall__subcmd__render__subcmd__help,result)
                cmd="toolcall__subcmd__render__subcmd__help__subcmd__result"
                ;;
            toolcall__subcmd__render__subcmd__help,tools)
                cmd="toolcall__subcmd__render__subcmd__help__subcmd__tools"
                ;;
            *)
                ;;
        esac
    done

    case "${cmd}" in
        toolcall)
            opts="-h -V --help --version parse stream split repair validate formats render exec loop completions help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 1 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        toolcall__subcmd__completions)
            opts="-h --help bash elvish fish powershell zsh"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        toolcall__subcmd__exec)
            opts="-v -f -h --tools --max-tools-size --max-schema-depth --max-schema-checks --max-json5-depth --no-strict --strict --unknown-risk --auto-approve --config --no-config --verbose --approve --approver --allow --deny --max-risk --permissions --session-file --clear-session --approval-timeout --disable --enable --disable-category --bind --tool-dir --tool-timeout --max-output --max-parallel --retry-failed --dry-run --max-tool-runs --inherit-env --no-timestamps --require-sandbox --format --no-json-blocks --inline-json --no-repair --repair-max-size --reasoning-calls --think-open --think-window --generation-prompt --model --finish-reason --max-block --max-errors-per-block --label --input --max-buffer --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --tools)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-tools-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-schema-depth)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-schema-checks)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-json5-depth)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --unknown-risk)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --auto-approve)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --approve)
                    COMPREPLY=($(compgen -W "ask deny yes" -- "${cur}"))
                    return 0
                    ;;
                --approver)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --allow)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --deny)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-risk)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --permissions)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --session-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --approval-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --disable)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --enable)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --disable-category)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --bind)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --tool-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --tool-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-output)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-parallel)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-tool-runs)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "auto hermes qwen3-coder-xml glm4-moe functionary fenced-tool-call fenced-json bare-json llama3-json xlam granite cohere internlm jamba minimax minimax-m2 minimax-m3 seed-oss longcat nemotron-toolcall inkling hunyuan-v4 ernie45 mistral deepseek-v3 deepseek-v3.1 deepseek-dsml kimi-k2 kimi-k3 step3 harmony pythonic lfm2 olmo3 llama-python-tag phi4-mini functionary-v3.2 gemini-function-call sarashina apertus gigachat3 minicpm5 solar-open plamo3 iquest dots k2-v3 glm53-flash muse-glimmer prompt-wrapper qwen3 qwen3-thinking qwq qwen2.5 hermes-3 hermes-2-pro qwen3-coder qwen3.5 qwen3.6 qwen3.8 glm-4.5 glm-4.6 glm-4.7 glm-5 llama-3.1 llama-3.2 llama-3.3 xlam-2 granite-3 command-r command-a minimax-m2 seed-oss mistral magistral ministral devstral mixtral deepseek-r1 deepseek-v3-0324 deepseek-v3.1 deepseek-v3.1-thinking deepseek-v3.2-exp deepseek-v3.2 deepseek-v3.2-thinking deepseek-v4 deepseek-v4-thinking deepseek-v4.1 deepseek-v4.1-thinking kimi-k2 kimi-k2-thinking kimi-k2.5 kimi-k2.6 kimi-k3 gpt-oss llama-4 lfm2 olmo-3 phi-4-mini gemma-4 functiongemma gigachat3 gigachat-3 minicpm5 glm-5.3-flash gemma-3" -- "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -W "auto hermes qwen3-coder-xml glm4-moe functionary fenced-tool-call fenced-json bare-json llama3-json xlam granite cohere internlm jamba minimax minimax-m2 minimax-m3 seed-oss longcat nemotron-toolcall inkling hunyuan-v4 ernie45 mistral deepseek-v3 deepseek-v3.1 deepseek-dsml kimi-k2 kimi-k3 step3 harmony pythonic lfm2 olmo3 llama-python-tag phi4-mini functionary-v3.2 gemini-function-call sarashina apertus gigachat3 minicpm5 solar-open plamo3 iquest dots k2-v3 glm53-flash muse-glimmer prompt-wrapper qwen3 qwen3-thinking qwq qwen2.5 hermes-3 hermes-2-pro qwen3-coder qwen3.5 qwen3.6 qwen3.8 glm-4.5 glm-4.6 glm-4.7 glm-5 llama-3.1 llama-3.2 llama-3.3 xlam-2 granite-3 command-r command-a minimax-m2 seed-oss mistral magistral ministral devstral mixtral deepseek-r1 deepseek-v3-0324 deepseek-v3.1 deepseek-v3.1-thinking deepseek-v3.2-exp deepseek-v3.2 deepseek-v3.2-thinking deepseek-v4 deepseek-v4-thinking deepseek-v4.1 deepseek-v4.1-thinking kimi-k2 kimi-k2-thinking kimi-k2.5 kimi-k2.6 kimi-k3 gpt-oss llama-4 lfm2 olmo-3 phi-4-mini gemma-4 functiongemma gigachat3 gigachat-3 minicpm5 glm-5.3-flash gemma-3" -- "${cur}"))
                    return 0
                    ;;
                --repair-max-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --think-window)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --generation-prompt)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --model)
                    COMPREPLY=($(compgen -W "qwen3 qwen3-thinking qwq qwen2.5 hermes-3 hermes-2-pro qwen3-coder qwen3.5 qwen3.6 qwen3.8 glm-4.5 glm-4.6 glm-4.7 glm-5 llama-3.1 llama-3.2 llama-3.3 xlam-2 granite-3 command-r command-a minimax-m2 seed-oss mistral magistral ministral devstral mixtral deepseek-r1 deepseek-v3-0324 deepseek-v3.1 deepseek-v3.1-thinking deepseek-v3.2-exp deepseek-v3.2 deepseek-v3.2-thinking deepseek-v4 deepseek-v4-thinking deepseek-v4.1 deepseek-v4.1-thinking kimi-k2 kimi-k2-thinking kimi-k2.5 kimi-k2.6 kimi-k3 gpt-oss llama-4 lfm2 olmo-3 phi-4-mini gemma-4 functiongemma gigachat3 gigachat-3 minicpm5 glm-5.3-flash gemma-3" -- "${cur}"))
                    return 0
                    ;;
                --finish-reason)
                    COMPREPLY=($(compgen -W "stop length" -- "${cur}"))
                    return 0
                    ;;
                --max-block)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-errors-per-block)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --label)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --input)
                    COMPREPLY=($(compgen -W "auto text terminal ollama openai llama-server messages" -- "${cur}"))
                    return 0
                    ;;
                --max-buffer)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        toolcall__subcmd__formats)
            opts="-h --json --models --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        toolcall__subcmd__help)
            opts="parse stream split repair validate formats render exec loop completions help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        toolcall__subcmd__help__subcmd__completions)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        toolcall__subcmd__help__subcmd__exec)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        toolcall__subcmd__help__subcmd__formats)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        toolcall__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        toolcall__subcmd__help__subcmd__loop)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        toolcall__subcmd__help__subcmd__parse)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        toolcall__subcmd__help__subcmd__render)
            opts="tools result call families"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        toolcall__subcmd__help__subcmd__render__subcmd__call)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        toolcall__subcmd__help__subcmd__render__subcmd__families)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        toolcall__subcmd__help__subcmd__render__subcmd__result)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        toolcall__subcmd__help__subcmd__render__subcmd__tools)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        toolcall__subcmd__help__subcmd__repair)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        toolcall__subcmd__help__subcmd__split)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        toolcall__subcmd__help__subcmd__stream)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        toolcall__subcmd__help__subcmd__validate)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        toolcall__subcmd__loop)
            opts="-v -f -h --model-cmd --max-iterations --request-timeout --delay --result-cap --drop-results --system --no-tools --prompt-style --attach --attach-max --history --text --max-reply --max-input --request-id --tools --max-tools-size --max-schema-depth --max-schema-checks --max-json5-depth --no-strict --strict --unknown-risk --auto-approve --config --no-config --verbose --approve --approver --allow --deny --max-risk --permissions --session-file --clear-session --approval-timeout --disable --enable --disable-category --bind --tool-dir --tool-timeout --max-output --max-parallel --retry-failed --dry-run --max-tool-runs --inherit-env --no-timestamps --require-sandbox --format --no-json-blocks --inline-json --no-repair --repair-max-size --reasoning-calls --think-open --think-window --generation-prompt --model --finish-reason --max-block --max-errors-per-block --label --input --max-buffer --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --model-cmd)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-iterations)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --request-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --delay)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --result-cap)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --system)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --prompt-style)
                    COMPREPLY=($(compgen -W "plain messages" -- "${cur}"))
                    return 0
                    ;;
                --attach)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --attach-max)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --history)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-reply)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-input)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --request-id)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --tools)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-tools-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-schema-depth)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-schema-checks)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-json5-depth)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --unknown-risk)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --auto-approve)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --approve)
                    COMPREPLY=($(compgen -W "ask deny yes" -- "${cur}"))
                    return 0
                    ;;
                --approver)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --allow)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --deny)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-risk)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --permissions)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --session-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --approval-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --disable)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --enable)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --disable-category)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --bind)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --tool-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --tool-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-output)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-parallel)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-tool-runs)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "auto hermes qwen3-coder-xml glm4-moe functionary fenced-tool-call fenced-json bare-json llama3-json xlam granite cohere internlm jamba minimax minimax-m2 minimax-m3 seed-oss longcat nemotron-toolcall inkling hunyuan-v4 ernie45 mistral deepseek-v3 deepseek-v3.1 deepseek-dsml kimi-k2 kimi-k3 step3 harmony pythonic lfm2 olmo3 llama-python-tag phi4-mini functionary-v3.2 gemini-function-call sarashina apertus gigachat3 minicpm5 solar-open plamo3 iquest dots k2-v3 glm53-flash muse-glimmer prompt-wrapper qwen3 qwen3-thinking qwq qwen2.5 hermes-3 hermes-2-pro qwen3-coder qwen3.5 qwen3.6 qwen3.8 glm-4.5 glm-4.6 glm-4.7 glm-5 llama-3.1 llama-3.2 llama-3.3 xlam-2 granite-3 command-r command-a minimax-m2 seed-oss mistral magistral ministral devstral mixtral deepseek-r1 deepseek-v3-0324 deepseek-v3.1 deepseek-v3.1-thinking deepseek-v3.2-exp deepseek-v3.2 deepseek-v3.2-thinking deepseek-v4 deepseek-v4-thinking deepseek-v4.1 deepseek-v4.1-thinking kimi-k2 kimi-k2-thinking kimi-k2.5 kimi-k2.6 kimi-k3 gpt-oss llama-4 lfm2 olmo-3 phi-4-mini gemma-4 functiongemma gigachat3 gigachat-3 minicpm5 glm-5.3-flash gemma-3" -- "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -W "auto hermes qwen3-coder-xml glm4-moe functionary fenced-tool-call fenced-json bare-json llama3-json xlam granite cohere internlm jamba minimax minimax-m2 minimax-m3 seed-oss longcat nemotron-toolcall inkling hunyuan-v4 ernie45 mistral deepseek-v3 deepseek-v3.1 deepseek-dsml kimi-k2 kimi-k3 step3 harmony pythonic lfm2 olmo3 llama-python-tag phi4-mini functionary-v3.2 gemini-function-call sarashina apertus gigachat3 minicpm5 solar-open plamo3 iquest dots k2-v3 glm53-flash muse-glimmer prompt-wrapper qwen3 qwen3-thinking qwq qwen2.5 hermes-3 hermes-2-pro qwen3-coder qwen3.5 qwen3.6 qwen3.8 glm-4.5 glm-4.6 glm-4.7 glm-5 llama-3.1 llama-3.2 llama-3.3 xlam-2 granite-3 command-r command-a minimax-m2 seed-oss mistral magistral ministral devstral mixtral deepseek-r1 deepseek-v3-0324 deepseek-v3.1 deepseek-v3.1-thinking deepseek-v3.2-exp deepseek-v3.2 deepseek-v3.2-thinking deepseek-v4 deepseek-v4-thinking deepseek-v4.1 deepseek-v4.1-thinking kimi-k2 kimi-k2-thinking kimi-k2.5 kimi-k2.6 kimi-k3 gpt-oss llama-4 lfm2 olmo-3 phi-4-mini gemma-4 functiongemma gigachat3 gigachat-3 minicpm5 glm-5.3-flash gemma-3" -- "${cur}"))
                    return 0
                    ;;
                --repair-max-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --think-window)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --generation-prompt)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --model)
                    COMPREPLY=($(compgen -W "qwen3 qwen3-thinking qwq qwen2.5 hermes-3 hermes-2-pro qwen3-coder qwen3.5 qwen3.6 qwen3.8 glm-4.5 glm-4.6 glm-4.7 glm-5 llama-3.1 llama-3.2 llama-3.3 xlam-2 granite-3 command-r command-a minimax-m2 seed-oss mistral magistral ministral devstral mixtral deepseek-r1 deepseek-v3-0324 deepseek-v3.1 deepseek-v3.1-thinking deepseek-v3.2-exp deepseek-v3.2 deepseek-v3.2-thinking deepseek-v4 deepseek-v4-thinking deepseek-v4.1 deepseek-v4.1-thinking kimi-k2 kimi-k2-thinking kimi-k2.5 kimi-k2.6 kimi-k3 gpt-oss llama-4 lfm2 olmo-3 phi-4-mini gemma-4 functiongemma gigachat3 gigachat-3 minicpm5 glm-5.3-flash gemma-3" -- "${cur}"))
                    return 0
                    ;;
                --finish-reason)
                    COMPREPLY=($(compgen -W "stop length" -- "${cur}"))
                    return 0
                    ;;
                --max-block)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-errors-per-block)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --label)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --input)
                    COMPREPLY=($(compgen -W "auto text terminal ollama openai llama-server messages" -- "${cur}"))
                    return 0
                    ;;
                --max-buffer)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        toolcall__subcmd__parse)
            opts="-j -s -L -g -a -f -q -m -c -l -0 -H -v -h --lines --field --threads --jobs --max-input --no-messages --follow --hidden --no-ignore --glob --binary --format --no-json-blocks --inline-json --no-repair --repair-max-size --reasoning-calls --think-open --think-window --generation-prompt --model --finish-reason --max-block --max-errors-per-block --label --input --max-buffer --line-buffered --block-buffered --quiet --max-count --count --files-with-calls --null --with-filename --no-filename --shape --fail-on-error --pretty --no-call-ok --tools --max-tools-size --max-schema-depth --max-schema-checks --max-json5-depth --no-strict --strict --unknown-risk --auto-approve --config --no-config --verbose --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --field)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --jobs)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --threads)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -j)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-input)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --glob)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -g)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "auto hermes qwen3-coder-xml glm4-moe functionary fenced-tool-call fenced-json bare-json llama3-json xlam granite cohere internlm jamba minimax minimax-m2 minimax-m3 seed-oss longcat nemotron-toolcall inkling hunyuan-v4 ernie45 mistral deepseek-v3 deepseek-v3.1 deepseek-dsml kimi-k2 kimi-k3 step3 harmony pythonic lfm2 olmo3 llama-python-tag phi4-mini functionary-v3.2 gemini-function-call sarashina apertus gigachat3 minicpm5 solar-open plamo3 iquest dots k2-v3 glm53-flash muse-glimmer prompt-wrapper qwen3 qwen3-thinking qwq qwen2.5 hermes-3 hermes-2-pro qwen3-coder qwen3.5 qwen3.6 qwen3.8 glm-4.5 glm-4.6 glm-4.7 glm-5 llama-3.1 llama-3.2 llama-3.3 xlam-2 granite-3 command-r command-a minimax-m2 seed-oss mistral magistral ministral devstral mixtral deepseek-r1 deepseek-v3-0324 deepseek-v3.1 deepseek-v3.1-thinking deepseek-v3.2-exp deepseek-v3.2 deepseek-v3.2-thinking deepseek-v4 deepseek-v4-thinking deepseek-v4.1 deepseek-v4.1-thinking kimi-k2 kimi-k2-thinking kimi-k2.5 kimi-k2.6 kimi-k3 gpt-oss llama-4 lfm2 olmo-3 phi-4-mini gemma-4 functiongemma gigachat3 gigachat-3 minicpm5 glm-5.3-flash gemma-3" -- "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -W "auto hermes qwen3-coder-xml glm4-moe functionary fenced-tool-call fenced-json bare-json llama3-json xlam granite cohere internlm jamba minimax minimax-m2 minimax-m3 seed-oss longcat nemotron-toolcall inkling hunyuan-v4 ernie45 mistral deepseek-v3 deepseek-v3.1 deepseek-dsml kimi-k2 kimi-k3 step3 harmony pythonic lfm2 olmo3 llama-python-tag phi4-mini functionary-v3.2 gemini-function-call sarashina apertus gigachat3 minicpm5 solar-open plamo3 iquest dots k2-v3 glm53-flash muse-glimmer prompt-wrapper qwen3 qwen3-thinking qwq qwen2.5 hermes-3 hermes-2-pro qwen3-coder qwen3.5 qwen3.6 qwen3.8 glm-4.5 glm-4.6 glm-4.7 glm-5 llama-3.1 llama-3.2 llama-3.3 xlam-2 granite-3 command-r command-a minimax-m2 seed-oss mistral magistral ministral devstral mixtral deepseek-r1 deepseek-v3-0324 deepseek-v3.1 deepseek-v3.1-thinking deepseek-v3.2-exp deepseek-v3.2 deepseek-v3.2-thinking deepseek-v4 deepseek-v4-thinking deepseek-v4.1 deepseek-v4.1-thinking kimi-k2 kimi-k2-thinking kimi-k2.5 kimi-k2.6 kimi-k3 gpt-oss llama-4 lfm2 olmo-3 phi-4-mini gemma-4 functiongemma gigachat3 gigachat-3 minicpm5 glm-5.3-flash gemma-3" -- "${cur}"))
                    return 0
                    ;;
                --repair-max-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --think-window)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --generation-prompt)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --model)
                    COMPREPLY=($(compgen -W "qwen3 qwen3-thinking qwq qwen2.5 hermes-3 hermes-2-pro qwen3-coder qwen3.5 qwen3.6 qwen3.8 glm-4.5 glm-4.6 glm-4.7 glm-5 llama-3.1 llama-3.2 llama-3.3 xlam-2 granite-3 command-r command-a minimax-m2 seed-oss mistral magistral ministral devstral mixtral deepseek-r1 deepseek-v3-0324 deepseek-v3.1 deepseek-v3.1-thinking deepseek-v3.2-exp deepseek-v3.2 deepseek-v3.2-thinking deepseek-v4 deepseek-v4-thinking deepseek-v4.1 deepseek-v4.1-thinking kimi-k2 kimi-k2-thinking kimi-k2.5 kimi-k2.6 kimi-k3 gpt-oss llama-4 lfm2 olmo-3 phi-4-mini gemma-4 functiongemma gigachat3 gigachat-3 minicpm5 glm-5.3-flash gemma-3" -- "${cur}"))
                    return 0
                    ;;
                --finish-reason)
                    COMPREPLY=($(compgen -W "stop length" -- "${cur}"))
                    return 0
                    ;;
                --max-block)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-errors-per-block)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --label)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --input)
                    COMPREPLY=($(compgen -W "auto text terminal ollama openai llama-server messages" -- "${cur}"))
                    return 0
                    ;;
                --max-buffer)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-count)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -m)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --shape)
                    COMPREPLY=($(compgen -W "native openai ollama" -- "${cur}"))
                    return 0
                    ;;
                --tools)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-tools-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-schema-depth)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-schema-checks)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-json5-depth)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --unknown-risk)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --auto-approve)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        toolcall__subcmd__render)
            opts="-h --help tools result call families help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        toolcall__subcmd__render__subcmd__call)
            opts="-h --family --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --family)
                    COMPREPLY=($(compgen -W "hermes qwen3-coder-xml glm4-moe functionary fenced-tool-call fenced-json bare-json llama3-json xlam granite cohere internlm jamba minimax minimax-m2 minimax-m3 seed-oss longcat nemotron-toolcall inkling hunyuan-v4 ernie45 mistral deepseek-v3 deepseek-v3.1 deepseek-dsml kimi-k2 kimi-k3 step3 harmony pythonic lfm2 olmo3 llama-python-tag phi4-mini functionary-v3.2 gemini-function-call sarashina apertus gigachat3 minicpm5 solar-open plamo3 iquest dots k2-v3 glm53-flash muse-glimmer prompt-wrapper qwen3 qwen3-thinking qwq qwen2.5 hermes-3 hermes-2-pro qwen3-coder qwen3.5 qwen3.6 qwen3.8 glm-4.5 glm-4.6 glm-4.7 glm-5 llama-3.1 llama-3.2 llama-3.3 xlam-2 granite-3 command-r command-a minimax-m2 seed-oss mistral magistral ministral devstral mixtral deepseek-r1 deepseek-v3-0324 deepseek-v3.1 deepseek-v3.1-thinking deepseek-v3.2-exp deepseek-v3.2 deepseek-v3.2-thinking deepseek-v4 deepseek-v4-thinking deepseek-v4.1 deepseek-v4.1-thinking kimi-k2 kimi-k2-thinking kimi-k2.5 kimi-k2.6 kimi-k3 gpt-oss llama-4 lfm2 olmo-3 phi-4-mini gemma-4 functiongemma gigachat3 gigachat-3 minicpm5 glm-5.3-flash gemma-3" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        toolcall__subcmd__render__subcmd__families)
            opts="-h --json --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        toolcall__subcmd__render__subcmd__help)
            opts="tools result call families help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        toolcall__subcmd__render__subcmd__help__subcmd__call)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        toolcall__subcmd__render__subcmd__help__subcmd__families)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        toolcall__subcmd__render__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        toolcall__subcmd__render__subcmd__help__subcmd__result)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        toolcall__subcmd__render__subcmd__help__subcmd__tools)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        toolcall__subcmd__render__subcmd__result)
            opts="-h --family --id --name --server --error --ndjson --max-tokens --body --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --family)
                    COMPREPLY=($(compgen -W "hermes qwen3-coder-xml glm4-moe functionary fenced-tool-call fenced-json bare-json llama3-json xlam granite cohere internlm jamba minimax minimax-m2 minimax-m3 seed-oss longcat nemotron-toolcall inkling hunyuan-v4 ernie45 mistral deepseek-v3 deepseek-v3.1 deepseek-dsml kimi-k2 kimi-k3 step3 harmony pythonic lfm2 olmo3 llama-python-tag phi4-mini functionary-v3.2 gemini-function-call sarashina apertus gigachat3 minicpm5 solar-open plamo3 iquest dots k2-v3 glm53-flash muse-glimmer prompt-wrapper qwen3 qwen3-thinking qwq qwen2.5 hermes-3 hermes-2-pro qwen3-coder qwen3.5 qwen3.6 qwen3.8 glm-4.5 glm-4.6 glm-4.7 glm-5 llama-3.1 llama-3.2 llama-3.3 xlam-2 granite-3 command-r command-a minimax-m2 seed-oss mistral magistral ministral devstral mixtral deepseek-r1 deepseek-v3-0324 deepseek-v3.1 deepseek-v3.1-thinking deepseek-v3.2-exp deepseek-v3.2 deepseek-v3.2-thinking deepseek-v4 deepseek-v4-thinking deepseek-v4.1 deepseek-v4.1-thinking kimi-k2 kimi-k2-thinking kimi-k2.5 kimi-k2.6 kimi-k3 gpt-oss llama-4 lfm2 olmo-3 phi-4-mini gemma-4 functiongemma gigachat3 gigachat-3 minicpm5 glm-5.3-flash gemma-3" -- "${cur}"))
                    return 0
                    ;;
                --id)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --name)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --server)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-tokens)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        toolcall__subcmd__render__subcmd__tools)
            opts="-h --family --server --max-tools-size --max-schema-depth --max-schema-checks --max-json5-depth --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --family)
                    COMPREPLY=($(compgen -W "hermes qwen3-coder-xml glm4-moe functionary fenced-tool-call fenced-json bare-json llama3-json xlam granite cohere internlm jamba minimax minimax-m2 minimax-m3 seed-oss longcat nemotron-toolcall inkling hunyuan-v4 ernie45 mistral deepseek-v3 deepseek-v3.1 deepseek-dsml kimi-k2 kimi-k3 step3 harmony pythonic lfm2 olmo3 llama-python-tag phi4-mini functionary-v3.2 gemini-function-call sarashina apertus gigachat3 minicpm5 solar-open plamo3 iquest dots k2-v3 glm53-flash muse-glimmer prompt-wrapper qwen3 qwen3-thinking qwq qwen2.5 hermes-3 hermes-2-pro qwen3-coder qwen3.5 qwen3.6 qwen3.8 glm-4.5 glm-4.6 glm-4.7 glm-5 llama-3.1 llama-3.2 llama-3.3 xlam-2 granite-3 command-r command-a minimax-m2 seed-oss mistral magistral ministral devstral mixtral deepseek-r1 deepseek-v3-0324 deepseek-v3.1 deepseek-v3.1-thinking deepseek-v3.2-exp deepseek-v3.2 deepseek-v3.2-thinking deepseek-v4 deepseek-v4-thinking deepseek-v4.1 deepseek-v4.1-thinking kimi-k2 kimi-k2-thinking kimi-k2.5 kimi-k2.6 kimi-k3 gpt-oss llama-4 lfm2 olmo-3 phi-4-mini gemma-4 functiongemma gigachat3 gigachat-3 minicpm5 glm-5.3-flash gemma-3" -- "${cur}"))
                    return 0
                    ;;
                --server)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-tools-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-schema-depth)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-schema-checks)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-json5-depth)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        toolcall__subcmd__repair)
            opts="-h --lines --report --max-depth --timeout-ms --max-size --max-input --text-as-string --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --max-depth)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --timeout-ms)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-input)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        toolcall__subcmd__split)
            opts="-j -s -L -g -a -f -v -h --lines --field --threads --jobs --max-input --no-messages --follow --hidden --no-ignore --glob --binary --format --no-json-blocks --inline-json --no-repair --repair-max-size --reasoning-calls --think-open --think-window --generation-prompt --model --finish-reason --max-block --max-errors-per-block --label --input --max-buffer --line-buffered --block-buffered --fail-on-error --pretty --no-call-ok --text --tools --max-tools-size --max-schema-depth --max-schema-checks --max-json5-depth --no-strict --strict --unknown-risk --auto-approve --config --no-config --verbose --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --field)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --jobs)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --threads)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -j)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-input)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --glob)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -g)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "auto hermes qwen3-coder-xml glm4-moe functionary fenced-tool-call fenced-json bare-json llama3-json xlam granite cohere internlm jamba minimax minimax-m2 minimax-m3 seed-oss longcat nemotron-toolcall inkling hunyuan-v4 ernie45 mistral deepseek-v3 deepseek-v3.1 deepseek-dsml kimi-k2 kimi-k3 step3 harmony pythonic lfm2 olmo3 llama-python-tag phi4-mini functionary-v3.2 gemini-function-call sarashina apertus gigachat3 minicpm5 solar-open plamo3 iquest dots k2-v3 glm53-flash muse-glimmer prompt-wrapper qwen3 qwen3-thinking qwq qwen2.5 hermes-3 hermes-2-pro qwen3-coder qwen3.5 qwen3.6 qwen3.8 glm-4.5 glm-4.6 glm-4.7 glm-5 llama-3.1 llama-3.2 llama-3.3 xlam-2 granite-3 command-r command-a minimax-m2 seed-oss mistral magistral ministral devstral mixtral deepseek-r1 deepseek-v3-0324 deepseek-v3.1 deepseek-v3.1-thinking deepseek-v3.2-exp deepseek-v3.2 deepseek-v3.2-thinking deepseek-v4 deepseek-v4-thinking deepseek-v4.1 deepseek-v4.1-thinking kimi-k2 kimi-k2-thinking kimi-k2.5 kimi-k2.6 kimi-k3 gpt-oss llama-4 lfm2 olmo-3 phi-4-mini gemma-4 functiongemma gigachat3 gigachat-3 minicpm5 glm-5.3-flash gemma-3" -- "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -W "auto hermes qwen3-coder-xml glm4-moe functionary fenced-tool-call fenced-json bare-json llama3-json xlam granite cohere internlm jamba minimax minimax-m2 minimax-m3 seed-oss longcat nemotron-toolcall inkling hunyuan-v4 ernie45 mistral deepseek-v3 deepseek-v3.1 deepseek-dsml kimi-k2 kimi-k3 step3 harmony pythonic lfm2 olmo3 llama-python-tag phi4-mini functionary-v3.2 gemini-function-call sarashina apertus gigachat3 minicpm5 solar-open plamo3 iquest dots k2-v3 glm53-flash muse-glimmer prompt-wrapper qwen3 qwen3-thinking qwq qwen2.5 hermes-3 hermes-2-pro qwen3-coder qwen3.5 qwen3.6 qwen3.8 glm-4.5 glm-4.6 glm-4.7 glm-5 llama-3.1 llama-3.2 llama-3.3 xlam-2 granite-3 command-r command-a minimax-m2 seed-oss mistral magistral ministral devstral mixtral deepseek-r1 deepseek-v3-0324 deepseek-v3.1 deepseek-v3.1-thinking deepseek-v3.2-exp deepseek-v3.2 deepseek-v3.2-thinking deepseek-v4 deepseek-v4-thinking deepseek-v4.1 deepseek-v4.1-thinking kimi-k2 kimi-k2-thinking kimi-k2.5 kimi-k2.6 kimi-k3 gpt-oss llama-4 lfm2 olmo-3 phi-4-mini gemma-4 functiongemma gigachat3 gigachat-3 minicpm5 glm-5.3-flash gemma-3" -- "${cur}"))
                    return 0
                    ;;
                --repair-max-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --think-window)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --generation-prompt)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --model)
                    COMPREPLY=($(compgen -W "qwen3 qwen3-thinking qwq qwen2.5 hermes-3 hermes-2-pro qwen3-coder qwen3.5 qwen3.6 qwen3.8 glm-4.5 glm-4.6 glm-4.7 glm-5 llama-3.1 llama-3.2 llama-3.3 xlam-2 granite-3 command-r command-a minimax-m2 seed-oss mistral magistral ministral devstral mixtral deepseek-r1 deepseek-v3-0324 deepseek-v3.1 deepseek-v3.1-thinking deepseek-v3.2-exp deepseek-v3.2 deepseek-v3.2-thinking deepseek-v4 deepseek-v4-thinking deepseek-v4.1 deepseek-v4.1-thinking kimi-k2 kimi-k2-thinking kimi-k2.5 kimi-k2.6 kimi-k3 gpt-oss llama-4 lfm2 olmo-3 phi-4-mini gemma-4 functiongemma gigachat3 gigachat-3 minicpm5 glm-5.3-flash gemma-3" -- "${cur}"))
                    return 0
                    ;;
                --finish-reason)
                    COMPREPLY=($(compgen -W "stop length" -- "${cur}"))
                    return 0
                    ;;
                --max-block)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-errors-per-block)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --label)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --input)
                    COMPREPLY=($(compgen -W "auto text terminal ollama openai llama-server messages" -- "${cur}"))
                    return 0
                    ;;
                --max-buffer)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --tools)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-tools-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-schema-depth)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-schema-checks)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-json5-depth)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --unknown-risk)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --auto-approve)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        toolcall__subcmd__stream)
            opts="-f -v -h --format --no-json-blocks --inline-json --no-repair --repair-max-size --reasoning-calls --think-open --think-window --generation-prompt --model --finish-reason --max-block --max-errors-per-block --label --input --max-buffer --block-buffered --chunk-size --tools --max-tools-size --max-schema-depth --max-schema-checks --max-json5-depth --no-strict --strict --unknown-risk --auto-approve --config --no-config --verbose --fail-on-error --pretty --no-call-ok --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --format)
                    COMPREPLY=($(compgen -W "auto hermes qwen3-coder-xml glm4-moe functionary fenced-tool-call fenced-json bare-json llama3-json xlam granite cohere internlm jamba minimax minimax-m2 minimax-m3 seed-oss longcat nemotron-toolcall inkling hunyuan-v4 ernie45 mistral deepseek-v3 deepseek-v3.1 deepseek-dsml kimi-k2 kimi-k3 step3 harmony pythonic lfm2 olmo3 llama-python-tag phi4-mini functionary-v3.2 gemini-function-call sarashina apertus gigachat3 minicpm5 solar-open plamo3 iquest dots k2-v3 glm53-flash muse-glimmer prompt-wrapper qwen3 qwen3-thinking qwq qwen2.5 hermes-3 hermes-2-pro qwen3-coder qwen3.5 qwen3.6 qwen3.8 glm-4.5 glm-4.6 glm-4.7 glm-5 llama-3.1 llama-3.2 llama-3.3 xlam-2 granite-3 command-r command-a minimax-m2 seed-oss mistral magistral ministral devstral mixtral deepseek-r1 deepseek-v3-0324 deepseek-v3.1 deepseek-v3.1-thinking deepseek-v3.2-exp deepseek-v3.2 deepseek-v3.2-thinking deepseek-v4 deepseek-v4-thinking deepseek-v4.1 deepseek-v4.1-thinking kimi-k2 kimi-k2-thinking kimi-k2.5 kimi-k2.6 kimi-k3 gpt-oss llama-4 lfm2 olmo-3 phi-4-mini gemma-4 functiongemma gigachat3 gigachat-3 minicpm5 glm-5.3-flash gemma-3" -- "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -W "auto hermes qwen3-coder-xml glm4-moe functionary fenced-tool-call fenced-json bare-json llama3-json xlam granite cohere internlm jamba minimax minimax-m2 minimax-m3 seed-oss longcat nemotron-toolcall inkling hunyuan-v4 ernie45 mistral deepseek-v3 deepseek-v3.1 deepseek-dsml kimi-k2 kimi-k3 step3 harmony pythonic lfm2 olmo3 llama-python-tag phi4-mini functionary-v3.2 gemini-function-call sarashina apertus gigachat3 minicpm5 solar-open plamo3 iquest dots k2-v3 glm53-flash muse-glimmer prompt-wrapper qwen3 qwen3-thinking qwq qwen2.5 hermes-3 hermes-2-pro qwen3-coder qwen3.5 qwen3.6 qwen3.8 glm-4.5 glm-4.6 glm-4.7 glm-5 llama-3.1 llama-3.2 llama-3.3 xlam-2 granite-3 command-r command-a minimax-m2 seed-oss mistral magistral ministral devstral mixtral deepseek-r1 deepseek-v3-0324 deepseek-v3.1 deepseek-v3.1-thinking deepseek-v3.2-exp deepseek-v3.2 deepseek-v3.2-thinking deepseek-v4 deepseek-v4-thinking deepseek-v4.1 deepseek-v4.1-thinking kimi-k2 kimi-k2-thinking kimi-k2.5 kimi-k2.6 kimi-k3 gpt-oss llama-4 lfm2 olmo-3 phi-4-mini gemma-4 functiongemma gigachat3 gigachat-3 minicpm5 glm-5.3-flash gemma-3" -- "${cur}"))
                    return 0
                    ;;
                --repair-max-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --think-window)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --generation-prompt)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --model)
                    COMPREPLY=($(compgen -W "qwen3 qwen3-thinking qwq qwen2.5 hermes-3 hermes-2-pro qwen3-coder qwen3.5 qwen3.6 qwen3.8 glm-4.5 glm-4.6 glm-4.7 glm-5 llama-3.1 llama-3.2 llama-3.3 xlam-2 granite-3 command-r command-a minimax-m2 seed-oss mistral magistral ministral devstral mixtral deepseek-r1 deepseek-v3-0324 deepseek-v3.1 deepseek-v3.1-thinking deepseek-v3.2-exp deepseek-v3.2 deepseek-v3.2-thinking deepseek-v4 deepseek-v4-thinking deepseek-v4.1 deepseek-v4.1-thinking kimi-k2 kimi-k2-thinking kimi-k2.5 kimi-k2.6 kimi-k3 gpt-oss llama-4 lfm2 olmo-3 phi-4-mini gemma-4 functiongemma gigachat3 gigachat-3 minicpm5 glm-5.3-flash gemma-3" -- "${cur}"))
                    return 0
                    ;;
                --finish-reason)
                    COMPREPLY=($(compgen -W "stop length" -- "${cur}"))
                    return 0
                    ;;
                --max-block)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-errors-per-block)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --label)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --input)
                    COMPREPLY=($(compgen -W "auto text terminal ollama openai llama-server messages" -- "${cur}"))
                    return 0
                    ;;
                --max-buffer)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --chunk-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --tools)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-tools-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-schema-depth)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-schema-checks)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-json5-depth)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --unknown-risk)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --auto-approve)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        toolcall__subcmd__validate)
            opts="-j -s -L -g -a -f -v -q -h --lines --field --threads --jobs --max-input --no-messages --follow --hidden --no-ignore --glob --binary --format --no-json-blocks --inline-json --no-repair --repair-max-size --reasoning-calls --think-open --think-window --generation-prompt --model --finish-reason --max-block --max-errors-per-block --label --input --max-buffer --tools --max-tools-size --max-schema-depth --max-schema-checks --max-json5-depth --no-strict --strict --unknown-risk --auto-approve --config --no-config --verbose --retry-cmd --max-retries --retry-timeout --retry-max-output --retry-template --retry-prompt --line-buffered --block-buffered --no-diagnostics --quiet --color --allow --messages-at --output-format --stats --keep --convert --max-conversation --verdicts --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --field)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --jobs)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --threads)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -j)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-input)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --glob)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -g)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "auto hermes qwen3-coder-xml glm4-moe functionary fenced-tool-call fenced-json bare-json llama3-json xlam granite cohere internlm jamba minimax minimax-m2 minimax-m3 seed-oss longcat nemotron-toolcall inkling hunyuan-v4 ernie45 mistral deepseek-v3 deepseek-v3.1 deepseek-dsml kimi-k2 kimi-k3 step3 harmony pythonic lfm2 olmo3 llama-python-tag phi4-mini functionary-v3.2 gemini-function-call sarashina apertus gigachat3 minicpm5 solar-open plamo3 iquest dots k2-v3 glm53-flash muse-glimmer prompt-wrapper qwen3 qwen3-thinking qwq qwen2.5 hermes-3 hermes-2-pro qwen3-coder qwen3.5 qwen3.6 qwen3.8 glm-4.5 glm-4.6 glm-4.7 glm-5 llama-3.1 llama-3.2 llama-3.3 xlam-2 granite-3 command-r command-a minimax-m2 seed-oss mistral magistral ministral devstral mixtral deepseek-r1 deepseek-v3-0324 deepseek-v3.1 deepseek-v3.1-thinking deepseek-v3.2-exp deepseek-v3.2 deepseek-v3.2-thinking deepseek-v4 deepseek-v4-thinking deepseek-v4.1 deepseek-v4.1-thinking kimi-k2 kimi-k2-thinking kimi-k2.5 kimi-k2.6 kimi-k3 gpt-oss llama-4 lfm2 olmo-3 phi-4-mini gemma-4 functiongemma gigachat3 gigachat-3 minicpm5 glm-5.3-flash gemma-3" -- "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -W "auto hermes qwen3-coder-xml glm4-moe functionary fenced-tool-call fenced-json bare-json llama3-json xlam granite cohere internlm jamba minimax minimax-m2 minimax-m3 seed-oss longcat nemotron-toolcall inkling hunyuan-v4 ernie45 mistral deepseek-v3 deepseek-v3.1 deepseek-dsml kimi-k2 kimi-k3 step3 harmony pythonic lfm2 olmo3 llama-python-tag phi4-mini functionary-v3.2 gemini-function-call sarashina apertus gigachat3 minicpm5 solar-open plamo3 iquest dots k2-v3 glm53-flash muse-glimmer prompt-wrapper qwen3 qwen3-thinking qwq qwen2.5 hermes-3 hermes-2-pro qwen3-coder qwen3.5 qwen3.6 qwen3.8 glm-4.5 glm-4.6 glm-4.7 glm-5 llama-3.1 llama-3.2 llama-3.3 xlam-2 granite-3 command-r command-a minimax-m2 seed-oss mistral magistral ministral devstral mixtral deepseek-r1 deepseek-v3-0324 deepseek-v3.1 deepseek-v3.1-thinking deepseek-v3.2-exp deepseek-v3.2 deepseek-v3.2-thinking deepseek-v4 deepseek-v4-thinking deepseek-v4.1 deepseek-v4.1-thinking kimi-k2 kimi-k2-thinking kimi-k2.5 kimi-k2.6 kimi-k3 gpt-oss llama-4 lfm2 olmo-3 phi-4-mini gemma-4 functiongemma gigachat3 gigachat-3 minicpm5 glm-5.3-flash gemma-3" -- "${cur}"))
                    return 0
                    ;;
                --repair-max-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --think-window)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --generation-prompt)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --model)
                    COMPREPLY=($(compgen -W "qwen3 qwen3-thinking qwq qwen2.5 hermes-3 hermes-2-pro qwen3-coder qwen3.5 qwen3.6 qwen3.8 glm-4.5 glm-4.6 glm-4.7 glm-5 llama-3.1 llama-3.2 llama-3.3 xlam-2 granite-3 command-r command-a minimax-m2 seed-oss mistral magistral ministral devstral mixtral deepseek-r1 deepseek-v3-0324 deepseek-v3.1 deepseek-v3.1-thinking deepseek-v3.2-exp deepseek-v3.2 deepseek-v3.2-thinking deepseek-v4 deepseek-v4-thinking deepseek-v4.1 deepseek-v4.1-thinking kimi-k2 kimi-k2-thinking kimi-k2.5 kimi-k2.6 kimi-k3 gpt-oss llama-4 lfm2 olmo-3 phi-4-mini gemma-4 functiongemma gigachat3 gigachat-3 minicpm5 glm-5.3-flash gemma-3" -- "${cur}"))
                    return 0
                    ;;
                --finish-reason)
                    COMPREPLY=($(compgen -W "stop length" -- "${cur}"))
                    return 0
                    ;;
                --max-block)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-errors-per-block)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --label)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --input)
                    COMPREPLY=($(compgen -W "auto text terminal ollama openai llama-server messages" -- "${cur}"))
                    return 0
                    ;;
                --max-buffer)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --tools)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-tools-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-schema-depth)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-schema-checks)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-json5-depth)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --unknown-risk)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --auto-approve)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --retry-cmd)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-retries)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --retry-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --retry-max-output)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --retry-template)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --allow)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --messages-at)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output-format)
                    COMPREPLY=($(compgen -W "records github sarif junit json" -- "${cur}"))
                    return 0
                    ;;
                --keep)
                    COMPREPLY=($(compgen -W "valid invalid" -- "${cur}"))
                    return 0
                    ;;
                --convert)
                    COMPREPLY=($(compgen -W "openai" -- "${cur}"))
                    return 0
                    ;;
                --max-conversation)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
    esac
}

if [[ "${BASH_VERSINFO[0]}" -eq 4 && "${BASH_VERSINFO[1]}" -ge 4 || "${BASH_VERSINFO[0]}" -gt 4 ]]; then
    complete -F _toolcall -o nosort -o bashdefault -o default toolcall
else
    complete -F _toolcall -o bashdefault -o default toolcall
fi
