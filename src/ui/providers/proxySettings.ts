// The editor's proxy settings, handed to the core (src/core/transport/proxy.ts): `http.proxy`, else the
// HTTPS_PROXY / HTTP_PROXY environment variables; `http.noProxy` plus NO_PROXY; `http.proxyStrictSSL`.
// `http.proxySupport: "off"` means direct connections. Read at activation and on every change.

import vscode = require('vscode');
import { proxyFromEnvironment, setProxy } from '../../core/transport/proxy';
import { editorProxySettings } from '../base/settings';

export function applyProxySettings(): void {
  const http = editorProxySettings();
  if (http.support === 'off') {
    setProxy({ noProxy: [], strictSSL: true });
    return;
  }
  const env = proxyFromEnvironment(process.env);
  const configured = http.proxy?.trim();
  const noProxy = http.noProxy;
  setProxy({
    url: configured || env.url,
    noProxy: [...(Array.isArray(noProxy) ? noProxy.filter((h): h is string => typeof h === 'string') : []), ...env.noProxy],
    strictSSL: http.strictSSL ?? true,
  });
}

/** Applies the settings now and whenever they change. */
export function watchProxySettings(): vscode.Disposable {
  applyProxySettings();
  return vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration('http')) applyProxySettings();
  });
}
