// Health at activation: Refresh, Compare Providers and the API's capabilities(). The probes run in
// the HealthController (a shared service, built by src/extension.ts); the Compare view and the
// capability probes are loaded on first use (./index.ts through src/ui/base/load.ts).

import { Commands } from '../base/commandIds';
import { registerCommand } from '../base/commands';
import type { Activation } from '../base/activation';
import { onDemand } from '../base/load';
import type { CompareView } from './compareView';
import type { ChainEndpointsApi } from '../../api';

export function registerHealth(
  a: Activation,
  refreshViews: () => void,
): Pick<ChainEndpointsApi, 'capabilities'> & { compareContent(): Promise<ReturnType<CompareView['content']> | undefined> } {
  let compare: Promise<CompareView> | undefined;
  const compareView = () =>
    (compare ??= onDemand.health().then(({ CompareView }) => {
      const view = new CompareView(a.extensionUri, a.health);
      a.keep(view);
      return view;
    }));
  // An explicit Refresh probes what each provider serves again too (a node restarted with other settings).
  a.keep(
    registerCommand(a.log, Commands.refresh, async () => {
      refreshViews();
      await a.health.refresh(undefined, { capabilities: true });
    }),
  );
  a.keep(registerCommand(a.log, Commands.compareHealth, async () => (await compareView()).show()));
  return {
    capabilities: async (provider) => (await onDemand.health()).capabilitiesForApi(a.health, provider),
    compareContent: async () => (compare ? (await compare).content() : undefined),
  };
}
