'use strict';
// The middleware against `ai` 7 (the current major, on
// @ai-sdk/provider 4), which needs Node 22: ai-sdk.test.mjs run by the
// Node 22 binary of the devDependency `node` (npm's `node` package, from
// the lock file like every other) over the devDependency `ai7` (an alias
// of `ai` 7), with ai 7's mock model for its own specification. No
// network: the mock model writes the text.
const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const PKG = path.resolve(__dirname, '..');

test('the AI SDK middleware on ai 7 and Node 22', () => {
  const node22 = path.join(PKG, 'node_modules', 'node', 'bin', 'node');
  const version = spawnSync(node22, ['--version'], { encoding: 'utf8' });
  assert.equal(version.status, 0, `${node22}: ${version.error ?? version.stderr} (npm ci installs it)`);
  assert.match(version.stdout, /^v22\./);
  assert.match(require(path.join(PKG, 'node_modules', 'ai7', 'package.json')).version, /^7\./);
  const { NODE_TEST_CONTEXT: _ctx, ...env } = process.env;
  const run = spawnSync(node22, ['--test', '--test-reporter=tap', path.join(__dirname, 'ai-sdk.test.mjs')], {
    cwd: PKG,
    encoding: 'utf8',
    // (without the parent runner's NODE_TEST_CONTEXT, which would make
    // the child report to it instead of writing TAP)
    env: { ...env, TOOLCALL_TEST_AI: 'ai7', TOOLCALL_TEST_MOCK: 'MockLanguageModelV4' },
  });
  assert.equal(run.status, 0, run.stdout + run.stderr);
  const pass = Number(/^# pass (\d+)/m.exec(run.stdout)?.[1]);
  const fail = Number(/^# fail (\d+)/m.exec(run.stdout)?.[1]);
  assert.equal(fail, 0, run.stdout);
  assert.ok(pass >= 9, `only ${pass} passed:\n${run.stdout}`);
});
