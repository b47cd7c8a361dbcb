// Proxies: whether a request to an address goes directly or through the proxy the editor (or the
// environment) names, and the CONNECT tunnel that carries WebSockets through it (HTTP goes through
// undici's ProxyAgent, in http.ts). The editor side hands in where its settings are read
// (setProxySource(): read on first use, so activation reads none) or calls setProxy(); until then,
// and in plain Node (tests, benchmarks), everything goes directly. Never imports vscode.

import type * as Http from 'node:http';
import type * as Https from 'node:https';
import { isIP } from 'node:net';
import type { Duplex } from 'node:stream';
import type * as Tls from 'node:tls';
import { LocalizedError, proxyRefusalPhrase } from '../base/errors';
import * as l10n from '../base/l10n';
import { redactUrl } from '../secrets/redact';

export interface ProxySettings {
  /** The proxy's address, http:// or https:// (credentials allowed: http://user:pass@host:port). */
  url?: string;
  /** Hosts reached directly: "example.org" (with its subdomains), ".example.org", "host:port", "*". */
  noProxy: readonly string[];
  /** Check the target's certificate behind the proxy (the editor's http.proxyStrictSSL). */
  strictSSL: boolean;
}

/** A noProxy entry, read once: every host ("*"), or a host with its subdomains, maybe on one port. */
type Bypass = { all: true } | { all?: false; host: string; port?: string };

let current: ProxySettings = { noProxy: [], strictSSL: true };
let bypass: Bypass[] = [];
let generation = 0;
/** Where the settings are read, until they are (the first request or socket after activation or a change). */
let source: (() => ProxySettings) | undefined;

/** Installs the proxy settings. */
export function setProxy(settings: ProxySettings): void {
  source = undefined;
  current = { ...settings, url: settings.url?.trim() || undefined };
  bypass = settings.noProxy.map(readBypass).filter((b): b is Bypass => b !== undefined);
  generation++;
}

/**
 * Where the proxy settings are read (the editor's, src/ui/providers/proxySettings.ts): read on the
 * first request or socket that asks, and again after the next call (a change of the settings).
 * Activation hands this in and reads nothing: the editor's first reading of its configuration costs
 * milliseconds.
 */
export function setProxySource(read: () => ProxySettings): void {
  source = read;
  generation++;
}

/** The settings, read from their source first when it changed. */
function settingsNow(): ProxySettings {
  if (source !== undefined) setProxy(source());
  return current;
}

export function proxySettings(): ProxySettings {
  return settingsNow();
}

/** Changes whenever the settings do (what caches of agents compare). */
export function proxyGeneration(): number {
  settingsNow();
  return generation;
}

/** The proxy a request to `address` goes through, or undefined for a direct connection. */
export function proxyFor(address: string | Readonly<URL>): string | undefined {
  if (!settingsNow().url) return undefined;
  let url: URL;
  try {
    url = typeof address === 'string' ? new URL(address) : address;
  } catch {
    return undefined;
  }
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (isLoopback(host)) return undefined;
  const port = url.port || (url.protocol === 'https:' || url.protocol === 'wss:' ? '443' : '80');
  const direct = bypass.some((b) => b.all || ((b.port === undefined || b.port === port) && (host === b.host || host.endsWith(`.${b.host}`))));
  return direct ? undefined : current.url;
}

/** An address as a sentence names it: redacted, and with the proxy it goes through, if any. */
export function describeAddress(address: string): string {
  const proxy = proxyFor(address);
  return proxy ? l10n.t('{0} (through the proxy {1})', redactUrl(address), redactUrl(proxy)) : redactUrl(address);
}

/** A proxy setting from the environment: HTTPS_PROXY, else HTTP_PROXY (either case), and NO_PROXY. */
export function proxyFromEnvironment(env: NodeJS.ProcessEnv): { url?: string; noProxy: string[] } {
  const url = env.HTTPS_PROXY || env.https_proxy || env.HTTP_PROXY || env.http_proxy || undefined;
  const noProxy = (env.NO_PROXY || env.no_proxy || '')
    .split(/[,\s]+/)
    .map((s) => s.trim())
    .filter(Boolean);
  return { url, noProxy };
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** "example.org", ".example.org", "*.example.org", "host:port", "*"; an IPv6 address without a port. */
function readBypass(raw: string): Bypass | undefined {
  const entry = raw.trim().toLowerCase();
  if (!entry) return undefined;
  if (entry === '*') return { all: true };
  const withPort = /^([^:]+):(\d+)$/.exec(entry);
  const host = (withPort ? withPort[1] : entry).replace(/^\*?\./, '').replace(/^\[|\]$/g, '');
  return { host, port: withPort?.[2] };
}

/** The proxy answered CONNECT with something other than 200. */
export class ProxyRefusal extends LocalizedError {
  constructor(readonly status: number) {
    super(proxyRefusalPhrase(status));
  }
}

const tunnels = new Map<string, Http.Agent>();
let tunnelsGeneration = -1;

/**
 * The agent for a WebSocket to `target` through `proxy`: each connection is a CONNECT tunnel
 * through the proxy (TLS to the proxy when it is https://), then TLS to the target for wss://.
 */
export function tunnelAgent(proxy: string, target: URL): Http.Agent {
  if (tunnelsGeneration !== generation) {
    for (const agent of tunnels.values()) agent.destroy();
    tunnels.clear();
    tunnelsGeneration = generation;
  }
  const secure = target.protocol === 'wss:' || target.protocol === 'https:';
  const key = `${secure}|${proxy}`;
  let agent = tunnels.get(key);
  if (!agent) {
    agent = makeTunnelAgent(new URL(proxy), secure, current.strictSSL);
    tunnels.set(key, agent);
  }
  return agent;
}

type Created = (err: Error | null, socket?: Duplex) => void;

function makeTunnelAgent(proxy: URL, secure: boolean, strictSSL: boolean): Http.Agent {
  // Loaded here, not at activation (https and tls take ~10 ms to load in plain Node).

  const http = require('node:http') as typeof Http;
  const https = require('node:https') as typeof Https;
  const tls = require('node:tls') as typeof Tls;

  const auth =
    proxy.username || proxy.password
      ? `Basic ${Buffer.from(`${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`).toString('base64')}`
      : undefined;
  const proxySecure = proxy.protocol === 'https:';
  const open = (options: Http.ClientRequestArgs & Tls.ConnectionOptions, created: Created): undefined => {
    const host = String(options.host ?? options.hostname ?? 'localhost');
    const target = `${host.includes(':') ? `[${host}]` : host}:${options.port ?? (secure ? 443 : 80)}`;
    const req = (proxySecure ? https : http).request({
      host: proxy.hostname.replace(/^\[|\]$/g, ''),
      port: proxy.port || (proxySecure ? 443 : 80),
      method: 'CONNECT',
      path: target,
      headers: auth ? { host: target, 'proxy-authorization': auth } : { host: target },
      agent: false,
    });
    req.once('connect', (res, socket, head) => {
      if (res.statusCode !== 200) {
        socket.destroy();
        created(new ProxyRefusal(res.statusCode ?? 0));
        return;
      }
      if (head.length > 0) socket.unshift(head);
      if (!secure) {
        created(null, socket);
        return;
      }
      const servername = options.servername || (isIP(host) ? undefined : host);
      created(null, tls.connect({ socket, servername, rejectUnauthorized: strictSSL, ALPNProtocols: ['http/1.1'] }));
    });
    req.once('error', (err) => created(err));
    req.end();
    return undefined;
  };
  // https.request insists on an https.Agent for wss:// (and http.request on an http.Agent).
  const agent = secure ? new https.Agent({ keepAlive: false }) : new http.Agent({ keepAlive: false });
  (agent as unknown as { createConnection: typeof open }).createConnection = open;
  return agent;
}
