// Copy as curl (or websocat for the socket): the same request the extension sends, as a shell
// line a person can paste, through the same proxy (or none) as the extension's own request.
// Credentials in the addresses are masked.

import type { RequestDescription } from './answer';
import { masker } from '../secrets/mask';
import { proxyFor, proxySettings } from '../transport/proxy';
import { redactUrl } from '../secrets/redact';

/**
 * Quotes a word so that bash, zsh, dash and fish all read exactly it. Single quotes hold
 * everything literally in the POSIX shells, but fish reads `\\` and `\'` inside them as escapes;
 * so a quote and a backslash never sit inside single quotes: `'` is written `"'"` and `\` is
 * written `"\\"` (a backslash before a backslash inside double quotes is one backslash in all
 * four). Newlines, `$`, backticks, `!` and `%` stay inside single quotes, literal in all four.
 */
export function shellQuote(word: string): string {
  if (word === '') return "''";
  let out = '';
  let run = '';
  const flush = () => {
    if (run) out += `'${run}'`;
    run = '';
  };
  for (const c of word) {
    if (c === "'") {
      flush();
      out += `"'"`;
    } else if (c === '\\') {
      flush();
      out += '"\\\\"';
    } else run += c;
  }
  flush();
  return out;
}

/**
 * The request as a shell line. Credentials and known secret values are masked unless `reveal`
 * (the user's explicit "copy with secrets"); `${secret:NAME}` references are left as written.
 */
export function toShellCommand(req: RequestDescription, headers: Readonly<Record<string, string>> = {}, options: { reveal?: boolean } = {}): string {
  const url = shellQuote(options.reveal ? req.url : redactUrl(req.url));
  const headerArgs = Object.entries(headers).map(([k, v]) => `-H ${shellQuote(`${k}: ${options.reveal ? v : masker.mask(v)}`)}`);
  if (req.method === 'WS') {
    const flags = req.stream ? '-n' : '-n1';
    // printf, not echo: echo reads escapes (dash) and options (-n, -e) in the message.
    // (`\n` in single quotes is two characters in all four shells: printf reads it.)
    return [`printf '%s\\n' ${shellQuote(req.body ?? '')} |`, 'websocat', flags, ...headerArgs, url].join(' ');
  }
  const route = curlRoute(req.url, options.reveal === true);
  if (req.method === 'GET') return ['curl', '-sS', ...route, ...headerArgs, url].join(' ');
  return ['curl', '-sS', ...route, '-X', 'POST', url, "-H 'Content-Type: application/json'", ...headerArgs, '--data-raw', shellQuote(req.body ?? '')].join(' ');
}

/**
 * curl's way to the address as the extension goes: `-x` the proxy it uses (`-k` when the editor
 * does not check certificates behind it), or `--noproxy '*'` where it goes directly although a
 * proxy is set (loopback, http.noProxy: curl would otherwise follow HTTPS_PROXY). Nothing without a proxy.
 */
function curlRoute(address: string, reveal: boolean): string[] {
  const settings = proxySettings();
  if (!settings.url) return [];
  const proxy = proxyFor(address);
  if (!proxy) return ['--noproxy', "'*'"];
  const insecure = !settings.strictSSL && address.startsWith('https:') ? ['-k'] : [];
  return ['-x', shellQuote(reveal ? proxy : redactUrl(proxy)), ...insecure];
}
