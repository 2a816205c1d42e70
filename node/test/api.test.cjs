'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const toolcall = require('..');

const HERMES = '<think>plan</think>Sure.<tool_call>{"name": "get_weather", "arguments": {"city": "Paris",}}</tool_call> Done.';
const TOOLS = [
  {
    type: 'function',
    function: {
      name: 'get_weather',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    },
  },
];

test('parse: calls, prose, reasoning and the tiling', () => {
  const doc = toolcall.parse(HERMES);
  assert.equal(doc.calls.length, 1);
  const [c] = doc.calls;
  assert.equal(c.type, 'tool_call');
  assert.equal(c.name, 'get_weather');
  assert.deepEqual(c.arguments, { city: 'Paris' });
  assert.equal(c.format, 'hermes');
  assert.deepEqual(c.repairs.map((r) => r.kind), ['trailing_comma']);
  assert.equal(doc.text, 'Sure. Done.');
  assert.equal(doc.textBefore, 'Sure.');
  assert.equal(doc.textAfter, ' Done.');
  assert.equal(doc.reasoning, 'plan');
  assert.deepEqual(doc.segments.map((s) => s.kind), ['reasoning', 'text', 'tool_call', 'text']);
  assert.equal(doc.finishReason, null);
});

test('parse: a Buffer gives what the string gives, spans in bytes', () => {
  const s = 'é<tool_call>{"name":"f","arguments":{}}</tool_call>';
  const a = toolcall.parse(s);
  const b = toolcall.parse(Buffer.from(s));
  assert.deepEqual(a, b);
  assert.deepEqual(a.calls[0].span, [2, Buffer.byteLength(s)]);
});

test('parse: options by name, errors as classes', () => {
  // a model name as the format, and as the model (its generation prompt too)
  const gemma = '[get_weather(city="Paris")]';
  assert.equal(toolcall.parse(gemma, { format: 'gemma-3' }).calls[0].name, 'get_weather');
  assert.equal(toolcall.parse(gemma, { model: 'gemma-3' }).calls[0].format, 'pythonic');
  assert.throws(() => toolcall.parse('x', { model: 'qwen4' }), /unknown model 'qwen4'; did you mean 'qwen3'/);
  assert.throws(() => toolcall.parse('x', { format: 'nope' }), (e) => {
    assert.ok(e instanceof toolcall.OptionError);
    assert.ok(e instanceof toolcall.ToolcallError);
    assert.match(e.message, /unknown format 'nope'/);
    return true;
  });
  assert.throws(() => toolcall.parse('x', { noSuchOption: 1 }), toolcall.OptionError);
  assert.throws(() => toolcall.parse('x', { finishReason: 'maybe' }), toolcall.OptionError);
  assert.throws(() => toolcall.parse(42), TypeError);
});

test('parse: finishReason length makes an open call a truncation error', () => {
  const doc = toolcall.parse('<tool_call>{"name": "f", "argu', { finishReason: 'length' });
  assert.equal(doc.calls.length, 0);
  assert.equal(doc.errors.length, 1);
  assert.equal(doc.errors[0].type, 'error');
});

test("input 'messages': a conversation's calls, with their pointers", () => {
  const conv = JSON.stringify({
    messages: [
      { role: 'user', content: 'hi' },
      {
        role: 'assistant',
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{"x": 1}' } }],
      },
    ],
  });
  const doc = toolcall.parse(conv, { input: 'messages' });
  assert.equal(doc.calls.length, 1);
  assert.equal(doc.calls[0].pointer, '/messages/1/tool_calls/0');
  assert.deepEqual(doc.calls[0].arguments, { x: 1 });
  assert.equal(toolcall.parse(conv).calls.length, 0, 'read as text: no call');
});

test('parse with tools: the validation fields', () => {
  const doc = toolcall.parse(HERMES, { tools: TOOLS });
  assert.equal(doc.calls[0].valid, true);
  assert.equal(doc.calls[0].tool_name, 'get_weather');
  assert.throws(() => toolcall.parse(HERMES, { tools: '{not json' }), toolcall.ToolsError);
});

test('parseAsync gives what parse gives', async () => {
  const big = 'x'.repeat(1 << 20) + HERMES;
  assert.deepEqual(await toolcall.parseAsync(big), toolcall.parse(big));
  await assert.rejects(toolcall.parseAsync('x', { input: 'fax' }), toolcall.OptionError);
});

test('split: the record toolcall split writes', () => {
  const rec = toolcall.split(HERMES);
  assert.equal(rec.type, 'split');
  assert.equal(rec.doc, '-');
  assert.equal(rec.tool_calls[0].name, 'get_weather');
  assert.equal(rec.text_before, 'Sure.');
});

test('validate: documents, plain calls and OpenAI calls', () => {
  const doc = toolcall.parse(HERMES);
  const [v] = toolcall.validate(doc, TOOLS);
  assert.equal(v.valid, true);
  assert.equal(v.risk, 'medium');
  const bad = toolcall.validate(
    [{ name: 'get_weather', arguments: { city: 3 } }, { function: { name: 'nope', arguments: '{}' } }],
    TOOLS,
  );
  assert.equal(bad[0].valid, false);
  assert.ok(bad[0].errors.length > 0);
  assert.equal(bad[1].known, false);
  const tools = new toolcall.Tools(TOOLS);
  assert.deepEqual(tools.names, ['get_weather']);
  assert.equal(tools.length, 1);
});

test('renderTools and renderResult', () => {
  const block = toolcall.renderTools('hermes', TOOLS);
  assert.match(block, /<tools>/);
  assert.match(block, /get_weather/);
  const msg = toolcall.renderResult('hermes', { id: 'c1', name: 'get_weather', content: 'sunny' });
  assert.match(msg, /<tool_response>/);
  assert.match(msg, /sunny/);
  const body = toolcall.renderResult('hermes', [{ id: 'c1', name: 'f', content: 'x' }], { bodyOnly: true });
  assert.ok(msg.length > body.length);
  assert.throws(() => toolcall.renderTools('no-such-family', TOOLS), toolcall.OptionError);
  const calls = toolcall.renderCalls('hermes', { name: 'get_weather', arguments: { city: 'Paris' } });
  assert.deepEqual(toolcall.parse(calls, { format: 'hermes' }).calls.map((c) => [c.name, c.arguments]), [
    ['get_weather', { city: 'Paris' }],
  ]);
});

test('formats() and models(): the records toolcall formats --json writes', () => {
  const f = toolcall.formats();
  assert.ok(f.length > 20);
  const hermes = f.find((x) => x.id === 'hermes');
  assert.equal(hermes.type, 'format');
  assert.ok(hermes.markers.includes('<tool_call>'));
  const m = toolcall.models();
  const gemma = m.find((x) => x.name === 'gemma-3');
  assert.equal(gemma.type, 'model');
  assert.equal(gemma.format, 'pythonic');
  assert.equal(typeof gemma.generation_prompt, 'string');
});

test("repairJson: jsonrepair's contract", () => {
  const valid = '{"a": [1, 2]}';
  assert.equal(toolcall.repairJson(valid), valid);
  assert.equal(toolcall.repairJson("{'a': 1,}"), '{"a": 1}');
  assert.throws(() => toolcall.repairJson(']'), (e) => {
    assert.ok(e instanceof toolcall.JSONRepairError);
    assert.ok(e instanceof toolcall.ToolcallError);
    assert.equal(e.position, 0);
    assert.equal(e.code, 'TLP-003');
    assert.match(e.message, / at position 0$/);
    return true;
  });
  assert.throws(() => toolcall.repairJson(42), TypeError);
});

test('repairJson: the position counts string characters, not bytes', () => {
  // three two-byte characters before the fault
  assert.throws(() => toolcall.repairJson('{"ééé": @}'), (e) => {
    assert.equal(e.offset, 11);
    assert.equal(e.position, 8);
    assert.equal('{"ééé": @}'[e.position], '@');
    assert.match(e.message, /at position 8$/);
    return true;
  });
});

test('repairJson: text beyond ASCII reads as repair() reads it', () => {
  // repairJson takes the string as UTF-16 and transcodes it itself; repair
  // takes it as UTF-8 from V8: astral characters, a lone surrogate (U+FFFD
  // either way) and a BOM give the same text
  // short strings go over as UTF-16, from 256 characters on as UTF-8
  const long = (s) => `[${'"padding", '.repeat(30)}${s}]`;
  const cases = ['{"k": "😀 ünï", "v": 1,}', '{"a": "x\ud800y", b: 1', '\ufeff{"é": [1, 2', '["日本", '];
  for (const s of [...cases, ...cases.slice(0, 2).map(long)]) {
    assert.equal(toolcall.repairJson(s), toolcall.repair(s).text, s);
  }
  assert.ok(long(cases[0]).length >= 256);
  assert.equal(toolcall.repairJson(long('{"a": "x\ud800y", b: 1}')), long('{"a": "x\ufffdy", "b": 1}'));
  const valid = long('"ü"');
  assert.equal(toolcall.repairJson(valid), valid);
  assert.throws(() => toolcall.repairJson(`${'é'.repeat(300)} and some words`), (e) => {
    assert.equal(e.code, 'TLP-003');
    return e instanceof toolcall.JSONRepairError;
  });
  assert.equal(toolcall.repairJson('{"a": "x\ud800y", b: 1'), '{"a": "x\ufffdy", "b": 1}');
});

test('repairJson: the small objects of the bench, and strings at the short read\'s edges', () => {
  // strings shorter than 256 units are written by V8 into a stack buffer
  // and take the core's fast path first; the text is repair()'s either way
  const small = [
    '{"city": "Paris", "unit": "celsius",}',
    '{"query": "hotels in Rome", "max": 5',
    "{city: 'Paris', days: 3}",
    '{"a": True, "b": None}',
    '{"text": "He said "hi" to me"}',
    '{"path": "/tmp/x", "lines": [1, 2, 3',
    '{"name": "search" "q": "rust"}',
    '```json\n{"x": 1}\n```',
  ];
  for (const s of small) assert.equal(toolcall.repairJson(s), toolcall.repair(s).text, s);
  const fill = (n, ch) => `{"k": "${ch.repeat(n)}",}`;
  for (const ch of ['a', 'é', '日', '😀', '\ud800']) {
    for (const total of [250, 255, 256, 257]) {
      const n = Math.max(0, Math.floor((total - 10) / ch.length));
      const s = fill(n, ch);
      assert.equal(toolcall.repairJson(s), toolcall.repair(s).text, `${ch} × ${n}`);
    }
  }
});

test('repair: the text, whether it changed, the repairs', async () => {
  const r = toolcall.repair('{"a": 1,}');
  assert.equal(r.text, '{"a": 1}');
  assert.equal(r.changed, true);
  assert.equal(r.repairs[0].kind, 'trailing_comma');
  assert.equal(await toolcall.repairJsonAsync('[1, 2'), '[1, 2]');
});

test('toOpenAI: an assistant message the openai package accepts', () => {
  const m = toolcall.toOpenAI(toolcall.parse(HERMES));
  assert.equal(m.role, 'assistant');
  assert.equal(m.content, 'Sure. Done.');
  assert.equal(m.reasoning_content, 'plan');
  assert.equal(m.tool_calls[0].type, 'function');
  assert.deepEqual(JSON.parse(m.tool_calls[0].function.arguments), { city: 'Paris' });
  const none = toolcall.toOpenAI(toolcall.parse('  '));
  assert.equal(none.content, null);
  assert.equal('tool_calls' in none, false);
});

test('checkTranscript: findings as records, allow, the options checked', () => {
  const t =
    '<|im_start|>user\nHi<|im_end|>\n' +
    '<|im_start|>assistant\n<tool_call>\n{"name": "f", "arguments": {}}\n</tool_call><|im_end|>\n' +
    '<|im_start|>user\nNever mind.<|im_end|>\n' +
    '<|im_start|>assistant\nDone.<|im_end|>\n';
  const found = toolcall.checkTranscript(t);
  assert.equal(found.length, 1);
  assert.equal(found[0].code, 'TLP-009');
  assert.equal(found[0].role, 'assistant');
  assert.equal(t.slice(found[0].span[0], found[0].span[0] + 11), '<tool_call>');
  assert.deepEqual(toolcall.checkTranscript(t, { allow: ['TLP-009'] }), []);
  assert.deepEqual(toolcall.checkTranscript('no turns here'), []);
  assert.throws(() => toolcall.checkTranscript(t, { allow: 'TLP-009' }), TypeError);
  assert.throws(() => toolcall.checkTranscript(t, { modle: 'x' }), toolcall.OptionError);
});

test('a short input (one JSON text) and a long one (prose kept native) give the same records', () => {
  // parse and split read an input under 32 KiB through parseText, a longer
  // one through parseRaw: the same document, keys and key order either way
  const pad = ' '.repeat(40 << 10);
  const long = toolcall.parse(HERMES + pad);
  const short = toolcall.parse(HERMES);
  assert.deepEqual(Object.keys(short), Object.keys(long));
  assert.deepEqual(short.calls, long.calls);
  assert.equal(long.text, short.text + pad);
  assert.equal(short.reasoning, 'plan');
  assert.equal(short.finishReason, null);
  const s = toolcall.split(HERMES);
  const l = toolcall.split(HERMES + pad);
  assert.deepEqual(Object.keys(s), Object.keys(l));
  assert.deepEqual(s.tool_calls, l.tool_calls);
  assert.equal(s.type, 'split');
  assert.deepEqual(toolcall.parse(Buffer.from(HERMES)), short);
});

test('options on the short path: each call read under its own options, errors as before', () => {
  // parseText keeps the last options resolved: alternating options must not
  // leak from one call into the next
  const text = '<tool_call>{"name": "a", "arguments": {}}</tool_call>';
  for (let i = 0; i < 3; i++) {
    assert.equal(toolcall.parse(text, { format: 'hermes' }).calls.length, 1);
    assert.equal(toolcall.parse(text, { format: 'mistral' }).calls.length, 0);
    assert.equal(toolcall.parse(text, { doc: 'a.txt' }).calls[0].doc, 'a.txt');
    assert.equal(toolcall.parse(text).calls[0].doc, '-');
    assert.equal(toolcall.split(text, { doc: 'b.txt' }).doc, 'b.txt');
    assert.equal(toolcall.parse(text, {}).calls.length, 1);
  }
  const long = `${text}${' '.repeat(40 << 10)}`;
  for (const o of [{ noSuchOption: 1 }, { finishReason: 'maybe' }, { maxBlock: 'x' }, { format: 'nope' }]) {
    let shortMsg;
    let longMsg;
    assert.throws(() => toolcall.parse(text, o), (e) => e instanceof toolcall.OptionError && Boolean((shortMsg = e.message)));
    assert.throws(() => toolcall.parse(long, o), (e) => e instanceof toolcall.OptionError && Boolean((longMsg = e.message)));
    assert.equal(shortMsg, longMsg, JSON.stringify(o));
  }
  // a failed resolve leaves the next call's options alone
  assert.equal(toolcall.parse(text, { format: 'hermes' }).calls.length, 1);
});

test('options no JSON text can hold: an OptionError on short and long inputs alike', () => {
  // a short input's options cross as JSON text, where NaN and Infinity
  // would become null and a function or symbol vanish: a wrong value must
  // not turn silently into the default
  const text = '<tool_call>{"name": "a", "arguments": {}}</tool_call>';
  const long = `${text}${' '.repeat(40 << 10)}`;
  const cases = [
    [{ repairMaxSize: NaN }, 'options: invalid value for repairMaxSize: NaN, not JSON data'],
    [{ maxBlock: Infinity }, 'options: invalid value for maxBlock: Infinity, not JSON data'],
    [{ thinkWindow: -Infinity }, 'options: invalid value for thinkWindow: -Infinity, not JSON data'],
    [{ repairMaxSize: 10n }, 'options: invalid value for repairMaxSize: the BigInt 10n, not JSON data'],
    [{ format: () => 'hermes' }, 'options: invalid value for format: a function, not JSON data'],
    [{ model: Symbol('m') }, 'options: invalid value for model: a symbol, not JSON data'],
    [{ repair: [true, NaN] }, 'options: invalid value for repair: NaN, not JSON data'],
  ];
  // a value that contains itself, or nests past the core's bound, is an
  // OptionError too, not a stack overflow
  const loop = [];
  loop.push(loop);
  let deep = [];
  for (let i = 0; i < 200; i += 1) deep = [deep];
  const nested = 'a value nested deeper than 128 levels (or one that contains itself)';
  cases.push([{ repair: loop }, `options: invalid value for repair: ${nested}, not JSON data`]);
  cases.push([{ repair: deep }, `options: invalid value for repair: ${nested}, not JSON data`]);
  for (const [o, message] of cases) {
    for (const input of [text, long, Buffer.from(text)]) {
      assert.throws(() => toolcall.parse(input, o), { name: 'OptionError', message });
      assert.throws(() => toolcall.split(input, o), { name: 'OptionError', message });
      assert.throws(() => toolcall.parse(input, o), toolcall.OptionError);
    }
  }
  // an absent option (undefined) stays absent on both paths
  assert.equal(toolcall.parse(text, { model: undefined, format: 'hermes' }).calls.length, 1);
  assert.equal(toolcall.parse(long, { model: undefined, format: 'hermes' }).calls.length, 1);
});

test('a bad option value names the option, as the package spells it', () => {
  // serde's own message named no option ("invalid value: integer `-1`,
  // expected usize"); the core names it, the package in camelCase
  const text = '<tool_call>{"name": "a", "arguments": {}}</tool_call>';
  const long = `${text}${' '.repeat(40 << 10)}`;
  const cases = [
    [{ maxBlock: -1 }, /^options: maxBlock: invalid value: integer `-1`/],
    [{ maxBlock: 'big' }, /^options: maxBlock: invalid type: string "big"/],
    [{ thinkWindow: 1.5 }, /^options: thinkWindow: invalid type: floating point `1.5`/],
    [{ repair: [1] }, /^options: repair: invalid type: sequence/],
  ];
  for (const [o, message] of cases) {
    for (const input of [text, long]) {
      assert.throws(() => toolcall.parse(input, o), { name: 'OptionError', message });
    }
    assert.throws(() => new toolcall.StreamParser(o), { name: 'OptionError', message });
  }
  assert.throws(() => new toolcall.Tools('[{"name": "f", "parameters": {"type": "object"}}]', { maxToolsSize: -1 }), {
    name: 'OptionError',
    message: /^options: maxToolsSize: invalid value: integer `-1`/,
  });
});

test('options no JSON text can hold: parseAsync refuses them too', async () => {
  await assert.rejects(toolcall.parseAsync('x', { repairMaxSize: NaN }), {
    name: 'OptionError',
    message: 'options: invalid value for repairMaxSize: NaN, not JSON data',
  });
});

test('option errors escape the names and values they echo', () => {
  // an option's name or value echoed in an OptionError is escaped as the
  // command escapes stderr: printing it can neither drive a terminal nor
  // forge a line
  const ESC = '\x1b]0;pwn\x07\x1b[31mred\r\nforged\0\u202e';
  const ESCAPED = '\\u{1b}]0;pwn\\u{7}\\u{1b}[31mred\\r\\nforged\\0\\u{202e}';
  const T = '[{"name": "f", "parameters": {"type": "object"}}]';
  const calls = [
    () => new toolcall.Tools(T, { [ESC]: 1 }),
    () => new toolcall.Tools(T, { [ESC]: NaN }),
    () => new toolcall.Tools(T, { unknownRisk: ESC }),
    () => toolcall.parse('x', { [ESC]: 1 }),
    () => toolcall.parse('x', { [ESC]: Infinity }),
    () => toolcall.parse('x', { model: ESC }),
    () => new toolcall.StreamParser({ format: ESC }),
    () => toolcall.renderTools(ESC, T),
  ];
  for (const f of calls) {
    assert.throws(f, (e) => {
      assert.ok(e instanceof toolcall.OptionError, `${e.name}: ${e.message}`);
      assert.ok(e.message.includes(ESCAPED), e.message);
      assert.ok(!/[\x00\x07\x1b\r\n\u202e]/.test(e.message), JSON.stringify(e.message));
      return true;
    });
  }
});

test('Tools options no JSON text can hold: an OptionError naming the option', () => {
  // NaN and Infinity failed in the addon as a plain Error
  // ("Failed to convert js number to serde_json::Number") naming nothing
  const T = '[{"name": "f", "parameters": {"type": "object"}}]';
  for (const [o, message] of [
    [{ maxJson5Depth: NaN }, 'options: invalid value for maxJson5Depth: NaN, not JSON data'],
    [{ maxSchemaDepth: Infinity }, 'options: invalid value for maxSchemaDepth: Infinity, not JSON data'],
    [{ maxToolsSize: 10n }, 'options: invalid value for maxToolsSize: the BigInt 10n, not JSON data'],
  ]) {
    assert.throws(() => new toolcall.Tools(T, o), { name: 'OptionError', message });
    assert.throws(() => toolcall.parse('x', { tools: new toolcall.Tools(T), ...o }), toolcall.OptionError);
  }
  assert.deepEqual(new toolcall.Tools(T, { maxSchemaDepth: 5, strict: null }).names, ['f']);
});
