//! Tool-definition blocks for the system (or developer) prompt
//! (`render tools`).
//!
//! Each function renders the block a family's chat template puts in the
//! prompt when tools are offered: the definitions plus the template's
//! instruction on how to call them. Role tokens around the system message
//! are left out: the block is meant to be placed in a system prompt, which
//! the model server wraps itself.

use super::text::{
    json_indent, json_sorted, json_spaced, properties, py_literal, ts_declaration, value_text,
};
use super::{CallSpec, Family};
use crate::tool::Tool;
use serde_json::{json, Map, Value};

/// `{"type": "function", "function": {"name", "description", "parameters"}}`.
pub fn openai_json(t: &Tool) -> Value {
    json!({"type": "function", "function": plain_json(t)})
}

/// `{"name", "description", "parameters"}` (no description key when absent).
pub fn plain_json(t: &Tool) -> Value {
    let mut m = Map::new();
    m.insert("name".into(), json!(t.name));
    if let Some(d) = &t.description {
        m.insert("description".into(), json!(d));
    }
    m.insert("parameters".into(), t.parameters.clone());
    Value::Object(m)
}

fn lines(tools: &[Tool], f: impl Fn(&Tool) -> Value) -> String {
    tools
        .iter()
        .map(|t| json_spaced(&f(t)))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The placeholder call the instructions show as the example.
fn example_call() -> CallSpec {
    let mut arguments = Map::new();
    arguments.insert("argument_name".into(), json!("value"));
    CallSpec {
        name: "function_name".into(),
        arguments,
        id: None,
    }
}

/// The generic block for families whose template text we do not know (or
/// that have none): the definitions in `<tools>` as JSON lines, and the
/// family's own call syntax as the example, rendered by its call writer.
///
/// Used for `minimax-m3`, `longcat`, `hunyuan-v4`, `ernie45`, `step3` and
/// `sarashina`: no chat template of these models was found in the searched
/// sources (vllm-project/vllm `examples/`, ggml-org/llama.cpp
/// `models/templates/`, sgl-project/sglang `examples/chat_template/`, and a
/// code search for their markers, which only turned up parsers).
pub fn generic(family: &Family, tools: &[Tool]) -> String {
    format!(
        "# Tools\n\nYou may call one or more functions to assist with the user query.\n\n\
         You are provided with function signatures within <tools></tools> XML tags:\n\
         <tools>\n{}\n</tools>\n\n\
         To call a function, reply in exactly this format (one block per call):\n{}",
        lines(tools, openai_json),
        (family.call)(&[example_call()])
    )
}

/// Qwen 2.5 / Qwen 3 (`hermes`).
pub fn hermes(_: &Family, tools: &[Tool]) -> String {
    format!(
        "# Tools\n\nYou may call one or more functions to assist with the user query.\n\n\
         You are provided with function signatures within <tools></tools> XML tags:\n\
         <tools>\n{}\n</tools>\n\n\
         For each function call, return a json object with function name and arguments \
         within <tool_call></tool_call> XML tags:\n\
         <tool_call>\n{{\"name\": <function-name>, \"arguments\": <args-json-object>}}\n</tool_call>",
        lines(tools, openai_json)
    )
}

/// The template's `render_extra_keys`: every key not handled elsewhere, as
/// `<key>VALUE</key>` on its own line; objects and arrays as `tojson`,
/// scalars as Python's `str` (`True`, `None`).
fn qwen3_extra_keys(s: &mut String, v: &Value, handled: &[&str]) {
    let Value::Object(m) = v else { return };
    for (k, x) in m {
        if handled.contains(&k.as_str()) {
            continue;
        }
        let text = match x {
            Value::Object(_) | Value::Array(_) => json_spaced(x),
            other => py_str_value(other),
        };
        s.push_str(&format!("\n<{k}>{text}</{k}>"));
    }
}

/// A value as Jinja's `string` filter writes it (Python `str`).
fn py_str_value(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Array(_) | Value::Object(_) => py_literal(v, '\''),
        other => py_literal(other, '\''),
    }
}

/// Qwen3-Coder (`qwen3-coder-xml`): XML function declarations.
///
/// Checked against vllm-project/vllm `examples/tool_chat_template_qwen3coder.jinja`
/// (Qwen3-Coder's template): `<function>`, `<name>`, `<description>`,
/// `<parameters>` with one `<parameter>` per property (`<name>`, `<type>`,
/// `<description>`, then every other schema key such as `<enum>` or
/// `<default>`), then the parameters' other keys (`<required>`), then the
/// fixed call-format instruction. The template joins it to the system text
/// with a blank line.
pub fn qwen3_coder(_: &Family, tools: &[Tool]) -> String {
    let mut s = String::from("# Tools\n\nYou have access to the following functions:\n\n<tools>");
    for t in tools {
        s.push_str(&format!("\n<function>\n<name>{}</name>", t.name));
        if let Some(d) = &t.description {
            s.push_str(&format!("\n<description>{}</description>", d.trim()));
        }
        s.push_str("\n<parameters>");
        for (k, schema, _) in properties(&t.parameters) {
            s.push_str(&format!("\n<parameter>\n<name>{k}</name>"));
            if let Some(ty) = schema.get("type") {
                s.push_str(&format!("\n<type>{}</type>", py_str_value(ty)));
            }
            if let Some(d) = schema.get("description") {
                s.push_str(&format!(
                    "\n<description>{}</description>",
                    py_str_value(d).trim()
                ));
            }
            qwen3_extra_keys(&mut s, schema, &["name", "type", "description"]);
            s.push_str("\n</parameter>");
        }
        qwen3_extra_keys(&mut s, &t.parameters, &["type", "properties"]);
        s.push_str("\n</parameters>\n</function>");
    }
    s.push_str(
        "\n</tools>\n\n\
         If you choose to call a function ONLY reply in the following format with NO suffix:\n\n\
         <tool_call>\n<function=example_function_name>\n<parameter=example_parameter_1>\nvalue_1\n</parameter>\n\
         <parameter=example_parameter_2>\nThis is the value for the second parameter\nthat can span\nmultiple lines\n\
         </parameter>\n</function>\n</tool_call>\n\n\
         <IMPORTANT>\nReminder:\n\
         - Function calls MUST follow the specified format: an inner <function=...></function> block \
         must be nested within <tool_call></tool_call> XML tags\n\
         - Required parameters MUST be specified\n\
         - You may provide optional reasoning for your function call in natural language BEFORE the \
         function call, but NOT after\n\
         - If there is no function call available, answer the question like normal with your current \
         knowledge and do not tell the user about function calls\n</IMPORTANT>",
    );
    s
}

/// GLM-4.5 and later (`glm4-moe`).
pub fn glm4_moe(_: &Family, tools: &[Tool]) -> String {
    format!(
        "# Tools\n\nYou may call one or more functions to assist with the user query.\n\n\
         You are provided with function signatures within <tools></tools> XML tags:\n\
         <tools>\n{}\n</tools>\n\n\
         For each function call, output the function name and arguments within the following XML format:\n\
         <tool_call>{{function-name}}\n<arg_key>{{arg-key-1}}</arg_key>\n<arg_value>{{arg-value-1}}</arg_value>\n\
         <arg_key>{{arg-key-2}}</arg_key>\n<arg_value>{{arg-value-2}}</arg_value>\n...\n</tool_call>",
        lines(tools, openai_json)
    )
}

/// Functionary v3.1 / Llama 3.1 custom tools (`functionary`): the function
/// list and `<function=…>` instruction of the system message.
///
/// Checked against MeetKai/functionary
/// `functionary/prompt_template/jinja_templates/v3-llama3.1.txt`: per tool
/// `Use the function 'NAME' to 'DESCRIPTION'` and the function object as
/// `tojson`, each followed by a blank line, then the template's fixed
/// instruction (quoted as it emits it, typo included). The template puts a
/// newline before the block (after the knowledge-date line) and a blank
/// line after it, before `<|eot_id|>`; both are left out.
pub fn functionary(_: &Family, tools: &[Tool]) -> String {
    let mut s = String::from("You have access to the following functions:\n\n");
    for t in tools {
        s.push_str(&format!(
            "Use the function '{}' to '{}'\n{}\n\n",
            t.name,
            t.description.as_deref().unwrap_or(""),
            json_spaced(&plain_json(t))
        ));
    }
    s.push_str(
        "\nThink very carefully before calling functions.\n\
         If a you choose to call a function ONLY reply in the following format:\n\
         <{start_tag}={function_name}>{parameters}{end_tag}\nwhere\n\n\
         start_tag => `<function`\n\
         parameters => a JSON dict with the function argument name as key and function argument value as value.\n\
         end_tag => `</function>`\n\n\
         Here is an example,\n\
         <function=example_function_name>{\"example_name\": \"example_value\"}</function>\n\n\
         Reminder:\n\
         - If looking for real time information use relevant functions before falling back to brave_search\n\
         - Function calls MUST follow the specified format, start with <function= and end with </function>\n\
         - Required parameters MUST be specified\n\
         - Only call one function at a time\n\
         - Put the entire function call reply on one line",
    );
    s
}

/// Llama 3.1–3.3 JSON tool calling (`llama3-json`): the user-message block.
///
/// Checked against vllm-project/vllm `examples/tool_chat_template_llama3.1_json.jinja`
/// (tools in the first user message, its default): the fixed instruction,
/// then each tool as given (OpenAI shape) `tojson(indent=4)`. The template
/// follows each tool with a blank line and then the user's first message.
pub fn llama3_json(_: &Family, tools: &[Tool]) -> String {
    let defs: Vec<String> = tools
        .iter()
        .map(|t| json_indent(&openai_json(t), 4))
        .collect();
    format!(
        "Given the following functions, please respond with a JSON for a function call with its \
         proper arguments that best answers the given prompt.\n\n\
         Respond in the format {{\"name\": function name, \"parameters\": dictionary of argument name \
         and its value}}. Do not use variables.\n\n{}",
        defs.join("\n\n")
    )
}

/// Pythonic calls (`pythonic`): the Llama 3.2 pythonic system block.
///
/// Checked against vllm-project/vllm `examples/tool_chat_template_llama3.2_pythonic.jinja`
/// (tools in the system message, its default): the fixed instruction, then
/// each tool as given (OpenAI shape) `tojson(indent=4)`. The template
/// follows each tool with a blank line, then the system text.
pub fn pythonic(_: &Family, tools: &[Tool]) -> String {
    let defs: Vec<String> = tools
        .iter()
        .map(|t| json_indent(&openai_json(t), 4))
        .collect();
    format!(
        "You have access to the following functions. To call functions, please respond with a python \
         list of the calls. Respond in the format [func_name1(params_name1=params_value1, \
         params_name2=params_value2...), func_name2(params)] Do not use variables.\n\n{}",
        defs.join("\n\n")
    )
}

/// Mistral: `[AVAILABLE_TOOLS]` JSON array `[/AVAILABLE_TOOLS]`.
pub fn mistral(_: &Family, tools: &[Tool]) -> String {
    let arr = Value::Array(tools.iter().map(openai_json).collect());
    format!("[AVAILABLE_TOOLS]{}[/AVAILABLE_TOOLS]", json_spaced(&arr))
}

fn ts_namespace(tools: &[Tool]) -> String {
    let mut s = String::from("namespace functions {\n\n");
    for t in tools {
        s.push_str(&ts_declaration(
            &t.name,
            t.description.as_deref(),
            &t.parameters,
        ));
        s.push('\n');
    }
    s.push_str("} // namespace functions");
    s
}

/// gpt-oss (`harmony`): the `# Tools` section of the developer message.
pub fn harmony(_: &Family, tools: &[Tool]) -> String {
    format!("# Tools\n\n## functions\n\n{}", ts_namespace(tools))
}

/// Functionary v3.2 (`functionary-v3.2`): the system message, with the
/// tools as a TypeScript namespace.
///
/// Checked against MeetKai/functionary
/// `functionary/prompt_template/jinja_templates/v3.llama3.txt` (the fixed
/// system text, quoted as the template emits it) and `json_to_ts_schema.txt`
/// (`generate_schema_from_functions`): per parameter a `//` comment with the
/// description (a period added), ` Default=…`, ` Format=…` and limits, then
/// `name?: type,`; nested objects indented by four spaces per level.
pub fn functionary_v3_2(_: &Family, tools: &[Tool]) -> String {
    let mut s = String::from(
        "You are capable of executing available function(s) if required.\n\
         Only execute function(s) when absolutely necessary.\n\
         Ask for the required input to:recipient==all\n\
         Use JSON for function arguments.\n\
         Respond in this format:\n>>>${recipient}\n${content}\n\
         Available functions:\n\
         // Supported function definitions that should be called when necessary.\n\
         namespace functions {\n\n",
    );
    for t in tools {
        s.push_str(&format!(
            "// {}\ntype {}",
            t.description.as_deref().unwrap_or(""),
            t.name
        ));
        let has_props = t
            .parameters
            .get("properties")
            .and_then(Value::as_object)
            .is_some_and(|m| !m.is_empty());
        if has_props {
            s.push_str(" = (_: {");
            s.push_str(&fn_ts_params(&t.parameters, 0));
            s.push_str("\n}) => any;\n\n");
        } else {
            s.push_str(" = () => any;\n\n");
        }
    }
    s.push_str("} // namespace functions");
    s
}

/// Functionary's `get_param_type`: the `type` (a list joined by ` | `),
/// or the distinct `oneOf` types; `integer` and `float` become `number`.
fn fn_ts_type(p: &Value) -> String {
    let conv = |t: String| {
        if t == "integer" || t == "float" {
            "number".to_string()
        } else {
            t
        }
    };
    match p.get("type") {
        Some(Value::Array(ts)) => conv(ts.iter().map(value_text).collect::<Vec<_>>().join(" | ")),
        Some(t) => conv(value_text(t)),
        None => match p.get("oneOf").and_then(Value::as_array) {
            Some(alts) => {
                let mut seen: Vec<String> = Vec::new();
                for a in alts {
                    if let Some(t) = a.get("type") {
                        let t = value_text(t);
                        if !seen.contains(&t) {
                            seen.push(t);
                        }
                    }
                }
                conv(seen.join(" | "))
            }
            None => String::new(),
        },
    }
}

/// Functionary's `get_param_info`: the `//` comment line, if any.
fn fn_ts_comment(p: &Value) -> Option<String> {
    let format = match p.get("format") {
        Some(f) => Some(value_text(f)),
        None => p.get("oneOf").and_then(Value::as_array).and_then(|alts| {
            let fs: Vec<String> = alts
                .iter()
                .filter_map(|a| a.get("format").map(value_text))
                .collect();
            (!fs.is_empty()).then(|| fs.join(" or "))
        }),
    };
    let limits = ["maximum", "minimum", "maxLength", "minLength"];
    let truthy = |k: &str| {
        p.get(k)
            .is_some_and(|v| !(v.is_null() || v == &json!(0) || v == &json!(false)))
    };
    if p.get("description").is_none()
        && p.get("default").is_none()
        && format.is_none()
        && !limits.iter().any(|k| truthy(k))
    {
        return None;
    }
    let mut c = String::from("//");
    if let Some(d) = p.get("description") {
        let mut d = value_text(d);
        if !d.ends_with('.') {
            d.push('.');
        }
        c.push(' ');
        c.push_str(&d);
    }
    if let Some(def) = p.get("default") {
        let is_string = p.get("type").and_then(Value::as_str).unwrap_or("any") == "string";
        let text = py_str_value(def);
        let text = if is_string {
            format!("\"{text}\"")
        } else {
            text
        };
        c.push_str(&format!(" Default={text}."));
    }
    if let Some(f) = format {
        c.push_str(&format!(" Format={f}"));
    }
    for (k, label) in [
        ("maximum", "Maximum"),
        ("minimum", "Minimum"),
        ("maxLength", "Maximum length"),
        ("minLength", "Minimum length"),
    ] {
        if let Some(v) = p.get(k) {
            c.push_str(&format!(" {label}={}", py_str_value(v)));
        }
    }
    Some(c)
}

/// Functionary's `get_enum_option_str`: strings quoted, ` | ` between.
fn fn_ts_enum(vals: &[Value]) -> String {
    vals.iter()
        .map(|v| match v {
            Value::String(s) => format!("\"{s}\""),
            other => py_str_value(other),
        })
        .collect::<Vec<_>>()
        .join(" | ")
}

/// `// Example NAME:` and one `// EXAMPLE` line per example.
fn fn_ts_examples(name: &str, p: &Value, offset: &str) -> String {
    let mut s = String::new();
    if let Some(Value::Array(ex)) = p.get("examples") {
        s.push_str(&format!("\n{offset}// Example {name}:"));
        for e in ex {
            s.push_str(&format!(
                "\n{offset}// {}",
                py_str_value(e).replace('\'', "\"")
            ));
        }
    }
    s
}

/// Functionary's `get_parameter_typescript` for one object's properties.
fn fn_ts_params(schema: &Value, depth: usize) -> String {
    let offset = "    ".repeat(depth);
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let Some(props) = schema.get("properties").and_then(Value::as_object) else {
        return String::new();
    };
    let mut s = String::new();
    for (name, p) in props {
        if !p.is_object() {
            continue;
        }
        let decl = if required.contains(&name.as_str()) {
            name.clone()
        } else {
            format!("{name}?")
        };
        let comment = fn_ts_comment(p);
        let head = |s: &mut String| {
            if let Some(c) = &comment {
                s.push_str(&format!("\n{offset}{c}"));
                s.push_str(&fn_ts_examples(name, p, &offset));
            }
        };
        let ty = fn_ts_type(p);
        if ty == "object" {
            if let Some(c) = &comment {
                s.push_str(&format!("\n{offset}{c}"));
            }
            s.push_str(&fn_ts_examples(name, p, &offset));
            s.push_str(&format!("\n{offset}{decl}: {{"));
            s.push_str(&fn_ts_params(p, depth + 1));
            s.push_str(&format!("\n{offset}}},"));
        } else if ty == "array" {
            let items = p.get("items").cloned().unwrap_or(json!({}));
            if items.get("type").is_none() {
                head(&mut s);
                s.push_str(&format!("\n{offset}{decl}: [],"));
            } else {
                if let Some(c) = &comment {
                    s.push_str(&format!("\n{offset}{c}"));
                }
                s.push_str(&fn_ts_examples(name, p, &offset));
                let mut a = fn_ts_array(Some(&decl), p, depth);
                if !a.ends_with(',') {
                    a.push(',');
                }
                s.push_str(&a);
            }
        } else {
            let mut t = match p.get("enum").and_then(Value::as_array) {
                Some(vals) => fn_ts_enum(vals),
                None => ty,
            };
            if p.get("nullable").and_then(Value::as_bool) == Some(true) {
                t.push_str(" | null");
            }
            head(&mut s);
            s.push_str(&format!("\n{offset}{decl}: {t},"));
        }
    }
    s
}

/// Functionary's `get_array_typescript`.
fn fn_ts_array(name: Option<&str>, p: &Value, depth: usize) -> String {
    let offset = "    ".repeat(depth);
    let items = p.get("items").cloned().unwrap_or(json!({}));
    if items.as_object().is_none_or(|m| m.is_empty()) {
        return match name {
            Some(n) => format!("\n{offset}{n}: []"),
            None => format!("\n{offset}[]"),
        };
    }
    let ty = fn_ts_type(&items);
    if ty == "object" {
        let open = match name {
            Some(n) => format!("\n{offset}{n}: {{"),
            None => format!("\n{offset}{{"),
        };
        format!("{open}{}\n{offset}}}[]", fn_ts_params(&items, depth + 1))
    } else if ty == "array" {
        let inner = fn_ts_array(None, &items, depth + 1);
        match name {
            None => format!("\n{inner}[]"),
            Some(n) => format!("\n{offset}{n}: {}[]", inner.trim()),
        }
    } else if let Some(vals) = items.get("enum").and_then(Value::as_array) {
        let t = fn_ts_enum(vals);
        match name {
            None => format!("({t})[]"),
            Some(n) => format!("\n{offset}{n}: ({t})[]"),
        }
    } else {
        match name {
            None => format!("\n{ty}[]"),
            Some(n) => format!("\n{offset}{n}: {ty}[],"),
        }
    }
}

/// Granite 3.x: the `available_tools` role message.
///
/// Checked against vllm-project/vllm `examples/tool_chat_template_granite.jinja`:
/// `<|start_of_role|>available_tools<|end_of_role|>`, a newline, each tool
/// as given (OpenAI shape) `tojson(indent=4)` with a blank line between,
/// `<|end_of_text|>` (the template writes a newline after it). The message
/// comes before the system message; no instruction text.
pub fn granite(_: &Family, tools: &[Tool]) -> String {
    let defs: Vec<String> = tools
        .iter()
        .map(|t| json_indent(&openai_json(t), 4))
        .collect();
    format!(
        "<|start_of_role|>available_tools<|end_of_role|>\n{}<|end_of_text|>",
        defs.join("\n\n")
    )
}

/// Command R7B / Command A (`cohere`): the `## Available Tools` section.
///
/// Checked against ggml-org/llama.cpp
/// `models/templates/CohereForAI-c4ai-command-r7b-12-2024-tool_use.jinja`
/// (rendered with Hugging Face's Jinja settings): the section's fixed text,
/// then a ```` ```json ```` list with one line per tool, indented by four
/// spaces: `{"name": "NAME", "description": "DESCRIPTION", "parameters":
/// PARAMETERS, "responses": null}`, name and description inserted as is.
/// The template puts this inside its system preamble, after its `## Tool
/// Use` instructions (how to write `<|START_ACTION|>`), which are not
/// repeated here.
pub fn cohere(_: &Family, tools: &[Tool]) -> String {
    let mut s = String::from(
        "## Available Tools\nHere is the list of tools that you have available to you.\n\
         You can ONLY use the tools listed here. When a tool is not listed below, it is NOT available \
         and you should NEVER attempt to use it.\n\
         Each tool is represented as a JSON object with fields like \"name\", \"description\", \
         \"parameters\" (per JSON Schema), and optionally, \"responses\" (per JSON Schema).\n\n```json\n[\n",
    );
    let n = tools.len();
    for (i, t) in tools.iter().enumerate() {
        s.push_str(&format!(
            "    {{\"name\": \"{}\", \"description\": \"{}\", \"parameters\": {}, \"responses\": null}}{}\n",
            t.name,
            t.description.as_deref().unwrap_or(""),
            json_spaced(&t.parameters),
            if i + 1 < n { "," } else { "" }
        ));
    }
    s.push_str("]\n```");
    s
}

/// InternLM 2.5: the plugin system message.
///
/// Checked against vllm-project/vllm `examples/tool_chat_template_internlm2_tool.jinja`:
/// a system message named `<|plugin|>` holding the function objects as a
/// `tojson` list on one line (`, ` between), after the main system
/// message. No instruction text.
pub fn internlm(_: &Family, tools: &[Tool]) -> String {
    let arr = Value::Array(tools.iter().map(plain_json).collect());
    format!(
        "<|im_start|>system name=<|plugin|>\n{}<|im_end|>",
        json_spaced(&arr)
    )
}

/// Kimi K2: the `tool_declare` system message.
pub fn kimi_k2(_: &Family, tools: &[Tool]) -> String {
    let arr = Value::Array(tools.iter().map(openai_json).collect());
    format!(
        "<|im_system|>tool_declare<|im_middle|>{}<|im_end|>",
        json_spaced(&arr)
    )
}

fn deepseek_list(tools: &[Tool]) -> String {
    let mut s = String::from("## Tools\nYou have access to the following tools:\n");
    for t in tools {
        s.push_str(&format!(
            "\n### {}\nDescription: {}\n\nParameters: {}\n",
            t.name,
            t.description.as_deref().unwrap_or("").trim(),
            json_spaced(&t.parameters)
        ));
    }
    s
}

/// DeepSeek V3.1 (`deepseek-v3.1`).
pub fn deepseek_v3_1(_: &Family, tools: &[Tool]) -> String {
    format!(
        "{}\nIMPORTANT: ALWAYS adhere to this exact format for tool use:\n\
         <｜tool▁calls▁begin｜><｜tool▁call▁begin｜>tool_call_name<｜tool▁sep｜>tool_call_arguments\
         <｜tool▁call▁end｜>{{{{additional_tool_calls}}}}<｜tool▁calls▁end｜>\n\n\
         Where:\n\n\
         - `tool_call_name` must be an exact match to one of the available tools\n\
         - `tool_call_arguments` must be valid JSON that strictly follows the tool's Parameters Schema\n\
         - For multiple tool calls, chain them directly without separators or spaces",
        deepseek_list(tools)
    )
}

/// DeepSeek V3 / R1 (`deepseek-v3`): the `<tools>` list and the call-format
/// lines.
///
/// Follows vllm-project/vllm `examples/tool_chat_template_deepseekv3.jinja`
/// (vLLM's tool template for DeepSeek V3; DeepSeek's own template defines
/// no tools block): the definitions as `tojson` lines in `<tools>`, then
/// the three instruction lines. Approximate: rendered, that template also
/// leaves its source indentation and blank lines between the instruction
/// lines, which are left out here.
pub fn deepseek_v3(_: &Family, tools: &[Tool]) -> String {
    format!(
        "# Tools\n\nYou may call one or more functions to assist with the user query.\n\n\
         You are provided with function signatures within <tools></tools> XML tags:\n\
         <tools>\n{}\n</tools>\n\n\
         For function call returns, you should first print <｜tool▁calls▁begin｜>\n\n\
         For each function call, you should return object like:\n\
         <｜tool▁call▁begin｜>function<｜tool▁sep｜><function_name>\n```json\n\
         <function_arguments_in_json_format>\n```<｜tool▁call▁end｜>\n\n\
         At the end of function call returns, you should print <｜tool▁calls▁end｜><｜end▁of▁sentence｜>",
        lines(tools, openai_json)
    )
}

/// DeepSeek V3.2 (`deepseek-dsml`): the `## Tools` section.
///
/// Checked against ggml-org/llama.cpp `models/templates/DeepSeek-V3.2.jinja`
/// (`render_tools`): the fixed DSML instruction and thinking example, then
/// each tool as given (OpenAI shape) `tojson` on its own line inside
/// `<functions>`. The template puts it after the system text and a blank
/// line, and a newline after it.
pub fn deepseek_dsml(_: &Family, tools: &[Tool]) -> String {
    format!(
        "## Tools\n\nYou have access to a set of tools you can use to answer the user's question.\n\
         You can invoke functions by writing a \"<｜DSML｜function_calls>\" block like the following \
         as part of your reply to the user:\n\
         <｜DSML｜function_calls>\n<｜DSML｜invoke name=\"$FUNCTION_NAME\">\n\
         <｜DSML｜parameter name=\"$PARAMETER_NAME\" string=\"true|false\">$PARAMETER_VALUE</｜DSML｜parameter>\n\
         ...\n</｜DSML｜invoke>\n<｜DSML｜invoke name=\"$FUNCTION_NAME2\">\n...\n</｜DSML｜invoke>\n\
         </｜DSML｜function_calls>\n\n\
         String and scalar parameters should be specified as is without any escaping or quotes, while \
         lists and objects should use JSON format. The \"string\" attribute should be set to \"true\" \
         for string type parameters and \"false\" for other types (numbers, booleans, arrays, objects).\n\n\
         If the thinking_mode is enabled, then after function results you should strongly consider \
         outputting a thinking block. Here is an example:\n\n\
         <｜DSML｜function_calls>\n...\n</｜DSML｜function_calls>\n\n\
         <function_results>\n...\n</function_results>\n\n\
         <think>...thinking about results</think>\n\n\
         Here are the functions available in JSONSchema format:\n<functions>\n{}\n</functions>",
        lines(tools, openai_json)
    )
}

/// MiniMax-M2 (`minimax-m2`).
///
/// Checked against ggml-org/llama.cpp `models/templates/unsloth-MiniMax-M2.jinja`:
/// each function object `tojson` in `<tool>` on its own line inside
/// `<tools>`, then the fixed XML call instruction. The template joins it to
/// the system text with a blank line.
pub fn minimax_m2(_: &Family, tools: &[Tool]) -> String {
    let defs: Vec<String> = tools
        .iter()
        .map(|t| format!("<tool>{}</tool>", json_spaced(&plain_json(t))))
        .collect();
    format!(
        "# Tools\nYou may call one or more tools to assist with the user query.\n\
         Here are the tools available in JSONSchema format:\n\n<tools>\n{}\n</tools>\n\n\
         When making tool calls, use XML format to invoke tools and pass parameters:\n\n\
         <minimax:tool_call>\n<invoke name=\"tool-name-1\">\n\
         <parameter name=\"param-key-1\">param-value-1</parameter>\n\
         <parameter name=\"param-key-2\">param-value-2</parameter>\n...\n</invoke>\n</minimax:tool_call>",
        defs.join("\n")
    )
}

/// LFM2: the tool list between `<|tool_list_start|>` and `<|tool_list_end|>`.
///
/// Checked against ggml-org/llama.cpp `models/templates/llama-cpp-lfm2.jinja`:
/// `List of tools: ` then the tools as given (OpenAI shape), each `tojson`,
/// `, ` between, in brackets. The template puts it after the system text
/// and a newline.
pub fn lfm2(_: &Family, tools: &[Tool]) -> String {
    let arr = Value::Array(tools.iter().map(openai_json).collect());
    format!(
        "List of tools: <|tool_list_start|>{}<|tool_list_end|>",
        json_spaced(&arr)
    )
}

/// xLAM (`xlam`): the format instruction and the tools.
///
/// Checked against vllm-project/vllm `examples/tool_chat_template_xlam_llama.jinja`:
/// without a caller's system message the template writes its default one,
/// a newline, this fixed instruction (quoted as it emits it), a blank line
/// and each tool as given (OpenAI shape) `tojson(indent=4)` followed by a
/// blank line. With a caller's system message it writes only the tools.
pub fn xlam(_: &Family, tools: &[Tool]) -> String {
    let defs: Vec<String> = tools
        .iter()
        .map(|t| json_indent(&openai_json(t), 4))
        .collect();
    format!(
        "You have access to a set of tools. When using tools, make calls in a single JSON array: \n\n\
         [{{\"name\": \"tool_call_name\", \"arguments\": {{\"arg1\": \"value1\", \"arg2\": \"value2\"}}}}, \
         ... (additional parallel tool calls as needed)]\n\n\
         If no tool is suitable, state that explicitly. If the user's input lacks required parameters, \
         ask for clarification. Do not interpret or respond until tool results are returned. Once they \
         are available, process them or make additional calls if needed. For tasks that don't require \
         tools, such as casual conversation or general advice, respond directly in plain text. The \
         available tools are:\n\n{}",
        defs.join("\n\n")
    )
}

/// Llama-Nemotron (`nemotron-toolcall`): the tools and the call and
/// response format lines of the system message.
///
/// Checked against ggml-org/llama.cpp
/// `models/templates/nvidia-Llama-3_3-Nemotron-Super-49B-v1_5.jinja`: the
/// function objects `tojson` in `<AVAILABLE_TOOLS>[…]`, `, ` between, then
/// the fixed instruction. The doubled braces are in the template's string
/// literals and reach the prompt as written. The template puts the block
/// after the system text and a blank line.
pub fn nemotron(_: &Family, tools: &[Tool]) -> String {
    let arr = Value::Array(tools.iter().map(plain_json).collect());
    format!(
        "You can use the following tools to assist the user if required:\n\
         <AVAILABLE_TOOLS>{}</AVAILABLE_TOOLS>\n\n\
         If you decide to call any tool(s), use the following format:\n\
         <TOOLCALL>[{{{{\"name\": \"tool_name1\", \"arguments\": \"tool_args1\"}}}}, \
         {{{{\"name\": \"tool_name2\", \"arguments\": \"tool_args2\"}}}}]</TOOLCALL>\n\n\
         Response from tool(s) will be returned in this format:\n\
         <TOOL_RESPONSE>[{{{{\"response\": \"tool_response1\"}}}}, \
         {{{{\"response\": \"tool_response2\"}}}}]</TOOL_RESPONSE>\n\n\
         Based on the results returned by the tool(s), you can call additional tools if needed, \
         correct tool calls if any errors are found, or just respond with the answer to the user.",
        json_spaced(&arr)
    )
}

/// The fenced ```` ```tool_call ```` instruction (our own, for prompted
/// models without native tool tokens).
pub fn fenced_tool_call(_: &Family, tools: &[Tool]) -> String {
    let arr = Value::Array(tools.iter().map(plain_json).collect());
    format!(
        "You can use the following tools:\n\n```json\n{}\n```\n\n\
         To use a tool, reply with a fenced block like this one, and nothing after it:\n\n\
         ```tool_call\n{{\"tool\": \"tool_name\", \"parameters\": {{\"argument_name\": \"value\"}}}}\n```\n\n\
         Use one block per call. The results come back in ```tool_result blocks.",
        json_indent(&arr, 2)
    )
}

/// Prompted JSON calls (`bare-json`, `fenced-json`; our own).
pub fn json_prompted(family: &Family, tools: &[Tool]) -> String {
    let arr = Value::Array(tools.iter().map(plain_json).collect());
    format!(
        "You can use the following tools:\n\n```json\n{}\n```\n\n\
         To use a tool, reply with only this JSON, one object per call:\n{}",
        json_indent(&arr, 2),
        (family.call)(&[example_call()])
    )
}

/// FunctionGemma (`gemini-function-call`): one declaration per tool.
pub fn gemini(_: &Family, tools: &[Tool]) -> String {
    let mut s =
        String::from("You are a model that can do function calling with the following functions");
    for t in tools {
        let mut decl = Map::new();
        if let Some(d) = &t.description {
            decl.insert("description".into(), json!(d));
        }
        decl.insert("parameters".into(), t.parameters.clone());
        s.push_str(&format!(
            "<start_function_declaration>declaration:{}{}<end_function_declaration>",
            t.name,
            super::calls::gemma_value(&Value::Object(decl))
        ));
    }
    s
}

/// Llama 3.1 built-in tools (`llama-python-tag`): the `Environment` lines.
///
/// Checked against vllm-project/vllm `examples/tool_chat_template_llama3.1_usr_def_tool_call.jinja`
/// (its built-in tool branch, as in Meta's Llama 3.1 template):
/// `Environment: ipython`, then `Tools: ` and the names without
/// `code_interpreter` (enabled by the environment line alone). The template
/// follows with a blank line and the knowledge-date lines.
pub fn llama_python_tag(_: &Family, tools: &[Tool]) -> String {
    let names: Vec<&str> = tools
        .iter()
        .map(|t| t.name.as_str())
        .filter(|n| *n != "code_interpreter")
        .collect();
    format!("Environment: ipython\nTools: {}", names.join(", "))
}

/// MiniMax-M1 (`minimax`): the `tool_setting=tools` system message.
///
/// Checked against vllm-project/vllm `examples/tool_chat_template_minimax_m1.jinja`:
/// a system message of its own after the main one, each tool as `tojson` on
/// a line inside `<tools>`, then the template's fixed instruction (quoted
/// as the template emits it: it is the interface the model was trained on).
pub fn minimax(_: &Family, tools: &[Tool]) -> String {
    let mut s = String::from(
        "<beginning_of_sentence>system tool_setting=tools\nYou are provided with these tools:\n<tools>\n",
    );
    for t in tools {
        s.push_str(&json_spaced(&openai_json(t)));
        s.push('\n');
    }
    s.push_str(
        "</tools>\n\nIf you need to call tools, please respond with <tool_calls></tool_calls> XML tags, \
         and provide tool-name and json-object of arguments, following the format below:\n\
         <tool_calls>\n{\"name\": <tool-name>, \"arguments\": <args-json-object>}\n...\n\
         </tool_calls><end_of_sentence>",
    );
    s
}

/// The Python type name Seed-OSS's `py_type` macro gives a JSON Schema type.
fn seed_py_type(schema: &Value) -> &'static str {
    match schema.get("type").and_then(Value::as_str) {
        Some("string") => "str",
        Some("number") | Some("integer") => "int",
        Some("boolean") => "bool",
        Some("array") => "list",
        _ => "Any",
    }
}

/// ByteDance Seed-OSS (`seed-oss`): Python-style function docs, then the
/// template's (Chinese) call-format instruction.
///
/// Checked against ggml-org/llama.cpp `models/templates/ByteDance-Seed-OSS.jinja`
/// (rendered with Hugging Face's Jinja settings, `trim_blocks` and
/// `lstrip_blocks`): parameters joined by `,` without a space, `[必填]` /
/// `[选填]` for required / optional, a blank line before the closing `"""`.
/// The template appends this to the system prompt after a blank line and
/// closes the system turn with `<seed:eos>`; both are left to the caller.
pub fn seed_oss(_: &Family, tools: &[Tool]) -> String {
    let mut s = String::new();
    for (i, t) in tools.iter().enumerate() {
        if i > 0 {
            s.push_str("\n\n");
        }
        let props = properties(&t.parameters);
        let sig: Vec<String> = props
            .iter()
            .map(|(k, schema, _)| format!("{k}: {}", seed_py_type(schema)))
            .collect();
        s.push_str(&format!(
            "Function:\ndef {}({}):\n    \"\"\"\n    {}\n\n",
            t.name,
            sig.join(","),
            t.description.as_deref().unwrap_or("").trim()
        ));
        if !props.is_empty() {
            s.push_str("    Args:");
            for (k, schema, req) in &props {
                s.push_str(&format!(
                    "\n    - {k} ({}) {}: {}",
                    seed_py_type(schema),
                    if *req { "[必填]" } else { "[选填]" },
                    schema
                        .get("description")
                        .and_then(Value::as_str)
                        .unwrap_or("")
                ));
            }
            s.push('\n');
        }
        s.push_str("\n    \"\"\"");
    }
    s.push_str(
        "\n工具调用请遵循如下格式:\n<seed:tool_call>\n<function=example_function_name>\n\
         <parameter=example_parameter_1>value_1</parameter>\n\
         <parameter=example_parameter_2>This is the value for the second parameter\nthat can span\n\
         multiple lines</parameter>\n</function>\n</seed:tool_call>",
    );
    s
}

/// Moonshot Kimi K3 (`kimi-k3`): the `tool-declare` system message.
///
/// Checked against ggml-org/llama.cpp `models/templates/Kimi-K3.jinja`
/// (`render_tool_declare`): the tool list as given (OpenAI shape), keys
/// sorted at every level, no spaces, in a ```` ```json ```` fence.
pub fn kimi_k3(_: &Family, tools: &[Tool]) -> String {
    let arr = Value::Array(tools.iter().map(openai_json).collect());
    format!(
        "<|open|>message role=\"system\" type=\"tool-declare\"<|sep|># Tools\n\
         Here are the available tools, described in JSONSchema.\n\n```json\n{}\n```\
         <|close|>message<|sep|><|end_of_msg|>",
        json_sorted(&arr)
    )
}

/// Inkling (`inkling`): the `tool_declare` system message.
///
/// No chat template file for Inkling is in the index we searched; the form
/// follows independent reimplementations of the shipped template that
/// agree with each other (tinker-cookbook's Inkling renderer tests, and
/// Swift and Rust ports asserting the rendered prompt): a leading system
/// message `tool_declare<|content_xml|>` holding the specs
/// `{description, name, parameters, type}` as key-sorted compact JSON.
pub fn inkling(_: &Family, tools: &[Tool]) -> String {
    let specs: Vec<Value> = tools
        .iter()
        .map(|t| {
            json!({
                "description": t.description.clone().unwrap_or_default(),
                "name": t.name,
                "parameters": t.parameters,
                "type": "function",
            })
        })
        .collect();
    format!(
        "<|message_system|>tool_declare<|content_xml|>{}<|end_message|>",
        json_sorted(&Value::Array(specs))
    )
}

/// AllenAI OLMo 3 (`olmo3`): the instruction and `<functions>` list the
/// template appends to the system message.
///
/// Checked against vllm-project/vllm `examples/tool_chat_template_olmo3.jinja`
/// (the template vLLM ships for OLMo 3's pythonic `<function_calls>`): each
/// tool's `function` object as `tojson`, one per line. The template joins
/// this to the system prompt with a blank line.
pub fn olmo3(_: &Family, tools: &[Tool]) -> String {
    format!(
        "You have access to the following functions. To call functions, respond with a pythonic \
         function call wrapped in <function_calls></function_calls> XML tags.\n\n\
         For example, to call a function named 'get_weather' with parameters city='New York' and \
         units='celsius', respond with:\n\
         <function_calls>\nget_weather(city='New York', units='celsius')\n</function_calls>\n\n\
         You can call multiple functions by putting each call on a new line within the tags:\n\
         <function_calls>\nfunction1(param1='value1')\nfunction2(param2='value2')\n</function_calls>\n\n\
         Here are the available functions:\n<functions>\n{}\n</functions>",
        lines(tools, plain_json)
    )
}

/// Phi-4-mini (`phi4-mini`): the `functools` instruction and the tools as
/// indented JSON.
///
/// Checked against vllm-project/vllm `examples/tool_chat_template_phi4_mini.jinja`
/// (rendered with Hugging Face's Jinja settings): the instruction follows
/// the system text with no separator, and each tool is `tojson(indent=4)`
/// followed by a blank line, up to `<|end|>`.
pub fn phi4_mini(_: &Family, tools: &[Tool]) -> String {
    let mut s = String::from(
        "In addition to plain text responses, you can choose to call one or more of the provided functions.\n\n\
         Use the following rule to decide when to call a function:\n  \
         * if the response can be generated from your internal knowledge (e.g., as in the case of queries \
         like \"What is the capital of Poland?\"), do so\n  \
         * if you need external information that can be obtained by calling one or more of the provided \
         functions, generate a function calls\n\n\
         If you decide to call functions:\n  \
         * prefix function calls with functools marker (no closing marker required)\n  \
         * all function calls should be generated in a single JSON list formatted as \
         functools[{\"name\": [function name], \"arguments\": [function arguments as JSON]}, ...]\n  \
         * follow the provided JSON schema. Do not hallucinate arguments or values. Do to blindly copy \
         values from the provided samples\n  \
         * respect the argument type formatting. E.g., if the type is number and format is float, write \
         value 7 as 7.0\n  \
         * make sure you pick the right functions that match the user intent",
    );
    for t in tools {
        s.push_str(&json_indent(&openai_json(t), 4));
        s.push_str("\n\n");
    }
    s.truncate(s.trim_end_matches('\n').len());
    s
}

/// The TypeScript-ish type Apertus's `render_typescript_type` macro writes.
fn apertus_type(schema: &Value) -> String {
    let nullable = schema.get("nullable").and_then(Value::as_bool) == Some(true);
    let null = if nullable { " | null" } else { "" };
    match schema.get("type") {
        Some(Value::String(t)) if t == "array" => match schema.get("items") {
            Some(items) if !items.is_null() => {
                let inner = match items.get("type").and_then(Value::as_str) {
                    Some("string") => "string[]".to_string(),
                    Some("number") | Some("integer") => "number[]".to_string(),
                    Some("boolean") => "boolean[]".to_string(),
                    _ => {
                        let t = apertus_type(items);
                        if t == "object | object" || t.len() > 50 {
                            "any[]".to_string()
                        } else {
                            format!("{t}[]")
                        }
                    }
                };
                format!("{inner}{null}")
            }
            _ => format!("any[]{null}"),
        },
        Some(Value::Array(ts)) if !ts.is_empty() => {
            let parts: Vec<String> = ts.iter().map(value_text).collect();
            parts.join(" | ")
        }
        _ if schema.get("oneOf").is_some_and(|v| !v.is_null()) => {
            let alts: Vec<&Value> = schema["oneOf"]
                .as_array()
                .map(|a| a.iter().collect())
                .unwrap_or_default();
            let objects = alts
                .iter()
                .any(|v| v.get("type").and_then(Value::as_str) == Some("object"));
            if objects && alts.len() > 1 {
                "any".to_string()
            } else {
                alts.iter()
                    .map(|v| apertus_type(v))
                    .collect::<Vec<_>>()
                    .join(" | ")
            }
        }
        Some(Value::String(t)) if t == "string" => {
            match schema.get("enum").and_then(Value::as_array) {
                Some(vals) if !vals.is_empty() => {
                    let parts: Vec<String> = vals.iter().map(value_text).collect();
                    format!("\"{}\"", parts.join("\" | \""))
                }
                _ => format!("string{null}"),
            }
        }
        Some(Value::String(t)) if t == "number" || t == "integer" => "number".to_string(),
        Some(Value::String(t)) if t == "boolean" => "boolean".to_string(),
        Some(Value::String(t)) if t == "object" => {
            let props = properties(schema);
            if props.is_empty() {
                return "object".to_string();
            }
            let fields: Vec<String> = props
                .iter()
                .map(|(k, s, req)| {
                    // The macro leaves the indentation before a nested type.
                    format!(
                        "{k}{}: \n                {}",
                        if *req { "" } else { "?" },
                        apertus_type(s)
                    )
                })
                .collect();
            format!("{{\n{}}}", fields.join(", "))
        }
        _ => "any".to_string(),
    }
}

/// Swiss AI Apertus (`apertus`): the developer message with the tools as
/// TypeScript-ish declarations.
///
/// Checked against vllm-project/vllm `examples/tool_chat_template_apertus.jinja`
/// (`render_tools`): `// description`, `type NAME = (_: {`, one parameter
/// per line with `?` when optional and `, // default: …` after it, `}) => any;`.
/// The developer message carries `Deliberation: disabled` when thinking is
/// off (the template's default); with thinking on it says `enabled`.
pub fn apertus(_: &Family, tools: &[Tool]) -> String {
    let mut decls = Vec::new();
    for t in tools {
        let mut d = String::new();
        if let Some(desc) = &t.description {
            d.push_str(&format!("// {desc}\n"));
        }
        d.push_str(&format!("type {} = ", t.name));
        let props = properties(&t.parameters);
        if props.is_empty() {
            d.push_str("() => any;");
        } else {
            d.push_str("(_: {\n");
            let n = props.len();
            for (i, (k, schema, req)) in props.into_iter().enumerate() {
                if let Some(pd) = schema.get("description").and_then(Value::as_str) {
                    d.push_str(&format!("// {pd}\n"));
                }
                d.push_str(&format!(
                    "{k}{}: {}",
                    if req { "" } else { "?" },
                    apertus_type(schema)
                ));
                if let Some(def) = schema.get("default") {
                    if schema.get("enum").is_some_and(|e| !e.is_null()) {
                        d.push_str(&format!(", // default: {}", value_text(def)));
                    } else if schema.get("oneOf").is_some_and(|e| !e.is_null()) {
                        d.push_str(&format!("// default: {}", value_text(def)));
                    } else {
                        d.push_str(&format!(", // default: {}", json_spaced(def)));
                    }
                }
                d.push_str(if i + 1 < n { ",\n" } else { "\n" });
            }
            d.push_str("}) => any;");
        }
        decls.push(d);
    }
    format!(
        "<|developer_start|>Deliberation: disabled\nTool Capabilities:\n{}<|developer_end|>",
        decls.join("\n")
    )
}

/// Hunyuan-A13B (`jamba`: the `<tool_calls>` JSON-array wrapper it shares
/// with AI21 Jamba): the function-composition instruction and the tool list.
///
/// Checked against vllm-project/vllm `examples/tool_chat_template_hunyuan_a13b.jinja`.
/// That template folds this block, the caller's system text and the current
/// date into the first message; here the fixed part is given (the leading
/// instruction, the tools as one `tojson` array, and the closing format
/// reminder of the user-first variant), without the date line. No template
/// of AI21 Jamba itself was found.
pub fn hunyuan_a13b(_: &Family, tools: &[Tool]) -> String {
    let arr = Value::Array(tools.iter().map(openai_json).collect());
    format!(
        "你是一位函数组合专家。你会得到一个问题和一组可能的函数。根据问题，你需要进行一个或多个函数/工具调用以实现目的。\n\
         如果没有一个函数可以使用，请直接使用自然语言回复用户，以助手：开头。\n\
         如果给定的问题缺少函数所需的参数，请使用自然语言进行提问，向用户询问必要信息，以助手：开头。\n\
         如果调用结果已经足够回答用户问题，请对历史结果进行总结，使用自然语言回复用户，以助手：开头。\n\
         你应该只在工具调用部分返回函数调用。如果你决定调用任何函数，你必须将其格式化为\
         <tool_calls>[{{\"name\": \"func_name1\", \"arguments\": {{\"argument1\": \"value1\", \"argument2\": \"value2\"}}}},...]</tool_calls>。\
         你不应该在回复中包含任何其他文本。以下是你可以调用的函数列表，格式为JSON。\n\n{}\n\n\
         如果你决定返回函数调用，请将其格式化为\
         <tool_calls>[{{\"name\": \"func_name1\", \"arguments\": {{\"argument1\": \"value1\", \"argument2\": \"value2\"}}}},...]</tool_calls>，\
         不得包含其他文本。\n否则，请参考开头说的三种情况，以助手：开头进行回复。",
        json_spaced(&arr)
    )
}
