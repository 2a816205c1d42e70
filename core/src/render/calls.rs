//! Calls written the way each family writes them (`render call`).
//!
//! Each function renders one assistant turn holding all the calls given.
//! Whatever one of these writes, `toolcall parse` reads back to the same
//! names and arguments (the round-trip property test checks every family);
//! values of XML-style families come back under the loose typing rule
//! (docs/design.md#value-typing: text that is exactly a number or a boolean
//! becomes one).

use super::text::{
    guard_newlines, json_compact, json_indent, json_spaced, py_kwargs, py_literal, py_str,
    value_text,
};
use super::CallSpec;
use serde_json::{json, Map, Value};

fn args(c: &CallSpec) -> Value {
    Value::Object(c.arguments.clone())
}

fn obj(name_key: &str, c: &CallSpec, args_key: &str) -> Value {
    let mut m = Map::new();
    m.insert(name_key.into(), Value::String(c.name.clone()));
    m.insert(args_key.into(), args(c));
    Value::Object(m)
}

fn each(calls: &[CallSpec], sep: &str, f: impl Fn(usize, &CallSpec) -> String) -> String {
    calls
        .iter()
        .enumerate()
        .map(|(i, c)| f(i, c))
        .collect::<Vec<_>>()
        .join(sep)
}

fn array_of(calls: &[CallSpec], name_key: &str, args_key: &str) -> String {
    json_spaced(&Value::Array(
        calls.iter().map(|c| obj(name_key, c, args_key)).collect(),
    ))
}

/// `hermes`, `ernie45`: `<tool_call>\n{"name": …, "arguments": …}\n</tool_call>`.
pub fn hermes(calls: &[CallSpec]) -> String {
    each(calls, "\n", |_, c| {
        format!(
            "<tool_call>\n{}\n</tool_call>",
            json_spaced(&obj("name", c, "arguments"))
        )
    })
}

/// `qwen3-coder-xml`: `<function=NAME>` with one `<parameter=KEY>` per
/// argument, values on their own lines.
pub fn qwen3_coder(calls: &[CallSpec]) -> String {
    each(calls, "\n", |_, c| {
        let mut s = format!("<tool_call>\n<function={}>\n", c.name);
        for (k, v) in &c.arguments {
            s.push_str(&format!(
                "<parameter={k}>\n{}\n</parameter>\n",
                value_text(v)
            ));
        }
        s.push_str("</function>\n</tool_call>");
        s
    })
}

/// `seed-oss`: the Qwen3-Coder shape inside `<seed:tool_call>`.
pub fn seed_oss(calls: &[CallSpec]) -> String {
    each(calls, "\n", |_, c| {
        let mut s = format!("<seed:tool_call>\n<function={}>\n", c.name);
        for (k, v) in &c.arguments {
            s.push_str(&format!(
                "<parameter={k}>{}</parameter>\n",
                guard_newlines(&value_text(v))
            ));
        }
        s.push_str("</function>\n</seed:tool_call>");
        s
    })
}

/// `glm4-moe` (GLM-4.5/4.6 layout): name, then `<arg_key>`/`<arg_value>` pairs.
/// A value is written as it is: GLM's parser strips nothing inside
/// `<arg_value>`, so no newline guard is needed.
pub fn glm4_moe(calls: &[CallSpec]) -> String {
    each(calls, "\n", |_, c| {
        let mut s = format!("<tool_call>{}\n", c.name);
        for (k, v) in &c.arguments {
            s.push_str(&format!(
                "<arg_key>{k}</arg_key>\n<arg_value>{}</arg_value>\n",
                value_text(v)
            ));
        }
        s.push_str("</tool_call>");
        s
    })
}

/// `plamo3`: one tool request per call inside the requests section, the
/// arguments as compact JSON after `<|plamo:msg|>`.
pub fn plamo3(calls: &[CallSpec]) -> String {
    let body = each(calls, "", |_, c| {
        format!(
            "<|plamo:begin_tool_request:plamo|><|plamo:begin_tool_name:plamo|>{}<|plamo:end_tool_name:plamo|>\
             <|plamo:begin_tool_arguments:plamo|><|plamo:constrain|>json<|plamo:msg|>{}\
             <|plamo:end_tool_arguments:plamo|><|plamo:end_tool_request:plamo|>",
            c.name,
            json_compact(&Value::Object(c.arguments.clone()))
        )
    });
    format!("<|plamo:begin_tool_requests:plamo|>{body}<|plamo:end_tool_requests:plamo|>")
}

/// `solar-open`: the name, then one key/value element per argument, values
/// inline as GLM's.
pub fn solar_open(calls: &[CallSpec]) -> String {
    each(calls, "\n", |_, c| {
        let mut s = format!("<|tool_call:start|>{}\n", c.name);
        for (k, v) in &c.arguments {
            s.push_str(&format!(
                "<|tool_arg:start|>{k}<|tool_arg:value|>{}<|tool_arg:end|>\n",
                value_text(v)
            ));
        }
        s.push_str("<|tool_call:end|>");
        s
    })
}

/// `iquest`: IQuest-Coder-V2's wrapper around GLM's name and key/value
/// pairs, values inline.
pub fn iquest(calls: &[CallSpec]) -> String {
    each(calls, "", |_, c| {
        let mut s = format!("<iquestcoder_tool_call>{}", c.name);
        for (k, v) in &c.arguments {
            s.push_str(&format!(
                "<arg_key>{k}</arg_key><arg_value>{}</arg_value>",
                value_text(v)
            ));
        }
        s.push_str("</iquestcoder_tool_call>");
        s
    })
}

/// `glm53-flash`: `<![NAME>` then the arguments as compact JSON.
pub fn glm53_flash(calls: &[CallSpec]) -> String {
    each(calls, "", |_, c| {
        format!(
            "<![{}>{}",
            c.name,
            json_compact(&Value::Object(c.arguments.clone()))
        )
    })
}

/// `muse-glimmer`: one message to the tool per call, its invokes under the
/// `atem:` prefix.
pub fn muse_glimmer(calls: &[CallSpec]) -> String {
    each(calls, "<|eom|>", |_, c| {
        let mut s = format!(
            "<|start|>assistant to={}<|message|><atem:function_calls>\n<atem:invoke name=\"{}\">\n",
            c.name, c.name
        );
        for (k, v) in &c.arguments {
            s.push_str(&format!(
                "<atem:parameter name=\"{k}\">{}</atem:parameter>\n",
                json_compact(v)
            ));
        }
        s.push_str("</atem:invoke>\n</atem:function_calls>");
        s
    })
}

/// `k2-v3`: the `ifm|` wrapper around GLM's name and key/value pairs.
pub fn k2_v3(calls: &[CallSpec]) -> String {
    let body = each(calls, "\n", |_, c| {
        let mut s = format!("<ifm|tool_call>{}", c.name);
        for (k, v) in &c.arguments {
            s.push_str(&format!(
                "<ifm|arg_key>{k}</ifm|arg_key><ifm|arg_value>{}</ifm|arg_value>",
                value_text(v)
            ));
        }
        s.push_str("</ifm|tool_call>");
        s
    });
    format!("<ifm|tool_calls>\n{body}\n</ifm|tool_calls>")
}

/// `hunyuan-v4`: GLM-like pairs inside `<tool_calls>` (bare tags, no suffix).
pub fn hunyuan_v4(calls: &[CallSpec]) -> String {
    let body = each(calls, "", |_, c| {
        let mut s = format!("<tool_call>{}", c.name);
        for (k, v) in &c.arguments {
            s.push_str(&format!(
                "<arg_key>{k}</arg_key><arg_value>{}</arg_value>",
                guard_newlines(&value_text(v))
            ));
        }
        s.push_str("</tool_call>");
        s
    });
    format!("<tool_calls>{body}</tool_calls>")
}

/// `functionary` (Llama 3.1 custom tools): `<function=NAME>{args}</function>`.
pub fn functionary(calls: &[CallSpec]) -> String {
    each(calls, "", |_, c| {
        format!("<function={}>{}</function>", c.name, json_compact(&args(c)))
    })
}

/// `functionary-v3.2`: `>>>NAME\n{args}` segments.
pub fn functionary_v3_2(calls: &[CallSpec]) -> String {
    each(calls, "", |_, c| {
        format!(">>>{}\n{}", c.name, json_spaced(&args(c)))
    })
}

/// `fenced-tool-call`: a ```` ```tool_call ```` fence with `tool`/`parameters`.
pub fn fenced_tool_call(calls: &[CallSpec]) -> String {
    each(calls, "\n", |_, c| {
        format!(
            "```tool_call\n{}\n```",
            json_spaced(&obj("tool", c, "parameters"))
        )
    })
}

/// `fenced-json`: a ```` ```json ```` fence holding `{"name", "arguments"}`.
pub fn fenced_json(calls: &[CallSpec]) -> String {
    let v = if calls.len() == 1 {
        obj("name", &calls[0], "arguments")
    } else {
        Value::Array(calls.iter().map(|c| obj("name", c, "arguments")).collect())
    };
    format!("```json\n{}\n```", json_indent(&v, 2))
}

/// `bare-json`: one `{"name", "arguments"}` object per line.
pub fn bare_json(calls: &[CallSpec]) -> String {
    each(calls, "\n", |_, c| {
        json_spaced(&obj("name", c, "arguments"))
    })
}

/// `llama3-json`: `{"name": …, "parameters": …}` objects joined by `; `.
pub fn llama3_json(calls: &[CallSpec]) -> String {
    each(calls, "; ", |_, c| {
        json_spaced(&obj("name", c, "parameters"))
    })
}

/// `xlam`: the whole reply is a JSON array of `{"name", "arguments"}`.
pub fn xlam(calls: &[CallSpec]) -> String {
    array_of(calls, "name", "arguments")
}

/// `granite` (3.0/3.1): `<|tool_call|>` and a JSON array.
pub fn granite(calls: &[CallSpec]) -> String {
    format!("<|tool_call|>{}", array_of(calls, "name", "arguments"))
}

/// `cohere` (Command R7B / Command A): `<|START_ACTION|>` JSON array
/// `<|END_ACTION|>`, objects with `tool_call_id`, `tool_name`, `parameters`.
pub fn cohere(calls: &[CallSpec]) -> String {
    let items: Vec<Value> = calls
        .iter()
        .enumerate()
        .map(|(i, c)| {
            json!({
                "tool_call_id": c.id.clone().unwrap_or_else(|| i.to_string()),
                "tool_name": c.name,
                "parameters": args(c),
            })
        })
        .collect();
    let body: Vec<String> = items
        .iter()
        .map(|v| format!("    {}", json_spaced(v)))
        .collect();
    format!("<|START_ACTION|>[\n{}\n]<|END_ACTION|>", body.join(",\n"))
}

/// `internlm`: `<|action_start|><|plugin|>` JSON `<|action_end|>`, one per call.
pub fn internlm(calls: &[CallSpec]) -> String {
    each(calls, "\n", |_, c| {
        format!(
            "<|action_start|><|plugin|>\n{}<|action_end|>",
            json_spaced(&obj("name", c, "parameters"))
        )
    })
}

/// `jamba`: `<tool_calls>` JSON array `</tool_calls>`.
pub fn jamba(calls: &[CallSpec]) -> String {
    format!(
        "<tool_calls>{}</tool_calls>",
        array_of(calls, "name", "arguments")
    )
}

/// `minimax` (M1): `<tool_calls>`, one JSON object per line, `</tool_calls>`.
pub fn minimax(calls: &[CallSpec]) -> String {
    format!(
        "<tool_calls>\n{}\n</tool_calls>",
        each(calls, "\n", |_, c| json_spaced(&obj(
            "name",
            c,
            "arguments"
        )))
    )
}

/// `minimax-m2`: `<minimax:tool_call>` with `<invoke name>` and
/// `<parameter name>` elements.
pub fn minimax_m2(calls: &[CallSpec]) -> String {
    format!(
        "<minimax:tool_call>\n{}\n</minimax:tool_call>",
        invokes(calls)
    )
}

/// `dots`: MiniMax-M2's invokes inside `<dots_function_call>`.
pub fn dots(calls: &[CallSpec]) -> String {
    format!(
        "<dots_function_call>{}</dots_function_call>",
        invokes(calls)
    )
}

/// `<invoke name="NAME">` elements of `<parameter name="KEY">` values.
fn invokes(calls: &[CallSpec]) -> String {
    each(calls, "\n", |_, c| {
        let mut s = format!("<invoke name=\"{}\">\n", c.name);
        for (k, v) in &c.arguments {
            s.push_str(&format!(
                "<parameter name=\"{k}\">{}</parameter>\n",
                guard_newlines(&value_text(v))
            ));
        }
        s.push_str("</invoke>");
        s
    })
}

/// `minimax-m3`: the `]<]minimax[>[` namespace token before every tag;
/// parameters are named by their tags.
pub fn minimax_m3(calls: &[CallSpec]) -> String {
    const NS: &str = "]<]minimax[>[";
    let body = each(calls, "\n", |_, c| {
        let mut s = format!("{NS}<invoke name=\"{}\">\n", c.name);
        for (k, v) in &c.arguments {
            s.push_str(&format!(
                "{NS}<{k}>{}{NS}</{k}>\n",
                guard_newlines(&value_text(v))
            ));
        }
        s.push_str(&format!("{NS}</invoke>"));
        s
    });
    format!("{NS}<tool_call>\n{body}\n{NS}</tool_call>")
}

/// `longcat`: the hermes body inside `<longcat_tool_call>`.
pub fn longcat(calls: &[CallSpec]) -> String {
    each(calls, "\n", |_, c| {
        format!(
            "<longcat_tool_call>\n{}\n</longcat_tool_call>",
            json_spaced(&obj("name", c, "arguments"))
        )
    })
}

/// `gigachat3`: `<|function_call|>` and the call's JSON (GigaChat 3.1), one
/// per call.
pub fn gigachat3(calls: &[CallSpec]) -> String {
    each(calls, "", |_, c| {
        format!(
            "<|function_call|>{}",
            json_spaced(&obj("name", c, "arguments"))
        )
    })
}

/// `prompt-wrapper`: LM Studio's `[TOOL_REQUEST]` around each call's JSON.
pub fn prompt_wrapper(calls: &[CallSpec]) -> String {
    each(calls, "\n", |_, c| {
        format!(
            "[TOOL_REQUEST]\n{}\n[END_TOOL_REQUEST]",
            json_spaced(&obj("name", c, "arguments"))
        )
    })
}

/// `minicpm5`: `<function name="NAME">` with `<param name="K">V</param>`
/// children; a value with markup or edge whitespace in a CDATA section.
pub fn minicpm5(calls: &[CallSpec]) -> String {
    each(calls, "\n", |_, c| {
        let mut s = format!("<function name=\"{}\">", c.name);
        for (k, v) in &c.arguments {
            let text = value_text(v);
            // a string that would read back as something else, or that holds
            // markup or edge whitespace, goes in a CDATA section
            let cdata = match v {
                Value::String(t) => {
                    crate::formats::shared::xml::decode_value(t) != *v
                        || t.contains('<')
                        || t.contains('&')
                        || t.trim() != t
                }
                _ => false,
            };
            if cdata && !text.contains("]]>") {
                s.push_str(&format!("<param name=\"{k}\"><![CDATA[{text}]]></param>"));
            } else {
                s.push_str(&format!("<param name=\"{k}\">{text}</param>"));
            }
        }
        s.push_str("</function>");
        s
    })
}

/// `nemotron-toolcall`: `<TOOLCALL>` JSON array `</TOOLCALL>`.
pub fn nemotron(calls: &[CallSpec]) -> String {
    format!(
        "<TOOLCALL>{}</TOOLCALL>",
        array_of(calls, "name", "arguments")
    )
}

/// `inkling`: `<|content_invoke_tool_json|>{"name", "args"}<|end_message|>`.
pub fn inkling(calls: &[CallSpec]) -> String {
    each(calls, "", |_, c| {
        format!(
            "<|content_invoke_tool_json|>{}<|end_message|>",
            json_spaced(&obj("name", c, "args"))
        )
    })
}

/// `mistral` (v11+ tokenizers): `[TOOL_CALLS]NAME[ARGS]{args}` per call.
pub fn mistral(calls: &[CallSpec]) -> String {
    each(calls, "", |_, c| {
        format!("[TOOL_CALLS]{}[ARGS]{}", c.name, json_compact(&args(c)))
    })
}

/// `deepseek-v3`: `function<｜tool▁sep｜>NAME` and a ```` ```json ```` fence.
pub fn deepseek_v3(calls: &[CallSpec]) -> String {
    let body = each(calls, "\n", |_, c| {
        format!(
            "<｜tool▁call▁begin｜>function<｜tool▁sep｜>{}\n```json\n{}\n```<｜tool▁call▁end｜>",
            c.name,
            json_compact(&args(c))
        )
    });
    format!("<｜tool▁calls▁begin｜>{body}<｜tool▁calls▁end｜>")
}

/// `deepseek-v3.1`: `NAME<｜tool▁sep｜>{args}`.
pub fn deepseek_v3_1(calls: &[CallSpec]) -> String {
    let body = each(calls, "", |_, c| {
        format!(
            "<｜tool▁call▁begin｜>{}<｜tool▁sep｜>{}<｜tool▁call▁end｜>",
            c.name,
            json_compact(&args(c))
        )
    });
    format!("<｜tool▁calls▁begin｜>{body}<｜tool▁calls▁end｜>")
}

/// `deepseek-dsml` (V3.2): `<｜DSML｜invoke>` elements; strings raw with
/// `string="true"`, other values as JSON with `string="false"`.
pub fn deepseek_dsml(calls: &[CallSpec]) -> String {
    let body = each(calls, "\n", |_, c| {
        let mut s = format!("<｜DSML｜invoke name=\"{}\">\n", c.name);
        for (k, v) in &c.arguments {
            let (string, text) = match v {
                // the parser keeps a string="true" value verbatim
                Value::String(t) => ("true", t.clone()),
                other => ("false", json_compact(other)),
            };
            s.push_str(&format!(
                "<｜DSML｜parameter name=\"{k}\" string=\"{string}\">{text}</｜DSML｜parameter>\n"
            ));
        }
        s.push_str("</｜DSML｜invoke>");
        s
    });
    format!("<｜DSML｜function_calls>\n{body}\n</｜DSML｜function_calls>")
}

/// The Kimi K2 id of a call: the call's own id when it already has the
/// `functions.NAME:N` shape, else `functions.NAME:INDEX`.
pub fn kimi_id(c: &CallSpec, index: usize) -> String {
    match &c.id {
        Some(id) if id.starts_with("functions.") && id.contains(':') => id.clone(),
        _ => format!("functions.{}:{index}", c.name),
    }
}

/// `kimi-k2`: a tools section of `functions.NAME:N` calls with JSON arguments.
pub fn kimi_k2(calls: &[CallSpec]) -> String {
    let body = each(calls, "", |i, c| {
        format!(
            "<|tool_call_begin|>{}<|tool_call_argument_begin|>{}<|tool_call_end|>",
            kimi_id(c, i),
            json_compact(&args(c))
        )
    });
    format!("<|tool_calls_section_begin|>{body}<|tool_calls_section_end|>")
}

/// `kimi-k3`: `<|open|>call …<|sep|>` blocks of typed `argument` elements.
pub fn kimi_k3(calls: &[CallSpec]) -> String {
    let body = each(calls, "", |i, c| {
        let mut s = format!(
            "<|open|>call tool=\"{}\" index=\"{}\"<|sep|>",
            c.name,
            i + 1
        );
        for (k, v) in &c.arguments {
            let ty = match v {
                Value::String(_) => "string",
                Value::Number(_) => "number",
                Value::Bool(_) => "boolean",
                Value::Null => "null",
                Value::Array(_) => "array",
                Value::Object(_) => "object",
            };
            // inline: the reader keeps every byte between the tags
            let text = match v {
                Value::String(t) => t.clone(),
                other => json_compact(other),
            };
            s.push_str(&format!(
                "<|open|>argument key=\"{k}\" type=\"{ty}\"<|sep|>{text}<|close|>argument<|sep|>"
            ));
        }
        s.push_str("<|close|>call<|sep|>");
        s
    });
    format!("<|open|>tools<|sep|>{body}<|close|>tools<|sep|>")
}

/// `step3`: steptml invokes inside the Step-3 call tokens.
pub fn step3(calls: &[CallSpec]) -> String {
    let body = each(calls, "", |_, c| {
        let mut s = format!(
            "<｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name=\"{}\">",
            c.name
        );
        for (k, v) in &c.arguments {
            // inline: the reader keeps every byte between the tags
            s.push_str(&format!(
                "<steptml:parameter name=\"{k}\">{}</steptml:parameter>",
                value_text(v)
            ));
        }
        s.push_str("</steptml:invoke><｜tool_call_end｜>");
        s
    });
    format!("<｜tool_calls_begin｜>{body}<｜tool_calls_end｜>")
}

/// `harmony` (gpt-oss): one commentary message per call, addressed to
/// `functions.NAME`, ended by `<|call|>`. Generation starts after
/// `<|start|>assistant`, so the first message has no `<|start|>`.
pub fn harmony(calls: &[CallSpec]) -> String {
    each(calls, "<|start|>assistant", |_, c| {
        format!(
            "<|channel|>commentary to=functions.{} <|constrain|>json<|message|>{}<|call|>",
            c.name,
            json_compact(&args(c))
        )
    })
}

fn py_call(c: &CallSpec) -> String {
    format!("{}({})", c.name, py_kwargs(&c.arguments))
}

/// `pythonic`: `[f(a=1), g(b="x")]`.
pub fn pythonic(calls: &[CallSpec]) -> String {
    format!("[{}]", each(calls, ", ", |_, c| py_call(c)))
}

/// `lfm2`: the pythonic list inside `<|tool_call_start|>`…`<|tool_call_end|>`.
pub fn lfm2(calls: &[CallSpec]) -> String {
    format!("<|tool_call_start|>{}<|tool_call_end|>", pythonic(calls))
}

/// `olmo3`: newline-separated pythonic calls in `<function_calls>`.
pub fn olmo3(calls: &[CallSpec]) -> String {
    format!(
        "<function_calls>\n{}\n</function_calls>",
        each(calls, "\n", |_, c| py_call(c))
    )
}

/// `llama-python-tag`: `<|python_tag|>NAME.call(k=v)<|eom_id|>`.
pub fn llama_python_tag(calls: &[CallSpec]) -> String {
    each(calls, "", |_, c| {
        format!(
            "<|python_tag|>{}.call({})<|eom_id|>",
            c.name,
            py_kwargs(&c.arguments)
        )
    })
}

/// `phi4-mini`: `functools[` JSON array `]`.
pub fn phi4_mini(calls: &[CallSpec]) -> String {
    format!("functools{}", array_of(calls, "name", "arguments"))
}

/// A value in Gemma's function-call notation: strings between `<escape>`
/// tokens, keys bare, numbers and booleans as JSON.
pub fn gemma_value(v: &Value) -> String {
    match v {
        Value::String(s) => format!("<escape>{s}<escape>"),
        Value::Array(items) => {
            let parts: Vec<String> = items.iter().map(gemma_value).collect();
            format!("[{}]", parts.join(","))
        }
        Value::Object(map) => {
            let parts: Vec<String> = map
                .iter()
                .map(|(k, x)| format!("{k}:{}", gemma_value(x)))
                .collect();
            format!("{{{}}}", parts.join(","))
        }
        other => json_compact(other),
    }
}

/// `gemini-function-call` (FunctionGemma):
/// `<start_function_call>call:NAME{k:<escape>v<escape>}<end_function_call>`.
pub fn gemini(calls: &[CallSpec]) -> String {
    each(calls, "", |_, c| {
        format!(
            "<start_function_call>call:{}{}<end_function_call>",
            c.name,
            gemma_value(&args(c))
        )
    })
}

/// `sarashina`: `<|tool_calls|>` and a Python-literal list of dicts.
pub fn sarashina(calls: &[CallSpec]) -> String {
    let items: Vec<String> = calls
        .iter()
        .map(|c| {
            format!(
                "{{'name': {}, 'arguments': {}}}",
                py_str(&c.name, '\''),
                py_literal(&args(c), '\'')
            )
        })
        .collect();
    format!("<|tool_calls|>[{}]", items.join(", "))
}

/// `apertus`: `<|tools_prefix|>[{"NAME": {args}}]<|tools_suffix|>`.
pub fn apertus(calls: &[CallSpec]) -> String {
    let items: Vec<Value> = calls
        .iter()
        .map(|c| {
            let mut m = Map::new();
            m.insert(c.name.clone(), args(c));
            Value::Object(m)
        })
        .collect();
    format!(
        "<|tools_prefix|>{}<|tools_suffix|>",
        json_spaced(&Value::Array(items))
    )
}
