// The ESM entry point is the CommonJS module: the same functions, one
// native addon loaded once.
import test from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import toolcall, * as named from 'toolcall';
import * as aiSdk from 'toolcall/ai-sdk';

const require = createRequire(import.meta.url);

test('import gives what require gives', () => {
  const cjs = require('toolcall');
  assert.deepEqual(Object.keys(named).filter((k) => k !== 'default').sort(), Object.keys(cjs).sort());
  for (const k of Object.keys(cjs)) assert.equal(named[k], cjs[k], k);
  assert.equal(toolcall, cjs);
  const cjsAi = require('toolcall/ai-sdk');
  assert.equal(aiSdk.toolcallMiddleware, cjsAi.toolcallMiddleware);
  assert.equal(aiSdk.repairToolCall, cjsAi.repairToolCall);
});
