// The editor's prompts behind one small interface, so that code deciding what to ask can be
// unit-tested with scripted answers (test/unit/ui/) and the editor is touched in one place.

import vscode = require('vscode');

export interface PickItem {
  label: string;
  description?: string;
  /** Items with a group are shown under a separator of that name (the network of a provider). */
  group?: string;
}

export interface Prompts {
  /** A quick pick; undefined when dismissed. */
  pick<T extends PickItem>(
    items: readonly T[],
    options: { title?: string; placeHolder?: string; matchOnDescription?: boolean; matchOnDetail?: boolean },
  ): Promise<T | undefined>;
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
  pick: async (items, options) => {
    const picked = await vscode.window.showQuickPick(withSeparators(items), { ...options, ignoreFocusOut: true });
    return picked as (typeof items)[number] | undefined;
  },
  input: ({ validate, ...options }) => Promise.resolve(vscode.window.showInputBox({ ...options, ignoreFocusOut: true, validateInput: validate })),
  confirm: async (message, detail, action) => (await vscode.window.showWarningMessage(message, { modal: true, detail }, action)) === action,
};

/** A separator before each run of items of one group (none when no item has a group). */
export function withSeparators<T extends PickItem>(items: readonly T[]): (T | vscode.QuickPickItem)[] {
  if (!items.some((i) => i.group !== undefined)) return [...items];
  const out: (T | vscode.QuickPickItem)[] = [];
  let group: string | undefined;
  for (const item of items) {
    if (item.group !== undefined && item.group !== group) out.push({ label: item.group, kind: vscode.QuickPickItemKind.Separator });
    group = item.group;
    out.push(item);
  }
  return out;
}
