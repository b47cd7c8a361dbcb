// Docs that cannot drift: every source path named in docs/*.md, README.md, test/README.md and in the
// comments of src/ exists. A path is `src/…`, `test/…`, `scripts/…`, `media/…`, `docs/…` or
// `bench/…` from the repository's root, or `core/…` / `ui/…` under src/ (as comments write them);
// a name without its extension may be a .ts file. Patterns (`catalogue/<interface>.ts`, `*.ts`,
// `{a,b}`) are not paths and are skipped.

import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT } from '../helpers/repoRoot';

const ROOT = REPO_ROOT;
const PATH = /(?<![\w./@-])((?:src|test|scripts|media|docs|bench|core|ui)\/[A-Za-z0-9_./-]*[A-Za-z0-9_/])/g;
const COMMENT = /\/\/[^\n]*|\/\*[\s\S]*?\*\//g;

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? tsFiles(p) : e.name.endsWith('.ts') ? [p] : [];
  });
}

/** The paths `text` names that do not exist, each with its line. */
export function missingPaths(text: string): { line: number; path: string }[] {
  const out: { line: number; path: string }[] = [];
  for (const m of text.matchAll(PATH)) {
    const named = m[1];
    const next = text[m.index! + named.length] ?? '';
    if ('<*{…'.includes(next) && next !== '') continue;
    const rel = /^(core|ui)\//.test(named) ? `src/${named}` : named;
    const full = path.join(ROOT, rel);
    if (existsSync(full) || existsSync(`${full}.ts`)) continue;
    out.push({ line: text.slice(0, m.index).split('\n').length, path: named });
  }
  return out;
}

describe('docs and comments name files that exist', () => {
  it('the scanner finds a moved file and skips patterns', () => {
    assert.deepEqual(missingPaths('see src/core/health.ts and `src/core/chain/catalogue/<interface>.ts`'), [{ line: 1, path: 'src/core/health.ts' }]);
    assert.deepEqual(missingPaths('(core/spillFiles.ts)\nui/explorer/register and src/ui/requests/'), [{ line: 1, path: 'core/spillFiles.ts' }]);
    assert.deepEqual(missingPaths('out/test/unit/x.js, http://host/src/nothing, test/unit/*.unit.test.ts'), []);
  });

  it('docs/*.md, README.md and test/README.md', () => {
    const docs = readdirSync(path.join(ROOT, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`);
    const stale = [...docs, 'README.md', 'test/README.md'].flatMap((f) =>
      missingPaths(readFileSync(path.join(ROOT, f), 'utf8')).map((m) => `${f}:${m.line}: ${m.path}`),
    );
    assert.deepEqual(stale, [], `paths that do not exist:\n${stale.join('\n')}`);
  });

  it('comments in src/', () => {
    const stale = tsFiles(path.join(ROOT, 'src')).flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      return [...text.matchAll(COMMENT)].flatMap((c) =>
        missingPaths(c[0]).map((m) => `${path.relative(ROOT, file)}:${text.slice(0, c.index).split('\n').length + m.line - 1}: ${m.path}`),
      );
    });
    assert.deepEqual(stale, [], `comments naming files that do not exist:\n${stale.join('\n')}`);
  });
});
