// One typed accessor for the extension's settings, and a change event scoped to them.

import vscode = require('vscode');
import { limitValue } from '../../core/base/limits';
import { providersOrigin } from '../../core/config/secretScope';
import { type ProbeMode, probeModeOf } from '../../core/config/probeMode';
import { type ParsedProviders, type Provider, effectiveProvidersSetting, parseProviders } from '../../core/config/providers';

export const SECTION = 'chainEndpoints';

export interface Settings {
  readonly providers: ParsedProviders;
  /** Providers in workspace settings were ignored because the workspace is not trusted. */
  readonly untrustedWorkspaceProviders: boolean;
  readonly requestTimeoutMs: number;
  readonly maxDocumentBytes: number;
  /** The most one answer may cost (chainEndpoints.maxDownloadMegabytes). */
  readonly maxDownloadBytes: number;
  readonly statusBarEnabled: boolean;
  readonly statusBarProvider: string;
  /** One status-bar item per network (`statusBar.perNetwork`). */
  readonly statusBarPerNetwork: boolean;
  /** The provider each network's item follows, by network name or chain id, lowercased (`statusBar.networkProviders`). */
  readonly statusBarNetworkProviders: ReadonlyMap<string, string>;
  /** Events each Watch Events console keeps (chainEndpoints.events.bufferSize). */
  readonly eventsBufferSize: number;
  /** Stay on the configured provider even when it is unwell (`statusBar.pin`). */
  readonly statusBarPin: boolean;
  /** Seconds between timed health refreshes; 0 turns them off (`health.intervalSeconds`). */
  readonly healthIntervalSeconds: number;
  /** When capabilities are probed (chainEndpoints.capabilities.probe): see core/health/capabilityPolicy.ts. */
  readonly capabilityProbe: ProbeMode;
  /** Show the Chain Endpoints view when the window opens (`showViewOnStartup`; the sample workspace sets it). */
  readonly showViewOnStartup: boolean;
}

function clampNumber(value: unknown, fallback: number, min: number, max: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? Math.min(max, Math.max(min, value)) : fallback;
}

/** A `{ "name": "provider" }` setting as a map (keys lowercased), strings only, at most 100 entries. */
function nameMap(value: unknown): ReadonlyMap<string, string> {
  const out = new Map<string, string>();
  if (!value || typeof value !== 'object' || Array.isArray(value)) return out;
  for (const [k, v] of Object.entries(value as Record<string, unknown>).slice(0, 100))
    if (typeof v === 'string' && v.trim()) out.set(k.trim().toLowerCase(), v.trim());
  return out;
}

/**
 * The settings, read once per change: the tree, the status bar, health and every command ask for
 * them, and one reading (getConfiguration, five inspects, the providers parsed) costs milliseconds
 * in the extension host. Cached only while watchSettings() keeps the cache honest; frozen, so no
 * caller can change what the next one reads.
 */
export function readSettings(): Settings {
  if (!watching) return readSettingsNow();
  return (cached ??= freezeSettings(readSettingsNow()));
}

let cached: Settings | undefined;
let cachedContracts: ContractsLevels | undefined;
let watching = 0;

/**
 * Forgets the cached settings whenever the extension's settings or the workspace trust change.
 * extension.ts registers it before anything else, so every listener registered after it (all of
 * onSettingsChanged's) reads the new values.
 */
export function watchSettings(): vscode.Disposable {
  cached = undefined;
  cachedContracts = undefined;
  watching++;
  const forget = () => {
    cached = undefined;
    cachedContracts = undefined;
  };
  const subscriptions = [
    vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration(SECTION) && forget()),
    vscode.workspace.onDidGrantWorkspaceTrust(forget),
  ];
  return {
    dispose: () => {
      subscriptions.forEach((d) => d.dispose());
      watching--;
      forget();
    },
  };
}

function freezeSettings(s: Settings): Settings {
  for (const p of s.providers.providers) Object.freeze(Object.freeze(p).endpoints);
  Object.freeze(s.providers.providers);
  Object.freeze(s.providers.problems);
  return Object.freeze(s);
}

function readSettingsNow(): Settings {
  const c = vscode.workspace.getConfiguration(SECTION);
  const inspected = c.inspect('providers');
  const { value, ignoredWorkspace } = effectiveProvidersSetting(inspected, vscode.workspace.isTrusted);
  const origin = providersOrigin(inspected, vscode.workspace.isTrusted);
  const parsed = parseProviders(value);
  // In a trusted workspace a limit is its effective value; only an untrusted one needs the levels.
  const limit = (key: string) => (vscode.workspace.isTrusted ? c.get(key) : limitValue(c.inspect(key), false));
  return {
    providers: { ...parsed, providers: parsed.providers.map((p) => ({ ...p, origin })) },
    untrustedWorkspaceProviders: ignoredWorkspace,
    // Limits: an untrusted workspace's own values are not read (see limitValue).
    requestTimeoutMs: clampNumber(limit('requestTimeoutSeconds'), 30, 1, 3600) * 1000,
    maxDocumentBytes: clampNumber(limit('maxDocumentMegabytes'), 20, 1, 4096) * 1024 * 1024,
    maxDownloadBytes: clampNumber(limit('maxDownloadMegabytes'), 1024, 1, 65536) * 1024 * 1024,
    statusBarEnabled: c.get<boolean>('statusBar.enabled') !== false,
    statusBarProvider: (c.get<string>('statusBar.provider') ?? '').trim(),
    statusBarPerNetwork: c.get<boolean>('statusBar.perNetwork') === true,
    statusBarNetworkProviders: nameMap(c.get('statusBar.networkProviders')),
    eventsBufferSize: Math.round(clampNumber(c.get('events.bufferSize'), 10_000, 100, 1_000_000)),
    statusBarPin: c.get<boolean>('statusBar.pin') === true,
    healthIntervalSeconds: clampNumber(c.get('health.intervalSeconds'), 30, 0, 3600),
    capabilityProbe: probeModeOf(c.inspect('capabilities.probe')),
    showViewOnStartup: c.get<boolean>('showViewOnStartup') === true,
  };
}

/** `statusBar.pin` alone: asked on every height the status bar follows, without reading the rest. */
export function statusBarPinned(): boolean {
  return vscode.workspace.getConfiguration(SECTION).get<boolean>('statusBar.pin') === true;
}

/**
 * The provider the block-height item follows, in the user's settings: `statusBar.provider`, or for
 * one item of `statusBar.perNetwork` its network's entry in `statusBar.networkProviders` (the other
 * networks' choices kept).
 */
export async function writeStatusBarProvider(provider: string, networkLabel?: string): Promise<void> {
  const config = vscode.workspace.getConfiguration(SECTION);
  if (networkLabel === undefined) return void (await config.update('statusBar.provider', provider, vscode.ConfigurationTarget.Global));
  const mine = config.inspect<Record<string, unknown>>('statusBar.networkProviders')?.globalValue;
  const entries = mine && typeof mine === 'object' && !Array.isArray(mine) ? mine : {};
  await config.update('statusBar.networkProviders', { ...entries, [networkLabel]: provider }, vscode.ConfigurationTarget.Global);
}

/** Fires `listener` when any of `keys` (relative to chainEndpoints) changes. */
export function onSettingsChanged(keys: readonly string[], listener: () => void): vscode.Disposable {
  return vscode.workspace.onDidChangeConfiguration((e) => {
    if (keys.some((k) => e.affectsConfiguration(`${SECTION}.${k}`))) listener();
  });
}

/** The providers of the user's own settings (the only ones a secret can be set for). */
export function userProviders(): Provider[] {
  return parseProviders(userProviderEntries()).providers.map((p) => ({ ...p, origin: 'user' as const }));
}

/** Raw provider entries as the user wrote them in user settings (to append to). */
export function userProviderEntries(): unknown[] {
  const inspected = vscode.workspace.getConfiguration(SECTION).inspect<unknown[]>('providers');
  const value = inspected?.globalValue ?? inspected?.defaultValue ?? [];
  return Array.isArray(value) ? [...value] : [];
}

/**
 * chainEndpoints.queryFiles.allowEnv: the environment variables query files may read. Read from
 * user settings only (inspect's globalValue): a workspace's or folder's value is ignored whatever
 * its scope says, so a repository cannot allow itself your environment.
 */
export function queryFilesAllowEnv(): Set<string> {
  const inspected = vscode.workspace.getConfiguration(SECTION).inspect<unknown>('queryFiles.allowEnv');
  const value = inspected?.globalValue;
  const names = Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && /^[A-Za-z_][A-Za-z0-9_]*$/.test(v)) : [];
  return new Set(names);
}

/** Replaces `chainEndpoints.providers` in user settings (Add Provider…, Import chain.json…, secret migration). */
export async function writeUserProviderEntries(entries: unknown[]): Promise<void> {
  await vscode.workspace.getConfiguration(SECTION).update('providers', entries, vscode.ConfigurationTarget.Global);
}

/** `chainEndpoints.contracts` at each level (the contracts registry trusts the workspace's levels only in a trusted workspace). */
export function contractsSettingLevels(): ContractsLevels {
  if (!watching) return readContractsLevels();
  // The same object until the settings or the trust change (watchSettings), so what is built from it can be kept.
  return (cachedContracts ??= readContractsLevels());
}

export interface ContractsLevels {
  readonly user?: unknown[];
  readonly workspace?: unknown[];
  readonly folder?: unknown[];
}

function readContractsLevels(): ContractsLevels {
  const inspected = vscode.workspace.getConfiguration(SECTION).inspect<unknown[]>('contracts');
  return { user: inspected?.globalValue, workspace: inspected?.workspaceValue, folder: inspected?.workspaceFolderValue };
}

/** Replaces `chainEndpoints.contracts` in user settings (Attach Artifact…). */
export async function writeUserContracts(entries: unknown[]): Promise<void> {
  await vscode.workspace.getConfiguration(SECTION).update('contracts', entries, vscode.ConfigurationTarget.Global);
  // Read again from now on, whether or not the change event has come yet.
  cachedContracts = undefined;
}

/** The editor's own proxy settings (`http.*`), read for src/ui/providers/proxySettings.ts. */
export function editorProxySettings(): { support?: string; proxy?: string; noProxy?: unknown; strictSSL?: boolean } {
  const http = vscode.workspace.getConfiguration('http');
  return {
    support: http.get<string>('proxySupport'),
    proxy: http.get<string>('proxy'),
    noProxy: http.get<unknown>('noProxy'),
    strictSSL: http.get<boolean>('proxyStrictSSL'),
  };
}

/** `chainEndpoints.hovers.addressBalances`: whether the hover of an address may read its balances (on unless turned off). */
export function addressHoverBalances(): boolean {
  return vscode.workspace.getConfiguration(SECTION).get<boolean>('hovers.addressBalances') !== false;
}
