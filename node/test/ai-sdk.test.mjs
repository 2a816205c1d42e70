// toolcall/ai-sdk against the real `ai` package: its mock language model
// (ai/test) writes raw text, and generateText / streamText must see the
// calls, reasoning and prose as the SDK's own parts.
import test from 'node:test';
import assert from 'node:assert/strict';
//
// The SDK is `ai` (6, on any Node >= 18) unless TOOLCALL_TEST_AI names
// another install of it: ai-sdk-v7.test.cjs runs this file on Node 22
// with `ai7` (`ai` 7, which needs Node 22) and its mock model for the
// current specification (TOOLCALL_TEST_MOCK=MockLanguageModelV4).
const AI = process.env.TOOLCALL_TEST_AI ?? 'ai';
const sdk = await import(AI);
const sdkTest = await import(`${AI}/test`);
const { generateText, streamText, wrapLanguageModel, tool, jsonSchema } = sdk;
const { simulateReadableStream } = sdkTest;
const MockLanguageModelV3 = sdkTest[process.env.TOOLCALL_TEST_MOCK ?? 'MockLanguageModelV3'];
assert.equal(typeof MockLanguageModelV3, 'function', `${AI}/test has no such mock model`);
import { toolcallMiddleware, repairToolCall } from 'toolcall/ai-sdk';

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 20, text: 20, reasoning: undefined },
};
const stop = { unified: 'stop', raw: 'stop' };

const OUTPUT =
  '<think>The user wants weather.</think>Let me check.\n' +
  '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris",}}\n</tool_call>';

const tools = {
  get_weather: tool({
    description: 'Weather in a city',
    inputSchema: jsonSchema({
      type: 'object',
      properties: { city: { type: 'string' } },
      required: ['city'],
    }),
  }),
};

function model(text) {
  return new MockLanguageModelV3({
    doGenerate: async () => ({
      content: [{ type: 'text', text }],
      finishReason: stop,
      usage,
      warnings: [],
    }),
    doStream: async () => {
      const chunks = [{ type: 'stream-start', warnings: [] }, { type: 'text-start', id: 't' }];
      // cut everywhere, a few bytes at a time
      for (let i = 0; i < text.length; i += 4) {
        chunks.push({ type: 'text-delta', id: 't', delta: text.slice(i, i + 4) });
      }
      chunks.push({ type: 'text-end', id: 't' }, { type: 'finish', finishReason: stop, usage });
      return { stream: simulateReadableStream({ chunks }) };
    },
  });
}

test('generateText: tool-call and reasoning parts from raw text', async () => {
  const result = await generateText({
    model: wrapLanguageModel({ model: model(OUTPUT), middleware: toolcallMiddleware() }),
    prompt: 'weather in Paris?',
    tools,
  });
  assert.equal(result.toolCalls.length, 1);
  assert.equal(result.toolCalls[0].toolName, 'get_weather');
  assert.deepEqual(result.toolCalls[0].input, { city: 'Paris' });
  assert.equal(result.text.trim(), 'Let me check.');
  assert.equal(result.reasoningText, 'The user wants weather.');
  assert.equal(result.finishReason, 'tool-calls');
});

test('streamText: the same parts, streamed', async () => {
  const result = streamText({
    model: wrapLanguageModel({ model: model(OUTPUT), middleware: toolcallMiddleware() }),
    prompt: 'weather in Paris?',
    tools,
  });
  const types = [];
  for await (const part of result.fullStream) types.push(part.type);
  const calls = await result.toolCalls;
  assert.equal(calls.length, 1);
  assert.deepEqual(calls[0].input, { city: 'Paris' });
  assert.equal((await result.text).trim(), 'Let me check.');
  assert.equal(await result.reasoningText, 'The user wants weather.');
  assert.equal(await result.finishReason, 'tool-calls');
  assert.ok(types.indexOf('reasoning-delta') < types.indexOf('text-delta'));
  assert.ok(types.indexOf('text-delta') < types.indexOf('tool-call'));
});

test('any family the engine reads: a Mistral call, a Llama python_tag call', async () => {
  for (const text of [
    '[TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "Oslo"}}]',
    '<|python_tag|>{"name": "get_weather", "parameters": {"city": "Oslo"}}',
  ]) {
    const result = await generateText({
      model: wrapLanguageModel({ model: model(text), middleware: toolcallMiddleware() }),
      prompt: 'x',
      tools,
    });
    assert.deepEqual(result.toolCalls.map((c) => c.input), [{ city: 'Oslo' }], text);
    assert.equal(result.text, '', text);
  }
});

test('a call the engine reports from inside reasoning is a call (Kimi K2 Thinking)', async () => {
  // vybestack/llxprt-code#749: the call section sits before </think>
  const text =
    '<think>Let me look. <|tool_calls_section_begin|> <|tool_call_begin|> functions.get_weather:0 ' +
    '<|tool_call_argument_begin|> {"city": "Oslo"} <|tool_call_end|> <|tool_calls_section_end|></think>';
  const result = await generateText({
    model: wrapLanguageModel({ model: model(text), middleware: toolcallMiddleware() }),
    prompt: 'x',
    tools,
  });
  assert.deepEqual(result.toolCalls.map((c) => c.input), [{ city: 'Oslo' }]);
  assert.equal(result.text, '');
});

test('prose with no call passes through unchanged', async () => {
  const text = 'No tools needed: 2 + 2 = 4. Use `{"a": 1}` as JSON.';
  const result = await generateText({
    model: wrapLanguageModel({ model: model(text), middleware: toolcallMiddleware() }),
    prompt: 'x',
    tools,
  });
  assert.equal(result.toolCalls.length, 0);
  assert.equal(result.text, text);
  assert.equal(result.finishReason, 'stop');
});

test('prompt: the family writes the tools into the system prompt', async () => {
  const m = model('<tool_call>{"name": "get_weather", "arguments": {"city": "Rome"}}</tool_call>');
  const result = await generateText({
    model: wrapLanguageModel({ model: m, middleware: toolcallMiddleware({ prompt: 'hermes' }) }),
    system: 'Be brief.',
    prompt: 'x',
    tools,
  });
  const sent = m.doGenerateCalls[0];
  assert.equal(sent.tools, undefined);
  assert.match(sent.prompt[0].content, /^Be brief\.[\s\S]*<tools>[\s\S]*get_weather/);
  assert.deepEqual(result.toolCalls[0].input, { city: 'Rome' });
});

test('prompt: earlier calls and results are written as the family writes them', async () => {
  const m = model('The weather in Rome is sunny.');
  const result = await generateText({
    model: wrapLanguageModel({ model: m, middleware: toolcallMiddleware({ prompt: 'hermes' }) }),
    messages: [
      { role: 'user', content: 'weather in Rome?' },
      {
        role: 'assistant',
        content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'get_weather', input: { city: 'Rome' } }],
      },
      {
        role: 'tool',
        content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'get_weather', output: { type: 'text', value: 'sunny, 24 C' } }],
      },
    ],
    tools,
  });
  const sent = m.doGenerateCalls[0].prompt;
  const assistant = sent.find((x) => x.role === 'assistant');
  assert.equal(assistant.content[0].type, 'text');
  assert.match(assistant.content[0].text, /<tool_call>[\s\S]*"get_weather"[\s\S]*"Rome"[\s\S]*<\/tool_call>/);
  assert.equal(sent.some((x) => x.role === 'tool'), false);
  const back = sent[sent.length - 1];
  assert.equal(back.role, 'user');
  assert.match(back.content[0].text, /<tool_response>[\s\S]*sunny, 24 C/);
  assert.equal(result.text, 'The weather in Rome is sunny.');
});

test('repairToolCall: broken JSON, schema types, a near-miss tool name', async () => {
  const schema = {
    type: 'object',
    properties: { city: { type: 'string' }, days: { type: 'integer' }, units: { type: 'array', items: { type: 'string' } } },
  };
  const call = { type: 'tool-call', toolCallId: 'c1', toolName: 'functions.Get-Weather', input: "{'city': 'Paris', 'days': '3', 'units': 'C',}" };
  const fixed = await repairToolCall({
    toolCall: call,
    tools: { get_weather: {} },
    inputSchema: async () => schema,
    error: new Error('x'),
  });
  assert.equal(fixed.toolName, 'get_weather');
  assert.deepEqual(JSON.parse(fixed.input), { city: 'Paris', days: 3, units: ['C'] });
  const none = await repairToolCall({
    toolCall: { ...call, toolName: 'unknown' },
    tools: { get_weather: {} },
    inputSchema: async () => schema,
    error: new Error('x'),
  });
  assert.equal(none, null);
});

test('repairToolCall as the SDK calls it', async () => {
  const m = new MockLanguageModelV3({
    doGenerate: async () => ({
      content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'get_weather', input: '{"city": "Paris"' }],
      finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
      usage,
      warnings: [],
    }),
  });
  const result = await generateText({
    model: m,
    prompt: 'x',
    tools,
    experimental_repairToolCall: repairToolCall,
  });
  assert.deepEqual(result.toolCalls.map((c) => c.input), [{ city: 'Paris' }]);
});
