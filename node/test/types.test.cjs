'use strict';
// The declarations: a consumer script type-checks (strict) against the
// package's types, the openai package's and the AI SDK's; and the
// JavaScript layer type-checks against the declarations napi generated
// from the Rust code (native/toolcall.d.node.ts), so a native function
// renamed or re-typed in Rust fails here.
const test = require('node:test');
const assert = require('node:assert/strict');
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const PKG = path.resolve(__dirname, '..');
const TSC = path.join(PKG, 'node_modules', '.bin', 'tsc');

function tsc(project) {
  try {
    execFileSync(TSC, ['-p', project], { cwd: PKG, encoding: 'utf8', stdio: 'pipe' });
  } catch (e) {
    assert.fail(`tsc -p ${project}:\n${e.stdout}${e.stderr}`);
  }
}

test('the build generated the native declarations', () => {
  const dts = fs.readFileSync(path.join(PKG, 'native', 'toolcall.d.node.ts'), 'utf8');
  for (const name of ['parseRaw', 'parseRawAsync', 'NativeStream', 'Tools', 'repairText', 'formatsJson']) {
    assert.match(dts, new RegExp(`\\b${name}\\b`), name);
  }
});

test('tsc --noEmit: a consumer script', () => {
  tsc('test/types/tsconfig.json');
});

test('tsc --noEmit: the JavaScript layer against the generated declarations', () => {
  tsc('test/types/tsconfig.native.json');
});

test('tsc fails on a wrong use (the check is real)', () => {
  const bad = path.join(PKG, 'test', 'types', 'bad.ts');
  fs.writeFileSync(bad, "import { parse } from 'toolcall';\nconst n: number = parse('x').text;\nvoid n;\n");
  const cfg = path.join(PKG, 'test', 'types', 'tsconfig.bad.json');
  fs.writeFileSync(cfg, JSON.stringify({ extends: './tsconfig.json', files: ['bad.ts'] }));
  try {
    assert.throws(() => execFileSync(TSC, ['-p', cfg], { cwd: PKG, stdio: 'pipe' }));
  } finally {
    fs.rmSync(bad);
    fs.rmSync(cfg);
  }
});
