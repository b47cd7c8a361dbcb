// `chainEndpoints.statusBar.perNetwork`: one block-height item per network (a HeightStatusBar
// scoped to it: its own provider, failover within it, tooltip and menu). Rebuilt when the networks
// change (settings, or a probe discovering a provider's chain); the single item steps aside while
// these are shown.

import type { Http } from '../../core/transport/http';
import { HeightStatusBar, type StatusHealth, perNetworkItems } from './heightStatusBar';
import { Disposable } from '../base/lifecycle';
import { type Log } from '../base/log';
import { currentNetworks } from '../providers/networkDirectory';
import type { SecretStore } from '../providers/secretStore';
import { onSettingsChanged, readSettings } from '../base/settings';

export class NetworkStatusBars extends Disposable {
  private bars = new Map<string, HeightStatusBar>();
  private shape = '';

  constructor(
    private readonly log: Log,
    private readonly http: Http,
    private readonly health: StatusHealth,
    private readonly secrets: SecretStore,
    /** The single item, restarted when per-network items appear or go. */
    private readonly main: HeightStatusBar,
  ) {
    super();
    this._register(
      onSettingsChanged(['providers', 'statusBar'], () => this.update()),
      health.onDidChange(() => this.update()),
    );
    // As the single item: once the secrets are read (no item can follow a provider before), and not
    // during activation (the first read of the settings costs milliseconds there).
    void secrets.ready.then(() => this.update());
  }

  /** The item of network `key`, when shown. */
  bar(key: string): HeightStatusBar | undefined {
    return this.bars.get(key);
  }

  /** Every per-network item, in network order. */
  all(): HeightStatusBar[] {
    return [...this.bars.values()];
  }

  private update(): void {
    if (this.isDisposed) return;
    const active = perNetworkItems();
    const networks = active ? currentNetworks(readSettings().providers.providers) : [];
    const shape = networks.map((n) => `${n.key}=${n.label}:${n.providers.map((p) => p.name).join(',')}`).join('|');
    if (shape === this.shape) return;
    const wasActive = this.shape !== '';
    this.shape = shape;
    this.clear();
    networks.forEach((n, index) =>
      this.bars.set(n.key, new HeightStatusBar(this.log, this.http, this.health, this.secrets, { key: n.key, label: n.label, index: index + 1 })),
    );
    if (wasActive !== active) this.main.restart();
  }

  private clear(): void {
    for (const bar of this.bars.values()) bar.dispose();
    this.bars.clear();
  }

  override dispose(): void {
    this.clear();
    super.dispose();
  }
}
