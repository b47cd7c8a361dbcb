// The repository's root (the folder with package.json), found from this file wherever the tests are
// compiled to, so a test names files of the repository without counting `..` from its own folder.
import { existsSync } from 'node:fs';
import path from 'node:path';

function findRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json')) && existsSync(path.join(dir, 'src'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package.json with a src/ folder above ${from}`);
  }
}

export const REPO_ROOT = findRoot(__dirname);
/** Where tsconfig.test.json compiles the sources and tests (out/src, out/test). */
export const OUT_DIR = path.join(REPO_ROOT, 'out');
