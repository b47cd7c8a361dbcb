#!/usr/bin/env node
// @ts-check
// npm run package: a release build (npm run build:release), then a .vsix made by @vscode/vsce, checked
// to hold only what ships (the bundle, package.json with its package.nls*.json strings, l10n/*.json,
// media/**, README, CHANGELOG, LICENSE: .vscodeignore), listed with its size. Never prompts: the flags below answer what vsce would otherwise ask or refuse.
//   node scripts/package.mjs [--out <file.vsix>] [--no-build]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * vsce flags, each for a reason:
 *  --no-dependencies            the bundle already contains undici, ws, @scure/base and jsonc-parser; nothing from node_modules ships
 *  --allow-missing-repository   the project has no public repository (vsce would ask y/N)
 *  --no-rewrite-relative-links  README links and images stay relative (vsce refuses relative images
 *                               when it cannot guess a repository URL to prefix them with)
 */
export const VSCE_FLAGS = ['--no-dependencies', '--allow-missing-repository', '--no-rewrite-relative-links'];

/** What the .vsix may hold under extension/ (vsce renames README.md, CHANGELOG.md and LICENSE). */
const ALLOWED = [
  /^extension\/dist\/(extension|activation|[a-zA-Z]+-[A-Z0-9]{8})\.js$/, // the entry, its activation file, and esbuild's named chunks (a feature's, a lazily built part's, shared code)
  /^extension\/dist\/vendor\/(undici|ws)\.js$/,
  /^extension\/package\.json$/,
  /^extension\/package\.nls(\.[\w-]+)?\.json$/,
  /^extension\/l10n\/[^/]+\.json$/,
  /^extension\/media\/.+/,
  /^extension\/syntaxes\/[^/]+\.json$/, // the query files' grammar and language configuration
  /^extension\/readme\.md$/i,
  /^extension\/changelog\.md$/i,
  /^extension\/LICENSE(\.txt|\.md)?$/i,
];
/** vsce's own files at the top of the archive. */
const VSCE_OWN = ['extension.vsixmanifest', '[Content_Types].xml'];
const requiredFiles = () => [
  'extension/dist/extension.js',
  ...bundleFiles().map((f) => `extension/dist/${f}`),
  'extension/dist/vendor/undici.js',
  'extension/dist/vendor/ws.js',
  'extension/package.json',
];

/**
 * Every file of dist/ that extension.js reaches through require('./x.js') (the features' files and
 * the chunks they share), so a .vsix that lacks one fails here, not on a user's first Look Up.
 */
export function bundleFiles(dir = path.join(repoRoot, 'dist')) {
  const seen = new Set();
  const visit = (f) => {
    if (seen.has(f)) return;
    seen.add(f);
    const text = fs.readFileSync(path.join(dir, f), 'utf8');
    for (const m of text.matchAll(/require\(["']\.\/((?:[\w-]+\/)?[\w-]+\.js)["']\)/g)) if (!m[1].startsWith('vendor/')) visit(m[1]);
  };
  visit('extension.js');
  seen.delete('extension.js');
  return [...seen].sort();
}

function run(cmd, args) {
  const t = Date.now();
  console.log(`$ ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { cwd: repoRoot, stdio: 'inherit' });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (exit ${r.status ?? r.signal})`);
  console.log(`  (${((Date.now() - t) / 1000).toFixed(1)} s)`);
}

/** Entries of a zip file from its central directory: [{ name, size }] (size uncompressed). */
export function listZip(file) {
  const buf = fs.readFileSync(file);
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 0xffff); i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error(`${file} is not a zip file (no end of central directory)`);
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  const entries = [];
  for (let n = 0; n < count; n++) {
    if (buf.readUInt32LE(p) !== 0x02014b50) throw new Error(`${file}: bad central directory entry ${n}`);
    const size = buf.readUInt32LE(p + 24);
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    entries.push({ name: buf.toString('utf8', p + 46, p + 46 + nameLen), size });
    p += 46 + nameLen + extraLen + commentLen;
  }
  return entries;
}

/**
 * Throws when the archive holds something that should not ship, or lacks the bundle, the strings a
 * localised manifest (`%key%` titles) or an `l10n` folder needs, or a relative image of the README.
 */
export function checkContents(entries, pkg = readPackageJson()) {
  const names = entries.map((e) => e.name).filter((n) => !n.endsWith('/'));
  const unexpected = names.filter((n) => !VSCE_OWN.includes(n) && !ALLOWED.some((re) => re.test(n)));
  const required = requiredFiles();
  if (/"%[\w.-]+%"/.test(JSON.stringify(pkg))) required.push('extension/package.nls.json');
  if (typeof pkg.l10n === 'string') required.push(`extension/${path.posix.join(pkg.l10n, 'bundle.l10n.json')}`);
  const readme = fs.readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
  for (const m of readme.matchAll(/!\[[^\]]*\]\(([^)\s]+)[^)]*\)/g)) {
    if (!/^[a-z][\w+.-]*:/i.test(m[1])) required.push(`extension/${path.posix.normalize(m[1].replace(/^\.\//, ''))}`);
  }
  const missing = required.filter((n) => !names.includes(n));
  if (unexpected.length || missing.length) {
    throw new Error(
      [
        unexpected.length ? `unexpected files in the .vsix (fix .vscodeignore): ${unexpected.join(', ')}` : '',
        missing.length ? `missing from the .vsix: ${missing.join(', ')}` : '',
      ]
        .filter(Boolean)
        .join('\n'),
    );
  }
}

const kb = (n) => `${(n / 1024).toFixed(1)} KB`;

function readPackageJson() {
  return JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
}

/**
 * Builds and packages; returns { file, size, entries }.
 * @param {{ out?: string, build?: boolean }} [options]
 */
export function packageExtension({ out, build = true } = {}) {
  const pkg = readPackageJson();
  const file = path.resolve(repoRoot, out || `${pkg.name}-${pkg.version}.vsix`);
  if (build) run('npm', ['run', 'build:release', '--silent']);
  const bundle = path.join(repoRoot, 'dist', 'extension.js');
  const before = fs.readFileSync(bundle);
  if (/sourceMappingURL/.test(before.subarray(-300).toString())) {
    throw new Error('dist/extension.js is a development build (it references a source map): run npm run build:release');
  }
  fs.rmSync(file, { force: true });
  run(process.execPath, [path.join(repoRoot, 'node_modules', '@vscode', 'vsce', 'vsce'), 'package', ...VSCE_FLAGS, '--out', file]);
  if (!before.equals(fs.readFileSync(bundle))) {
    fs.rmSync(file, { force: true });
    throw new Error('dist/extension.js changed while vsce was packaging (another build running?): package again');
  }
  const entries = listZip(file);
  checkContents(entries, pkg);
  const size = fs.statSync(file).size;
  console.log(`\n${path.relative(process.cwd(), file) || file}: ${kb(size)} (${size} bytes), ${entries.length} entries:`);
  for (const e of entries) console.log(`  ${e.name.padEnd(40)} ${kb(e.size).padStart(10)}`);
  return { file, size, entries };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const argv = process.argv.slice(2);
  const outIdx = argv.indexOf('--out');
  try {
    packageExtension({ out: outIdx >= 0 ? argv[outIdx + 1] : undefined, build: !argv.includes('--no-build') });
  } catch (e) {
    console.error(`package: ${e.message}`);
    process.exit(1);
  }
}
