// The status bar at activation: the live height (one item, or one per network with
// statusBar.perNetwork), its menu, Reconnect and Switch Provider, and the API's currentHeight() and
// onDidChangeHeight. Its polling fallback and picker are loaded on first use (./index.ts).

import { Commands } from '../base/commandIds';
import { registerCommand } from '../base/commands';
import type { Activation } from '../base/activation';
import { HeightStatusBar } from './heightStatusBar';
import { NetworkStatusBars } from './networkStatusBars';
import type { ChainEndpointsApi } from '../../api';

export function registerStatusBar(a: Activation): Pick<ChainEndpointsApi, 'currentHeight' | 'onDidChangeHeight'> & {
  statusBar: HeightStatusBar;
  networkBars: NetworkStatusBars;
} {
  const statusBar = new HeightStatusBar(a.log, a.http, a.health, a.secrets);
  const networkBars = new NetworkStatusBars(a.log, a.http, a.health, a.secrets, statusBar);
  a.keep(statusBar);
  a.keep(networkBars);
  for (const d of [
    // With one item per network (statusBar.perNetwork), an item's menu names its network.
    registerCommand(a.log, Commands.statusBarMenu, (network?: unknown) => (networkBars.bar(String(network)) ?? statusBar).showMenu()),
    registerCommand(a.log, Commands.statusBarReconnect, () => [statusBar, ...networkBars.all()].forEach((b) => b.reconnect())),
    registerCommand(a.log, Commands.statusBarSwitchProvider, (network?: unknown) => (networkBars.bar(String(network)) ?? statusBar).switchProvider()),
  ])
    a.keep(d);
  return {
    statusBar,
    networkBars,
    onDidChangeHeight: statusBar.onDidChangeHeight,
    currentHeight: () => {
      const { configured, following, snapshot, reason } = statusBar.current;
      if (!configured || !following) return undefined;
      return { provider: following.name, configured: configured.name, height: snapshot?.height?.toString(), state: snapshot?.state ?? 'stopped', reason };
    },
  };
}
