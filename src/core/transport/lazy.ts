// Heavy dependencies loaded on first use (undici, ws): activation then pays only for what it
// runs, and a window that never sends a request never loads them. esbuild keeps each module's
// initialisation behind its first require() call.

import type * as Undici from 'undici';
import type WebSocket from 'ws';
import { proxyFor, tunnelAgent } from './proxy';

let undici: typeof Undici | undefined;
let ws: typeof WebSocket | undefined;

export function loadUndici(): typeof Undici {
  return (undici ??= require('undici') as typeof Undici);
}

/** `new WebSocket(url, options)` from `ws`, loaded on the first call. */
export function openWebSocket(url: string, options: WebSocket.ClientOptions): WebSocket {
  ws ??= require('ws') as typeof WebSocket;
  // Through the configured proxy, when there is one for this address (a CONNECT tunnel).
  const proxy = proxyFor(url);
  return new ws(url, proxy ? { ...options, agent: tunnelAgent(proxy, new URL(url)) } : options);
}

/** WebSocket.OPEN, without loading `ws`. */
export const WS_OPEN = 1;
