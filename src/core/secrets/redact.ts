// An address as it may be shown: credentials in the URL and known secret values masked.

import { masker } from './mask';

/** Recent answers of redactUrl (a request shows its address several times); emptied when the secrets change. */
const redacted = new Map<string, string>();

let redactedGeneration = -1;

/** The address as it may be shown: credentials in the URL and known secret values are masked. */
export function redactUrl(address: string): string {
  if (redactedGeneration !== masker.generation) {
    redacted.clear();
    redactedGeneration = masker.generation;
  }
  let shown = redacted.get(address);
  if (shown === undefined) {
    shown = redactUncached(address);
    if (redacted.size >= 256) redacted.clear();
    redacted.set(address, shown);
  }
  return shown;
}

function redactUncached(address: string): string {
  let shown = address;
  try {
    const url = new URL(address);
    if (url.username || url.password) {
      url.username = url.username ? '***' : '';
      url.password = url.password ? '***' : '';
    }
    shown = url.toString();
  } catch {
    // not a URL: masked as text below
  }
  // Keep secret references readable (the URL parser percent-encodes their braces).
  return masker.mask(shown.replace(/\$%7Bsecret:([A-Za-z0-9_.-]+)%7D/g, '${secret:$1}'));
}
