// The editor's prompts behind one small interface, so that code deciding what to ask can be
// unit-tested with scripted answers (test/unit/ui/) and the editor is touched in one place.

import vscode = require('vscode');

export interface PickItem {
  label: string;
  description?: string;
}

export interface Prompts {
  /** A quick pick; undefined when dismissed. */
  pick<T extends PickItem>(items: readonly T[], options: { title?: string; placeHolder?: string }): Promise<T | undefined>;
  /** An input box validated as typed (`validate` returns the sentence to show, or undefined); undefined when dismissed. */
  input(options: {
    title?: string;
    prompt?: string;
    placeHolder?: string;
    /** Pre-filled text, and the part of it selected (a template's placeholder). */
    value?: string;
    valueSelection?: [number, number];
    validate?: (text: string) => string | undefined;
  }): Promise<string | undefined>;
  /** A modal warning with one action button; true when that button was chosen. */
  confirm(message: string, detail: string, action: string): Promise<boolean>;
}

export const windowPrompts: Prompts = {
  pick: (items, options) => Promise.resolve(vscode.window.showQuickPick([...items], { ...options, ignoreFocusOut: true })),
  input: ({ validate, ...options }) => Promise.resolve(vscode.window.showInputBox({ ...options, ignoreFocusOut: true, validateInput: validate })),
  confirm: async (message, detail, action) => (await vscode.window.showWarningMessage(message, { modal: true, detail }, action)) === action,
};
