// The AI SDK middleware next to @ai-sdk-tool/parser on the wild suites and
// CanIToolCall, in one process: each case's raw model text goes through a
// mock model (ai/test) wrapped by each middleware, and the wrapped model's
// own parts are scored (no SDK validation after them).
//
//   node bench/compare-ai-sdk-parser.mjs [--wild FILE]... [--canitoolcall DIR] [--json]
//
// Defaults: the repository's copies (tests/conformance/wild/wild.jsonl,
// tests/conformance/canitoolcall). Per suite and middleware:
//   calls found  expected calls that came back (name and arguments equal)
//   false calls  calls that came back but were not expected
//   text kept    cases whose text parts equal the expected prose
//                (whitespace-trimmed; wild: `expected.text`, CanIToolCall:
//                `expected.content`, "" == null)
// On CanIToolCall a third row gives the middleware the generation prompt
// (the option a user sets for a thinking model); the peer has no such option.
// The peer is given, per case, the one of its middlewares meant for the
// case's family (hermesToolMiddleware where it has none), and the tools the
// expected calls name (an app declares its tools), so it can match names.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { wrapLanguageModel } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import * as peer from '@ai-sdk-tool/parser';
import { toolcallMiddleware } from 'toolcall/ai-sdk';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const args = process.argv.slice(2);
const wild = [];
let cit = path.join(ROOT, 'tests', 'conformance', 'canitoolcall');
let asJson = false;
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--wild') wild.push(args[++i]);
  else if (args[i] === '--canitoolcall') cit = args[++i];
  else if (args[i] === '--json') asJson = true;
}
if (!wild.length) wild.push(path.join(ROOT, 'tests', 'conformance', 'wild', 'wild.jsonl'));

const jsonl = (f) =>
  fs.readFileSync(f, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));

// the peer's middleware for a family (its protocols: hermes JSON in
// <tool_call>, Qwen3-Coder XML, morph XML, YAML XML)
function peerFor(family) {
  const f = String(family ?? '');
  if (/coder|qwen3-xml/.test(f)) return ['qwen3coder', peer.qwen3CoderToolMiddleware];
  if (/glm|minimax|xml/.test(f)) return ['morphXml', peer.morphXmlToolMiddleware];
  return ['hermes', peer.hermesToolMiddleware];
}

const PEERS = [
  peer.hermesToolMiddleware,
  peer.qwen3CoderToolMiddleware,
  peer.morphXmlToolMiddleware,
  peer.yamlXmlToolMiddleware,
];

/** More calls found, then fewer false ones, then the text kept. */
function better(a, b) {
  if (a.found !== b.found) return a.found > b.found;
  if (a.falseCalls !== b.falseCalls) return a.falseCalls < b.falseCalls;
  return Boolean(a.textKept) && !b.textKept;
}

function eq(a, b) {
  return JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b));
}
function sortKeys(v) {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object') {
    return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortKeys(v[k])]));
  }
  return v;
}

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

async function run(middleware, text, toolNames) {
  const model = new MockLanguageModelV3({
    doGenerate: async () => ({
      content: [{ type: 'text', text }],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage,
      warnings: [],
    }),
  });
  const wrapped = wrapLanguageModel({ model, middleware });
  const tools = toolNames.map((name) => ({
    type: 'function',
    name,
    description: '',
    inputSchema: { type: 'object', properties: {}, additionalProperties: true },
  }));
  try {
    const r = await wrapped.doGenerate({
      prompt: [{ role: 'user', content: [{ type: 'text', text: 'go' }] }],
      tools,
    });
    const calls = [];
    let prose = '';
    for (const p of r.content) {
      if (p.type === 'tool-call') {
        let input;
        try {
          input = JSON.parse(p.input);
        } catch {
          input = p.input;
        }
        calls.push({ name: p.toolName, arguments: input });
      } else if (p.type === 'text') prose += p.text;
    }
    return { calls, prose, failed: false };
  } catch {
    return { calls: [], prose: '', failed: true };
  }
}

function score(got, want, wantText) {
  const left = [...want];
  let found = 0;
  let falseCalls = 0;
  for (const c of got.calls) {
    const k = left.findIndex((w) => w.name === c.name && eq(w.arguments ?? {}, c.arguments));
    if (k >= 0) {
      found += 1;
      left.splice(k, 1);
    } else if (!want.some((w) => w.name === c.name)) {
      falseCalls += 1;
    }
  }
  const textKept = wantText == null ? null : got.prose.trim() === String(wantText ?? '').trim();
  return { found, falseCalls, textKept };
}

function cases() {
  const out = [];
  for (const f of wild) {
    const suite = path.basename(f, '.jsonl');
    for (const c of jsonl(f)) {
      out.push({
        suite,
        id: c.id,
        family: c.format,
        text: c.input,
        calls: c.expected.calls ?? [],
        prose: c.expected.text ?? null,
        tools: [...new Set((c.expected.calls ?? []).map((x) => x.name))],
      });
    }
  }
  if (fs.existsSync(cit)) {
    for (const fam of fs.readdirSync(cit).sort()) {
      const dir = path.join(cit, fam);
      if (!fs.existsSync(path.join(dir, 'family.json'))) continue;
      const meta = JSON.parse(fs.readFileSync(path.join(dir, 'family.json'), 'utf8'));
      const prompts = Object.fromEntries(
        (meta.reference_models ?? []).map((m) => [m.repo ?? '', m.default_generation_prompt ?? '']),
      );
      for (const f of fs.readdirSync(dir).filter((x) => x.endsWith('.jsonl')).sort()) {
        for (const fx of jsonl(path.join(dir, f))) {
          const exp = fx.expected ?? {};
          const calls = (exp.calls ?? exp.tool_calls ?? []).map((x) => ({
            name: x.name ?? x.function?.name,
            arguments: x.arguments ?? x.function?.arguments ?? {},
          }));
          out.push({
            suite: 'canitoolcall',
            id: fx.id,
            family: fx.family,
            text: fx.raw_output,
            calls,
            prose: fx.expected_error ? null : (exp.content ?? ''),
            tools: (fx.tools ?? []).map((t) => t.function?.name ?? t.name).filter(Boolean),
            // what the chat template appended (the fixture's, else its
            // reference model's default), as the conformance scorer gives it
            generationPrompt:
              fx.generation_prompt ?? (fx.models ?? []).map((m) => prompts[m]).find((x) => x != null) ?? '',
            truncated: (fx.tags ?? []).includes('truncated'),
          });
        }
      }
    }
  }
  return out;
}

const table = {};
for (const c of cases()) {
  const tools = c.tools.length ? c.tools : ['search'];
  const [peerName, peerMw] = peerFor(c.family);
  const runs = [
    ['toolcall', toolcallMiddleware()],
    ['@ai-sdk-tool/parser', peerMw],
  ];
  if (c.generationPrompt != null) {
    const o = { generationPrompt: c.generationPrompt || undefined };
    if (c.truncated) o.finishReason = 'length';
    runs.push(['toolcall + generationPrompt', toolcallMiddleware(o)]);
  }
  const results = [];
  for (const [who, mw] of runs) results.push([who, score(await run(mw, c.text, tools), c.calls, c.prose)]);
  // an upper bound for the peer: whichever of its middlewares did best on
  // this very case (no user could pick that in advance)
  let best = null;
  for (const mw of PEERS) {
    const s = score(await run(mw, c.text, tools), c.calls, c.prose);
    if (!best || better(s, best)) best = s;
  }
  results.push(['@ai-sdk-tool/parser, best of its middlewares per case', best]);
  for (const [who, s] of results) {
    const row = (table[c.suite] ??= {});
    const t = (row[who] ??= { cases: 0, expected: 0, found: 0, falseCalls: 0, textKept: 0, textCases: 0, used: {} });
    t.cases += 1;
    t.expected += c.calls.length;
    t.found += s.found;
    t.falseCalls += s.falseCalls;
    if (s.textKept !== null) {
      t.textCases += 1;
      t.textKept += s.textKept ? 1 : 0;
    }
    if (who === '@ai-sdk-tool/parser') t.used[peerName] = (t.used[peerName] ?? 0) + 1;
  }
}

if (asJson) {
  console.log(JSON.stringify(table, null, 2));
} else {
  console.log('| suite | middleware | calls found | false calls | text kept |');
  console.log('|---|---|---|---|---|');
  for (const [suite, rows] of Object.entries(table)) {
    for (const [who, t] of Object.entries(rows)) {
      console.log(
        `| ${suite} (${t.cases}) | ${who} | ${t.found}/${t.expected} | ${t.falseCalls} | ${t.textKept}/${t.textCases} |`,
      );
    }
  }
}
