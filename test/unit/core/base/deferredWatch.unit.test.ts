// The API's watch(): a handle at once, whatever the watch's start does later.

import * as assert from 'node:assert/strict';
import { deferredWatch } from '../../../../src/core/base/deferredWatch';

const never = (): void => assert.fail('not expected');
const tick = () => new Promise((r) => setTimeout(r, 5));

describe('deferredWatch (api.watch returns a Disposable at once)', () => {
  it('hands the started watch its dispose', async () => {
    let disposed = 0;
    const events: unknown[] = [];
    const d = deferredWatch(
      async () => ({ dispose: () => disposed++ }),
      (e) => events.push(e),
      never,
    );
    assert.equal(typeof d.dispose, 'function');
    assert.ok(!(d instanceof Promise));
    await tick();
    assert.equal(disposed, 0);
    d.dispose();
    d.dispose();
    assert.equal(disposed, 1);
    assert.deepEqual(events, []);
  });

  it('disposed before the watch started: the watch is stopped as soon as it exists', async () => {
    let disposed = 0;
    let resolve!: (w: { dispose(): void }) => void;
    const d = deferredWatch(() => new Promise((r) => (resolve = r)), never, never);
    d.dispose();
    resolve({ dispose: () => disposed++ });
    await tick();
    assert.equal(disposed, 1);
  });

  it('a refusal (rejected or thrown) reaches the listener as one note event, never a rejection', async () => {
    const events: { kind: string; summary: string; at: string }[] = [];
    deferredWatch(
      () => Promise.reject(new Error('the query is never closed')),
      (e) => events.push(e as never),
      never,
    );
    deferredWatch(
      () => {
        throw new Error('no provider named "x"');
      },
      (e) => events.push(e as never),
      never,
    );
    await tick();
    assert.deepEqual(
      events.map((e) => [e.kind, e.summary]),
      [
        ['note', 'the query is never closed'],
        ['note', 'no provider named "x"'],
      ],
    );
    assert.ok(events.every((e) => !Number.isNaN(Date.parse(e.at))));
  });

  it('a refusal after dispose says nothing; a listener that throws is reported, not thrown', async () => {
    const events: unknown[] = [];
    deferredWatch(
      () => Promise.reject(new Error('late')),
      (e) => events.push(e),
      never,
    ).dispose();
    const thrown: unknown[] = [];
    deferredWatch(
      () => Promise.reject(new Error('bad')),
      () => {
        throw new Error('listener broke');
      },
      (err) => thrown.push(err),
    );
    await tick();
    assert.deepEqual(events, []);
    assert.equal((thrown[0] as Error).message, 'listener broke');
  });
});
