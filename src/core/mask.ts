// The masker: knows every secret value in use and replaces it wherever text is shown
// (redactUrl, result documents, the log). No imports, so any module can use it.

export const MASK = '***';

export class SecretMasker {
  private values: string[] = [];

  /** Sets the values to mask (raw and URL-encoded forms). */
  set(values: Iterable<string>): void {
    const all = new Set<string>();
    for (const v of values) {
      if (v.length < 3) continue; // masking one or two characters would shred ordinary text
      all.add(v);
      all.add(encodeURIComponent(v));
    }
    this.values = [...all].sort((a, b) => b.length - a.length);
  }

  mask(text: string): string {
    let out = text;
    for (const v of this.values) if (out.includes(v)) out = out.split(v).join(MASK);
    return out;
  }
}

export const masker = new SecretMasker();
