// Speed, in one process on the same inputs: repairJson against jsonrepair
// (the inputs of benches/repair.rs and python/bench.py: a 1 MB valid
// document, the same with errors and a cut tail, 10,000 small broken
// objects) and parse on the 4 MB transcript of benches/engine.rs (from a
// JS string and from a Buffer), against the usual JavaScript hermes
// parser (one regular expression and JSON.parse per call).
//
//   node bench/bench.mjs [--transcript FILE] [--repeat N] [--cpu]
//
// Without --transcript the transcript is generated with
// `cargo run --release --example transcript -- 4`. Prints a Markdown table.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { jsonrepair } from 'jsonrepair';
import * as toolcall from 'toolcall';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const args = process.argv.slice(2);
let transcriptFile;
let repeat = 7;
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--transcript') transcriptFile = args[++i];
  else if (args[i] === '--repeat') repeat = Number(args[++i]);
}

function validDoc() {
  const parts = [];
  let size = 2;
  for (let i = 0; size < 1_000_000; i++) {
    const item =
      `  {"id": "call_${i.toString(16).padStart(8, '0')}", "name": "get_weather", "arguments": {"city": "Paris \\"${i}\\"", ` +
      `"unit": "celsius", "days": ${i % 14}, "lat": 48.8566, "lon": 2.3522, ` +
      `"tags": ["a", "b\\n", "caf\\u00e9"], ` +
      `"note": "lorem ipsum dolor sit amet, consectetur adipiscing elit"}, "ok": true, "extra": null}`;
    parts.push(item);
    size += item.length + 2;
  }
  return `[\n${parts.join(',\n')}\n]\n`;
}

// trailing commas near the start and the middle, and a cut tail (python/
// bench.py puts its commas after `"ok": true`, which makes a double comma
// there: jsonrepair throws on that, so here they go before a brace)
function brokenDoc(valid) {
  let s = valid;
  for (const frac of [10, 2]) {
    const at = Math.floor(s.length / frac);
    const p = s.indexOf('"extra": null}', at);
    if (p >= 0) {
      const end = p + '"extra": null'.length;
      s = `${s.slice(0, end)},${s.slice(end)}`;
    }
  }
  return s.slice(0, s.length - 200);
}

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
const small = Array.from({ length: 10_000 }, (_, i) => SMALL[i % SMALL.length]);

const HERMES = /<tool_call>\s*([\s\S]*?)\s*<\/tool_call>/g;
function regexHermes(text) {
  const calls = [];
  for (const m of text.matchAll(HERMES)) {
    try {
      const o = JSON.parse(m[1]);
      calls.push([o.name, o.arguments]);
    } catch {
      // skipped, as such parsers do
    }
  }
  return calls;
}

// The fastest of `n` runs, in wall time, or with --cpu in this process's
// CPU time (on a machine shared with other jobs, less disturbed; every
// measured function runs on this thread).
const cpu = args.includes('--cpu');
function best(fn, n = repeat) {
  let min = Infinity;
  for (let i = 0; i < n; i++) {
    if (cpu) {
      const t = process.cpuUsage();
      fn();
      const d = process.cpuUsage(t);
      min = Math.min(min, (d.user + d.system) / 1e3);
    } else {
      const t = process.hrtime.bigint();
      fn();
      min = Math.min(min, Number(process.hrtime.bigint() - t) / 1e6);
    }
  }
  return min;
}

const transcript = transcriptFile
  ? fs.readFileSync(transcriptFile, 'utf8')
  : execFileSync('cargo', ['run', '--quiet', '--release', '--example', 'transcript', '--', '4'], {
      cwd: ROOT,
      encoding: 'utf8',
      maxBuffer: 64 << 20,
    });
const transcriptBytes = Buffer.from(transcript);
const valid = validDoc();
const broken = brokenDoc(valid);

// the same work first
const ids = (s) => JSON.parse(s).map((o) => o.id);
if (JSON.stringify(ids(toolcall.repairJson(broken))) !== JSON.stringify(ids(jsonrepair(broken)))) {
  throw new Error('the repairers disagree on the broken document');
}
const ours = toolcall.parse(transcript).calls.map((c) => [c.name, c.arguments]);
if (JSON.stringify(ours) !== JSON.stringify(regexHermes(transcript))) {
  throw new Error('the parsers disagree on the transcript');
}

const rows = [];
const row = (input, size, a, ta, b, tb) => rows.push({ input, size, a, ta, b, tb });
const mb = (size, ms) => (size / 1e6 / (ms / 1e3)).toFixed(0);

row('1 MB valid JSON', Buffer.byteLength(valid), 'repairJson', best(() => toolcall.repairJson(valid)), 'jsonrepair', best(() => jsonrepair(valid)));
row('1 MB broken JSON', Buffer.byteLength(broken), 'repairJson', best(() => toolcall.repairJson(broken)), 'jsonrepair', best(() => jsonrepair(broken)));
row(
  '10,000 small broken objects',
  small.reduce((n, s) => n + s.length, 0),
  'repairJson',
  best(() => small.forEach((s) => toolcall.repairJson(s))),
  'jsonrepair',
  best(() => small.forEach((s) => jsonrepair(s))),
);
const calls = ours.length;
const regex = best(() => regexHermes(transcript));
row(`4 MB transcript, ${calls} hermes calls, as a string`, transcriptBytes.length, 'parse', best(() => toolcall.parse(transcript)), 'RegExp + JSON.parse', regex);
row(`4 MB transcript, ${calls} hermes calls, as a Buffer`, transcriptBytes.length, 'parse', best(() => toolcall.parse(transcriptBytes)), 'RegExp + JSON.parse (on the string)', regex);

console.log(`node ${process.version}, best of ${repeat}, ${cpu ? 'CPU' : 'wall'} time`);
console.log('| input | toolcall | time | MB/s | other | time | MB/s | speed-up |');
console.log('|---|---|---:|---:|---|---:|---:|---:|');
for (const r of rows) {
  console.log(
    `| ${r.input} | \`${r.a}\` | ${r.ta.toFixed(1)} ms | ${mb(r.size, r.ta)} | \`${r.b}\` | ${r.tb.toFixed(1)} ms | ${mb(r.size, r.tb)} | ${(r.tb / r.ta).toFixed(1)}× |`,
  );
}
