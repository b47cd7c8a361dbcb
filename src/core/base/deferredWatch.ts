// The API's watch() returns its Disposable at once (issue #20), while the watch itself needs the
// on-demand bundle first. This joins the two: the handle stops the watch whenever it is disposed
// (before it started, it never starts), and a spec the watch refuses (or a bundle that fails to
// load) reaches the listener as one `note` event instead of a rejection no one awaits.

import { shownMessage } from './errors';

export interface DeferredEvent {
  readonly kind: 'note';
  readonly at: string;
  readonly summary: string;
}

export interface Disposer {
  dispose(): void;
}

/**
 * Starts `start()` now and returns a handle right away. `listener` gets the refusal as a note;
 * `onListenerError` hears about a listener that throws (it never reaches the caller's stack).
 */
export function deferredWatch<E>(
  start: () => Promise<Disposer>,
  listener: (event: E | DeferredEvent) => void,
  onListenerError: (err: unknown) => void,
): Disposer {
  let disposed = false;
  let inner: Disposer | undefined;
  const tell = (summary: string) => {
    try {
      listener({ kind: 'note', at: new Date().toISOString(), summary });
    } catch (err) {
      onListenerError(err);
    }
  };
  let started: Promise<Disposer>;
  try {
    started = start();
  } catch (err) {
    started = Promise.reject(err instanceof Error ? err : new Error(String(err)));
  }
  started.then(
    (w) => {
      if (disposed) w.dispose();
      else inner = w;
    },
    (err: unknown) => {
      if (!disposed) tell(shownMessage(err));
    },
  );
  return {
    dispose: () => {
      if (disposed) return;
      disposed = true;
      inner?.dispose();
      inner = undefined;
    },
  };
}
