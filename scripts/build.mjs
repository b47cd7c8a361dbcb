// Bundles the extension into dist/extension.js (vscode stays external). undici and ws go into
// their own files, dist/vendor/undici.js and dist/vendor/ws.js, which src/core/lazy.ts requires on
// first use: activation then parses only the extension's own code.
// --production minifies and drops source maps; --watch rebuilds on change.
import * as esbuild from 'esbuild';
import { createRequire } from 'node:module';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const VENDORED = ['undici', 'ws'];

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

const builds = [
  { ...common, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'], plugins: [vendorAsExternal] },
  // Each vendored package from its CommonJS entry (what require() resolves), so that
  // require('./vendor/ws.js') returns exactly what require('ws') would.
  { ...common, entryPoints: Object.fromEntries(VENDORED.map((m) => [m, createRequire(import.meta.url).resolve(m)])), outdir: 'dist/vendor' },
];

if (watch) {
  for (const options of builds) await (await esbuild.context(options)).watch();
} else {
  await Promise.all(builds.map((options) => esbuild.build(options)));
}
