// The walkthrough (package.json contributes.walkthroughs) covers what a newcomer uses first, and
// every step's text and media exist.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT } from '../helpers/repoRoot';

const root = REPO_ROOT;

describe('walkthrough', () => {
  it('covers providers, a request, Look Up, the two-layer receipt, Watch Events, query files, contracts, the status bar and Compare; every text and file exists', () => {
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
    const nls = JSON.parse(readFileSync(path.join(root, 'package.nls.json'), 'utf8'));
    const steps: { id: string; title: string; description: string; media: { markdown?: string; image?: string } }[] = pkg.contributes.walkthroughs[0].steps;
    assert.deepEqual(
      steps.map((s) => s.id),
      ['providers', 'firstRequest', 'lookUp', 'receipt', 'watchEvents', 'queryFiles', 'contracts', 'statusBar', 'health'],
    );
    for (const s of steps) {
      for (const key of [s.title, s.description]) assert.ok(nls[key.replace(/^%|%$/g, '')], `${s.id}: ${key} missing from package.nls.json`);
      const file = s.media.markdown ?? s.media.image!;
      assert.ok(existsSync(path.join(root, file)), `${s.id}: ${file} missing`);
    }
  });
  it("the receipt step names the devnet's receipt sample, the same hash examples/workspace/receipt.chainq runs", () => {
    const md = readFileSync(path.join(root, 'media/walkthrough/receipt.md'), 'utf8');
    const chainq = readFileSync(path.join(root, 'examples/workspace/receipt.chainq'), 'utf8');
    const hash = /^@delegation = (0x[0-9a-f]{64})$/m.exec(chainq)?.[1];
    assert.ok(hash, 'receipt.chainq defines @delegation');
    assert.ok(md.includes(hash), 'receipt.md names the same hash');
    assert.ok(md.includes('examples/workspace/receipt.chainq'));
  });
});
