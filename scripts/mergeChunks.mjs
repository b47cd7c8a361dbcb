// @ts-check
// Activation in one more file, not twelve: esbuild's code splitting puts what activation shares with
// the features into several chunk files (one per set of features that use a module), and each
// require() of a file costs the extension host a few milliseconds. After the CommonJS conversion,
// the chunks that dist/extension.js requires at once are merged into dist/activation.js: each one's
// code becomes a function, run on first access to its name (the same moment its require() ran), and
// every `require("./chunk-X.js")` of a merged chunk, in any file, becomes
// `require("./activation.js")["chunk-X.js"]`. The features' own files and the chunks only they share
// stay as they are. With source maps, activation.js gets an index map (one section per chunk).
import fs from 'node:fs';
import path from 'node:path';

export const ACTIVATION_FILE = 'activation.js';
const REQUIRE = /require\("\.\/(chunk-[A-Z0-9]+\.js)"\)/g;
const LATER = /Promise\.resolve\(\)\.then\(\(\)\s*=>\s*(?:[\w$]+\()?require\("\.\/([\w-]+\.js)"\)/g;

/** The chunk files `file` requires at once (not through import()). */
function chunksAtOnce(dir, file) {
  const text = fs.readFileSync(path.join(dir, file), 'utf8');
  const later = new Set([...text.matchAll(LATER)].map((m) => m[1]));
  return [...text.matchAll(REQUIRE)].map((m) => m[1]).filter((f) => !later.has(f));
}

/** Merges the chunks `entry` loads at once into dist/activation.js; returns their names, in load order. */
export function mergeActivationChunks(dir, entry = 'extension.js') {
  const order = [];
  const seen = new Set();
  const visit = (f) => {
    for (const c of chunksAtOnce(dir, f)) {
      if (seen.has(c)) continue; // a cycle between chunks, or one required twice
      seen.add(c);
      visit(c); // each runs only when first asked for, so the order of definitions is not the order of execution
      order.push(c);
    }
  };
  visit(entry);
  if (order.length === 0) return [];
  const merged = new Set(order);
  const rewrite = (text) => text.replace(REQUIRE, (m, name) => (merged.has(name) ? `require("./${ACTIVATION_FILE}")[${JSON.stringify(name)}]` : m));
  const lines = [
    '"use strict";',
    '// The chunks activation loads (scripts/mergeChunks.mjs): each runs on first access to its name.',
    'const define = (name, body) => {',
    '  let m;',
    '  // As require() does: the module is known before its body runs, so a cycle sees its exports so far.',
    '  Object.defineProperty(exports, name, { enumerable: true, get() { if (!m) { m = { exports: {} }; body(m, m.exports); } return m.exports; } });',
    '};',
  ];
  const sections = [];
  for (const name of order) {
    const file = path.join(dir, name);
    const code = rewrite(fs.readFileSync(file, 'utf8'))
      .replace(/\n\/\/# sourceMappingURL=.*\s*$/, '\n')
      .replace(/\s+$/, '');
    // Parenthesised, so V8 compiles it at once (it runs at activation anyway) instead of pre-parsing it and parsing it again.
    lines.push(`define(${JSON.stringify(name)}, (function (module, exports) {`);
    if (fs.existsSync(`${file}.map`)) {
      // The line the chunk's code starts on (0-based): every line written so far, newlines within them counted.
      const line = lines.reduce((n, l) => n + 1 + (l.match(/\n/g)?.length ?? 0), 0);
      sections.push({ offset: { line, column: 0 }, map: JSON.parse(fs.readFileSync(`${file}.map`, 'utf8')) });
      fs.rmSync(`${file}.map`);
    }
    lines.push(code, '}));');
    fs.rmSync(file);
  }
  if (sections.length) {
    fs.writeFileSync(path.join(dir, `${ACTIVATION_FILE}.map`), JSON.stringify({ version: 3, file: ACTIVATION_FILE, sections }));
    lines.push(`//# sourceMappingURL=${ACTIVATION_FILE}.map`);
  }
  fs.writeFileSync(path.join(dir, ACTIVATION_FILE), `${lines.join('\n')}\n`);
  for (const f of fs.readdirSync(dir)) {
    if (!f.endsWith('.js') || f === ACTIVATION_FILE) continue;
    const p = path.join(dir, f);
    const text = fs.readFileSync(p, 'utf8');
    const out = rewrite(text);
    if (out !== text) fs.writeFileSync(p, out);
  }
  return order;
}
