'use strict';
// Paths shared by the tests: the repository root, the CLI binary built
// from this checkout (TOOLCALL_BIN, else target/release/toolcall under
// CARGO_TARGET_DIR or the repository), the CanIToolCall fixtures.
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');
const TARGET = process.env.CARGO_TARGET_DIR || path.join(ROOT, 'target');
const CLI = process.env.TOOLCALL_BIN || path.join(TARGET, 'release', 'toolcall');
const SUITE = path.join(ROOT, 'tests', 'conformance', 'canitoolcall');

function jsonl(file) {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
}

/** Every CanIToolCall fixture, with the options the conformance test gives. */
function canitoolcall() {
  const out = [];
  for (const fam of fs.readdirSync(SUITE).sort()) {
    const dir = path.join(SUITE, fam);
    if (!fs.existsSync(path.join(dir, 'family.json'))) continue;
    const meta = JSON.parse(fs.readFileSync(path.join(dir, 'family.json'), 'utf8'));
    const prompts = Object.fromEntries(
      (meta.reference_models ?? []).map((m) => [m.repo ?? '', m.default_generation_prompt ?? '']),
    );
    for (const f of fs.readdirSync(dir).filter((f) => f.endsWith('.jsonl')).sort()) {
      for (const fx of jsonl(path.join(dir, f))) {
        let prompt = fx.generation_prompt;
        if (prompt == null) {
          prompt = (fx.models ?? []).map((m) => prompts[m]).find((p) => p != null) ?? '';
        }
        const options = {};
        if (prompt) options.generationPrompt = prompt;
        if ((fx.tags ?? []).includes('truncated')) options.finishReason = 'length';
        out.push({ fx, options });
      }
    }
  }
  return out;
}

module.exports = { ROOT, CLI, SUITE, jsonl, canitoolcall };
