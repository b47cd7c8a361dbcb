// Providers at activation: the secret commands, Add Provider…, Import chain.json…, Open Settings
// and the API's providers(). The dialogs are loaded on first use (./index.ts through
// src/ui/base/load.ts); the Providers view (its nodes, their health and capability tooltips) is
// built just after activation, from its own file.

import vscode = require('vscode');
import { Commands } from '../base/commandIds';
import { buildLater } from '../base/buildLater';
import { registerCommand } from '../base/commands';
import type { Activation } from '../base/activation';
import { onDemand } from '../base/load';
import { windowPrompts } from '../base/prompts';
import { readSettings } from '../base/settings';
import type { ImportArgs } from './importChainRegistry';
import { currentNetworks } from './networkDirectory';
import type { ProvidersTree, TreeSnapshot } from './providersTree';
import type { ChainEndpointsApi } from '../../api';

/** The Providers view, once built: refresh it, and what it shows (for the tests' hooks). */
export interface ProvidersView {
  refresh(): void;
  snapshot(): Promise<TreeSnapshot[]>;
}

export function registerProviders(a: Activation): Pick<ChainEndpointsApi, 'providers'> & { tree: ProvidersView } {
  const built: Promise<ProvidersTree | undefined> = buildLater(
    a.keep,
    a.log,
    '[providers] the Providers view was not built',
    () => import('./providersTree'),
    ({ ProvidersTree }) => {
      const tree = new ProvidersTree(a.health);
      a.keep(tree);
      return tree;
    },
  );
  const tree: ProvidersView = {
    refresh: () => void built.then((t) => t?.refresh()),
    snapshot: async () => (await built)?.snapshot() ?? [],
  };
  for (const d of [
    registerCommand(a.log, Commands.setSecret, async (arg?: { provider?: string; name?: string; value?: string; header?: string }) => {
      const { setSecret, providerPrompts } = await onDemand.providers();
      return setSecret(
        a.secrets,
        a.log,
        arg,
        providerPrompts(windowPrompts, () => a.health.rows()),
      );
    }),
    registerCommand(a.log, Commands.deleteSecret, async (arg?: { provider?: string; name?: string }) =>
      (await onDemand.providers()).deleteSecret(a.secrets, arg),
    ),
    registerCommand(a.log, Commands.addProvider, async () => (await onDemand.providers()).addProvider()),
    registerCommand(a.log, Commands.importChainRegistry, async (arg?: ImportArgs) => (await onDemand.providers()).importChainRegistry(arg)),
    registerCommand(a.log, Commands.openSettings, () =>
      vscode.commands.executeCommand('workbench.action.openSettings', '@ext:chain-endpoints.chain-endpoints'),
    ),
  ])
    a.keep(d);
  return {
    tree,
    providers: () => {
      const all = readSettings().providers.providers;
      const networks = currentNetworks(all);
      return all.map(({ name, endpoints, chainId, evmChainId }) => {
        const network = networks.find((n) => !n.unidentified && n.providers.some((p) => p.name === name))?.label;
        return { name, endpoints: { ...endpoints }, chainId, evmChainId, network };
      });
    },
  };
}
