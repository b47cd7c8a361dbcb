// Ctrl+C for the command-line chains (`npm run devnet`, `npm run chain`): the first SIGINT or SIGTERM
// runs `stop`, then the process exits 0 (1 when stopping fails or takes over `forceMs`).

/** `stop` returns undefined when there is nothing to stop yet (the caller checks `stopping` later). */
export function stopOnSignals(stop: (signal: string) => Promise<void> | undefined, forceMs: number): { readonly stopping: boolean } {
  const state = { stopping: false };
  const shutdown = (signal: string): void => {
    if (state.stopping) return;
    state.stopping = true;
    const stopped = stop(signal);
    if (!stopped) return;
    const force = setTimeout(() => process.exit(1), forceMs);
    force.unref();
    stopped.then(
      () => process.exit(0),
      (e: unknown) => {
        console.error(e);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  return state;
}
