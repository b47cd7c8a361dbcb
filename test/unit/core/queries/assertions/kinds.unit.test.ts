// The list of assertion kinds (src/core/queries/assertions/index.ts) is the one source: every kind
// of the Assertion union has one entry, every entry is read by the parser and evaluated (passing and
// failing where it should), the editor's completion is the entries' completions, and the grammar
// highlights exactly the entries' keywords and operators.

import * as assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { type ResultRecord, evaluate, evaluateAcross } from '../../../../../src/core/queries/assert';
import { COMPARE_OPS } from '../../../../../src/core/queries/assertions/compare';
import { ASSERTION_COMPLETIONS, ASSERTION_KEYWORDS, ASSERTION_KINDS, isAcross, kindOf, valueOf } from '../../../../../src/core/queries/assertions/index';
import { parseQueryFile } from '../../../../../src/core/queries/parse';
import type { Assertion } from '../../../../../src/core/queries/model';
import { REPO_ROOT, OUT_DIR } from '../../../helpers/repoRoot';

function parsed(line: string): Assertion {
  const file = parseQueryFile(`request r = consensusRpc.status\nprovider: *\nassert ${line}\n`);
  assert.deepEqual(file.diagnostics, [], `"assert ${line}" should parse`);
  assert.equal(file.requests[0].assertions.length, 1, `"assert ${line}" gave no assertion`);
  return file.requests[0].assertions[0];
}

const rec = (result: unknown, extra: Partial<ResultRecord> = {}): ResultRecord => ({ provider: 'p', result, latencyMs: 12, status: 200, ...extra });
const two = (a: unknown, b: unknown): ResultRecord[] => [rec(a, { provider: 'a' }), rec(b, { provider: 'b' })];

/** One line per kind (and form): records on which it passes, and on which it fails. */
const SAMPLES: { line: string; kind: Assertion['kind']; pass: ResultRecord[]; fail: ResultRecord[] }[] = [
  { line: 'success', kind: 'success', pass: [rec({})], fail: [rec(undefined, { error: 'refused' })] },
  { line: 'failure', kind: 'failure', pass: [rec(undefined, { error: 'refused' })], fail: [rec({})] },
  { line: 'status == 200', kind: 'status', pass: [rec({})], fail: [rec({}, { status: 500 })] },
  { line: 'latency < 2s', kind: 'latency', pass: [rec({}, { latencyMs: 10 })], fail: [rec({}, { latencyMs: 2000 })] },
  { line: 'heights within 2', kind: 'within', pass: two({ height: '10' }, { height: '12' }), fail: two({ height: '10' }, { height: '13' }) },
  { line: 'result.h within 0', kind: 'within', pass: two({ h: 7 }, { h: 7 }), fail: two({ h: 7 }, { h: 8 }) },
  { line: 'result.h exists', kind: 'exists', pass: [rec({ h: 1 })], fail: [rec({})] },
  { line: 'result.h not exists', kind: 'exists', pass: [rec({})], fail: [rec({ h: 1 })] },
  { line: 'result.h same', kind: 'same', pass: two({ h: 'x' }, { h: 'x' }), fail: two({ h: 'x' }, { h: 'y' }) },
  { line: 'result.h matches /^0x[0-9a-f]+$/', kind: 'matches', pass: [rec({ h: '0xab' })], fail: [rec({ h: 'zz' })] },
  { line: 'result.h == 5', kind: 'compare', pass: [rec({ h: '5' })], fail: [rec({ h: 6 })] },
  { line: 'result.h >= 5', kind: 'compare', pass: [rec({ h: 5 })], fail: [rec({ h: 4 })] },
];

/** Every kind of the Assertion union (compile error here when the union gains one). */
const UNION: Record<Assertion['kind'], true> = {
  success: true,
  failure: true,
  status: true,
  latency: true,
  within: true,
  exists: true,
  same: true,
  matches: true,
  compare: true,
};

async function passes(a: Assertion, records: ResultRecord[]): Promise<boolean> {
  if (isAcross(a)) return evaluateAcross(a, records).passed;
  const kind = kindOf(a);
  const prepared = await kind.prepare?.(a, records[0], Date.now() + 5000);
  return evaluate(a, records[0], valueOf(a)?.text, prepared).passed;
}

describe('query assertion kinds: the one list', () => {
  it('names each kind of the Assertion union once, and every kind has a sample here', () => {
    const kinds = ASSERTION_KINDS.flatMap((k) => [...k.kinds]);
    assert.equal(new Set(kinds).size, kinds.length, 'a kind is listed twice');
    assert.deepEqual([...kinds].sort(), Object.keys(UNION).sort(), 'the list and the Assertion union differ');
    assert.deepEqual([...kinds].sort(), [...new Set(SAMPLES.map((s) => s.kind))].sort());
  });

  for (const s of SAMPLES) {
    it(`"assert ${s.line}" is read as ${s.kind} by its entry, passes and fails where it should`, async () => {
      const a = parsed(s.line);
      assert.equal(a.kind, s.kind);
      assert.ok((kindOf(a).kinds as readonly string[]).includes(s.kind));
      assert.equal(await passes(a, s.pass), true, 'should pass');
      assert.equal(await passes(a, s.fail), false, 'should fail');
    });
  }

  it('lists every kind file of the folder: a new kind is one file plus one line in index.ts', () => {
    // The folder's helpers (the interface, the list, the values); every other file is a kind.
    const helpers = new Set(['kind.ts', 'index.ts', 'values.ts']);
    const sources = join(REPO_ROOT, 'src/core/queries/assertions');
    const files = readdirSync(sources).filter((f) => f.endsWith('.ts') && !helpers.has(f));
    assert.ok(files.length >= 9, `only ${files.length} kind files found in ${sources}`);
    const listed = new Set<unknown>(ASSERTION_KINDS);
    for (const f of files) {
      // The compiled module (out/src/…, beside out/test/…): each kind it exports is an entry of the list.
      const mod = require(join(OUT_DIR, 'src/core/queries/assertions', f.replace(/\.ts$/, '.js'))) as Record<string, unknown>;
      const kinds = Object.entries(mod).filter(([, v]) => typeof v === 'object' && v !== null && 'kinds' in v && 'evaluate' in v);
      assert.ok(kinds.length > 0, `${f} exports no assertion kind (or it is a helper: add it to the helpers above)`);
      for (const [name, k] of kinds) assert.ok(listed.has(k), `${f}'s "${name}" is not listed in assertions/index.ts (ASSERTION_KINDS)`);
    }
  });

  it('the editor offers exactly the entries’ completions, each a valid assertion', () => {
    assert.deepEqual(ASSERTION_COMPLETIONS, ['success', 'failure', 'status == 200', 'latency < 2s', 'heights within 2']);
    for (const c of ASSERTION_COMPLETIONS) assert.ok(ASSERTION_KINDS.some((k) => (k.kinds as readonly string[]).includes(parsed(c).kind)));
    const editor = readFileSync(join(REPO_ROOT, 'src/ui/queries/queryEditor.ts'), 'utf8');
    assert.match(editor, /ASSERTION_COMPLETIONS\.map/, 'the completion reads the list');
  });

  it('the grammar highlights exactly the entries’ keywords and comparison operators', () => {
    const grammar = JSON.parse(readFileSync(join(REPO_ROOT, 'syntaxes/chainq.tmLanguage.json'), 'utf8')) as {
      repository: { assert: { patterns: { match?: string; name?: string }[] } };
    };
    const patterns = grammar.repository.assert.patterns;
    const words = patterns.find((p) => p.name === 'keyword.other.assertion.chainq')!.match!;
    assert.deepEqual(/^\\b\((.*)\)\\b$/.exec(words)![1].split('|').sort(), [...ASSERTION_KEYWORDS].sort());
    const ops = patterns.find((p) => p.name === 'keyword.operator.comparison.chainq')!.match!;
    assert.deepEqual(/^\((.*)\)$/.exec(ops)![1].split('|').sort(), [...COMPARE_OPS].sort());
  });
});
