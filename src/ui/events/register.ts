// Event watches at activation: Watch Events… and the API's watch(). The console and the
// subscription are loaded on first use (./index.ts through src/ui/base/load.ts).

import { Commands } from '../base/commandIds';
import { registerCommand } from '../base/commands';
import type { Activation } from '../base/activation';
import { onDemand } from '../base/load';
import { deferredWatch } from '../../core/base/deferredWatch';
import { errorMessage } from '../../core/base/errors';
import type { ChainEndpointsApi } from '../../api';

export function registerEvents(a: Activation): Pick<ChainEndpointsApi, 'watch'> {
  a.keep(registerCommand(a.log, Commands.watchEvents, async (arg?: unknown) => (await onDemand.events()).watchEvents(a, arg)));
  return {
    watch: (spec, listener) => {
      // The handle at once; a refused spec reaches the listener as a `note` event.
      const watch = deferredWatch(
        async () => (await onDemand.events()).watchForApi(a, spec, listener),
        listener,
        (err) => a.log.warn(`[events] a watch() listener threw: ${errorMessage(err)}`),
      );
      a.keep(watch); // closed on deactivation if the caller did not
      return watch;
    },
  };
}
