// Where repairJson's per-call time goes on small inputs: the Node-API
// boundary measured with identity functions (src/probes.rs, built only
// with `TOOLCALL_NODE_FEATURES=probes npm run build`), next to the real
// entries and jsonrepair. CPU time of this process per call, the fastest
// of --repeat rounds over the 10,000 small broken objects of bench.mjs.
//
//   node bench/boundary.mjs [--repeat 15]
import { createRequire } from 'node:module';
import { jsonrepair } from 'jsonrepair';
import * as toolcall from 'toolcall';

const args = process.argv.slice(2);
let repeat = 15;
for (let i = 0; i < args.length; i++) if (args[i] === '--repeat') repeat = Number(args[++i]);

const SMALL = [
  '{"city": "Paris", "unit": "celsius",}',
  '{"query": "hotels in Rome", "max": 5',
  "{city: 'Paris', days: 3}",
  '{"a": True, "b": None}',
  '{"text": "He said "hi" to me"}',
  '{"path": "/tmp/x", "lines": [1, 2, 3',
  '{"name": "search" "q": "rust"}',
  '```json\n{"x": 1}\n```',
];
// fresh strings, as a client's would be (not interned literals)
const small = Array.from({ length: 10_000 }, (_, i) => (' ' + SMALL[i % SMALL.length]).slice(1));

function perCall(fn) {
  let sink = 0;
  const run = () => {
    for (let i = 0; i < small.length; i++) sink ^= fn(small[i]) === undefined ? 1 : 0;
  };
  run();
  let best = Infinity;
  for (let r = 0; r < repeat; r++) {
    const t = process.cpuUsage();
    run();
    const d = process.cpuUsage(t);
    best = Math.min(best, (d.user + d.system) / small.length);
  }
  if (sink < 0) console.log(sink);
  return best;
}

const require = createRequire(import.meta.url);
const native = require('../native/toolcall.node');
const rows = [
  ['JavaScript function, no call (`(s) => s`)', (s) => s],
  ['`jsonrepair`', (s) => jsonrepair(s)],
  ['`repairJson`', (s) => toolcall.repairJson(s)],
  ['native `repairText` alone', (s) => native.repairText(s)],
];
for (const [name, label] of [
  ['probeNop', 'the call, argument not read'],
  ['probeReadUtf16', 'string read as UTF-16'],
  ['probeReadStack', 'string written as UTF-8 into a stack buffer (one call)'],
  ['probeIdStack', 'into a stack buffer, returned as Latin-1'],
  ['probeIdUtf8', 'read as UTF-16, returned as UTF-8'],
  ['probeIdLatin1', 'read as UTF-16, returned as Latin-1'],
  ['probeIdUtf16', 'read as UTF-16, returned as UTF-16'],
  ['probeIdStr', 'read as UTF-8, returned as UTF-8'],
  ['probeRepairLen', 'read as UTF-16, full repair, length returned'],
  ['probeRepairTextLen', 'read as UTF-16, fast path first, length returned'],
]) {
  if (native[name]) rows.push([`probe: ${label}`, (s) => native[name](s)]);
}
console.log(`Node ${process.version}; CPU µs per call, fastest of ${repeat} rounds of ${small.length} calls`);
console.log('');
console.log('| call | µs |');
console.log('|---|---:|');
for (const [name, fn] of rows) console.log(`| ${name} | ${perCall(fn).toFixed(3)} |`);
