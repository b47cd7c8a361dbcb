// The one scripted Prompts fake (src/ui/prompts.ts's interface): each answer taken from a script in
// order, every question recorded in `asked`, a typed answer checked by the prompt's own validator
// (an invalid script fails the test rather than being accepted).

import type { PickItem, Prompts } from '../../../src/ui/prompts';

export interface Script {
  /** Answers to the picks in order (a function of the items, or one function for every pick). */
  pick?: ((items: readonly PickItem[]) => PickItem | undefined) | Array<(items: readonly PickItem[]) => PickItem | undefined>;
  /** Answers to the input boxes in order (undefined: dismissed). */
  inputs?: (string | undefined)[];
  /** The modal's answer: true (the action chosen), false (dismissed), or a function of what it says. Default true. */
  confirm?: boolean | ((message: string, detail: string) => boolean);
}

export interface Scripted {
  readonly prompts: Prompts;
  /** `pick <placeholder>: <labels>`, `input <prompt>`, `confirm <message>` in the order asked. */
  readonly asked: string[];
  /** Each confirmation's message and detail, in order. */
  readonly confirms: { message: string; detail: string; action: string }[];
}

export function scriptedPrompts(script: Script = {}): Scripted {
  const asked: string[] = [];
  const confirms: Scripted['confirms'] = [];
  const inputs = [...(script.inputs ?? [])];
  const picks = Array.isArray(script.pick) ? [...script.pick] : undefined;
  const prompts: Prompts = {
    pick: async (items, options) => {
      asked.push(`pick ${options.placeHolder ?? options.title}: ${items.map((i) => i.label).join(', ')}`);
      const answer = picks ? picks.shift() : (script.pick as ((items: readonly PickItem[]) => PickItem | undefined) | undefined);
      return answer?.(items) as never;
    },
    input: async (options) => {
      asked.push(`input ${options.prompt ?? options.title}`);
      const answer = inputs.shift();
      const invalid = answer !== undefined ? options.validate?.(answer) : undefined;
      if (invalid) throw new Error(`scripted answer "${answer}" is invalid: ${invalid}`);
      return answer;
    },
    confirm: async (message, detail, action) => {
      asked.push(`confirm ${message}`);
      confirms.push({ message, detail, action });
      const c = script.confirm ?? true;
      return typeof c === 'function' ? c(message, detail) : c;
    },
  };
  return { prompts, asked, confirms };
}
