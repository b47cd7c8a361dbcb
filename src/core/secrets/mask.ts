// The masker: knows every secret value in use and replaces it wherever text is shown
// (redactUrl, result documents, the log). No imports, so any module can use it.

export const MASK = '***';
const MASK_BYTES = Buffer.from(MASK);

export class SecretMasker {
  private values: string[] = [];
  /** The values by group: '' the secrets (set()), others added beside them (setGroup(), e.g. values read from the environment). */
  private readonly groups = new Map<string, string[]>();
  /** Changes whenever the values do (what caches masked text compares). */
  generation = 0;

  /** Sets the values to mask, in every encoding the extension itself produces (maskedForms). */
  set(values: Iterable<string>): void {
    this.setGroup('', values);
  }

  /** Sets one group of values to mask (the other groups stay). */
  setGroup(group: string, values: Iterable<string>): void {
    this.groups.set(group, [...values]);
    const all = new Set<string>();
    for (const list of this.groups.values()) {
      for (const v of list) {
        if (v.length < 3) continue; // masking one or two characters would shred ordinary text
        for (const form of maskedForms(v)) if (form.length >= 3) all.add(form);
      }
    }
    this.values = [...all].sort((a, b) => b.length - a.length);
    this.generation++;
  }

  /** The values of a group (what setGroup() was given). */
  group(group: string): readonly string[] {
    return this.groups.get(group) ?? [];
  }

  /** Whether `text` contains a masked value. */
  finds(text: string): boolean {
    return this.values.some((v) => text.includes(v));
  }

  mask(text: string): string {
    let out = text;
    for (const v of this.values) if (out.includes(v)) out = out.split(v).join(MASK);
    return out;
  }

  /**
   * mask() on UTF-8 bytes: the same result as masking the decoded text (a UTF-8 sequence only
   * matches at character boundaries). Returns `data` itself when nothing is found.
   */
  maskBytes(data: Buffer): Buffer {
    let out = data;
    for (const v of this.values) {
      const needle = Buffer.from(v, 'utf8');
      let at = out.indexOf(needle);
      if (at < 0) continue;
      const parts: Buffer[] = [];
      let from = 0;
      for (; at >= 0; at = out.indexOf(needle, from)) {
        parts.push(out.subarray(from, at), MASK_BYTES);
        from = at + needle.length;
      }
      parts.push(out.subarray(from));
      out = Buffer.concat(parts);
    }
    return out;
  }
}

export const masker = new SecretMasker();

/**
 * Every form a value takes in what the extension sends or shows: raw; in a URL (encodeURIComponent,
 * encodeURI, everything percent-encoded, as the URL parser re-encodes it in a path or a query, as a
 * form, each with upper- and lower-case hex); JSON-escaped; base64 (standard and URL-safe,
 * padded or not, and the part that stays the same at any offset, as in `Authorization: Basic
 * base64(user:secret)`); and hex of its UTF-8 bytes, lower and upper case (from 4 bytes).
 */
export function maskedForms(v: string): string[] {
  const forms = new Set<string>([v]);
  const strict = encodeURIComponent(v).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
  const urlForms = [encodeURIComponent(v), encodeURI(v), strict, new URLSearchParams({ q: v }).toString().slice(2)];
  try {
    urlForms.push(new URL('http://h/?q=' + encodeURIComponent(v)).search.slice(3), new URL('http://h/' + encodeURIComponent(v)).pathname.slice(1));
    urlForms.push(new URL('http://h/?q=' + v).search.slice(3), new URL('http://h/' + v).pathname.slice(1));
  } catch {
    // not usable in a URL: the other forms stand
  }
  for (const f of urlForms) {
    forms.add(f);
    forms.add(f.replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase()));
  }
  for (const f of [...forms]) {
    const json = JSON.stringify(f).slice(1, -1);
    forms.add(json);
    forms.add(json.replace(/[\u0080-\uffff]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0')));
  }
  const bytes = Buffer.from(v, 'utf8');
  for (let k = 0; k < 3; k++) {
    const b64 = Buffer.concat([Buffer.alloc(k), bytes]).toString('base64');
    // The characters that encode only the value's bytes: past the group the prefix shares, before a partial last group.
    const core = b64.slice(k === 0 ? 0 : 4, Math.floor((k + bytes.length) / 3) * 4);
    if (core.length >= 8) {
      forms.add(core);
      forms.add(core.replace(/\+/g, '-').replace(/\//g, '_'));
    }
  }
  // Hex (a value's bytes as a server or a calldata field spells them), both cases; from 4 bytes on,
  // so a short value does not mask ordinary hex.
  if (bytes.length >= 4) {
    const hex = bytes.toString('hex');
    forms.add(hex);
    forms.add(hex.toUpperCase());
  }
  const b64 = bytes.toString('base64');
  forms.add(b64);
  forms.add(b64.replace(/=+$/, ''));
  forms.add(bytes.toString('base64url'));
  return [...forms];
}

/** A parsed value with every string (and key) masked; the same value when nothing is secret in it. */
export function maskDeep(value: unknown, m: SecretMasker = masker, depth = 0): unknown {
  if (typeof value === 'string') return m.mask(value);
  if (typeof value !== 'object' || value === null || depth > 512) return value;
  if (Array.isArray(value)) return value.map((x) => maskDeep(x, m, depth + 1));
  // Own data properties only, defined (not assigned): a "__proto__" key stays a key, never a prototype.
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    Object.defineProperty(out, m.mask(k), { value: maskDeep(v, m, depth + 1), enumerable: true, writable: true, configurable: true });
  }
  return out;
}
