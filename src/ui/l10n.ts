// Errors raised by the editor-facing code carry two texts: `message` in English, for the log
// (bug reports stay readable), and `localized`, the vscode.l10n.t() text shown to the person.

/** An error whose message is English (logged) and whose `localized` text is shown. */
export class LocalizedError extends Error {
  constructor(
    english: string,
    readonly localized: string,
  ) {
    super(english);
  }
}

/** What to show for a caught error: its localized text when it has one, else its message as-is. */
export function shownMessage(err: unknown): string {
  if (err instanceof LocalizedError) return err.localized;
  return err instanceof Error ? err.message : String(err);
}
