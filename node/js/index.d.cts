// Types of the `toolcall` package (CommonJS and ESM alike; index.d.mts
// re-exports these). The records (ToolCall, ErrorRecord, the split record
// and the stream events) are the ones the `toolcall` command writes, field
// for field (docs/records.md); the API's own names are camelCase.

/** A byte range `[start, end)` in the document as read (UTF-8 bytes). */
export type Span = [number, number];

/** A risk level a tools definition gives a tool. */
export type Risk = 'safe' | 'low' | 'medium' | 'high' | 'critical';

/** One change a repair made: its kind and the byte offset it applies at. */
export interface Repair {
  kind: string;
  offset: number;
}

/** A problem validation found in a call. */
export interface Issue {
  code: string;
  path: string;
  message: string;
  expected?: unknown;
  actual?: unknown;
}

/** A tool call the engine found (`"type": "tool_call"`). */
export interface ToolCall {
  type: 'tool_call';
  /** The document's name (`"-"` unless the `doc` option names it). */
  doc: string;
  index: number;
  id: string;
  name: string;
  /** Always a JSON object. */
  arguments: Record<string, unknown>;
  /** The format id the call was written in. */
  format: string;
  span: Span;
  /** The call's markup exactly as written. */
  raw: string;
  repairs: Repair[];
  /** Drafted inside reasoning (with `reasoningCalls: true`). */
  in_reasoning?: true;
  /** In a transcript: the 0-based turn and its role. */
  turn?: number;
  role?: string;
  /** With `input: 'messages'`: the JSON pointer of the call in the conversation. */
  pointer?: string;
  /** With `input: 'messages'`: the call was written in a message's content. */
  in_content?: true;
  /** With `tools`: the validation fields `toolcall parse --tools` adds. */
  tool_name?: string;
  risk?: Risk;
  requires_approval?: boolean;
  summary?: string;
  valid?: boolean;
  errors?: Issue[];
}

/** A candidate call that could not be recovered (`"type": "error"`). */
export interface ErrorRecord {
  type: 'error';
  /** A `TLP-00N` code. */
  code: string;
  message: string;
  doc: string;
  span: Span;
  raw: string;
  offset: number;
  line: number;
  column: number;
  hint?: string;
  turn?: number;
  role?: string;
  /** In a stream, when the call's `tool_call_start` was sent. */
  index?: number;
  id?: string;
}

/** One piece of the document's exact tiling. */
export interface Segment {
  kind: 'text' | 'reasoning' | 'tool_call' | 'markup';
  span: Span;
}

/** A whole output, separated: what `parse` returns. */
export interface Document {
  calls: ToolCall[];
  errors: ErrorRecord[];
  /** All prose, calls, reasoning and markup removed. */
  text: string;
  /** The content of all reasoning spans. */
  reasoning: string;
  /** Prose before the first call (all of it when there is no call). */
  textBefore: string;
  /** Prose after the last call. */
  textAfter: string;
  segments: Segment[];
  /** Why a server said the output ended (wire inputs), else null. */
  finishReason: string | null;
}

/** The `split` record of `toolcall split`, as the command writes it. */
export interface SplitRecord {
  type: 'split';
  doc: string;
  text_before: string;
  text_after: string;
  text: string;
  reasoning: string;
  tool_calls: ToolCall[];
  errors: ErrorRecord[];
  segments: Segment[];
}

/** Stream events, as `toolcall stream` writes them: narrow on `type`. */
export type Event =
  | { type: 'text'; text: string; span: Span; turn?: number; role?: string }
  | { type: 'reasoning'; text: string; span: Span; turn?: number; role?: string }
  | { type: 'markup'; raw: string; span: Span; turn?: number; role?: string }
  | { type: 'tool_call_start'; index: number; id: string; name: string; turn?: number; role?: string }
  | ToolCall
  | ErrorRecord
  | {
      type: 'done';
      calls: number;
      bytes: number;
      input?: string;
      text_bytes?: number;
      finish_reason?: string;
      usage?: { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number };
      truncated?: boolean;
    };

/** What the input is: model text, or a server's stream or a conversation. */
export type InputKind =
  | 'text'
  | 'auto'
  | 'terminal'
  | 'ollama'
  | 'openai'
  | 'llama-server'
  | 'messages';

/** A tools definition: loaded, JSON text or bytes, or the parsed value. */
export type ToolsLike = Tools | string | Uint8Array | readonly unknown[] | Record<string, unknown>;

/** The options of `parse`, `split`, `StreamParser`: `toolcall parse`'s flags. */
export interface Options {
  /** `"auto"` (default), a format id or a model name. */
  format?: string;
  /** A served model name: its format and default generation prompt. */
  model?: string;
  /** The text the chat template appended after the last message. */
  generationPrompt?: string;
  /** `"length"`: a call still open at the end is a truncation error. */
  finishReason?: 'stop' | 'length';
  /** Calls get the validation fields; damaged calls naming a tool are recovered. */
  tools?: ToolsLike;
  /** Default `"text"`. */
  input?: InputKind;
  jsonBlocks?: boolean;
  inlineJson?: boolean;
  repair?: boolean;
  reasoningCalls?: boolean;
  thinkOpen?: boolean;
  thinkWindow?: number;
  maxBlock?: number;
  repairMaxSize?: number;
  maxBuffer?: number;
  /** Most error records of one block, the last summing up the rest (default 8). */
  maxErrorsPerBlock?: number;
  /** The document's name, copied into records (default `"-"`). */
  doc?: string;
}

export interface StreamOptions extends Options {
  /** Send `tool_call_start` events (default true). */
  starts?: boolean;
}

/**
 * How a tools definition is loaded: the tools flags of the command line
 * (`--no-strict`, `--unknown-risk`, `--auto-approve`, `--max-tools-size`,
 * `--max-schema-depth`, `--max-schema-checks`, `--max-json5-depth`).
 * Left out: the core's default (docs/limits.md).
 */
export interface ToolsOptions {
  strict?: boolean;
  unknownRisk?: Risk;
  autoApprove?: Risk;
  /** Largest definition read, in bytes (16 MiB). */
  maxToolsSize?: number;
  /** How deeply a tool's schema may nest (256; 1 to 1024). */
  maxSchemaDepth?: number;
  /** How many times a schema's combinators may check one value (100,000; 1 to 100,000,000). */
  maxSchemaChecks?: number;
  /** How deeply a definition written in JSON5 may nest (128; 1 to 1024). */
  maxJson5Depth?: number;
}

/** Base class of toolcall's errors. */
export class ToolcallError extends Error {}
/** An unknown format, model, input kind or option value. */
export class OptionError extends ToolcallError {}
/** A tools definition that could not be read. */
export class ToolsError extends ToolcallError {}
/** JSON that could not be repaired (jsonrepair's JSONRepairError contract). */
export class JSONRepairError extends ToolcallError {
  /** The string index of the fault. */
  position: number;
  /** `TLP-003` (hopeless) or `TLP-007` (a limit). */
  code: string;
  /** Byte offset of the fault in the UTF-8 input. */
  offset: number;
  line: number;
  column: number;
}

/** A tools definition loaded once, its schemas compiled. */
export class Tools {
  constructor(definition: string | Uint8Array | readonly unknown[] | Record<string, unknown>, options?: ToolsOptions);
  readonly names: string[];
  readonly warnings: string[];
  readonly length: number;
}

/** One call's judgement. */
export interface Verdict {
  name: string;
  valid: boolean;
  errors: Issue[];
  warnings: Issue[];
  known: boolean;
  tool_name: string;
  risk: Risk;
  requires_approval: boolean;
  summary: string;
}

/** A call to validate: a found call, `{name, arguments}`, or OpenAI's shape. */
export type CallLike =
  | ToolCall
  | { name: string; arguments?: unknown }
  | { function: { name: string; arguments?: unknown } };

export function parse(text: string | Uint8Array, options?: Options): Document;
export function parseAsync(text: string | Uint8Array, options?: Options): Promise<Document>;
export function split(text: string | Uint8Array, options?: Options): SplitRecord;

export class StreamParser {
  constructor(options?: StreamOptions);
  feed(chunk: string | Uint8Array): Event[];
  close(): Event[];
  readonly held: number;
  readonly closed: boolean;
}

export function events(
  source: AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>,
  options?: StreamOptions,
): AsyncGenerator<Event, void, undefined>;
export function stream(options?: StreamOptions): TransformStream<string | Uint8Array, Event>;

export function validate(
  docOrCalls: Document | CallLike | readonly CallLike[],
  tools: ToolsLike,
  options?: ToolsOptions,
): Verdict[];

/** A conversation check's finding in a raw transcript (`TLP-009`, `TLP-010`). */
export interface TranscriptFinding {
  /** `TLP-009`: a call no tool turn answers; `TLP-010`: a tool turn that answers no call. */
  code: 'TLP-009' | 'TLP-010';
  message: string;
  doc: string;
  /** The call, or the tool turn's header line. */
  span: Span;
  /** The turn the call or result lies in. */
  turn?: number;
  role?: string;
}
/** The options of `checkTranscript`: `parse`'s, and the codes to turn off. */
export interface TranscriptOptions extends Omit<Options, 'tools'> {
  allow?: readonly string[];
}
/** The conversation checks of a raw transcript, as `toolcall validate` runs them. */
export function checkTranscript(text: string | Uint8Array, options?: TranscriptOptions): TranscriptFinding[];

export function renderTools(family: string, tools: ToolsLike): string;
/** Calls written as the family's model writes them (`toolcall render call`). */
export function renderCalls(
  family: string,
  calls: CallLike | readonly CallLike[] | { name: string; arguments?: unknown; id?: string },
): string;
export interface ToolResult {
  id: string;
  name: string;
  content?: unknown;
  error?: string;
}
export function renderResult(
  family: string,
  results: ToolResult | readonly ToolResult[],
  options?: { maxTokens?: number; bodyOnly?: boolean },
): string;

/** A format the engine reads (`toolcall formats --json`). */
export interface FormatRecord {
  type: 'format';
  id: string;
  /** The model families that write it, in prose. */
  families: string;
  markers: string[];
  body: string;
}
export function formats(): FormatRecord[];

/** A model name `format` and `model` take (`toolcall formats --models --json`). */
export interface ModelRecord {
  type: 'model';
  name: string;
  /** The format id it writes. */
  format: string;
  /** Its chat template's default generation prompt. */
  generation_prompt: string;
}
export function models(): ModelRecord[];

/**
 * How a whole document is read: `textAsString` reads a sentence of prose
 * with no JSON in it (`She said: no way`) as one string, as `jsonrepair`
 * does; without it such a document throws (as `toolcall repair` refuses
 * it without `--text-as-string`).
 */
export interface DocumentOptions {
  textAsString?: boolean;
}
export function repairJson(text: string, options?: DocumentOptions): string;
export function repairJsonAsync(text: string, options?: DocumentOptions): Promise<string>;
export interface Repaired {
  text: string;
  changed: boolean;
  repairs: Repair[];
}
export function repair(
  text: string | Uint8Array,
  options?: DocumentOptions & { maxDepth?: number; timeoutMs?: number; maxSize?: number },
): Repaired;

/**
 * The assistant message an OpenAI-compatible server returns: assignable
 * to the `openai` package's `ChatCompletionAssistantMessageParam`.
 */
export interface OpenAIAssistantMessage {
  role: 'assistant';
  content: string | null;
  reasoning_content?: string;
  tool_calls?: {
    id: string;
    type: 'function';
    function: { name: string; arguments: string };
  }[];
}
export function toOpenAI(doc: Document): OpenAIAssistantMessage;

export const version: string;
