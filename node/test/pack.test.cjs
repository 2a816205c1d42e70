'use strict';
// The published shape: `npm pack` gives a tarball that installs in a
// fresh folder with no network and runs, required and imported.
const test = require('node:test');
const assert = require('node:assert/strict');
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const PKG = path.resolve(__dirname, '..');
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

test('npm pack, then install offline in a fresh folder, then run', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'toolcall-pack-'));
  try {
    const out = execFileSync(NPM, ['pack', '--json', '--pack-destination', tmp], {
      cwd: PKG,
      encoding: 'utf8',
    });
    const [info] = JSON.parse(out);
    const files = info.files.map((f) => f.path);
    for (const f of ['js/index.cjs', 'js/index.mjs', 'js/index.d.cts', 'js/ai-sdk.cjs', 'native/toolcall.node']) {
      assert.ok(files.includes(f), `${f} in the tarball`);
    }
    assert.ok(!files.some((f) => f.startsWith('src/') || f.startsWith('test/')), 'no sources or tests');
    const app = path.join(tmp, 'app');
    fs.mkdirSync(app);
    fs.writeFileSync(path.join(app, 'package.json'), '{"name": "app", "private": true}');
    execFileSync(
      NPM,
      ['install', '--offline', '--no-audit', '--no-fund', path.join(tmp, info.filename)],
      { cwd: app, stdio: 'pipe', env: { ...process.env, npm_config_registry: 'http://127.0.0.1:9' } },
    );
    const cjs = execFileSync(
      process.execPath,
      ['-e', "const t = require('toolcall'); console.log(JSON.stringify(t.parse('<tool_call>{\"name\": \"f\", \"arguments\": {}}</tool_call>').calls.map(c => c.name)))"],
      { cwd: app, encoding: 'utf8' },
    );
    assert.equal(cjs.trim(), '["f"]');
    fs.writeFileSync(
      path.join(app, 'main.mjs'),
      "import { repairJson } from 'toolcall';\nimport { toolcallMiddleware } from 'toolcall/ai-sdk';\n" +
        "console.log(repairJson(\"{'a': 1,}\"), toolcallMiddleware().specificationVersion);\n",
    );
    const esm = execFileSync(process.execPath, ['main.mjs'], { cwd: app, encoding: 'utf8' });
    assert.equal(esm.trim(), '{"a": 1} v3');
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});
