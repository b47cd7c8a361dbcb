// A part built just after activation (src/ui/base/buildLater.ts): built once loaded, never after
// deactivation, and a failure in loading or building is logged and gives undefined.

import * as assert from 'node:assert/strict';
import { buildLater } from '../../../../src/ui/base/buildLater';
import type { Log } from '../../../../src/ui/base/log';

function recorder() {
  const kept: { dispose(): unknown }[] = [];
  const errors: string[] = [];
  const log = { error: (m: string | Error) => errors.push(String(m)) } as unknown as Log;
  return { kept, errors, log, keep: (d: { dispose(): unknown }) => void kept.push(d), deactivate: () => kept.forEach((d) => d.dispose()) };
}

describe('buildLater: parts built just after activation', () => {
  it('builds from the loaded module', async () => {
    const r = recorder();
    const built = await buildLater(
      r.keep,
      r.log,
      '[x] not built',
      async () => ({ make: (n: number) => n * 2 }),
      (m) => m.make(21),
    );
    assert.equal(built, 42);
    assert.deepEqual(r.errors, []);
  });

  it('builds nothing when the extension was deactivated while the module loaded', async () => {
    const r = recorder();
    let made = 0;
    let release!: () => void;
    const loading = new Promise<void>((resolve) => (release = resolve));
    const built = buildLater(
      r.keep,
      r.log,
      '[x] not built',
      () => loading,
      () => ++made,
    );
    r.deactivate();
    release();
    assert.equal(await built, undefined);
    assert.equal(made, 0);
  });

  it('a failed load or a failed build is logged with its sentence and gives undefined', async () => {
    const r = recorder();
    assert.equal(
      await buildLater(
        r.keep,
        r.log,
        '[a] the view was not built',
        () => Promise.reject(new Error('chunk missing')),
        () => 1,
      ),
      undefined,
    );
    const thrown = await buildLater(
      r.keep,
      r.log,
      '[b] the items did not start',
      async () => 0,
      () => {
        throw new Error('no status bar');
      },
    );
    assert.equal(thrown, undefined);
    assert.deepEqual(r.errors, ['[a] the view was not built: chunk missing', '[b] the items did not start: no status bar']);
  });
});
