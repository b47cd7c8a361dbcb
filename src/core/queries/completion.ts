// What the query-file editor offers after `assert ` and at the start of a line of a request, by the
// request's operation (the editor only turns these into completion items: ui/queries/queryEditor.ts).
// evm.simulate adds its own roots (`engine`, `result`, `revert`, `logs`, `steps[i].…`, a replay's
// `original` and `changed`) and what lies below them, so `assert revert.` offers `name`;
// explorer.receipt and explorer.account add theirs (parse.ts, extraRootsOf).

import { ASSERTION_COMPLETIONS } from './assertions/index';
import { PATH_ROOTS, RESERVED_KEYS, SIMULATION_ROOTS, extraRootsOf } from './parse';
import { findQueryOperation } from './raw';
import { SIMULATE_OPERATION } from './simulateRequest';

export interface CompletionEntry {
  readonly label: string;
  /** keyword: a whole assertion; field: a path to compare; property: a request's key. */
  readonly kind: 'keyword' | 'field' | 'property';
  readonly detail?: string;
  /** The text inserted, when not the label. */
  readonly insert?: string;
}

/** Whole assertions worth starting from on a simulation (each a valid assertion: a unit test parses them). */
export const SIMULATION_ASSERTIONS: readonly string[] = [
  'engine == eth_call',
  'engine == debug_traceCall',
  'engine == eth_simulateV1',
  'ok == true',
  'revert.name == ',
  'steps[0].result == ',
  'steps[1].revert.name == ',
];

const SIMULATION_DETAIL: Readonly<Record<(typeof SIMULATION_ROOTS)[number] | 'result', string>> = {
  engine: 'eth_simulateV1, debug_traceCall or eth_call',
  result: 'the decoded return (as evm.callContract gives it)',
  revert: 'the decoded revert: name, message (Error(string)), values',
  logs: 'the decoded logs: name, args, address',
  steps: 'a bundle: steps[i].result, steps[i].revert, steps[i].logs',
  ok: 'true when every call succeeded',
  gasUsed: 'gas used (or estimated, on eth_call)',
  balanceChanges: 'account, asset and signed delta',
  original: 'a replay: the mined transaction (status, gasUsed, logs)',
  changed: 'a replay: what changed (status, return, revert, logs, gas used)',
};

/** Below a root of a simulation: what `revert.`, `steps[i].`, `original.`, `logs[i].` lead to. */
const SIMULATION_CHILDREN: ReadonlyArray<readonly [RegExp, readonly string[]]> = [
  [/^steps\[\d+\]$/, ['result', 'revert', 'logs', 'ok', 'gasUsed', 'function', 'to', 'from', 'transfers', 'error']],
  [/^(steps\[\d+\]\.)?revert$/, ['name', 'message', 'values', 'signature', 'data']],
  [/^(steps\[\d+\]\.)?logs\[\d+\]$/, ['name', 'args', 'address', 'signature']],
  [/^original$/, ['status', 'gasUsed', 'logs', 'logEvents', 'hash']],
];

/** What follows `assert ` for a request of `opId`; `path`, when given, is the text typed after a dot (`revert.` gives `revert`). */
export function assertionCompletions(opId: string | undefined, path?: string): CompletionEntry[] {
  const simulation = opId === SIMULATE_OPERATION;
  if (path !== undefined) {
    if (!simulation) return [];
    const below = SIMULATION_CHILDREN.find(([re]) => re.test(path))?.[1] ?? [];
    return below.map((label) => ({ label, kind: 'field' }));
  }
  const out: CompletionEntry[] = ASSERTION_COMPLETIONS.map((label) => ({ label, kind: 'keyword' }));
  if (simulation) out.push(...SIMULATION_ASSERTIONS.map((label): CompletionEntry => ({ label, kind: 'keyword' })));
  for (const root of PATH_ROOTS) out.push({ label: root, kind: 'field', ...(simulation && root === 'result' ? { detail: SIMULATION_DETAIL.result } : {}) });
  if (simulation) for (const root of SIMULATION_ROOTS) out.push({ label: root, kind: 'field', detail: SIMULATION_DETAIL[root] });
  // The query files' own operations (explorer.receipt's changes, explained…; explorer.account's balances, delegations, tokens, history…).
  else for (const root of extraRootsOf(opId)) out.push({ label: root, kind: 'field', detail: opId });
  return out;
}

/** The keys a request of `opId` may still take (its operation's parameters not given yet, then the reserved ones). */
export function keyCompletions(opId: string | undefined, given: Readonly<Record<string, unknown>>): CompletionEntry[] {
  const out: CompletionEntry[] = [];
  const op = findQueryOperation(opId ?? '');
  for (const p of op?.params ?? []) if (given[p.key] === undefined) out.push({ label: p.key, kind: 'property', detail: p.prompt, insert: `${p.key}: ` });
  for (const k of RESERVED_KEYS) out.push({ label: k, kind: 'property', insert: k === 'confirm' ? 'confirm: broadcast' : `${k}: ` });
  return out;
}
