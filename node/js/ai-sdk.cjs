'use strict';
// toolcall/ai-sdk: the engine as a language-model middleware for the AI
// SDK (`ai`, LanguageModelV3: ai 6), for models whose tool calls arrive as
// text (a local server without a tool parser, a prompted model).
//
// The model's text goes through the engine (parse for generate, the
// StreamParser for stream) and comes out as the SDK's parts: text,
// reasoning, and tool-call parts whose input is the call's arguments as
// JSON. Nothing is parsed here: which bytes are a call, prose or
// reasoning is the engine's answer, for every family it reads.

const toolcall = require('./index.cjs');

/** The function tools of a call's params as an OpenAI `tools` list. */
function toolsOf(params) {
  const list = (params?.tools ?? [])
    .filter((t) => t.type === 'function')
    .map((t) => ({
      type: 'function',
      function: { name: t.name, description: t.description ?? '', parameters: t.inputSchema ?? {} },
    }));
  if (!list.length) return undefined;
  try {
    return new toolcall.Tools(list, { strict: false });
  } catch {
    // a schema the validator cannot compile: parse without tool names
    return undefined;
  }
}

function engineOptions(options, params) {
  const { tools: useTools = true, prompt: _prompt, ...engine } = options;
  if (useTools) {
    const tools = toolsOf(params);
    if (tools) engine.tools = tools;
  }
  return engine;
}

function toolCallPart(call) {
  return {
    type: 'tool-call',
    toolCallId: call.id,
    toolName: call.name,
    input: JSON.stringify(call.arguments),
  };
}

/**
 * Engine events as content pieces in order: `['text', s]`,
 * `['reasoning', s]`, `['call', record]`. A candidate the engine could
 * not recover stays in the text, as written; control tokens (markup) go.
 */
function* pieces(events) {
  for (const ev of events) {
    switch (ev.type) {
      case 'text':
        if (ev.text) yield ['text', ev.text];
        break;
      case 'reasoning':
        if (ev.text) yield ['reasoning', ev.text];
        break;
      case 'tool_call':
        // a call the engine reports from inside reasoning (a Kimi call
        // section before </think>, or any with reasoningCalls) is a call
        yield ['call', ev];
        break;
      case 'error':
        if (ev.raw) yield ['text', ev.raw];
        break;
      default:
        break;
    }
  }
}

function finishWithCalls(reason, calls) {
  if (!calls || !reason) return reason;
  if (typeof reason === 'string') return reason === 'stop' ? 'tool-calls' : reason;
  return reason.unified === 'stop' ? { ...reason, unified: 'tool-calls' } : reason;
}

/**
 * The generate result's text parts read by the engine: text, reasoning
 * and tool-call parts in the order the model wrote them.
 */
function contentOf(content, engine) {
  const out = [];
  let calls = 0;
  for (const part of content) {
    if (part.type !== 'text') {
      out.push(part);
      continue;
    }
    const parser = new toolcall.StreamParser({ ...engine, starts: false });
    const evs = parser.feed(part.text).concat(parser.close());
    for (const [kind, value] of pieces(evs)) {
      const last = out[out.length - 1];
      if (kind === 'call') {
        calls += 1;
        out.push(toolCallPart(value));
      } else if (last && last.type === kind && last._toolcall) {
        last.text += value;
      } else {
        out.push({ type: kind, text: value, _toolcall: true });
      }
    }
  }
  for (const p of out) delete p._toolcall;
  return { content: out, calls };
}

/**
 * The stream's text deltas read by the engine as they come; text and
 * reasoning go out as soon as the engine decides them, a call when it is
 * complete (tool-input-start, one tool-input-delta with its arguments,
 * tool-input-end, tool-call).
 */
function transformStream(engine) {
  let parser;
  let open = null; // { kind: 'text' | 'reasoning', id }
  let n = 0;
  let calls = 0;
  const close = (controller) => {
    if (open) {
      controller.enqueue({ type: `${open.kind}-end`, id: open.id });
      open = null;
    }
  };
  const emit = (controller, evs) => {
    for (const [kind, value] of pieces(evs)) {
      if (kind === 'call') {
        close(controller);
        calls += 1;
        const part = toolCallPart(value);
        controller.enqueue({ type: 'tool-input-start', id: part.toolCallId, toolName: part.toolName });
        controller.enqueue({ type: 'tool-input-delta', id: part.toolCallId, delta: part.input });
        controller.enqueue({ type: 'tool-input-end', id: part.toolCallId });
        controller.enqueue(part);
        continue;
      }
      if (!open || open.kind !== kind) {
        close(controller);
        open = { kind, id: `toolcall-${n++}` };
        controller.enqueue({ type: `${kind}-start`, id: open.id });
      }
      controller.enqueue({ type: `${kind}-delta`, id: open.id, delta: value });
    }
  };
  const end = (controller) => {
    if (parser && !parser.closed) emit(controller, parser.close());
    close(controller);
  };
  return new TransformStream({
    start() {
      parser = new toolcall.StreamParser({ ...engine, starts: false });
    },
    transform(part, controller) {
      switch (part.type) {
        case 'text-start':
        case 'text-end':
          return;
        case 'text-delta':
          emit(controller, parser.feed(part.delta));
          return;
        case 'finish':
          end(controller);
          controller.enqueue({ ...part, finishReason: finishWithCalls(part.finishReason, calls) });
          return;
        default:
          controller.enqueue(part);
      }
    },
    flush(controller) {
      end(controller);
    },
  });
}

/**
 * The middleware: `wrapLanguageModel({ model, middleware:
 * toolcallMiddleware() })`. Options are `parse`'s (`format`, `model`,
 * `generationPrompt`, `thinkOpen` ...); `tools: false` keeps the call's
 * tool definitions from the engine (by default their names let it recover
 * a damaged call that names one). `prompt: family` (a format id or model
 * name) also writes the tools into the system prompt as that family's chat
 * template does, and takes them out of the provider call, with the
 * conversation's earlier calls and results written as that family's text:
 * for a model served without tool support.
 */
function toolcallMiddleware(options = {}) {
  return {
    specificationVersion: 'v3',
    async transformParams({ params }) {
      if (!options.prompt) return params;
      const prompt = historyAsText(options.prompt, params.prompt);
      const tools = params.tools?.length ? toolsOf(params) : undefined;
      if (!tools) return { ...params, prompt };
      const block = toolcall.renderTools(options.prompt, tools);
      if (prompt[0]?.role === 'system') {
        prompt[0] = { ...prompt[0], content: `${prompt[0].content}\n\n${block}` };
      } else {
        prompt.unshift({ role: 'system', content: block });
      }
      const { tools: _t, toolChoice: _c, ...rest } = params;
      return { ...rest, prompt, providerOptions: { ...rest.providerOptions, toolcall: { tools: params.tools } } };
    },
    async wrapGenerate({ doGenerate, params }) {
      const result = await doGenerate();
      const engine = engineOptions(options, toolParams(params));
      const { content, calls } = contentOf(result.content, engine);
      return { ...result, content, finishReason: finishWithCalls(result.finishReason, calls) };
    },
    async wrapStream({ doStream, params }) {
      const { stream, ...rest } = await doStream();
      const engine = engineOptions(options, toolParams(params));
      return { stream: stream.pipeThrough(transformStream(engine)), ...rest };
    },
  };
}

/** A tool result's output as the text the model reads. */
function resultContent(output) {
  if (output == null) return '';
  switch (output.type) {
    case 'text':
    case 'error-text':
      return output.value;
    case 'json':
    case 'error-json':
      return JSON.stringify(output.value);
    case 'content':
      return output.value.map((p) => (p.type === 'text' ? p.text : '')).join('');
    default:
      return typeof output.value === 'string' ? output.value : JSON.stringify(output.value ?? output);
  }
}

/**
 * The conversation with its earlier calls and results written as the
 * family's text (for a provider call without tools, which cannot carry
 * them): an assistant's tool-call parts as the model writes calls, a tool
 * message's results as a user message in the family's result shape.
 */
function historyAsText(family, prompt) {
  return prompt.map((m) => {
    if (m.role === 'assistant' && Array.isArray(m.content) && m.content.some((p) => p.type === 'tool-call')) {
      const content = [];
      for (const p of m.content) {
        if (p.type !== 'tool-call') {
          content.push(p);
          continue;
        }
        let args = p.input;
        if (typeof args === 'string') {
          try {
            args = JSON.parse(args);
          } catch {
            args = {};
          }
        }
        const text = toolcall.renderCalls(family, { name: p.toolName, arguments: args ?? {}, id: p.toolCallId });
        content.push({ type: 'text', text });
      }
      return { ...m, content };
    }
    if (m.role === 'tool') {
      const results = m.content
        .filter((p) => p.type === 'tool-result')
        .map((p) => ({ id: p.toolCallId, name: p.toolName, content: resultContent(p.output) }));
      const text = results.length ? toolcall.renderResult(family, results, { bodyOnly: true }) : '';
      return { role: 'user', content: [{ type: 'text', text }] };
    }
    return m;
  });
}

/** The params' tools, or those `transformParams` moved out of the call. */
function toolParams(params) {
  const moved = params?.providerOptions?.toolcall?.tools;
  return moved ? { tools: moved } : params;
}

// --- repairToolCall ---------------------------------------------------

function typeOf(schema) {
  const t = schema?.type;
  return Array.isArray(t) ? t : t ? [t] : [];
}

/** One value made to fit its schema where the intent is plain. */
function fit(value, schema) {
  if (!schema || typeof schema !== 'object') return value;
  const types = typeOf(schema);
  if (typeof value === 'string' && !types.includes('string')) {
    const s = value.trim();
    if ((types.includes('number') || types.includes('integer')) && s !== '' && !Number.isNaN(Number(s))) {
      return Number(s);
    }
    if (types.includes('boolean') && (s === 'true' || s === 'false')) return s === 'true';
    if (types.includes('null') && s === 'null') return null;
    if ((types.includes('object') || types.includes('array')) && /^[[{]/.test(s)) {
      try {
        return fit(JSON.parse(toolcall.repairJson(s)), schema);
      } catch {
        return value;
      }
    }
  }
  if (types.includes('array') && !Array.isArray(value) && value !== null && value !== undefined) {
    return [fit(value, schema.items)];
  }
  if (Array.isArray(value) && schema.items) return value.map((v) => fit(v, schema.items));
  if (value && typeof value === 'object' && !Array.isArray(value) && schema.properties) {
    const out = {};
    for (const [k, v] of Object.entries(value)) out[k] = fit(v, schema.properties[k]);
    return out;
  }
  return value;
}

function normal(name) {
  return String(name).toLowerCase().replace(/^(functions?|tools?)[.:/]/, '').replace(/[^a-z0-9]/g, '');
}

/**
 * The SDK's `experimental_repairToolCall` hook: a call whose input did
 * not parse gets it repaired (the engine's JSON repair), values a schema
 * types otherwise are converted where the intent is plain (`"5"` for a
 * number, one item for an array, an object written as JSON text), and a
 * tool name that differs from a declared one only in case, separators or
 * a `functions.` prefix is corrected. Returns null when nothing could be
 * done, as the hook expects.
 */
async function repairToolCall({ toolCall, tools, inputSchema, error }) {
  const names = Object.keys(tools ?? {});
  let toolName = toolCall.toolName;
  if (!names.includes(toolName)) {
    const want = normal(toolName);
    const match = names.filter((n) => normal(n) === want);
    if (match.length !== 1) return null;
    toolName = match[0];
  }
  let input;
  try {
    input = JSON.parse(toolcall.repairJson(toolCall.input || '{}'));
  } catch {
    return null;
  }
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return null;
  let schema;
  try {
    schema = await inputSchema({ toolName });
  } catch {
    schema = undefined;
  }
  const fixed = JSON.stringify(fit(input, schema));
  if (toolName === toolCall.toolName && fixed === toolCall.input) return null;
  void error;
  return { ...toolCall, toolName, input: fixed };
}

module.exports = { toolcallMiddleware, repairToolCall };
