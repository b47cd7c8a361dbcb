// @ts-check
// Bundles the extension (vscode stays external) into CommonJS files, the format VS Code loads:
//   dist/extension.js          what activation loads (wiring, each feature's register.ts, the views,
//                              the status bar, the operation ids), with dist/activation.js: the code
//                              it shares with the features (merged chunks: scripts/mergeChunks.mjs)
//   dist/<feature>-<hash>.js   what a feature loads on first use (src/ui/<feature>/index.ts, reached
//                              only through src/ui/base/load.ts): requests, explorer, contracts, …
//   dist/chunk-<hash>.js       code several of those share (the request core, the catalogue, …), or
//                              that activation shares with them
// esbuild splits code only in ESM output, so the bundle is first built as ESM into a folder of
// .cache/, then each file is converted to CommonJS into dist/ (import() becoming require(), source
// maps chained). The hashes keep the shared chunks' names apart.
// undici and ws go into their own files, dist/vendor/undici.js and dist/vendor/ws.js, which
// src/core/transport/lazy.ts requires on first use.
// --production minifies and drops source maps; --watch rebuilds on change.
import * as esbuild from 'esbuild';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { mergeActivationChunks } from './mergeChunks.mjs';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const VENDORED = ['undici', 'ws'];
fs.mkdirSync('.cache', { recursive: true });
const ESM_DIR = fs.mkdtempSync(path.join('.cache', 'esm-'));

/** @type {esbuild.BuildOptions} */
const common = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node18',
  minify: production,
  sourcemap: !production,
  sourcesContent: false,
  logLevel: 'info',
};

/** In the extension bundle, `require('undici')` becomes `require('./vendor/undici.js')`, left to run time. */
const vendorAsExternal = {
  name: 'vendor-as-external',
  setup(build) {
    build.onResolve({ filter: new RegExp(`^(${VENDORED.join('|')})$`) }, (args) => ({ path: `./vendor/${args.path}.js`, external: true }));
  },
};

/**
 * A library's own `import()` (viem: its CCIP reader, WebSocket shim and lazily loaded curve, none of
 * which the extension calls) would each become a chunk the extension never needs: such imports stay
 * unresolved, and reject if ever reached.
 */
const libraryDynamicImportsExternal = {
  name: 'library-dynamic-imports-external',
  setup(build) {
    build.onResolve({ filter: /.*/ }, (args) =>
      args.kind === 'dynamic-import' && /[\\/]node_modules[\\/]/.test(args.importer) ? { path: `unbundled:${args.path}`, external: true } : undefined,
    );
  },
};

/**
 * The lazy boundary as a check: source files that must never be in what activation loads
 * (dist/extension.js and the chunks it imports statically). Requests, rendering, decoding and
 * health probes belong behind a feature's index.ts (src/ui/<feature>/index.ts, loaded through
 * src/ui/base/load.ts). A build that puts one of these in activation fails, naming the file and the
 * import chain that pulled it in. Besides this list, every ui module a feature's index.ts names
 * (featureModules() below) is forbidden too: the rule follows the folders.
 */
export const ACTIVATION_FORBIDS = [
  /^src\/ui\/[a-zA-Z]+\/index\.ts$/, // each feature's on-demand entry
  /^src\/ui\/requests\/(run|host)\.ts$/, // the runner of every request a person starts, and its hosts
  /^src\/ui\/base\/webviewPage\.ts$/, // the webviews' page (the Compare view, the event console)
  /^src\/core\/chain\/(execute|outcome|genesis|operations|validate|manifest|commandArgs)\.ts$/, // requests and the catalogue
  /^src\/core\/chain\/catalogue\/(modules\.(ts|json)|imported\.ts)$/, // the module routes (generated table, imports)
  /js-yaml/, // YAML, for the OpenAPI import
  /^src\/core\/documents\/(interpret|render|jsonFormat|curl|answer)\.ts$/, // reading and rendering answers
  /^src\/core\/health\/(health|healthExport|classify)\.ts$/, // health probes and their classification
  /^src\/core\/health\/(capabilities|session|serves)\.ts$/, // capability probes, the session's history
  /^src\/core\/transport\/wsCall\.ts$/, // WebSocket requests
  /^src\/core\/config\/(chainRegistry|jsonText|registryDuplicates)\.ts$/, // chain.json import (with jsonc-parser)
  /^src\/core\/(explorer|queries|events|contracts)\//, // decoders, query files, event watches, ABIs
  // Built just after activation, from their own files: the Providers view and its nodes, the status
  // bar's trackers and failover (statusBar/index.ts names its items).
  /^src\/ui\/providers\/(providersTree|treeNodes|networkNode)\.ts$/,
  /^src\/ui\/health\/(healthPresentation|capabilityPresentation)\.ts$/,
  /^src\/core\/(chain\/heightTracker|health\/heightFollower|transport\/subscription)\.ts$/,
  // The History view (its list, storage and commands' work) and the transport, loaded on the first
  // request (core/transport/lazyHttp.ts).
  /^src\/ui\/requests\/historyView\.ts$/,
  /^src\/core\/transport\/(http|body|exchange)\.ts$/,
];

/**
 * The ui modules that each feature's index.ts re-exports (`export … from './x'`): what the feature
 * loads on first use, never at activation.
 */
export function featureModules(root = '.') {
  const out = [];
  const ui = path.join(root, 'src', 'ui');
  for (const feature of fs.readdirSync(ui)) {
    const index = path.join(ui, feature, 'index.ts');
    if (!fs.existsSync(index)) continue;
    for (const m of fs.readFileSync(index, 'utf8').matchAll(/from '(\.\/[^']+)'/g)) out.push(`src/ui/${feature}/${m[1].slice(2)}.ts`);
  }
  return out;
}

/** Throws when an input of an activation output matches ACTIVATION_FORBIDS or is a feature's on-demand module. */
function checkActivation(metafile) {
  const lazy = new Set(featureModules());
  const outputs = Object.entries(metafile.outputs);
  const entry = outputs.find(([, o]) => o.entryPoint === 'src/extension.ts');
  if (!entry) throw new Error('build: no output for src/extension.ts in the metafile');
  // What activation loads: the entry and every file it imports statically (dynamic imports are the boundary).
  const loaded = new Set();
  const visit = (file) => {
    if (loaded.has(file)) return;
    loaded.add(file);
    for (const imp of metafile.outputs[file]?.imports ?? []) if (imp.kind === 'import-statement' && !imp.external) visit(imp.path);
  };
  visit(entry[0]);
  const bad = [];
  for (const out of loaded) {
    for (const input of Object.keys(metafile.outputs[out].inputs)) {
      if (lazy.has(input) || ACTIVATION_FORBIDS.some((re) => re.test(input))) bad.push(`${input} (in ${path.basename(out)})`);
    }
  }
  if (bad.length > 0) {
    const why = bad.map((b) => `  ${b}${importChain(metafile, b.split(' ')[0])}`).join('\n');
    throw new Error(
      `build: the lazy boundary is crossed: activation loads\n${why}\nReach this code through its feature's index.ts, loaded by src/ui/base/load.ts.`,
    );
  }
}

/** ", imported by a <- b <- src/extension.ts": one chain of static imports from the entry to `file`. */
function importChain(metafile, file) {
  const parents = new Map();
  const queue = ['src/extension.ts'];
  while (queue.length > 0) {
    const f = queue.shift();
    for (const imp of metafile.inputs[f]?.imports ?? []) {
      if (imp.kind !== 'import-statement' || parents.has(imp.path) || imp.path === 'src/extension.ts') continue;
      parents.set(imp.path, f);
      queue.push(imp.path);
    }
  }
  const chain = [];
  for (let f = parents.get(file); f; f = parents.get(f)) chain.push(f);
  return chain.length ? `, imported by ${chain.join(' <- ')}` : '';
}

/** After each ESM build: every file of it as CommonJS in dist/. */
const toCommonJs = {
  name: 'to-commonjs',
  setup(build) {
    build.onEnd(async (result) => {
      if (result.errors.length > 0) return;
      checkActivation(result.metafile);
      // BUILD_META=file.json: the metafile, to see what activation loads (esbuild's analyzer reads it).
      if (process.env.BUILD_META) fs.writeFileSync(process.env.BUILD_META, JSON.stringify(result.metafile));
      const files = fs.readdirSync(ESM_DIR).filter((f) => f.endsWith('.js'));
      // The previous build's files go first: a chunk whose hash changed would otherwise stay in dist/ and ship.
      for (const f of fs.existsSync('dist') ? fs.readdirSync('dist') : []) {
        if (/^(extension|activation|onDemand|chunk|[a-zA-Z]+-[A-Z0-9]{8})\.js(\.map)?$/.test(f)) fs.rmSync(path.join('dist', f));
      }
      await esbuild.build({
        ...common,
        bundle: false,
        entryPoints: files.map((f) => path.join(ESM_DIR, f)),
        outdir: 'dist',
        // import('./explorer-<hash>.js') becomes Promise.resolve().then(() => require('./explorer-<hash>.js'))
        supported: { 'dynamic-import': false },
      });
      // What activation loads in two files: extension.js and activation.js (scripts/mergeChunks.mjs).
      mergeActivationChunks('dist');
    });
  },
};

/** @type {esbuild.BuildOptions[]} */
const builds = [
  {
    ...common,
    entryPoints: ['src/extension.ts'],
    format: 'esm',
    splitting: true,
    metafile: true,
    chunkNames: '[name]-[hash]',
    outdir: ESM_DIR,
    external: ['vscode'],
    // ESM entries first: jsonc-parser's `main` is a UMD file whose require() calls esbuild cannot
    // follow, and @scure/base's ESM build lets esbuild keep only bech32.
    mainFields: ['module', 'main'],
    plugins: [vendorAsExternal, libraryDynamicImportsExternal, toCommonJs],
    logLevel: 'warning',
  },
  // The command-line runner of query files (package.json "bin", src/cli.ts): its own file, never
  // loaded by the extension; undici and ws from dist/vendor/ as in the extension.
  { ...common, entryPoints: ['src/cli.ts'], outfile: 'dist/cli.js', mainFields: ['module', 'main'], plugins: [vendorAsExternal], logLevel: 'warning' },
  // Each vendored package from its CommonJS entry (what require() resolves), so that
  // require('./vendor/ws.js') returns exactly what require('ws') would.
  { ...common, entryPoints: Object.fromEntries(VENDORED.map((m) => [m, createRequire(import.meta.url).resolve(m)])), outdir: 'dist/vendor' },
];

// uPlot (the Compare view's charts) ships in media/vendor/: the .vsix carries media/ but not node_modules.
const UPLOT = { 'uPlot.iife.min.js': 'uplot.js', 'uPlot.min.css': 'uplot.css' };
fs.mkdirSync('media/vendor', { recursive: true });
for (const [from, to] of Object.entries(UPLOT)) fs.copyFileSync(path.join('node_modules/uplot/dist', from), path.join('media/vendor', to));

if (watch) {
  for (const options of builds) await (await esbuild.context(options)).watch();
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, () => {
      fs.rmSync(ESM_DIR, { recursive: true, force: true });
      process.exit(0);
    });
  }
} else {
  try {
    await Promise.all(builds.map((options) => esbuild.build(options)));
  } finally {
    fs.rmSync(ESM_DIR, { recursive: true, force: true });
  }
}
