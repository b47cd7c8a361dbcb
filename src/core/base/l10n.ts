// Localisation seam for the core, which must not import vscode: every user-visible sentence goes
// through t() or both() with a literal English message (scripts/l10n.mjs collects `l10n.t('…')` and
// `l10n.both('…')` calls into the bundle).
// The editor installs vscode.l10n.t with setTranslator() at activation; without it (tests,
// scripts) messages are English with their {0}, {1}… placeholders filled.

export type L10nArg = string | number | boolean;
export type Translator = (message: string, ...args: L10nArg[]) => string;

/** English: `{n}` replaced by the n-th argument (left as is when there is no such argument). */
export function format(message: string, ...args: L10nArg[]): string {
  if (args.length === 0) return message;
  // A scan, not a replace() with a callback: five times faster, and the CLI formats a line per answer.
  let out = '';
  let from = 0;
  for (let open = message.indexOf('{'); open !== -1; open = message.indexOf('{', open + 1)) {
    let end = open + 1;
    while (end < message.length && message.charCodeAt(end) >= 48 && message.charCodeAt(end) <= 57) end++; // digits
    if (end === open + 1 || message[end] !== '}') continue;
    const i = Number(message.slice(open + 1, end));
    if (i >= args.length) continue;
    out += message.slice(from, open) + String(args[i]);
    from = end + 1;
  }
  return from === 0 ? message : out + message.slice(from);
}

let translator: Translator = format;
/** Counts the translators installed: text made with t() may be kept while generation() is unchanged. */
let installed = 0;

/** Changes whenever the translator does (setTranslator): a sentence kept from an earlier t() is stale then. */
export function generation(): number {
  return installed;
}

/** Translates `message` (a literal English sentence) and fills its placeholders. */
export function t(message: string, ...args: L10nArg[]): string {
  return translator(message, ...args);
}

/**
 * A sentence in both forms: `english` for the log (bug reports stay readable in any language) and
 * `shown`, the translated text a person reads. The one way errors and states carry text.
 */
export interface Message {
  readonly english: string;
  readonly shown: string;
}

/**
 * `message` (a literal English sentence) in both forms, placeholders filled; an argument that is
 * itself a Message fills the English form with its English and the shown form with its shown text.
 */
export function both(message: string, ...args: (L10nArg | Message)[]): Message {
  const english = args.map((a) => (typeof a === 'object' ? a.english : a));
  const shown = args.map((a) => (typeof a === 'object' ? a.shown : a));
  return { english: format(message, ...english), shown: translator(message, ...shown) };
}

/** Parts in a row, each form from each part's own (a plain string is the same in both). */
export function join(...parts: (string | Message)[]): Message {
  return {
    english: parts.map((p) => (typeof p === 'string' ? p : p.english)).join(''),
    shown: parts.map((p) => (typeof p === 'string' ? p : p.shown)).join(''),
  };
}

/** Installs the translator (the editor passes vscode.l10n.t); undefined restores English. */
export function setTranslator(fn: Translator | undefined): void {
  translator = fn ?? format;
  installed++;
}
