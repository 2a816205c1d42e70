#!/usr/bin/env node
// Hostile-input probes for the Node package: the cases of
// fuzz/probe_bindings.py (deep nesting, huge strings, invalid UTF-8,
// self-referencing values, wrong types), each in a child process so that a
// crash shows as a signal. A case passes when the child exits 0: the call
// returned, or threw an Error (a toolcall error, a TypeError or
// RangeError). Needs the addon built (cd node && npm ci && npm run build).
//
//   node fuzz/probe_bindings.cjs [--only SUBSTRING]
//   node fuzz/probe_bindings.cjs --sweep [--scale F] [--only SUBSTRING]
'use strict';
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const PKG = path.join(__dirname, '..', 'node');
const DEEP = 200000;
const BIG = 16 << 20;

const PRELUDE = `
const tc = require(${JSON.stringify(PKG)});
const deepList = (n) => { let x = []; for (let i = 0; i < n; i++) x = [x]; return x; };
const deepObj = (n) => { let x = {}; for (let i = 0; i < n; i++) x = { a: x }; return x; };
const cyclic = () => { const a = []; a.push(a); return a; };
const cyclicObj = () => { const o = {}; o.a = o; return o; };
const DEEPJ = '<tool_call>{"name":"f","arguments":{"a":' + '['.repeat(${DEEP}) + ']'.repeat(${DEEP}) + '}}</tool_call>';
const TOOLS = '[{"name":"f","parameters":{"type":"object","properties":{"a":{"type":"string"}}}}]';
const ESC = '\\x1b]0;pwned\\x07\\x1b[2J';
`;

const CASES = [
  ['parse-deep', 'tc.parse(DEEPJ)'],
  ['parse-deep-buffer', 'tc.parse(Buffer.from(DEEPJ))'],
  ['parse-invalid-utf8', "tc.parse(Buffer.from([0xff, 0xfe, 0x00, 0xc0, 0x80]))"],
  ['parse-lone-surrogate', "tc.parse('<tool_call>{\"name\":\"f\\ud800\",\"arguments\":{}}</tool_call>')"],
  ['parse-huge', `tc.parse('x'.repeat(${BIG}))`],
  ['parse-wrong-type', 'tc.parse(12)'],
  ['parse-options-cyclic', "tc.parse('x', { format: cyclic() })"],
  ['parse-options-cyclic-obj', "tc.parse('x', { generationPrompt: cyclicObj() })"],
  ['parse-options-deep', `tc.parse('x', { format: deepList(${DEEP}) })`],
  ['parse-options-deep-obj', `tc.parse('x', { model: deepObj(${DEEP}) })`],
  ['parse-options-esc', "tc.parse('x', { format: ESC })"],
  ['parse-options-unknown-esc', "tc.parse('x', { [ESC]: 1 })"],
  ['parse-options-huge-int', "tc.parse('x', { maxBlock: 1e300 })"],
  ['parse-options-nan', "tc.parse('x', { maxBlock: NaN })"],
  ['parse-options-bigint', "tc.parse('x', { maxBlock: 10n ** 40n })"],
  ['parse-options-symbol', "tc.parse('x', { format: Symbol('x') })"],
  ['parse-options-function', "tc.parse('x', { format: () => 1 })"],
  ['parse-async-options-cyclic', "tc.parseAsync('x', { format: cyclic() }).catch((e) => console.log('rejected', e.message))"],
  ['split-options-cyclic', "tc.split('x', { format: cyclic() })"],
  ['split-deep', 'tc.split(DEEPJ)'],
  ['stream-options-cyclic', 'new tc.StreamParser({ format: cyclic() })'],
  ['stream-options-deep', `new tc.StreamParser({ model: deepList(${DEEP}) })`],
  ['stream-deep', 'const p = new tc.StreamParser(); p.feed(DEEPJ); p.close()'],
  ['stream-invalid-utf8', 'const p = new tc.StreamParser(); p.feed(Buffer.from([0xff, 0xfe, 0, 0xc3])); p.close()'],
  ['stream-feed-after-close', "const p = new tc.StreamParser(); p.close(); p.feed('x')"],
  ['stream-wire-deep', `const p = new tc.StreamParser({ input: 'openai' }); p.feed('data: {"choices":[{"delta":{"x":' + '['.repeat(${DEEP}) + '\\n\\n'); p.close()`],
  ['transcript-options-cyclic', "tc.checkTranscript('x', { format: cyclic() })"],
  ['transcript-deep', `tc.checkTranscript('{"messages":' + '['.repeat(${DEEP}) + ']'.repeat(${DEEP}) + '}')`],
  ['tools-deep', `new tc.Tools('['.repeat(${DEEP}) + ']'.repeat(${DEEP}))`],
  ['tools-cyclic', 'new tc.Tools(cyclic())'],
  ['tools-deep-obj', `new tc.Tools([{ name: 'f', parameters: deepObj(${DEEP}) }])`],
  ['tools-esc', "new tc.Tools('[{\"name\":\"' + ESC + '\",oops')"],
  ['validate-cyclic', "tc.validate([{ name: 'f', arguments: cyclicObj() }], TOOLS)"],
  ['validate-deep-args', `tc.validate([{ name: 'f', arguments: '['.repeat(${DEEP}) + ']'.repeat(${DEEP}) }], TOOLS)`],
  ['validate-huge-args', `tc.validate([{ name: 'f', arguments: '{"a":"' + 'x'.repeat(${BIG}) + '"}' }], TOOLS)`],
  ['validate-wrong-shape', 'tc.validate([1, null, "x"], TOOLS)'],
  ['repair-deep', `tc.repairJson('['.repeat(${DEEP}))`],
  ['repair-deep-obj', `tc.repairJson('{"a":'.repeat(${DEEP}))`],
  ['repair-invalid-utf8', 'tc.repairJson(Buffer.from([0x7b, 0xff, 0xfe]))'],
  ['repair-wrong-type', 'tc.repairJson(12)'],
  // the short-text fast path (repairText below 256 UTF-16 units,
  // repairTextUtf8 from there) at the lengths around the cut-over
  ['repair-fast-deep', "[1, 63, 64, 65, 200, 255, 256, 257, 4096].map((k) => tc.repairJson('['.repeat(k)))"],
  ['repair-fast-nul', "[1, 100, 255, 256].map((k) => tc.repairJson('{\"a\":\"' + '\\u0000'.repeat(k)))"],
  ['repair-fast-surrogate', "tc.repairJson('[\"\\ud800\", \\ud800')"],
  ['repair-fast-astral', "[85, 86, 127, 128].map((k) => tc.repairJson('[\"' + '\\u{1F600}'.repeat(k)))"],
  // an expression (the runner writes `const r = <case>`: a `for` there was a SyntaxError)
  ['repair-fast-many', "Array.from({ length: 200000 }, (_, i) => tc.repairJson('{\"a\":[1,2,' + i)).length"],
  ['repair-fast-text-as-string', `tc.repairJson('word '.repeat(${BIG >> 2}), { textAsString: true })`],
  ['repair-async-deep', `tc.repairJsonAsync('['.repeat(${DEEP})).then(() => console.log('resolved')).catch((e) => console.log('rejected', e.message))`],
  // Tools options: out of range, wrong types, each bound tripped
  ['parse-opt-neg', "tc.parse('x', { maxBlock: -1 })"],
  ['parse-opt-float', "tc.parse('x', { thinkWindow: 1.5 })"],
  ['parse-opt-string', "tc.split('x', { maxErrorsPerBlock: 'many' })"],
  ['stream-opt-neg', 'new tc.StreamParser({ maxBuffer: -1 })'],
  ['tools-opt-huge', 'new tc.Tools(TOOLS, { maxToolsSize: 1e300 })'],
  ['tools-opt-neg', 'new tc.Tools(TOOLS, { maxSchemaDepth: -1 })'],
  ['tools-opt-nan', 'new tc.Tools(TOOLS, { maxJson5Depth: NaN })'],
  ['tools-opt-wrong-type', "new tc.Tools(TOOLS, { maxToolsSize: 'big' })"],
  ['tools-opt-cyclic', 'new tc.Tools(TOOLS, { maxToolsSize: cyclicObj() })'],
  ['tools-opt-unknown', 'new tc.Tools(TOOLS, { [ESC]: 1 })'],
  ['tools-opt-not-object', "new tc.Tools(TOOLS, 'x')"],
  ['tools-opt-size-tripped', 'new tc.Tools(TOOLS, { maxToolsSize: 1 })'],
  ['tools-opt-json5-tripped', "new tc.Tools('// json5\\n' + '['.repeat(40) + ']'.repeat(40), { maxJson5Depth: 10 })"],
  ['render-tools-deep', `tc.renderTools('hermes', '[{"name":"f","parameters":' + '{"items":'.repeat(50000) + '{}' + '}'.repeat(50000) + '}]')`],
  ['render-tools-esc-family', 'tc.renderTools(ESC, TOOLS)'],
  ['render-result-cyclic', "tc.renderResult('hermes', { id: 'c', name: 'f', content: cyclic() })"],
  ['render-result-huge', `tc.renderResult('hermes', { id: 'c', name: 'f', content: 'x'.repeat(${BIG}) })`],
  ['render-calls-cyclic', "tc.renderCalls('hermes', [{ name: 'f', arguments: cyclicObj() }])"],
];

// --sweep: the entry points that read model text (parse, split, a
// StreamParser fed one character at a time, validate of a parsed document,
// checkTranscript), at N, 2N, 4N and 8N units of each hostile input, a child
// process per size (CPU seconds and peak RSS its own). Linear is x2 per
// doubling; a last doubling past 2.3 (and over 0.3 s) is flagged.
const SWEEP_UNITS = [
  ['tiny-calls', '<tool_call>{"name":"f","arguments":{}}</tool_call>\n', 40000],
  ['open-markers', '<tool_call> [TOOL_CALLS] <|python_tag|> <function= <|tool_calls_section_begin|> ', 8000],
  ['think-flood', '<think></think></think>', 40000],
  ['harmony-headers', '<|start|>assistant<|channel|>analysis<|message|>x<|end|>', 20000],
  ['long-line', 'a<b[c{d', 200000],
  // the newest paths: Kimi K2 line leads (a line's first word held), lines
  // of 127-129 bytes, nested Qwen3-Coder tags, transcript turns
  ['kimi-leads', `functions.f:${'x'.repeat(100)} 0\nfunctions.get_weather:1 <|tool_call_argument_begin|>\n`, 8000],
  ['line-128', `${'a'.repeat(127)}\n${'b'.repeat(128)}\n${'c'.repeat(129)}\n`, 4000],
  ['qwen-nested', '<tool_call>\n<function=f>\n<parameter=a>\n<parameter=b><function=g></parameter>\n', 8000],
  ['transcript-turns', '<|im_start|>assistant\n<tool_call>{"name":"f","arguments":{}}</tool_call><|im_end|>\n<|im_start|>user\nok<|im_end|>\n', 8000],
];
const SWEEP_CALLS = [
  ['parse', 'tc.parse(doc)', 1],
  ['split', 'tc.split(doc)', 1],
  ['stream-1', 'const p = new tc.StreamParser(); for (let i = 0; i < doc.length; i++) p.feed(doc[i]); p.close();', 1 / 8],
  ['validate', `tc.validate(tc.parse(doc), '[{"name":"f","parameters":{"type":"object","properties":{"a":{"type":"string"}}}}]');`, 1],
  ['transcript', 'tc.checkTranscript(doc);', 1],
];
const SWEEP_RUNNER = `
const tc = require(${JSON.stringify(PKG)});
const doc = process.argv[1].repeat(Number(process.argv[2]));
const t = process.cpuUsage();
eval(process.argv[3]);
const u = process.cpuUsage(t);
console.log((u.user + u.system) / 1e6, process.resourceUsage().maxRSS / 1024);
`;

function sweep(scale) {
  let flagged = 0;
  for (const [uname, unit, n] of SWEEP_UNITS) {
    for (const [cname, code, f] of SWEEP_CALLS) {
      const name = `${cname}-${uname}`;
      if (only.length && !only.some((o) => name.includes(o))) continue;
      const m = Math.max(1, Math.floor(n * scale * f));
      const rows = [1, 2, 4, 8].map((k) => {
        const r = spawnSync(process.execPath, ['-e', SWEEP_RUNNER, unit, String(m * k), code], { encoding: 'utf8', timeout: 600000 });
        const out = (r.stdout || '').trim().split(/\s+/);
        return r.status === 0 && out.length === 2 ? [Number(out[0]), Number(out[1])] : [NaN, 0];
      });
      const ratio = rows[2][0] > 0.02 ? rows[3][0] / rows[2][0] : 0;
      const flag = (ratio > 2.3 && rows[3][0] > 0.3) || rows.some((r) => Number.isNaN(r[0]));
      flagged += flag;
      console.log(`${(flag ? 'FAIL' : 'ok').padEnd(4)} ${name.padEnd(30)} N=${String(m).padEnd(7)} cpu ${rows.map((r) => r[0].toFixed(2).padStart(6)).join(' ')}  x${ratio.toFixed(2)} | rss ${rows.map((r) => r[1].toFixed(0).padStart(5)).join(' ')}`);
    }
  }
  console.error(`${flagged} node sweep case(s) flagged`);
  process.exitCode = flagged ? 1 : 0;
}

const only = [];
let sweepScale = 0;
for (let i = 2; i < process.argv.length; i++) {
  if (process.argv[i] === '--only') only.push(process.argv[++i]);
  else if (process.argv[i] === '--sweep') sweepScale = sweepScale || 1;
  else if (process.argv[i] === '--scale') sweepScale = Number(process.argv[++i]);
}
if (sweepScale) {
  sweep(sweepScale);
  return;
}
let bad = 0;
for (const [name, src] of CASES) {
  if (only.length && !only.some((o) => name.includes(o))) continue;
  const body = `${PRELUDE}
try { const r = ${src.includes(';') ? `(() => { ${src.replace(/; ([^;]*)$/, '; return $1')} })()` : src}; console.log('returned'); }
catch (e) { if (e instanceof Error) console.log('threw', e.name, String(e.message).slice(0, 160)); else { console.log('UNEXPECTED', String(e)); process.exitCode = 3; } }`;
  const r = spawnSync(process.execPath, ['-e', body], { encoding: 'utf8', timeout: 60000, maxBuffer: 1 << 26 });
  const status = r.signal ?? (r.error ? 'TIMEOUT' : r.status);
  const ok = status === 0;
  if (!ok) bad++;
  const lines = (r.stdout || '').trim().split('\n');
  const errl = (r.stderr || '').trim().split('\n');
  const detail = ok ? lines[lines.length - 1] : (errl[errl.length - 1] || lines[lines.length - 1] || '');
  console.log(`${(ok ? 'ok' : 'FAIL').padEnd(4)} ${name.padEnd(32)} ${String(status).padStart(8)}  ${JSON.stringify(detail).slice(1, -1).slice(0, 140)}`);
}
console.error(`${bad} node case(s) flagged`);
process.exitCode = bad ? 1 : 0;
