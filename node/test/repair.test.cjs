'use strict';
// repairJson and repair against `toolcall repair`: one core entry
// (`repair_document`) reads every document, so the command's answer and
// the package's are the same on every vector (the json_repair vectors the
// Python tests use, and the cases where the two once differed: a
// sentence of prose is hopeless unless asked for as a string).
const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const toolcall = require('..');
const { ROOT, CLI, jsonl } = require('./helpers.cjs');

function cli(input, flags = []) {
  const p = spawnSync(CLI, ['repair', '--report', ...flags], { input, encoding: 'utf8' });
  assert.ok(p.status === 0 || p.status === 1, `toolcall repair exited ${p.status}: ${p.stderr}`);
  return JSON.parse(p.stdout);
}

function node(input, options = {}) {
  try {
    const r = toolcall.repair(input, options);
    return { ok: true, output: r.text, changed: r.changed, repairs: r.repairs };
  } catch (e) {
    if (!(e instanceof toolcall.JSONRepairError)) throw e;
    return { ok: false, code: e.code, offset: e.offset };
  }
}

const PROSE = ['She said: no way', 'foo 2 bar', '  three bare words  ', 'ES2020', 'hello world', "'quoted prose here'"];

test('repair: the command and the package agree on every vector', () => {
  const inputs = [
    ...jsonl(path.join(ROOT, 'python', 'tests', 'data', 'json_repair-vectors.jsonl')).map((c) => c.input),
    ...PROSE,
  ];
  let compared = 0;
  for (const input of inputs) {
    const c = cli(input);
    const n = node(input);
    assert.equal(n.ok, c.ok, `${JSON.stringify(input)}: ok`);
    if (c.ok) {
      assert.equal(n.output, c.output, JSON.stringify(input));
      assert.deepEqual(n.repairs, c.repairs, JSON.stringify(input));
      // jsonrepair's contract gives the same text (valid input as it came)
      assert.equal(toolcall.repairJson(input), c.changed ? c.output : input);
    } else {
      assert.equal(n.code, c.error.code, JSON.stringify(input));
      assert.equal(n.offset, c.error.offset, JSON.stringify(input));
      assert.throws(() => toolcall.repairJson(input), toolcall.JSONRepairError);
    }
    compared += 1;
  }
  assert.ok(compared > 200, `only ${compared} vectors`);
});

test('repair: prose is hopeless, or a string with textAsString (--text-as-string)', async () => {
  for (const input of ['She said: no way', 'foo 2 bar']) {
    assert.throws(() => toolcall.repairJson(input), (e) => {
      assert.ok(e instanceof toolcall.JSONRepairError);
      assert.equal(e.code, 'TLP-003');
      assert.equal(e.position, 0);
      return true;
    });
    await assert.rejects(toolcall.repairJsonAsync(input), toolcall.JSONRepairError);
    const want = JSON.stringify(input);
    assert.equal(toolcall.repairJson(input, { textAsString: true }), want);
    assert.equal(await toolcall.repairJsonAsync(input, { textAsString: true }), want);
    assert.equal(toolcall.repair(input, { textAsString: true }).text, want);
    assert.equal(cli(input, ['--text-as-string']).output, want);
  }
  assert.equal(toolcall.repairJson('ES2020'), '"ES2020"');
});
