// Rewrites the operation commands in package.json from the catalogue (src/core/operations.ts).
// After adding an operation: `npm run compile:tests && node scripts/sync-manifest.mjs`.
// test/unit/manifest.unit.test.ts fails when package.json and the catalogue disagree.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { manifestCommands } = require('../out/src/core/manifest.js');

const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
const generated = manifestCommands();
const ids = new Set(generated.map((c) => c.command));
pkg.contributes.commands = [...generated, ...pkg.contributes.commands.filter((c) => !ids.has(c.command))];
writeFileSync('package.json', JSON.stringify(pkg, null, 2) + '\n');
console.log(`package.json: ${generated.length} operation commands`);
