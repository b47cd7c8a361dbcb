// Runs the health probes: on demand (refresh), and every chainEndpoints.health.intervalSeconds
// for the providers shown expanded in a visible Providers view, paused while the window is not
// focused. Publishes the assessed rows to the tree, the comparison view and the status bar.

import vscode = require('vscode');
import { Disposable } from './lifecycle';
import { errorMessage } from '../core/base/errors';
import type { HealthMonitor } from '../core/health/health';
import type { InterfaceHealth } from '../core/health/model';
import type { Capabilities } from '../core/health/capabilities';
import type { HealthSession, HistoryPoint } from '../core/health/session';
import { type HttpClient } from '../core/transport/http';
import { INTERFACES, type InterfaceId, type Provider } from '../core/config/providers';
import { loadOnDemand } from './loadOnDemand';
import { type Log } from './log';
import { type SecretStore } from './secretStore';
import { setNetworkSource } from './networkDirectory';
import { onSettingsChanged, readSettings } from './settings';

export class HealthController extends Disposable {
  /** The probes (src/core/health.ts, loaded on demand): built at the first refresh, not at activation. */
  private monitor?: Promise<HealthMonitor>;
  /** Streaks, cooldowns, staleness and the session's history (src/core/health/session.ts). */
  private session?: HealthSession;
  /** What each provider can serve (src/core/health/capabilities.ts), probed rarely. */
  private readonly caps = new Map<string, Capabilities>();
  /** REST modules served or not, as module routes' answers showed (capabilities.ts probes only a few). */
  private readonly seenModules = new Map<string, Record<string, boolean>>();
  private readonly changed = new vscode.EventEmitter<readonly InterfaceHealth[]>();
  readonly onDidChange = this.changed.event;
  private timer?: NodeJS.Timeout;
  private current: InterfaceHealth[] = [];
  private inFlight?: Promise<readonly InterfaceHealth[]>;
  /** Providers whose rows are shown (the view is visible and the row expanded); undefined: none known. */
  private shown: ReadonlySet<string> = new Set();
  /** True during a timed refresh: interfaces cooling down after failures are skipped (an explicit refresh probes all). */
  private periodic = false;
  /** Cancels capability probes under way when the controller is disposed. */
  private readonly stopping = new AbortController();

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

  /** The provider's probed capabilities, when known, with the REST modules its answers showed. */
  capabilities(provider: string): Capabilities | undefined {
    const c = this.caps.get(provider);
    const seen = this.seenModules.get(provider);
    if (!seen) return c;
    const base = c ?? { provider, probedAt: 0, notes: [] };
    return { ...base, rest: { ...base.rest, modules: { ...base.rest?.modules, ...seen } } };
  }

  /** What a module route's answer showed: the provider serves the module (a 2xx) or not (501). Kept for the session. */
  noteModule(provider: string, module: string, served: boolean): void {
    const seen = this.seenModules.get(provider) ?? {};
    if (seen[module] === served) return;
    // Bounded: a provider has a few dozen modules at most; a name is checked by the caller's route table.
    if (Object.keys(seen).length >= 200) return;
    seen[module] = served;
    this.seenModules.set(provider, seen);
    this.changed.fire(this.current);
  }

  /** The session's history of one interface (height, latency, state), oldest first. */
  history(provider: string, iface: InterfaceId): readonly HistoryPoint[] {
    return this.session?.history(provider, iface) ?? [];
  }

  /** Called by the tree with the providers a person can see now. */
  setShown(names: ReadonlySet<string>): void {
    const before = this.shown;
    this.shown = names;
    if ([...names].some((n) => !before.has(n))) void this.refresh([...names]);
    this.schedule();
  }

  /**
   * Probes the named providers (all when omitted) now; concurrent calls share one run.
   * `capabilities`: probe their capabilities again too, however recent (the Refresh command).
   */
  refresh(names?: readonly string[], opts: { capabilities?: boolean } = {}): Promise<readonly InterfaceHealth[]> {
    // A run under way is shared; one that must re-probe capabilities follows it instead.
    if (this.inFlight) return opts.capabilities ? this.inFlight.then(() => this.refresh(names, opts)) : this.inFlight;
    const settings = readSettings();
    const all = settings.providers.providers;
    const targets = names ? all.filter((p) => names.includes(p.name)) : all;
    const timeoutMs = Math.min(settings.requestTimeoutMs, 10_000);
    const monitor = (this.monitor ??= loadOnDemand().then(({ HealthMonitor, HealthSession }) => {
      const session = (this.session = new HealthSession());
      return new HealthMonitor({ http: this.http, timeoutMs, shouldProbe: (p, i) => !this.periodic || session.shouldProbe(p, i, Date.now()) });
    }));
    const run = (async () => {
      const started = Date.now();
      try {
        const probes = await monitor;
        probes.retain(all);
        // Forget the session and capabilities of providers no longer configured (keys as session.ts makes them).
        this.session?.retain(new Set(all.flatMap((p) => INTERFACES.map((i) => `${p.name}\u0000${i}`))));
        for (const name of [...this.caps.keys()]) if (!all.some((p) => p.name === name)) this.caps.delete(name);
        for (const name of [...this.seenModules.keys()]) if (!all.some((p) => p.name === name)) this.seenModules.delete(name);
        await this.secrets.ready;
        const wired = targets.flatMap((p) => this.wire(p));
        await probes.refresh(wired);
        this.current = probes.assess(all, expectedChain);
        this.session?.apply(this.current, Date.now());
        this.log.debug(`[health] probed ${targets.length} provider(s) in ${Date.now() - started} ms`);
        this.changed.fire(this.current);
        // After the health probes, not beside them: their requests would slow the latencies measured.
        if (await this.probeCapabilities(wired, timeoutMs, opts.capabilities === true)) this.changed.fire(this.current);
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

  /** Capabilities of the providers not probed yet or probed over CAPABILITY_TTL_MS ago (all when `all`); never rejects. */
  private async probeCapabilities(providers: readonly Provider[], timeoutMs: number, all: boolean): Promise<boolean> {
    const { probeCapabilities, CAPABILITY_TTL_MS } = await loadOnDemand();
    const due = all ? providers : providers.filter((p) => (this.caps.get(p.name)?.probedAt ?? 0) < Date.now() - CAPABILITY_TTL_MS);
    const started = Date.now();
    await Promise.all(
      due.map(async (p) => {
        const c = await probeCapabilities(p, { http: this.http, timeoutMs, signal: this.stopping.signal }).catch(() => undefined);
        if (c) this.caps.set(p.name, c);
        for (const n of c?.notes ?? []) this.log.debug(`[capabilities] ${p.name}: ${n}`);
      }),
    );
    if (due.length) this.log.debug(`[capabilities] probed ${due.length} provider(s) in ${Date.now() - started} ms`);
    return due.length > 0;
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
        if (this.shown.size === 0 || !vscode.window.state.focused || this.inFlight) return;
        this.periodic = true;
        void this.refresh([...this.shown]).finally(() => (this.periodic = false));
      },
      Math.max(5, seconds) * 1000,
    );
  }

  override dispose(): void {
    this.stopping.abort();
    if (this.timer) clearInterval(this.timer);
    super.dispose();
  }
}

function expectedChain(p: Provider) {
  return { chainId: p.chainId, evmChainId: p.evmChainId };
}
