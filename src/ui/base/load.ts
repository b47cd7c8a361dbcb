// The one way activation-time code reaches what a feature loads on first use: each feature folder's
// index.ts (src/ui/<feature>/index.ts), its own file in the release build (dist/<feature>-<hash>.js,
// with the core code several features share in chunk files). A first Look Up loads the explorer's
// file and what it shares, not the simulator, the query editor or the module routes.
// Nothing in a feature's index.ts (nor what it imports) may be loaded at activation: the build fails
// when it is (scripts/build.mjs, the lazy boundary). Only activation-time files import this one.

/** A loader that imports once and hands every caller the same promise. */
function once<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () => (loaded ??= load());
}

export const onDemand = {
  requests: once(() => import('../requests/index')),
  explorer: once(() => import('../explorer/index')),
  contracts: once(() => import('../contracts/index')),
  queries: once(() => import('../queries/index')),
  events: once(() => import('../events/index')),
  health: once(() => import('../health/index')),
  providers: once(() => import('../providers/index')),
  statusBar: once(() => import('../statusBar/index')),
};
