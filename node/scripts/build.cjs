'use strict';
// Builds the addon: `cargo build --release -p toolcall-node` with
// napi-derive writing the type definitions it expands, then
// native/toolcall.node (the cdylib) and native/toolcall.d.node.ts (the
// declarations, rendered by @napi-rs/cli's generateTypeDef).
//
// What `napi build` does, minus its `--target`: napi passes the host
// triple explicitly, which puts every dependency in a target directory of
// its own (target/<triple>/), so a checkout that has built the command
// compiled the ~100 crates of the engine again. Without it the addon
// shares target/release/ with the command's build.
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const PKG = path.resolve(__dirname, '..');
const CRATE = 'toolcall-node';

async function main() {
  const typeDefs = fs.mkdtempSync(path.join(os.tmpdir(), 'toolcall-typedef-'));
  try {
    const env = {
      ...process.env,
      NAPI_TYPE_DEF_TMP_FOLDER: typeDefs,
      // napi-build's rerun trigger: the crate is compiled again, so its
      // macros write their type definitions into the folder above
      [`NAPI_FORCE_BUILD_${CRATE.replace(/-/g, '_').toUpperCase()}`]: String(Date.now()),
    };
    // TOOLCALL_NODE_FEATURES=probes adds the measuring probes (src/probes.rs)
    const features = process.env.TOOLCALL_NODE_FEATURES ? ['--features', process.env.TOOLCALL_NODE_FEATURES] : [];
    execFileSync('cargo', ['build', '--release', '--locked', '-p', CRATE, ...features], { cwd: PKG, env, stdio: 'inherit' });
    const meta = JSON.parse(
      execFileSync('cargo', ['metadata', '--format-version', '1', '--no-deps'], { cwd: PKG, encoding: 'utf8' }),
    );
    const lib = CRATE.replace(/-/g, '_');
    const file =
      process.platform === 'win32' ? `${lib}.dll` : process.platform === 'darwin' ? `lib${lib}.dylib` : `lib${lib}.so`;
    const native = path.join(PKG, 'native');
    fs.mkdirSync(native, { recursive: true });
    fs.copyFileSync(path.join(meta.target_directory, 'release', file), path.join(native, 'toolcall.node'));
    const { generateTypeDef } = await import('@napi-rs/cli');
    const { dts } = await generateTypeDef({ typeDefDir: typeDefs, noDtsHeader: true, cwd: PKG });
    if (!dts.includes('parseRaw')) throw new Error('build: no type definitions were generated');
    // the functions lib.rs registers by hand on the exports (no #[napi]
    // item, so no generated declaration): their declarations, written once
    const hand = fs.readFileSync(path.join(PKG, 'src', 'exports.d.ts'), 'utf8');
    fs.writeFileSync(path.join(native, 'toolcall.d.node.ts'), dts + hand);
  } finally {
    fs.rmSync(typeDefs, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
