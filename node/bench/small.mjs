// Per-call cost of the small calls: `parse` and `split` of one short
// model reply (a sentence and one hermes call, 191 bytes), the way an
// agent client calls them once per reply. CPU time of this process per
// call, the fastest of --repeat rounds of --calls calls each (the machine
// these numbers come from is shared, so wall time is noisier).
//
//   node bench/small.mjs [--repeat 15] [--calls 20000]
//
// Prints a Markdown table; docs/node.md keeps the numbers.
import { createRequire } from 'node:module';
import * as toolcall from 'toolcall';

const args = process.argv.slice(2);
let repeat = 15;
let calls = 20_000;
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--repeat') repeat = Number(args[++i]);
  else if (args[i] === '--calls') calls = Number(args[++i]);
}

const reply =
  "Sure, I'll look up the current weather in Paris for you now.\n" +
  '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris", "unit": "celsius", "days": 3}}\n</tool_call>\n' +
  'One moment, please.';
const bytes = Buffer.from(reply, 'utf8');

// the CPU time of one call, in µs: the fastest round
function perCall(fn) {
  let sink = 0;
  for (let i = 0; i < calls; i++) sink ^= fn() === undefined ? 1 : 0; // warm up
  let best = Infinity;
  for (let r = 0; r < repeat; r++) {
    const t = process.cpuUsage();
    for (let i = 0; i < calls; i++) sink ^= fn() === undefined ? 1 : 0;
    const d = process.cpuUsage(t);
    best = Math.min(best, (d.user + d.system) / calls);
  }
  if (sink < 0) console.log(sink);
  return best;
}

const rows = [
  ['`parse(text)`', () => toolcall.parse(reply)],
  ['`parse(text)`, every field read', () => {
    const d = toolcall.parse(reply);
    return d.calls.length + d.text.length + d.reasoning.length + d.textBefore.length + d.textAfter.length;
  }],
  ["`parse(text, { format: 'hermes' })`", () => toolcall.parse(reply, { format: 'hermes' })],
  ['`parse(Buffer)`', () => toolcall.parse(bytes)],
  ['`split(text)`', () => toolcall.split(reply)],
];

// the native entries alone, when this build has them (for the breakdown)
const require = createRequire(import.meta.url);
const native = require('../native/toolcall.node');
if (native.parseRaw) rows.push(['native `parseRaw(text)` alone', () => native.parseRaw(reply)]);
if (native.parseText) rows.push(['native `parseText(text)` alone', () => native.parseText(reply, 0)]);
rows.push(['`JSON.parse` of the record text', (() => {
  const json = JSON.stringify(toolcall.split(reply));
  return () => JSON.parse(json);
})()]);

console.log(`reply: ${bytes.length} bytes; Node ${process.version}; CPU µs per call, fastest of ${repeat} × ${calls}`);
console.log('');
console.log('| call | µs |');
console.log('|---|---:|');
for (const [name, fn] of rows) console.log(`| ${name} | ${perCall(fn).toFixed(2)} |`);
