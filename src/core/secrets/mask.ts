// The masker: knows every secret value in use and replaces it wherever text is shown
// (redactUrl, result documents, the log). No imports, so any module can use it.

export const MASK = '***';
const MASK_BYTES = Buffer.from(MASK);

export class SecretMasker {
  private values: string[] = [];
  /** Changes whenever the values do (what caches masked text compares). */
  generation = 0;

  /** Sets the values to mask (raw and URL-encoded forms). */
  set(values: Iterable<string>): void {
    const all = new Set<string>();
    for (const v of values) {
      if (v.length < 3) continue; // masking one or two characters would shred ordinary text
      all.add(v);
      all.add(encodeURIComponent(v));
    }
    this.values = [...all].sort((a, b) => b.length - a.length);
    this.generation++;
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
