// @ts-check
// Which tests cover a source file: `npm run tests:for -- src/core/chain/state.ts [more files…]`.
// A test covers a file when it imports it (directly, or through a test helper it imports); the test
// at the mirrored path (test/unit/<path under src>/<name>.unit.test.ts) is listed first. With
// `--untested`, the source files no test imports. The answer is read from the sources (imports), not
// from a coverage run: fast, and what a reviewer asks first ("where is this tested?").
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TEST_DIRS = ['test/unit', 'test/devnet', 'test/integration', 'test/real', 'test/soak'];

/** Every .ts file under `dir` (repository-relative). */
function filesUnder(dir) {
  const out = [];
  const walk = (d) => {
    if (!fs.existsSync(path.join(ROOT, d))) return;
    for (const e of fs.readdirSync(path.join(ROOT, d), { withFileTypes: true })) {
      const rel = path.posix.join(d, e.name);
      if (e.isDirectory()) walk(rel);
      else if (e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')) out.push(rel);
    }
  };
  walk(dir);
  return out;
}

/** The repository files that `file` imports with a relative specifier. */
function importsOf(file) {
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
  const out = [];
  for (const m of text.matchAll(/(?:from\s+|import\s*\(\s*|require\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g)) {
    const base = path.posix.normalize(path.posix.join(path.posix.dirname(file), m[1]));
    for (const c of [base, `${base}.ts`, `${base}/index.ts`, base.replace(/\.js$/, '.ts')]) {
      if (fs.existsSync(path.join(ROOT, c)) && fs.statSync(path.join(ROOT, c)).isFile()) {
        out.push(c);
        break;
      }
    }
  }
  return out;
}

/** For each test file, the source files it reaches through its own imports and the helpers' (not through src's own imports). */
export function testMap() {
  const tests = TEST_DIRS.flatMap(filesUnder).filter((f) => /\.test\.ts$/.test(f));
  const map = new Map();
  for (const t of tests) {
    const seen = new Set();
    const queue = [t];
    while (queue.length) {
      const f = queue.pop();
      for (const i of importsOf(f)) {
        if (seen.has(i)) continue;
        seen.add(i);
        if (i.startsWith('test/')) queue.push(i); // helpers and fixtures: follow; src: stop
      }
    }
    map.set(
      t,
      [...seen].filter((f) => f.startsWith('src/')),
    );
  }
  return map;
}

/** The tests that cover `source`, the mirrored one first. */
export function testsFor(source, map = testMap()) {
  const rel = path.posix.normalize(source.replace(/\\/g, '/')).replace(/^\.\//, '');
  const mirrored = rel.replace(/^src\//, 'test/unit/').replace(/\.ts$/, '.unit.test.ts');
  const found = [...map].filter(([, srcs]) => srcs.includes(rel)).map(([t]) => t);
  return found.sort((a, b) => (a === mirrored ? -1 : b === mirrored ? 1 : a.localeCompare(b)));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const map = testMap();
  if (args.includes('--untested')) {
    const covered = new Set([...map.values()].flat());
    const untested = filesUnder('src').filter((f) => !covered.has(f));
    console.log(untested.join('\n'));
    console.error(
      `${untested.length} of ${filesUnder('src').length} source files are imported directly by no test (the in-editor tests reach src/ui through commands, not imports)`,
    );
  } else if (args.length === 0) {
    console.error('usage: npm run tests:for -- <src file>… | --untested');
    process.exit(2);
  } else {
    for (const a of args) {
      if (!fs.existsSync(path.join(ROOT, a))) {
        console.error(`${a}: no such file`);
        process.exitCode = 2;
        continue;
      }
      const t = testsFor(a, map);
      console.log(`${a}: ${t.length ? '' : 'no test imports it'}`);
      for (const f of t) console.log(`  ${f}`);
    }
  }
}
