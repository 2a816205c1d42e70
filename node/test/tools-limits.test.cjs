'use strict';
// new Tools(definition, options) takes the tools-file limits of the
// command line (--max-tools-size, --max-schema-depth, --max-schema-checks,
// --max-json5-depth) as camelCase options, read by the core's ToolsOptions:
// a definition past a limit is refused with the command's message.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const toolcall = require('..');
const { CLI } = require('./helpers.cjs');

function deepSchema(levels) {
  let schema = { type: 'string' };
  for (let i = 0; i < levels; i++) schema = { type: 'array', items: schema };
  return JSON.stringify([{ name: 'f', parameters: schema }]);
}

// each definition anyOf the next twice: 2 ** levels checks of one value
function fanout(levels) {
  const defs = {};
  for (let i = 0; i < levels; i++) {
    const next = { $ref: `#/$defs/d${i + 1}` };
    defs[`d${i}`] = { anyOf: [next, next] };
  }
  defs[`d${levels}`] = { type: 'string' };
  return JSON.stringify([
    { name: 'f', parameters: { type: 'object', $defs: defs, properties: { x: { $ref: '#/$defs/d0' } } } },
  ]);
}

function json5Nested(n) {
  return `[{name: 'f', parameters: ${"{type: 'object', properties: {a: ".repeat(n)}{}${'}}'.repeat(n)}}]`;
}

/** What `toolcall validate --tools FILE flag value` says about the definition. */
function cliMessage(text, flag, value) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolcall-limits-'));
  try {
    const file = path.join(dir, 'tools.json');
    fs.writeFileSync(file, text);
    const r = spawnSync(CLI, ['validate', '--tools', file, flag, String(value)], { input: '', encoding: 'utf8' });
    assert.equal(r.status, 2, r.stderr);
    const line = r.stderr.trim();
    // `toolcall: FILE:` then ` message`, or `line:column: message` for a
    // syntax error
    const prefix = `toolcall: ${file}:`;
    assert.ok(line.startsWith(prefix), line);
    const rest = line.slice(prefix.length);
    return rest.startsWith(' ') ? rest.slice(1) : rest;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const CASES = [
  [deepSchema(40), 'maxSchemaDepth', 30, '--max-schema-depth'],
  [fanout(12), 'maxSchemaChecks', 1000, '--max-schema-checks'],
  [json5Nested(30), 'maxJson5Depth', 20, '--max-json5-depth'],
  [deepSchema(2), 'maxToolsSize', 40, '--max-tools-size'],
];

for (const [text, option, value, flag] of CASES) {
  test(`Tools: ${option} is ${flag}, with the command's message`, () => {
    assert.deepEqual(new toolcall.Tools(text).names, ['f']);
    let thrown;
    assert.throws(
      () => new toolcall.Tools(text, { [option]: value }),
      (e) => {
        thrown = e;
        return e instanceof toolcall.ToolsError;
      },
    );
    assert.equal(thrown.message, cliMessage(text, flag, value));
    assert.ok(thrown.message.includes(flag), thrown.message);
    // validate() loads a definition with the same options
    assert.throws(() => toolcall.validate([{ name: 'f', arguments: {} }], text, { [option]: value }), toolcall.ToolsError);
  });
}

test('Tools: a raised limit loads more; the core checks names and ranges', () => {
  // JSON5 nested 152 levels: past the default, read under a raised bound
  const deep = json5Nested(75);
  assert.throws(() => new toolcall.Tools(deep), (e) => e instanceof toolcall.ToolsError && /--max-json5-depth/.test(e.message));
  assert.deepEqual(new toolcall.Tools(deep, { maxJson5Depth: 200 }).names, ['f']);
  const small = deepSchema(2);
  assert.throws(() => new toolcall.Tools(small, { maxSchemaDepth: 0 }), (e) => e instanceof toolcall.OptionError && /max_schema_depth/.test(e.message));
  assert.throws(
    () => new toolcall.Tools(small, { maxSchemaChecks: 100_000_001 }),
    (e) => e instanceof toolcall.OptionError && /max_schema_checks/.test(e.message),
  );
  // a misspelt option is an error, not ignored
  assert.throws(() => new toolcall.Tools(small, { maxSchemaDept: 4 }), (e) => e instanceof toolcall.OptionError && /max_schema_dept/.test(e.message));
  assert.throws(() => new toolcall.Tools(small, { unknownRisk: 'nope' }), toolcall.OptionError);
  // undefined is the default
  assert.deepEqual(new toolcall.Tools(small, { maxSchemaDepth: undefined, strict: false }).names, ['f']);
});
