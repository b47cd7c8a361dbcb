// The one scripted Prompts fake (src/ui/base/prompts.ts's interface): each answer taken from a script in
// order, every question recorded in `asked`, a typed answer checked by the prompt's own validator
// (an invalid script fails the test rather than being accepted).

import type { PickItem, Prompts } from '../../../src/ui/base/prompts';

type PickOptions = Parameters<Prompts['pick']>[1];
type InputOptions = Parameters<Prompts['input']>[0];
type PickAnswer = (items: readonly PickItem[], options: PickOptions) => PickItem | undefined;

export interface Script {
  /** Answers to the picks in order (a function of the items and options, or one function for every pick). */
  pick?: PickAnswer | PickAnswer[];
  /** Answers to the input boxes in order (undefined: dismissed), or one function answering every input box. */
  inputs?: (string | undefined)[] | ((options: InputOptions) => string | undefined);
  /** The modal's answer: true (the action chosen), false (dismissed), or a function of what it says. Default true. */
  confirm?: boolean | ((message: string, detail: string) => boolean);
  /** How a question is written in `asked` (default: `pick <placeholder>: <labels>`, `input <prompt>`, `confirm <message>`). */
  describe?(question: Question): string;
}

export interface Scripted {
  readonly prompts: Prompts;
  /** `pick <placeholder>: <labels>`, `input <prompt>`, `confirm <message>` in the order asked. */
  readonly asked: string[];
  /** Each confirmation's message and detail, in order. */
  readonly confirms: { message: string; detail: string; action: string }[];
  /** Every question as asked (the items and options of a pick, the options of an input box), in order. */
  readonly questions: Question[];
}

export type Question =
  | { kind: 'pick'; items: readonly PickItem[]; options: PickOptions }
  | { kind: 'input'; options: InputOptions }
  | { kind: 'confirm'; message: string; detail: string; action: string };

export function scriptedPrompts(script: Script = {}): Scripted {
  const asked: string[] = [];
  const confirms: Scripted['confirms'] = [];
  const questions: Question[] = [];
  const typed = script.inputs;
  const inputs = Array.isArray(typed) ? [...typed] : [];
  const picks = Array.isArray(script.pick) ? [...script.pick] : undefined;
  const ask = (q: Question, shown: () => string) => {
    questions.push(q);
    asked.push(script.describe ? script.describe(q) : shown());
  };
  const prompts: Prompts = {
    pick: async (items, options) => {
      ask({ kind: 'pick', items, options }, () => `pick ${options.placeHolder ?? options.title}: ${items.map((i) => i.label).join(', ')}`);
      const answer = picks ? picks.shift() : (script.pick as PickAnswer | undefined);
      return answer?.(items, options) as never;
    },
    input: async (options) => {
      ask({ kind: 'input', options }, () => `input ${options.prompt ?? options.title}`);
      const answer = typeof typed === 'function' ? typed(options) : inputs.shift();
      const invalid = answer !== undefined ? options.validate?.(answer) : undefined;
      if (invalid) throw new Error(`scripted answer "${answer}" is invalid: ${invalid}`);
      return answer;
    },
    confirm: async (message, detail, action) => {
      ask({ kind: 'confirm', message, detail, action }, () => `confirm ${message}`);
      confirms.push({ message, detail, action });
      const c = script.confirm ?? true;
      return typeof c === 'function' ? c(message, detail) : c;
    },
  };
  return { prompts, asked, confirms, questions };
}
