// @ts-check
// Rewrites the operation commands in package.json (and their English titles in package.nls.json),
// and the list of operation ids activation registers commands for (src/core/chain/operationIds.ts), from
// the catalogue (src/core/chain/catalogue/*.ts). After adding an operation:
//   npm run compile:tests && node scripts/sync-manifest.mjs
// test/unit/core/chain/operations.unit.test.ts fails when package.json, package.nls.json, operationIds.ts and the catalogue disagree.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
// The compiled modules (npm run compile:tests), typed loosely: a template path keeps tsc from checking out/.
const chain = (/** @type {string} */ name) => require(`../out/src/core/chain/${name}.js`);
const { manifestCommands, nlsKeyFor } = chain('manifest');
const { OPERATIONS } = chain('operations');

const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
const nls = JSON.parse(readFileSync('package.nls.json', 'utf8'));
const generated = manifestCommands();
const ids = new Set(generated.map((c) => c.command));
for (const c of generated) nls[nlsKeyFor(c.command)] = c.title;
pkg.contributes.commands = [
  ...generated.map((c) => ({ command: c.command, title: `%${nlsKeyFor(c.command)}%`, category: '%category%' })),
  ...pkg.contributes.commands.filter((c) => !ids.has(c.command)),
];
writeFileSync('package.json', JSON.stringify(pkg, null, 2) + '\n');
writeFileSync('package.nls.json', JSON.stringify(Object.fromEntries(Object.entries(nls).sort(([a], [b]) => a.localeCompare(b))), null, 2) + '\n');
const idsFile = 'src/core/chain/operationIds.ts';
const idsText = readFileSync(idsFile, 'utf8');
const list = OPERATIONS.map((op) => `  '${op.id}',`).join('\n');
writeFileSync(idsFile, idsText.replace(/(export const OPERATION_IDS: readonly string\[\] = \[)[\s\S]*?(\];)/, `$1\n${list}\n$2`));
console.log(`package.json and ${idsFile}: ${generated.length} operation commands`);
