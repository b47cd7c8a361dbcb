// The editor's proxy settings, handed to the core (src/core/transport/proxy.ts): `http.proxy`, else the
// HTTPS_PROXY / HTTP_PROXY environment variables; `http.noProxy` plus NO_PROXY; `http.proxyStrictSSL`.
// `http.proxySupport: "off"` means direct connections. Read by the core on the first request or
// socket after activation, and after every change (core/transport/proxy.ts, setProxySource).

import vscode = require('vscode');
import { type ProxySettings, proxyFromEnvironment, setProxySource } from '../../core/transport/proxy';
import { editorProxySettings } from '../base/settings';

/** The proxy settings as the editor and the environment give them now. */
export function readProxySettings(): ProxySettings {
  const http = editorProxySettings();
  if (http.support === 'off') return { noProxy: [], strictSSL: true };
  const env = proxyFromEnvironment(process.env);
  const configured = http.proxy?.trim();
  const noProxy = http.noProxy;
  return {
    url: configured || env.url,
    noProxy: [...(Array.isArray(noProxy) ? noProxy.filter((h): h is string => typeof h === 'string') : []), ...env.noProxy],
    strictSSL: http.strictSSL ?? true,
  };
}

/** The settings apply from the next request or socket on (read then, not now). */
export function applyProxySettings(): void {
  setProxySource(readProxySettings);
}

/** Hands the settings' source to the core now, and again whenever they change. */
export function watchProxySettings(): vscode.Disposable {
  applyProxySettings();
  return vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration('http')) applyProxySettings();
  });
}
