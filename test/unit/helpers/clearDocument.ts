// What makes a result document clear (hardening batteries 2 and 6): when the outcome is an error,
// the first line is `// ERROR: <sentence>` (one line, at most 1,200 characters, ending with a full
// stop, no "undefined", "[object Object]" or control characters) and the rest parses as JSON; when
// the answer was valid, a normal document (no ERROR line) whose body parses as JSON. A case that
// must fail and is shown as a success is not clear, and neither is the reverse.

import type { Outcome } from '../../../src/core/chain/execute';
import { stripHeader } from '../../../src/core/documents/render';

export type Expect = 'error' | 'ok' | 'either';

/** Why `doc` (the document of `o`) is not clear, or undefined when it is. */
export function unclearDocument(doc: string, o: Outcome, expect: Expect, options: { quotesUndefined?: boolean } = {}): string | undefined {
  const first = doc.split('\n', 1)[0];
  let bodyParses = true;
  try {
    JSON.parse(stripHeader(doc));
  } catch {
    bodyParses = false;
  }
  if (o.error) {
    if (expect === 'ok') return `an error for a valid answer: ${o.error.message}`;
    const m = /^\/\/ ERROR: (.+)$/.exec(first);
    if (!m) return `first line is not "// ERROR: ...": ${first.slice(0, 120)}`;
    const s = o.error.message;
    if (/[\r\n]/.test(s)) return `the sentence spans lines: ${JSON.stringify(s.slice(0, 200))}`;
    if (s.length > 1200) return `the sentence is ${s.length} characters long`;
    if (!/[.]$/.test(s)) return `the sentence does not end with a full stop: ${s.slice(-80)}`;
    // (unless it quotes a body that says so)
    if (/\[object Object\]/.test(s) || (!options.quotesUndefined && /\bundefined\b|\bNaN\b/.test(s)))
      return `the sentence says undefined/[object Object]/NaN: ${s.slice(0, 200)}`;
    if (/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/.test(s)) return `the sentence has control characters: ${JSON.stringify(s.slice(0, 200))}`;
    if (!bodyParses) return 'the rest of the error document is not JSON';
    return undefined;
  }
  if (expect === 'error') return `shown as a success (status ${o.status}): ${first}`;
  if (first.startsWith('// ERROR')) return 'ERROR line without an error';
  if (!bodyParses) return 'the document body does not parse as JSON';
  return undefined;
}
