'use strict';
// toolcall for Node.js: the JavaScript face of the native engine
// (native/toolcall.node, built from node/src by napi-rs).
//
// Nothing here parses, resolves a name or builds a record: options go to
// the engine as one object (keys spelt as the engine spells them), and
// results come back as the JSON text of the engine's own records, read
// here with JSON.parse. What this file adds is JavaScript's shape: errors
// as classes, streams, async iteration.

const native = require('../native/toolcall.node');

/** Base class of toolcall's errors. */
class ToolcallError extends Error {
  constructor(message) {
    super(message);
    this.name = new.target.name;
  }
}
/** An unknown format, model, input kind or option value. */
class OptionError extends ToolcallError {}
/** A tools definition that could not be read. */
class ToolsError extends ToolcallError {}
/**
 * JSON that could not be repaired: jsonrepair's JSONRepairError contract
 * (`message` ending "at position N", `position` a string index), with the
 * engine's `code`, byte `offset`, `line` and `column`.
 */
class JSONRepairError extends ToolcallError {
  constructor(message, position, fields = {}) {
    super(`${message} at position ${position}`);
    this.position = position;
    this.code = fields.code;
    this.offset = fields.offset;
    this.line = fields.line;
    this.column = fields.column;
  }
}

const KINDS = { OptionError, ToolsError, ToolcallError };

/** Turns a native error (`Kind\u0001message`) into its class. */
function rethrow(e) {
  const m = typeof e?.message === 'string' ? e.message : '';
  const cut = m.indexOf('\u0001');
  if (cut < 0) throw e;
  const Kind = KINDS[m.slice(0, cut)] ?? ToolcallError;
  throw new Kind(m.slice(cut + 1));
}

function call(fn, ...args) {
  try {
    return fn(...args);
  } catch (e) {
    rethrow(e);
  }
}

/** `generationPrompt` -> `generation_prompt`: the engine's spelling. */
function engineKey(key) {
  return key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

// What a value no JSON text can hold is, for the error naming it; none
// for JSON data. A short input's options cross to the addon as their
// JSON.stringify text, which would turn NaN or Infinity into null and drop
// a function or a symbol: a wrong value silently read as the default. A
// long input's cross as an object, where they fail with a plain Error (and
// a BigInt passed as a number). Both paths refuse them here, alike. The
// walk stops at the core's nesting bound, so a value that contains itself
// is an OptionError too, not a stack overflow.
const MAX_OPTION_DEPTH = 128;
function notJson(v, depth = 0) {
  switch (typeof v) {
    case 'number':
      return Number.isFinite(v) ? undefined : String(v);
    case 'bigint':
      return `the BigInt ${v}n`;
    case 'function':
      return 'a function';
    case 'symbol':
      return 'a symbol';
    case 'object':
      if (v === null) return undefined;
      if (depth >= MAX_OPTION_DEPTH) return `a value nested deeper than ${MAX_OPTION_DEPTH} levels (or one that contains itself)`;
      for (const x of Array.isArray(v) ? v : Object.values(v)) {
        const bad = x === undefined ? undefined : notJson(x, depth + 1);
        if (bad !== undefined) return bad;
      }
      return undefined;
    default:
      return undefined;
  }
}

/** Throws the OptionError naming option `k` (escaped) when `v` is no JSON data. */
function checkJson(k, v) {
  const bad = notJson(v);
  if (bad !== undefined) {
    throw new OptionError(`options: invalid value for ${native.escapeTerminal(k)}: ${bad}, not JSON data`);
  }
}

function engineOptions(options) {
  if (options == null) return { opts: undefined, tools: undefined };
  if (typeof options !== 'object') throw new TypeError('options must be an object');
  const opts = {};
  let tools;
  for (const [k, v] of Object.entries(options)) {
    if (v === undefined) continue;
    if (k === 'tools') tools = v;
    else {
      checkJson(k, v);
      opts[engineKey(k)] = v;
    }
  }
  return { opts, tools: tools == null ? undefined : toTools(tools)._native };
}

// From this length on a string is handed over as its UTF-8 bytes, encoded
// by Buffer.from in one pass (Node-API's string read measures the UTF-8
// length in one pass and copies in a second).
const ENCODE_FROM = 32 << 10;

function checkInput(text) {
  if (typeof text === 'string') return text.length >= ENCODE_FROM ? Buffer.from(text, 'utf8') : text;
  if (text instanceof Uint8Array) return text;
  throw new TypeError('expected a string, Buffer or Uint8Array');
}

// Below this length repairJson calls repairText, which has V8 write the
// string into a stack buffer (one call, no allocation: lib.rs,
// short_text); from it on repairTextUtf8, which reads it as UTF-8 into an
// allocated buffer.
const UTF16_BELOW = 256;

const decoder = new TextDecoder();

/**
 * A tools definition loaded once (its schemas compiled): JSON or JSON5
 * text, bytes, or the parsed value (an OpenAI `tools` list, an MCP
 * `tools/list` result, a `{name: schema}` map ...).
 */
class Tools {
  constructor(definition, options = {}) {
    let text = definition;
    if (text instanceof Uint8Array) text = decoder.decode(text);
    else if (typeof text !== 'string') text = JSON.stringify(text);
    if (options == null || typeof options !== 'object') throw new TypeError('options must be an object');
    // the core's ToolsOptions under their engine spelling (maxSchemaDepth
    // -> max_schema_depth): names, defaults and ranges are the core's
    const opts = {};
    for (const [k, v] of Object.entries(options)) {
      if (v === undefined || v === null) continue;
      // NaN or Infinity failed in the addon as a plain Error naming nothing
      checkJson(k, v);
      opts[engineKey(k)] = v;
    }
    this._native = call((t) => new native.Tools(t, opts), text);
  }
  /** The tool names, in the definition's order. */
  get names() {
    return this._native.names;
  }
  /** Warnings found while loading (duplicate names ...). */
  get warnings() {
    return this._native.warnings;
  }
  get length() {
    return this._native.length;
  }
}

function toTools(t, options) {
  return t instanceof Tools ? t : new Tools(t, options);
}

/** `obj[key]`, computed by `get` on first read and kept. */
function lazy(obj, key, get) {
  Object.defineProperty(obj, key, {
    enumerable: true,
    configurable: true,
    get() {
      const value = get();
      Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
      return value;
    },
  });
}

// the Document of a long input, as parseRaw returns it
function documentOf(raw) {
  const r = JSON.parse(raw.records);
  const doc = { calls: r.tool_calls, errors: r.errors };
  // the prose of a long document becomes a string only when read
  lazy(doc, 'text', () => raw.text);
  lazy(doc, 'reasoning', () => raw.reasoning);
  lazy(doc, 'textBefore', () => raw.textBefore);
  lazy(doc, 'textAfter', () => raw.textAfter);
  doc.segments = r.segments;
  doc.finishReason = r.finish_reason ?? null;
  return doc;
}

// parseText's shapes: the Document, the split record
const DOCUMENT = 0;
const SPLIT = 1;

// Below this length (string characters or bytes) an input is read by
// parseText: the whole result as one JSON text, made the Document (or
// split record) by one JSON.parse, no native object per call. From it on
// by parseRaw, whose prose stays native until read (a caller after the
// calls of a long document never pays for its text).
const SHORT_BELOW = ENCODE_FROM;

/** parseText's options: their JSON text, none when there is none. */
function optionsText(opts) {
  if (opts === undefined) return undefined;
  for (const _ in opts) return JSON.stringify(opts);
  return undefined;
}

function isShort(text) {
  return typeof text === 'string' ? text.length < SHORT_BELOW : text instanceof Uint8Array && text.length < SHORT_BELOW;
}

/** Parses a whole model output: its calls, prose, reasoning and errors. */
function parse(text, options) {
  const { opts, tools } = engineOptions(options);
  if (isShort(text)) return JSON.parse(call(native.parseText, text, DOCUMENT, optionsText(opts), tools));
  return documentOf(call(native.parseRaw, checkInput(text), opts, tools));
}

/** `parse` on a worker thread of libuv's pool: for long inputs. */
async function parseAsync(text, options) {
  const { opts, tools } = engineOptions(options);
  let raw;
  try {
    raw = await native.parseRawAsync(checkInput(text), opts, tools);
  } catch (e) {
    rethrow(e);
  }
  return documentOf(raw);
}

/** The `split` record of `toolcall split`, as the command writes it. */
function split(text, options) {
  const { opts, tools } = engineOptions(options);
  if (isShort(text)) return JSON.parse(call(native.parseText, text, SPLIT, optionsText(opts), tools));
  const raw = call(native.parseRaw, checkInput(text), opts, tools);
  const r = JSON.parse(raw.records);
  return {
    type: 'split',
    doc: r.doc,
    text_before: raw.textBefore,
    text_after: raw.textAfter,
    text: raw.text,
    reasoning: raw.reasoning,
    tool_calls: r.tool_calls,
    errors: r.errors,
    segments: r.segments,
  };
}

/**
 * The engine fed chunk by chunk, as `toolcall stream` reads a live output:
 * `feed` returns the events its chunk decided, `close` the rest and a
 * final `done` event. The calls, text and reasoning are those `parse`
 * gives for the whole input, however it is cut (bytes may split a UTF-8
 * character).
 */
class StreamParser {
  constructor(options = {}) {
    const { starts, ...rest } = options ?? {};
    const { opts, tools } = engineOptions(rest);
    this._native = call((o, t) => new native.NativeStream(o, t, starts), opts, tools);
  }
  feed(chunk) {
    return JSON.parse(call((c) => this._native.feed(c), checkInput(chunk)));
  }
  close() {
    return JSON.parse(call(() => this._native.close()));
  }
  /** Bytes held back, undecided (a possible marker's start). */
  get held() {
    return this._native.held;
  }
  get closed() {
    return this._native.closed;
  }
}

/** The events of a stream of chunks (strings or bytes), as they are decided. */
async function* events(source, options) {
  const parser = new StreamParser(options);
  for await (const chunk of source) {
    yield* parser.feed(chunk);
  }
  yield* parser.close();
}

/**
 * A WHATWG TransformStream from chunks (strings or bytes) to events:
 * `response.body.pipeThrough(toolcall.stream({ input: 'openai' }))`.
 */
function stream(options) {
  let parser;
  return new TransformStream({
    start() {
      parser = new StreamParser(options);
    },
    transform(chunk, controller) {
      for (const ev of parser.feed(chunk)) controller.enqueue(ev);
    },
    flush(controller) {
      for (const ev of parser.close()) controller.enqueue(ev);
    },
  });
}

function nameArgs(item) {
  if (item == null || typeof item !== 'object') {
    throw new TypeError('cannot validate: give calls as objects');
  }
  const fn = item.function ?? item;
  let args = fn.arguments ?? fn.parameters ?? {};
  if (typeof args !== 'string') args = JSON.stringify(args);
  return [String(fn.name ?? ''), args];
}

/**
 * Judges calls against tool schemas, as `toolcall validate` does: a
 * Document, one call, or calls (`{name, arguments}` or OpenAI's
 * `{function: {...}}`, arguments as an object or JSON text). One verdict
 * per call.
 */
function validate(docOrCalls, tools, options = {}) {
  let items;
  if (Array.isArray(docOrCalls)) items = docOrCalls;
  else if (Array.isArray(docOrCalls?.calls)) items = docOrCalls.calls;
  else items = [docOrCalls];
  const t = toTools(tools, options);
  return JSON.parse(call(native.validateJson, JSON.stringify(items.map(nameArgs)), t._native));
}

/**
 * The conversation checks of a raw transcript (model text with turn
 * headers), as `toolcall validate` runs them: `TLP-009` (a call no tool
 * turn answers before the next assistant turn) and `TLP-010` (a tool turn
 * that answers no call). One record per finding (`code`, `message`,
 * `doc`, `span`, `turn`, `role`); the codes in `options.allow` are off.
 * Takes `parse`'s options.
 */
function checkTranscript(text, options = {}) {
  const { allow, ...rest } = options ?? {};
  if (allow != null && !Array.isArray(allow)) throw new TypeError('allow must be an array of codes');
  const { opts } = engineOptions(rest);
  return JSON.parse(call(native.checkTranscriptJson, checkInput(text), opts, allow?.map(String)));
}

/** The tools block a family's chat template writes (`toolcall render tools`). */
function renderTools(family, tools) {
  return call(native.renderTools, family, toTools(tools, { strict: false })._native);
}

/**
 * The message carrying tool results back to the model (`toolcall render
 * result`): each result `{id, name, content}` or `{id, name, error}`.
 */
function renderResult(family, results, options = {}) {
  const list = Array.isArray(results) ? results : [results];
  const [pre, body, post] = call(
    native.renderResult,
    family,
    JSON.stringify(list),
    options.maxTokens ?? 0,
  );
  return options.bodyOnly ? body : pre + body + post;
}

/**
 * Calls written as the family's model writes them (`toolcall render
 * call`): each `{name, arguments, id?}`, a found call, or OpenAI's shape.
 */
function renderCalls(family, calls) {
  const list = Array.isArray(calls) ? calls : [calls];
  return call(native.renderCalls, family, JSON.stringify(list));
}

/** The formats the engine reads: `toolcall formats --json`'s records. */
function formats() {
  return JSON.parse(native.formatsJson());
}

/** The model names it knows: `toolcall formats --models --json`'s records. */
function models() {
  return JSON.parse(native.modelsJson());
}

/** The UTF-16 index of a UTF-8 byte offset into `text`. */
function position(text, offset) {
  if (typeof text !== 'string') return offset;
  const bytes = Buffer.from(text, 'utf8');
  return bytes.subarray(0, Math.min(offset, bytes.length)).toString('utf8').length;
}

function repairError(text, e) {
  return new JSONRepairError(e.message, position(text, e.offset), e);
}

/**
 * jsonrepair's contract: the repaired JSON text (valid input comes back
 * as it is); throws JSONRepairError when nothing can be made of it. The
 * document is read as `toolcall repair` reads it (the core's
 * `repair_document`): a sentence of prose with no JSON is hopeless unless
 * `options.textAsString`.
 */
function repairJson(text, options) {
  if (typeof text !== 'string') throw new TypeError('repairJson expects a string');
  let out;
  try {
    // a short string is read into a stack buffer, a long one into an
    // allocated one (lib.rs, hand_exports); no second argument in the
    // common case: one value less to convert
    const fn = text.length < UTF16_BELOW ? native.repairText : native.repairTextUtf8;
    out = options?.textAsString === true ? fn(text, true) : fn(text);
  } catch (e) {
    const m = String(e?.message ?? '');
    const cut = m.indexOf('\u0001');
    if (cut >= 0 && m.slice(0, cut) === 'RepairError') {
      throw repairError(text, JSON.parse(m.slice(cut + 1)));
    }
    throw e;
  }
  return out ?? text;
}

/** `repairJson` on a worker thread: for long inputs. */
async function repairJsonAsync(text, options) {
  if (typeof text !== 'string') throw new TypeError('repairJsonAsync expects a string');
  const r = JSON.parse(await native.repairJsonAsync(text, options?.textAsString === true));
  if (r.error) throw repairError(text, r.error);
  return r.text;
}

/**
 * Repairs one JSON document as `toolcall repair` does: the text, whether
 * it changed, and what was changed. Limits: `maxDepth` (64), `timeoutMs`
 * (100), `maxSize` (bytes, none).
 */
function repair(text, options = {}) {
  const r = JSON.parse(
    native.repairJson(
      checkInput(text),
      options.maxDepth ?? 64,
      options.timeoutMs ?? 100,
      options.maxSize,
      options.textAsString === true,
    ),
  );
  if (r.error) throw repairError(text, r.error);
  return r;
}

/**
 * The assistant message an OpenAI-compatible server returns for this
 * output (a `ChatCompletionAssistantMessageParam`): `content` is the prose
 * (null when blank), `tool_calls` the calls with their arguments as JSON
 * text (absent when there is none: OpenAI rejects an empty list), and
 * `reasoning_content` the reasoning when there is some.
 */
function toOpenAI(doc) {
  const msg = {
    role: 'assistant',
    content: doc.text.trim() ? doc.text : null,
  };
  if (doc.reasoning) msg.reasoning_content = doc.reasoning;
  if (doc.calls.length) {
    msg.tool_calls = doc.calls.map((c) => ({
      id: c.id,
      type: 'function',
      function: { name: c.name, arguments: JSON.stringify(c.arguments) },
    }));
  }
  return msg;
}

module.exports = {
  JSONRepairError,
  OptionError,
  StreamParser,
  Tools,
  ToolcallError,
  ToolsError,
  checkTranscript,
  events,
  formats,
  models,
  parse,
  parseAsync,
  renderCalls,
  renderResult,
  renderTools,
  repair,
  repairJson,
  repairJsonAsync,
  split,
  stream,
  toOpenAI,
  validate,
  version: native.version(),
};
