// Runs the health probes: on demand (refresh), and every chainEndpoints.health.intervalSeconds
// for the providers shown expanded in a visible Providers view, paused while the window is not
// focused. Publishes the assessed rows to the tree, the comparison view and the status bar.

import vscode = require('vscode');
import { Disposable } from './lifecycle';
import { errorMessage } from '../core/base/errors';
import type { HealthMonitor } from '../core/health/health';
import type { InterfaceHealth } from '../core/health/model';
import { type HttpClient } from '../core/transport/http';
import { type InterfaceId, type Provider } from '../core/config/providers';
import { loadOnDemand } from './loadOnDemand';
import { type Log } from './log';
import { type SecretStore } from './secretStore';
import { setNetworkSource } from './networkDirectory';
import { onSettingsChanged, readSettings } from './settings';

export class HealthController extends Disposable {
  /** The probes (src/core/health.ts, loaded on demand): built at the first refresh, not at activation. */
  private monitor?: Promise<HealthMonitor>;
  private readonly changed = new vscode.EventEmitter<readonly InterfaceHealth[]>();
  readonly onDidChange = this.changed.event;
  private timer?: NodeJS.Timeout;
  private current: InterfaceHealth[] = [];
  private inFlight?: Promise<readonly InterfaceHealth[]>;
  /** Providers whose rows are shown (the view is visible and the row expanded); undefined: none known. */
  private shown: ReadonlySet<string> = new Set();

  constructor(
    private readonly http: HttpClient,
    private readonly log: Log,
    private readonly secrets: SecretStore,
  ) {
    super();
    this._register(this.changed);
    setNetworkSource(() => this.current);
    this._register(
      onSettingsChanged(['health', 'providers'], () => this.schedule()),
      vscode.window.onDidChangeWindowState(() => this.schedule()),
    );
    this.schedule();
  }

  rows(): readonly InterfaceHealth[] {
    return this.current;
  }

  healthOf(provider: string, iface: InterfaceId): InterfaceHealth | undefined {
    return this.current.find((r) => r.provider === provider && r.iface === iface);
  }

  /** Called by the tree with the providers a person can see now. */
  setShown(names: ReadonlySet<string>): void {
    const before = this.shown;
    this.shown = names;
    if ([...names].some((n) => !before.has(n))) void this.refresh([...names]);
    this.schedule();
  }

  /** Probes the named providers (all when omitted) now; concurrent calls share one run. */
  refresh(names?: readonly string[]): Promise<readonly InterfaceHealth[]> {
    if (this.inFlight) return this.inFlight;
    const settings = readSettings();
    const all = settings.providers.providers;
    const targets = names ? all.filter((p) => names.includes(p.name)) : all;
    const monitor = (this.monitor ??= loadOnDemand().then(
      ({ HealthMonitor }) => new HealthMonitor({ http: this.http, timeoutMs: Math.min(settings.requestTimeoutMs, 10_000) }),
    ));
    const run = (async () => {
      const started = Date.now();
      try {
        const probes = await monitor;
        probes.retain(all);
        await this.secrets.ready;
        await probes.refresh(targets.flatMap((p) => this.wire(p)));
        this.current = probes.assess(all, expectedChain);
        this.log.debug(`[health] probed ${targets.length} provider(s) in ${Date.now() - started} ms`);
        this.changed.fire(this.current);
      } catch (err) {
        this.log.error(`[health] refresh failed: ${errorMessage(err)}`);
      } finally {
        this.inFlight = undefined;
      }
      return this.current;
    })();
    this.inFlight = run;
    return run;
  }

  /** The provider with its secrets substituted, or nothing (logged) when one is missing. */
  private wire(p: Provider): Provider[] {
    try {
      return [this.secrets.resolve(p)];
    } catch (err) {
      this.log.warn(`[health] ${p.name} not probed: ${errorMessage(err)}`);
      return [];
    }
  }

  private schedule(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    const seconds = vscode.workspace.getConfiguration('chainEndpoints').get<number>('health.intervalSeconds', 30);
    if (!seconds || seconds <= 0 || !vscode.window.state.focused) return;
    this.timer = setInterval(
      () => {
        if (this.shown.size > 0 && vscode.window.state.focused) void this.refresh([...this.shown]);
      },
      Math.max(5, seconds) * 1000,
    );
  }

  override dispose(): void {
    if (this.timer) clearInterval(this.timer);
    super.dispose();
  }
}

function expectedChain(p: Provider) {
  return { chainId: p.chainId, evmChainId: p.evmChainId };
}
