// Runs the health probes: on demand (refresh), and every chainEndpoints.health.intervalSeconds
// for the providers shown expanded in a visible Providers view, paused while the window is not
// focused. Publishes the assessed rows to the tree, the comparison view and the status bar.

import vscode = require('vscode');
import { Disposable } from '../base/lifecycle';
import { errorMessage } from '../../core/base/errors';
import type { HealthMonitor } from '../../core/health/health';
import type { InterfaceHealth } from '../../core/health/model';
import type { Capabilities, EngineSupport } from '../../core/health/capabilities';
import type { CapabilityBook, CapabilityTrigger } from '../../core/health/capabilityPolicy';
import type { HealthSession, HistoryPoint } from '../../core/health/session';
import { type Http } from '../../core/transport/http';
import { INTERFACES, type InterfaceId, type Provider } from '../../core/config/providers';
import { onDemand } from '../base/load';
import { type Log } from '../base/log';
import { type SecretStore } from '../providers/secretStore';
import { setNetworkSource } from '../providers/networkDirectory';
import { onSettingsChanged, readSettings } from '../base/settings';

export class HealthController extends Disposable {
  /** The probes (src/core/health/health.ts, loaded on demand): built at the first refresh, not at activation. */
  private monitor?: Promise<HealthMonitor>;
  /** Streaks, cooldowns, staleness and the session's history (src/core/health/session.ts). */
  private session?: HealthSession;
  /** What each provider can serve (src/core/health/capabilities.ts) and when to probe it (capabilityPolicy.ts). */
  private book?: CapabilityBook;
  /** REST modules served or not, as module routes' answers showed (capabilities.ts probes only a few). */
  private readonly seenModules = new Map<string, Record<string, boolean>>();
  /** What simulations found a provider serving of the engines (a refusal: method not found) since its capabilities were last probed. */
  private readonly seenEngines = new Map<string, EngineSupport>();
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
    private readonly http: Http,
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
    // The timed refreshes start just after activation: scheduling reads the settings, and the first
    // reading costs milliseconds in the extension host (the first timed refresh is 30 s away anyway).
    const first = setTimeout(() => this.schedule(), 0);
    this._register({ dispose: () => clearTimeout(first) });
  }

  rows(): readonly InterfaceHealth[] {
    return this.current;
  }

  healthOf(provider: string, iface: InterfaceId): InterfaceHealth | undefined {
    return this.current.find((r) => r.provider === provider && r.iface === iface);
  }

  /** The provider's probed capabilities, when known, with the REST modules its answers showed. */
  capabilities(provider: string): Capabilities | undefined {
    const c = this.book?.get(provider);
    const seen = this.seenModules.get(provider);
    const engines = this.seenEngines.get(provider);
    if (!seen && !engines) return c;
    const base = c ?? { provider, probedAt: 0, notes: [] };
    return {
      ...base,
      ...(seen ? { rest: { ...base.rest, modules: { ...base.rest?.modules, ...seen } } } : {}),
      ...(engines ? { evm: { ...base.evm, engines: { ...base.evm?.engines, ...engines } } } : {}),
    };
  }

  /** What a simulation found the provider serving of the engines (a refusal: not chosen there again until its capabilities are probed again). */
  noteEngines(provider: string, seen: EngineSupport): void {
    this.seenEngines.set(provider, { ...this.seenEngines.get(provider), ...seen });
    this.changed.fire(this.current);
  }

  /** A request about to run needs what the costly probes learn (a namespace not probed yet): probe its provider now. */
  async needCapabilities(provider: string): Promise<void> {
    await this.refresh([provider], { capabilities: 'needed' });
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
   * `capabilities`: someone asked what they serve (the Refresh command, Compare, the API: true) or a
   * request needs it ('needed'): probe their capabilities again, costly probes included, however
   * recent (chainEndpoints.capabilities.probe decides; see core/health/capabilityPolicy.ts).
   */
  refresh(names?: readonly string[], opts: { capabilities?: boolean | 'needed' } = {}): Promise<readonly InterfaceHealth[]> {
    // A run under way is shared; one that must re-probe capabilities follows it instead.
    if (this.inFlight) return opts.capabilities ? this.inFlight.then(() => this.refresh(names, opts)) : this.inFlight;
    const settings = readSettings();
    const all = settings.providers.providers;
    const targets = names ? all.filter((p) => names.includes(p.name)) : all;
    const timeoutMs = Math.min(settings.requestTimeoutMs, 10_000);
    const monitor = (this.monitor ??= onDemand.health().then(({ HealthMonitor, HealthSession, CapabilityBook, probeCapabilities, requestOptions }) => {
      const session = (this.session = new HealthSession());
      this.book = new CapabilityBook({
        mode: () => readSettings().capabilityProbe,
        probe: (p, costly) =>
          probeCapabilities(p, { execute: requestOptions(readSettings(), { http: this.http, signal: this.stopping.signal }, 'probe'), costly }),
      });
      return new HealthMonitor({ http: this.http, timeoutMs, shouldProbe: (p, i) => !this.periodic || session.shouldProbe(p, i, Date.now()) });
    }));
    const run = (async () => {
      const started = Date.now();
      try {
        const probes = await monitor;
        probes.retain(all);
        // Forget the session and capabilities of providers no longer configured (keys as session.ts makes them).
        this.session?.retain(new Set(all.flatMap((p) => INTERFACES.map((i) => `${p.name}\u0000${i}`))));
        this.book?.retain(new Set(all.map((p) => p.name)));
        for (const name of [...this.seenModules.keys()]) if (!all.some((p) => p.name === name)) this.seenModules.delete(name);
        for (const name of [...this.seenEngines.keys()]) if (!all.some((p) => p.name === name)) this.seenEngines.delete(name);
        await this.secrets.ready;
        const wired = targets.flatMap((p) => this.wire(p));
        await probes.refresh(wired);
        this.current = probes.assess(all, expectedChain);
        this.session?.apply(this.current, Date.now());
        this.log.debug(`[health] probed ${targets.length} provider(s) in ${Date.now() - started} ms`);
        this.changed.fire(this.current);
        // After the health probes, not beside them: their requests would slow the latencies measured.
        const trigger: CapabilityTrigger = opts.capabilities === 'needed' ? 'needed' : opts.capabilities ? 'asked' : 'timer';
        if (await this.probeCapabilities(wired, trigger)) this.changed.fire(this.current);
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

  /** Capabilities as the mode and the trigger call for (capabilityPolicy.ts); never rejects. */
  private async probeCapabilities(providers: readonly Provider[], trigger: CapabilityTrigger): Promise<boolean> {
    if (!this.book) return false;
    const started = Date.now();
    const due = await this.book.update(providers, trigger);
    // Probed again (an answer, not a failure): what the probe found replaces what a simulation saw refused.
    for (const p of due) if ((this.book.get(p.name)?.probedAt ?? 0) >= started) this.seenEngines.delete(p.name);
    for (const p of due) for (const n of this.book.get(p.name)?.notes ?? []) this.log.debug(`[capabilities] ${p.name}: ${n}`);
    if (due.length) this.log.debug(`[capabilities] probed ${due.length} provider(s) (${trigger}) in ${Date.now() - started} ms`);
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
    const seconds = readSettings().healthIntervalSeconds;
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
