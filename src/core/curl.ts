// Copy as curl (or websocat for the socket): the same request the extension sends, as a shell
// line a person can paste. Credentials in the address are masked.

import type { RequestDescription } from './execute';
import { masker } from './mask';
import { redactUrl } from './providers';

/** Single-quotes a word for POSIX shells. */
export function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
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
    return [`echo ${shellQuote(req.body ?? '')} |`, 'websocat', flags, ...headerArgs, url].join(' ');
  }
  if (req.method === 'GET') return ['curl', '-sS', ...headerArgs, url].join(' ');
  return ['curl', '-sS', '-X', 'POST', url, "-H 'Content-Type: application/json'", ...headerArgs, '--data-raw', shellQuote(req.body ?? '')].join(' ');
}
