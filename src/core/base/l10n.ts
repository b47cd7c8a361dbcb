// Localisation seam for the core, which must not import vscode: every user-visible sentence goes
// through t() with a literal English message (the bundle exporter extracts `l10n.t('…')` calls).
// The editor installs vscode.l10n.t with setTranslator() at activation; without it (tests,
// scripts) messages are English with their {0}, {1}… placeholders filled.

export type L10nArg = string | number | boolean;
export type Translator = (message: string, ...args: L10nArg[]) => string;

/** English: `{n}` replaced by the n-th argument (left as is when there is no such argument). */
export function format(message: string, ...args: L10nArg[]): string {
  if (args.length === 0) return message;
  return message.replace(/\{(\d+)\}/g, (match, index: string) => {
    const i = Number(index);
    return i < args.length ? String(args[i]) : match;
  });
}

let translator: Translator = format;

/** Translates `message` (a literal English sentence) and fills its placeholders. */
export function t(message: string, ...args: L10nArg[]): string {
  return translator(message, ...args);
}

/** Installs the translator (the editor passes vscode.l10n.t); undefined restores English. */
export function setTranslator(fn: Translator | undefined): void {
  translator = fn ?? format;
}
