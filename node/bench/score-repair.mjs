// repairJson on a JSONL corpus of repair vectors, judged as
// `score-repair` judges `toolcall repair` (the same rules: a reference
// output equal to the input must come back byte for byte, other outputs
// are compared as parsed values, "" or an expected error means the input
// must be refused); vectors run with options that change the output are
// left out, as there.
//
//   node bench/score-repair.mjs CASES.jsonl [--show N] [--text-as-string]
//
// --text-as-string reads a document of prose as one string (repairJson's
// textAsString, the command's --text-as-string).
import fs from 'node:fs';
import { repairJson, JSONRepairError } from 'toolcall';

const [file, ...rest] = process.argv.slice(2);
const show = rest.includes('--show') ? Number(rest[rest.indexOf('--show') + 1]) : 10;
const textAsString = rest.includes('--text-as-string');
const cases = fs
  .readFileSync(file, 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l))
  .filter((c) => Object.keys(c.options ?? {}).every((k) => k === 'return_objects'));

function same(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

function judge(c) {
  let out = null;
  try {
    out = repairJson(c.input, { textAsString });
  } catch (e) {
    if (!(e instanceof JSONRepairError)) throw e;
  }
  let value;
  try {
    value = out === null ? undefined : JSON.parse(out);
  } catch {
    return [false, `output is not JSON: ${out.slice(0, 80)}`];
  }
  const refused = value === undefined;
  if ('expected_value' in c) {
    if (c.expected_value === '') return [refused, 'nothing to repair expected'];
    return [!refused && same(value, c.expected_value), `got ${out?.slice(0, 80)}`];
  }
  if ('expected_error' in c) return [refused, `hopeless input accepted: ${out?.slice(0, 80)}`];
  if ('expected_output' in c) {
    const exp = c.expected_output;
    if (exp === '') return [refused, 'nothing to repair expected'];
    if (exp === c.input) return [out !== null && out.replace(/\n+$/, '') === c.input.replace(/\n+$/, ''), 'valid input changed'];
    let want;
    try {
      want = JSON.parse(exp);
    } catch {
      return [false, 'reference output is not JSON (skip)'];
    }
    return [!refused && same(value, want), `got ${out?.slice(0, 80)}, expected ${exp.slice(0, 80)}`];
  }
  if (c.expected == null && !c.valid_input) return [refused, 'hopeless input accepted'];
  if (c.valid_input) return [out === c.input, 'valid input changed'];
  return [!refused && same(value, c.expected), `got ${out?.slice(0, 80)}`];
}

let passed = 0;
const fails = [];
for (const c of cases) {
  const [ok, why] = judge(c);
  if (ok) passed += 1;
  else fails.push(`FAIL ${c.id}: ${why}`);
}
for (const f of fails.slice(0, show)) console.log(f);
console.log(`score: ${passed}/${cases.length}`);
console.log(`${passed} passed, ${cases.length - passed} failed`);
