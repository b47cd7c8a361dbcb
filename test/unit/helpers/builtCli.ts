// dist/cli.js for the tests that run the package's bin: built here when missing (npm test builds
// first; `npm run test:unit` alone does not), so these tests never skip. A failed build fails them.

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..', '..', '..');

/** The path of dist/cli.js, after building the bundle if it is not there. */
export function builtCli(): string {
  const cliJs = path.join(ROOT, 'dist', 'cli.js');
  if (existsSync(cliJs)) return cliJs;
  const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0 || !existsSync(cliJs)) throw new Error(`npm run build failed (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);
  return cliJs;
}
