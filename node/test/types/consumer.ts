// A consumer script, type-checked by types.test.cjs (tsc --noEmit): what
// a TypeScript user writes against the package's declarations.
import * as toolcall from 'toolcall';
import { parse, StreamParser, toOpenAI, JSONRepairError, type Event } from 'toolcall';
import { toolcallMiddleware, repairToolCall } from 'toolcall/ai-sdk';
import { wrapLanguageModel, generateText } from 'ai';
import type { LanguageModelV3 } from '@ai-sdk/provider';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';

const doc = parse('<tool_call>{"name": "f", "arguments": {}}</tool_call>', {
  format: 'auto',
  generationPrompt: '<|im_start|>assistant\n',
  finishReason: 'stop',
});
const name: string = doc.calls[0].name;
const args: Record<string, unknown> = doc.calls[0].arguments;
const before: string = doc.textBefore;

// the assistant message goes straight into an openai request's messages
const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: 'hi' }, toOpenAI(doc)];

function describe(ev: Event): string {
  switch (ev.type) {
    case 'text':
    case 'reasoning':
      return ev.text;
    case 'markup':
      return ev.raw;
    case 'tool_call_start':
      return `${ev.index}:${ev.name}`;
    case 'tool_call':
      return `${ev.name}(${JSON.stringify(ev.arguments)}) ${ev.repairs.length}`;
    case 'error':
      return `${ev.code} at ${ev.line}:${ev.column}`;
    case 'done':
      return `${ev.calls} calls, ${ev.bytes} bytes, ${ev.finish_reason ?? ''}`;
  }
}

const parser = new StreamParser({ input: 'openai', starts: false });
const events: Event[] = [...parser.feed(new Uint8Array([1])), ...parser.close()];
events.map(describe);

async function pipe(res: Response): Promise<number> {
  let n = 0;
  for await (const ev of res.body!.pipeThrough(toolcall.stream({ input: 'openai' }))) {
    if (ev.type === 'tool_call') n += 1;
  }
  for await (const ev of toolcall.events([new Uint8Array(0), 'text'])) void ev;
  return n;
}

try {
  const fixed: string = toolcall.repairJson('{"a": 1,');
  void fixed;
} catch (e) {
  if (e instanceof JSONRepairError) {
    const at: number = e.position;
    void at;
  }
}

const verdicts = toolcall.validate(doc, { f: { type: 'object' } });
const ok: boolean = verdicts[0].valid;

const findings = toolcall.checkTranscript('<|im_start|>tool\n{}<|im_end|>', { format: 'hermes', allow: ['TLP-010'] });
const code: 'TLP-009' | 'TLP-010' | undefined = findings[0]?.code;

declare const base: LanguageModelV3;
const model = wrapLanguageModel({ model: base, middleware: toolcallMiddleware({ format: 'hermes' }) });
void generateText({ model, prompt: 'x', experimental_repairToolCall: repairToolCall });

void [name, args, before, messages, pipe, ok, code];
