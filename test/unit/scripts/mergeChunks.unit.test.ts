// scripts/mergeChunks.mjs: the chunks extension.js requires at once become one file, activation.js,
// with the same behaviour: each chunk's code runs once, when first required, in the order the
// original requires ran; a cycle between two chunks sees partial exports as require() gives; a
// feature's file loaded later gets the same module objects; import() targets are left alone.
import { strict as assert } from 'node:assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from '../helpers/repoRoot';

type Merge = { mergeActivationChunks(dir: string, entry?: string): string[] };
const loadMerge = (): Promise<Merge> => import(path.join(REPO_ROOT, 'scripts', 'mergeChunks.mjs')) as Promise<Merge>;

function writeBundle(dir: string): void {
  const w = (name: string, text: string) => fs.writeFileSync(path.join(dir, name), text);
  // A and B require each other; C is required by the entry and by the lazily loaded feature.
  w(
    'chunk-AAAA.js',
    `"use strict";globalThis.__order.push("A");var b=require("./chunk-BBBB.js");exports.a=1;exports.seenB=()=>b.b;\n//# sourceMappingURL=chunk-AAAA.js.map\n`,
  );
  w('chunk-AAAA.js.map', JSON.stringify({ version: 3, sources: ['a.ts'], names: [], mappings: 'AAAA' }));
  w(
    'chunk-BBBB.js',
    `"use strict";\n// a second line\nglobalThis.__order.push("B");var a=require("./chunk-AAAA.js");exports.partialA=Object.keys(a).join(",");exports.b=2;\n`,
  );
  w('chunk-CCCC.js', `"use strict";globalThis.__order.push("C");exports.counter={n:0};\n`);
  w('chunk-LAZY.js', `"use strict";exports.onlyLater=true;\n`);
  w(
    'feature-ZZZZZZZZ.js',
    `"use strict";var c=require("./chunk-CCCC.js");var l=require("./chunk-LAZY.js");c.counter.n++;exports.counter=c.counter;exports.lazy=l.onlyLater;\n`,
  );
  w(
    'extension.js',
    `"use strict";globalThis.__order.push("entry");var c=require("./chunk-CCCC.js");var a=require("./chunk-AAAA.js");` +
      `exports.c=c;exports.a=a;exports.load=()=>Promise.resolve().then(()=>require("./feature-ZZZZZZZZ.js"));\n`,
  );
}

describe('scripts/mergeChunks.mjs: activation in two files', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'merge-chunks-'));
    (globalThis as any).__order = [];
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('merges what the entry requires at once, keeps the rest, and behaves as the separate files did', async () => {
    writeBundle(dir);
    // The separate files first: what they do is the reference.
    const before = require(path.join(dir, 'extension.js'));
    const orderBefore = [...(globalThis as any).__order];
    const featureBefore = await before.load();
    const reference = { order: orderBefore, seenB: before.a.seenB(), partialA: require(path.join(dir, 'chunk-BBBB.js')).partialA, n: featureBefore.counter.n };
    for (const f of Object.keys(require.cache)) if (f.startsWith(dir)) delete require.cache[f];

    const { mergeActivationChunks } = await loadMerge();
    const merged = mergeActivationChunks(dir);
    assert.deepEqual(merged.sort(), ['chunk-AAAA.js', 'chunk-BBBB.js', 'chunk-CCCC.js']);
    const files = fs.readdirSync(dir).sort();
    assert.deepEqual(files, ['activation.js', 'activation.js.map', 'chunk-LAZY.js', 'extension.js', 'feature-ZZZZZZZZ.js']);
    assert.match(fs.readFileSync(path.join(dir, 'extension.js'), 'utf8'), /require\("\.\/activation\.js"\)\["chunk-CCCC\.js"\]/);
    assert.match(
      fs.readFileSync(path.join(dir, 'feature-ZZZZZZZZ.js'), 'utf8'),
      /require\("\.\/chunk-LAZY\.js"\)/,
      'a chunk only a feature uses stays its own file',
    );
    const map = JSON.parse(fs.readFileSync(path.join(dir, 'activation.js.map'), 'utf8'));
    assert.equal(map.sections.length, 1, 'the one chunk with a map gets a section');
    const lines = fs.readFileSync(path.join(dir, 'activation.js'), 'utf8').split('\n');
    assert.match(lines[map.sections[0].offset.line], /globalThis\.__order\.push\("A"\)/, "the section starts on the chunk's first line");

    (globalThis as any).__order = [];
    const after = require(path.join(dir, 'extension.js'));
    assert.deepEqual((globalThis as any).__order, reference.order, 'each chunk runs once, when it was required before');
    assert.equal(after.a.seenB(), reference.seenB);
    const activation = require(path.join(dir, 'activation.js'));
    assert.equal(activation['chunk-BBBB.js'].partialA, reference.partialA, 'a cycle sees partial exports, as with require()');
    const feature = await after.load();
    assert.equal(feature.counter, after.c.counter, 'the feature gets the same module object as activation');
    assert.equal(feature.counter.n, reference.n);
    assert.equal(feature.lazy, true);
    assert.deepEqual((globalThis as any).__order, reference.order, 'nothing ran twice');
  });

  it('an entry that requires no chunk leaves the folder unchanged', async () => {
    fs.writeFileSync(path.join(dir, 'extension.js'), 'exports.x = 1;\n');
    const { mergeActivationChunks } = await loadMerge();
    assert.deepEqual(mergeActivationChunks(dir), []);
    assert.deepEqual(fs.readdirSync(dir), ['extension.js']);
  });
});
