'use strict';
// The StreamParser fed one byte at a time gives what parse gives, on every
// CanIToolCall fixture; the async generator and the TransformStream are
// the same parser.
const test = require('node:test');
const assert = require('node:assert/strict');
const toolcall = require('..');
const { canitoolcall } = require('./helpers.cjs');

const FIXTURES = canitoolcall();

test('the fixtures are found', () => {
  assert.ok(FIXTURES.length > 100, `${FIXTURES.length} fixtures`);
});

test('StreamParser at 1-byte chunks gives what parse gives, every fixture', () => {
  for (const { fx, options } of FIXTURES) {
    const raw = Buffer.from(fx.raw_output, 'utf8');
    const doc = toolcall.parse(raw, options);
    const p = new toolcall.StreamParser(options);
    const events = [];
    for (let i = 0; i < raw.length; i++) events.push(...p.feed(raw.subarray(i, i + 1)));
    events.push(...p.close());
    const calls = events.filter((e) => e.type === 'tool_call');
    assert.deepEqual(calls, doc.calls, fx.id);
    const join = (t) => events.filter((e) => e.type === t).map((e) => e.text).join('');
    assert.equal(join('text'), doc.text, fx.id);
    assert.equal(join('reasoning'), doc.reasoning, fx.id);
    assert.deepEqual(
      events.filter((e) => e.type === 'error').map((e) => e.code),
      doc.errors.map((e) => e.code),
      fx.id,
    );
    const done = events[events.length - 1];
    assert.equal(done.type, 'done', fx.id);
    assert.equal(done.calls, doc.calls.length, fx.id);
    assert.equal(done.bytes, raw.length, fx.id);
    // the pieces tile the input
    const spans = events
      .filter((e) => ['text', 'reasoning', 'markup', 'tool_call'].includes(e.type))
      .map((e) => e.span)
      .filter(([a, b]) => a !== b)
      .sort((x, y) => x[0] - y[0]);
    if (spans.length) assert.equal(spans[0][0], 0, fx.id);
    for (let i = 1; i < spans.length; i++) assert.equal(spans[i - 1][1], spans[i][0], fx.id);
  }
});

const OUTPUT = 'Hi.<tool_call>{"name": "f", "arguments": {"x": "é"}}</tool_call>';

test('events(): an async generator over any AsyncIterable of chunks', async () => {
  async function* chunks() {
    const b = Buffer.from(OUTPUT);
    for (let i = 0; i < b.length; i += 3) yield b.subarray(i, i + 3);
  }
  const out = [];
  for await (const ev of toolcall.events(chunks())) out.push(ev);
  assert.deepEqual(out.map((e) => e.type), ['text', 'tool_call_start', 'tool_call', 'done']);
  assert.deepEqual(out[2], toolcall.parse(OUTPUT).calls[0]);
});

test('stream(): a WHATWG TransformStream, as fetch bodies pipe through', async () => {
  // an OpenAI-compatible server's SSE body, as bytes
  const sse = [
    'data: {"choices":[{"delta":{"content":"<tool_call>{\\"name\\": \\"f\\", "}}]}\n\n',
    'data: {"choices":[{"delta":{"content":"\\"arguments\\": {}}</tool_call>"}}]}\n\n',
    'data: {"choices":[{"delta":{},"finish_reason":"stop"}]}\n\n',
    'data: [DONE]\n\n',
  ].join('');
  const body = new Response(sse).body;
  const out = [];
  for await (const ev of body.pipeThrough(toolcall.stream({ input: 'openai' }))) out.push(ev);
  const call = out.find((e) => e.type === 'tool_call');
  assert.equal(call.name, 'f');
  const done = out[out.length - 1];
  assert.equal(done.type, 'done');
  assert.equal(done.input, 'openai');
  assert.equal(done.finish_reason, 'stop');
});

test('StreamParser: feed after close throws', () => {
  const p = new toolcall.StreamParser({ starts: false });
  assert.deepEqual(p.feed('<tool_ca').map((e) => e.type), []);
  assert.ok(p.held > 0);
  const evs = p.close();
  assert.equal(p.closed, true);
  assert.equal(evs[evs.length - 1].type, 'done');
  assert.throws(() => p.feed('x'), toolcall.ToolcallError);
  assert.throws(() => p.close(), toolcall.ToolcallError);
});
