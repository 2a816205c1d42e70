'use strict';
// Records from Node equal the command's: every parse fixture's arguments
// run through `toolcall split` (the binary built from this checkout) and
// through toolcall.split, and the records must be identical, `doc`
// included; then the requests where front ends used to disagree: a model
// name as `--format`, `--model`, `--input messages` on the conversation
// fixtures.
const test = require('node:test');
const assert = require('node:assert/strict');
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const toolcall = require('..');
const { ROOT, CLI } = require('./helpers.cjs');

// `.args` flags and the option each maps to (value flags take the next word)
const FLAGS = {
  '--format': ['format', String],
  '--model': ['model', String],
  '--input': ['input', String],
  '--think-window': ['thinkWindow', Number],
  '--generation-prompt': ['generationPrompt', String],
  '--finish-reason': ['finishReason', String],
  '--tools': ['tools', null],
};
const SWITCHES = {
  '--inline-json': ['inlineJson', true],
  '--no-json-blocks': ['jsonBlocks', false],
  '--no-repair': ['repair', false],
  '--think-open': ['thinkOpen', true],
  '--reasoning-calls': ['reasoningCalls', true],
};

/** The CLI words and the options for a list of flags, or null. */
function request(words) {
  const o = {};
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    if (SWITCHES[w]) {
      o[SWITCHES[w][0]] = SWITCHES[w][1];
    } else if (FLAGS[w]) {
      const [key, conv] = FLAGS[w];
      const v = words[++i];
      o[key] = key === 'tools' ? fs.readFileSync(path.join(ROOT, v), 'utf8') : conv(v);
    } else {
      return null;
    }
  }
  return o;
}

function cli(cmd, words, input) {
  try {
    return execFileSync(CLI, [cmd, ...words], { cwd: ROOT, input, encoding: 'utf8', stdio: 'pipe' });
  } catch (e) {
    // 1: no call found, 2: an error record; the records are on stdout all the same
    if (e.status === 1 || e.status === 2) return e.stdout;
    throw e;
  }
}

const lines = (out) => out.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));

// Every text fixture under fixtures/ (the Python parity test's cases).
function cases() {
  const out = [];
  const walk = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.txt')) out.push(p);
    }
  };
  walk(path.join(ROOT, 'fixtures'));
  return out.sort();
}

test('the CLI binary is built', () => {
  assert.ok(fs.existsSync(CLI), `${CLI}: build it with cargo build --release (or set TOOLCALL_BIN)`);
});

test('every text fixture: split, parse and stream give the records of toolcall split, parse and stream', () => {
  let compared = 0;
  let streamed = 0;
  for (const txt of cases()) {
    const name = path.relative(ROOT, txt);
    const argsFile = txt.replace(/\.txt$/, '.args');
    const words = fs.existsSync(argsFile) ? fs.readFileSync(argsFile, 'utf8').split(/\s+/).filter(Boolean) : [];
    const o = request(words);
    assert.ok(o, `${name}: a flag with no option (${words.join(' ')})`);
    const bytes = fs.readFileSync(txt);
    // the CLI sniffs wire inputs unless told; so does this request
    const flags = words.includes('--input') ? words : ['--input', 'auto', ...words];
    if (!('input' in o)) o.input = 'auto';
    const [want] = lines(cli('split', flags, bytes));
    assert.deepEqual(toolcall.split(bytes, o), want, name);
    const records = lines(cli('parse', flags, bytes));
    const doc = toolcall.parse(bytes, o);
    assert.deepEqual(doc.calls, records.filter((r) => r.type === 'tool_call'), `${name}: parse`);
    assert.deepEqual(doc.errors, records.filter((r) => r.type === 'error'), `${name}: parse`);
    compared += 1;
    if (o.input === 'messages') continue; // `toolcall stream` reads no message lists
    const parser = new toolcall.StreamParser(o);
    const events = [...parser.feed(bytes), ...parser.close()];
    assert.deepEqual(events, lines(cli('stream', flags, bytes)), `${name}: stream`);
    streamed += 1;
  }
  assert.ok(compared > 600, `${compared} compared`);
  assert.ok(streamed > 600, `${streamed} streamed`);
});

test('every model name and format id: as --format, and as --model (format and generation prompt)', () => {
  let compared = 0;
  // every model name, and every format id given as a model
  const names = [
    ...toolcall.models(),
    ...toolcall.formats().map((f) => ({ name: f.id, format: f.id })),
  ];
  for (const m of names) {
    // the model's format's first fixture
    const dir = path.join(ROOT, 'fixtures', m.format);
    if (!fs.existsSync(dir)) continue;
    const first = fs.readdirSync(dir).filter((f) => f.endsWith('.txt')).sort()[0];
    if (!first) continue;
    const bytes = fs.readFileSync(path.join(dir, first));
    for (const [words, o] of [
      [['--format', m.name], { format: m.name }],
      [['--model', m.name], { model: m.name }],
    ]) {
      const [want] = lines(cli('split', words, bytes));
      assert.deepEqual(toolcall.split(bytes, o), want, `${m.format}/${first} ${words.join(' ')}`);
      compared += 1;
    }
  }
  assert.ok(compared > 100, `${compared} compared`);
});

test('--input messages: the conversation fixtures give the same records', () => {
  const dir = path.join(ROOT, 'fixtures', 'messages');
  let compared = 0;
  const key = (r) => `${r.doc} ${String(r.span[0]).padStart(9)} ${r.type}`;
  for (const f of fs.readdirSync(dir).filter((x) => /\.(jsonl?|txt)$/.test(x)).sort()) {
    const bytes = fs.readFileSync(path.join(dir, f));
    const want = lines(cli('parse', ['--input', 'messages'], bytes));
    const doc = toolcall.parse(bytes, { input: 'messages' });
    const got = [...doc.calls, ...doc.errors];
    got.sort((a, b) => key(a).localeCompare(key(b)));
    want.sort((a, b) => key(a).localeCompare(key(b)));
    assert.deepEqual(got, want, f);
    compared += want.length > 0 ? 1 : 0;
  }
  assert.ok(compared > 5, `${compared} conversations with records`);
});

test('checkTranscript: the findings toolcall validate reports on the transcripts', () => {
  // the fixtures the Python parity test checks (fixtures/messages/*.chatml,
  // each with its .args): the command's TLP-009/TLP-010 errors, with the
  // record's turn and role, equal checkTranscript's findings
  const dir = path.join(ROOT, 'fixtures', 'messages');
  const cases = fs.readdirSync(dir).filter((f) => f.endsWith('.chatml')).sort();
  assert.ok(cases.length >= 3, cases.join(' '));
  let found = 0;
  for (const f of cases) {
    const rel = path.join('fixtures', 'messages', f);
    const argsFile = path.join(dir, f.replace(/\.chatml$/, '.args'));
    const words = fs.existsSync(argsFile) ? fs.readFileSync(argsFile, 'utf8').split(/\s+/).filter(Boolean) : [];
    const want = [];
    for (const r of lines(cli('validate', [...words, rel]))) {
      for (const e of r.errors ?? []) {
        if (e.code !== 'TLP-009' && e.code !== 'TLP-010') continue;
        want.push({ code: e.code, message: e.message, doc: r.doc, turn: r.turn, role: r.role, line: e.line });
      }
    }
    const bytes = fs.readFileSync(path.join(ROOT, rel));
    const got = toolcall.checkTranscript(bytes, { doc: rel }).map((x) => ({
      code: x.code,
      message: x.message,
      doc: x.doc,
      turn: x.turn,
      role: x.role,
      // the line of the finding's span, as the command reports it
      line: bytes.subarray(0, x.span[0]).toString('latin1').split('\n').length,
    }));
    assert.deepEqual(got, want, f);
    assert.equal(got.length > 0, f !== 'chatml-ok.chatml', f);
    assert.deepEqual(toolcall.checkTranscript(bytes.toString('utf8'), { allow: ['TLP-009', 'TLP-010'] }), [], f);
    found += got.length;
  }
  assert.ok(found >= 2, `${found} findings`);
});
