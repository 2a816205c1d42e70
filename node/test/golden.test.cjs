'use strict';
// The CLI's golden files (fixtures/<format>/NAME.parse.ndjson) give the
// same calls and errors through toolcall.parse, as python/tests/test_golden.py
// checks for Python.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const toolcall = require('..');
const { ROOT } = require('./helpers.cjs');

const FLAGS = {
  '--format': ['format', String],
  '--input': ['input', String],
  '--think-window': ['thinkWindow', Number],
  '--tools': ['tools', null],
};
const SWITCHES = {
  '--inline-json': ['inlineJson', true],
  '--no-json-blocks': ['jsonBlocks', false],
  '--no-repair': ['repair', false],
  '--think-open': ['thinkOpen', true],
  '--reasoning-calls': ['reasoningCalls', true],
};

function options(txt) {
  const args = txt.replace(/\.txt$/, '.args');
  const words = fs.existsSync(args) ? fs.readFileSync(args, 'utf8').split(/\s+/).filter(Boolean) : [];
  // the CLI sniffs wire inputs unless told; so does this test
  const o = { input: 'auto' };
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    if (SWITCHES[w]) {
      o[SWITCHES[w][0]] = SWITCHES[w][1];
    } else if (FLAGS[w]) {
      const [key, conv] = FLAGS[w];
      const v = words[++i];
      o[key] = key === 'tools' ? fs.readFileSync(path.join(ROOT, v), 'utf8') : conv(v);
    } else {
      return null; // a flag this test does not map
    }
  }
  return o;
}

function goldens(dir, out = []) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) goldens(p, out);
    // a text input beside it (conversation goldens are the messages test's)
    else if (e.name.endsWith('.parse.ndjson') && fs.existsSync(p.replace(/\.parse\.ndjson$/, '.txt'))) {
      out.push(p);
    }
  }
  return out.sort();
}

const CASES = goldens(path.join(ROOT, 'fixtures'));

test('the goldens are found', () => {
  assert.ok(CASES.length > 400, `${CASES.length} goldens`);
});

test('every golden: the records the CLI wrote', () => {
  let compared = 0;
  for (const golden of CASES) {
    const txt = golden.replace(/\.parse\.ndjson$/, '.txt');
    const o = options(txt);
    if (!o) continue;
    const want = fs
      .readFileSync(golden, 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l));
    const doc = toolcall.parse(fs.readFileSync(txt), o);
    const got = [...doc.calls, ...doc.errors];
    const byStart = (a, b) => a.span[0] - b.span[0];
    got.sort(byStart);
    want.sort(byStart);
    for (const r of [...got, ...want]) delete r.doc;
    assert.deepEqual(got, want, path.relative(ROOT, golden));
    compared += 1;
  }
  assert.ok(compared > 400, `${compared} compared`);
});
