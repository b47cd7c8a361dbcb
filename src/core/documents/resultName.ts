// The name of a result document (its path, which is also its tab title): the provider, the
// operation and its arguments, shortened. Masked before it is shortened or hashed: an argument that
// holds a secret (a query file's `${secret:NAME}`, a value read from the environment) never shows
// in a tab, a path, or a hash one could test guesses against.

import { createHash } from 'node:crypto';
import { masker } from '../secrets/mask';

export interface NamedRequest {
  readonly providerName: string;
  readonly operation: { readonly id: string; readonly label: string };
  readonly args: Readonly<Record<string, string>>;
}

/** The one cleaning rule of a document name's parts: path separators, reserved and control characters become `_`. */
export function cleanName(s: string): string {
  return s.replace(/[\u0000-\u001f\u007f-\u009f\\/:*?"<>|#%{}]+/g, '_');
}

/** A result document's path, `/<provider>/<name>.<ext>`: every feature's documents are named here (the provider masked). */
export function documentName(provider: string, name: string, ext: 'json' | 'md'): string {
  return `/${cleanName(masker.mask(provider))}/${cleanName(name)}.${ext}`;
}

/** `/<provider>/<operation> <args>.json` and a query that tells apart requests whose names collide. */
export function resultName(r: NamedRequest): { path: string; query: string } {
  const masked = Object.entries(r.args)
    .filter(([k, v]) => k !== 'provider' && v.trim() !== '')
    .map(([k, v]) => [k, masker.mask(v.trim())] as const);
  const args = masked.map(([, v]) => (v.length > 24 ? `${v.slice(0, 12)}…${v.slice(-8)}` : v)).join(' ');
  const name = `${r.operation.label.replace(/…$/, '')}${args ? ' ' + args : ''}`;
  const hash = createHash('sha1').update(JSON.stringify(masked)).digest('hex').slice(0, 10);
  return { path: documentName(r.providerName, name, 'json'), query: `${r.operation.id}&${hash}` };
}
