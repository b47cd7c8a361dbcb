// The one way server text (error messages and data, chain ids, close reasons, subscription
// errors) enters a Markdown tooltip: one line, bounded, every Markdown and HTML character
// escaped, so a hostile server cannot add links, images, commands or tables to the editor's UI.
// Never imports vscode.

import { clean } from '../base/text';

/** How much of a server's text a tooltip shows. */
export const MAX_TOOLTIP_TEXT = 300;

/** `text` as literal Markdown: at most `max` characters, on one line, nothing interpreted. */
export function escapeMarkdown(text: string, max = MAX_TOOLTIP_TEXT): string {
  // Cut before escaping: the limit is on what is shown, and an escape is never split.
  return clean(text, max).replace(/[\\`*_{}[\]()#+\-.!|<>&~:"'$%=]/g, (c) => `\\${c}`);
}
