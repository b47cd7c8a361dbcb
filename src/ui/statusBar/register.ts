// The status bar at activation: its commands (menu, Reconnect, Switch Provider) and the API's
// currentHeight() and onDidChangeHeight. The items themselves and what feeds them (trackers,
// failover, tooltip, menu: ./index.ts) are loaded once the secrets are read, since no item can
// follow a provider before; activation only waits for nothing.

import vscode = require('vscode');
import { Commands } from '../base/commandIds';
import { buildLater } from '../base/buildLater';
import { registerCommand } from '../base/commands';
import type { Activation } from '../base/activation';
import { onDemand } from '../base/load';
import type { HeightStatusBar } from './heightStatusBar';
import type { NetworkStatusBars } from './networkStatusBars';
import type { ChainEndpointsApi } from '../../api';

/** The single item and the per-network items (statusBar.perNetwork), once loaded. */
export interface StatusBars {
  readonly statusBar: HeightStatusBar;
  readonly networkBars: NetworkStatusBars;
}

export function registerStatusBar(a: Activation): Pick<ChainEndpointsApi, 'currentHeight' | 'onDidChangeHeight'> & {
  /** The items, when loaded (for the tests' hooks). */
  bars(): StatusBars | undefined;
} {
  const heightChanged = new vscode.EventEmitter<{ provider: string; height: string }>();
  let loaded: StatusBars | undefined;
  a.keep(heightChanged);
  const bars: Promise<StatusBars | undefined> = buildLater(
    a.keep,
    a.log,
    '[status] the status bar did not start',
    () => a.secrets.ready.then(() => onDemand.statusBar()),
    ({ HeightStatusBar, NetworkStatusBars }) => {
      const statusBar = new HeightStatusBar(a.log, a.http, a.health, a.secrets);
      const networkBars = new NetworkStatusBars(a.log, a.http, a.health, a.secrets, statusBar);
      a.keep(statusBar);
      a.keep(networkBars);
      a.keep(statusBar.onDidChangeHeight((e) => heightChanged.fire(e)));
      return (loaded = { statusBar, networkBars });
    },
  );
  /** The item a command is for: a network's (statusBar.perNetwork) or the single one. */
  const itemFor = async (network?: unknown) => {
    const b = await bars;
    return b && (b.networkBars.bar(String(network)) ?? b.statusBar);
  };
  for (const d of [
    // With one item per network (statusBar.perNetwork), an item's menu names its network.
    registerCommand(a.log, Commands.statusBarMenu, async (network?: unknown) => (await itemFor(network))?.showMenu()),
    registerCommand(a.log, Commands.statusBarReconnect, async () => {
      const b = await bars;
      if (b) [b.statusBar, ...b.networkBars.all()].forEach((x) => x.reconnect());
    }),
    registerCommand(a.log, Commands.statusBarSwitchProvider, async (network?: unknown) => (await itemFor(network))?.switchProvider()),
  ])
    a.keep(d);
  return {
    bars: () => loaded,
    onDidChangeHeight: heightChanged.event,
    currentHeight: () => {
      if (!loaded) return undefined;
      const { configured, following, snapshot, reason } = loaded.statusBar.current;
      if (!configured || !following) return undefined;
      return { provider: following.name, configured: configured.name, height: snapshot?.height?.toString(), state: snapshot?.state ?? 'stopped', reason };
    },
  };
}
