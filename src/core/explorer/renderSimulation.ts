// A simulation's receipt: the engine and why, what was simulated (block, overrides), then per step
// the decoded return or revert, the call tree (debug_traceCall, precompiles named), the decoded logs
// and the gas; the balance changes of the accounts involved. A replay adds the original beside it
// (what changed: status, return, revert, logs, gas). Server text is escaped: it never becomes markup.

import { type BalanceChange, type ReplayOriginal, type SimulatedLog, type SimulationResult, type StepResult, compareReplay } from '../contracts/simulate';

export type { ReplayOriginal } from '../contracts/simulate';
import type { DecodedArg } from '../contracts/types';
import { shortValue } from '../contracts/values';
import { Doc, esc, id } from './mdDoc';
import { frameLine, revertText } from './renderEvm';

const ENGINE_TEXT: Record<SimulationResult['engine'], string> = {
  eth_simulateV1: 'eth_simulateV1 (calls sharing state, logs, native transfers; no call tree)',
  debug_traceCall: 'debug_traceCall with callTracer (the call tree and its logs)',
  eth_call: 'eth_call and eth_estimateGas (the return or the revert only: no call tree, no logs)',
};

function argsLines(d: Doc, args: readonly DecodedArg[] | undefined, indent = ''): void {
  for (const [i, a] of (args ?? []).entries()) d.line(`${indent}- ${esc(a.name || `#${i}`)} (${esc(a.type)}): ${id(shortValue(a.value, 400))}`);
}

function logLine(l: SimulatedLog, i: number): string {
  const where = `log ${i}: ${id(l.address)}`;
  if (l.event.kind !== 'event') return `- ${where} topics ${l.topics.map(id).join(', ') || '—'} data ${id(shortValue(l.data, 200))}`;
  const args = (l.event.args ?? []).map((a) => `${esc(a.name || '?')}=${id(shortValue(a.value, 120))}`).join(', ');
  const from = l.event.guessed ? ' · guessed from its selector' : l.event.contract ? ` · ${esc(l.event.contract)}` : '';
  return `- ${where} ${esc(l.event.name)}(${args})${from}`;
}

function stepSection(d: Doc, s: StepResult, level: number, title: string, estimated: boolean): void {
  d.h(level, title);
  d.kv('to', `${id(s.to)}${s.contract ? ` (${esc(s.contract)})` : ''}`);
  d.kv('function', s.function && id(s.function));
  d.kv('from', s.from && id(s.from));
  d.kv('value', s.value && s.value !== '0' ? `${esc(s.value)} wei` : undefined);
  d.kv('status', s.ok ? 'succeeded' : 'reverted or failed');
  if (s.ok) {
    if (s.outputs && s.outputs.length > 0) {
      d.line('- returned:');
      argsLines(d, s.outputs, '  ');
    } else if (s.raw && s.raw !== '0x') d.kv('return data', id(shortValue(s.raw, 2000)));
    if (s.error) d.kv('note', esc(s.error));
  } else if (s.revert) {
    d.kv('revert', revertText(s.revert));
    argsLines(d, s.revert.args, '  ');
    d.kv('revert data', s.revert.data && id(shortValue(s.revert.data, 2000)));
  } else d.kv('error', esc(s.error ?? 'failed'));
  // The eth_call engine's gas is eth_estimateGas's answer: what the call needs, not what it used.
  d.kv(estimated ? 'gas (estimate)' : 'gas used', s.gasUsed ? esc(s.gasUsed) : s.gasError ? `not known: ${esc(s.gasError)}` : undefined);
  if (s.trace) {
    const t = s.trace;
    d.line('');
    d.line(`Call tree (${t.total > t.frames.length ? `${t.frames.length} of ${t.total}` : t.frames.length} frame(s)):`);
    d.line('');
    for (const f of t.frames.slice(0, 1000)) d.line(frameLine(f));
    if (t.frames.length > 1000) d.line(`- … ${t.frames.length - 1000} more frame(s) not shown`);
  }
  if (s.logs.length > 0) {
    d.line('');
    d.line(`Logs (${s.logs.length}):`);
    for (const [i, l] of s.logs.entries()) d.line(logLine(l, i));
  }
  if (s.transfers.length > 0) {
    d.line('');
    d.line('Native transfers:');
    for (const t of s.transfers.slice(0, 200)) d.line(`- ${id(t.from)} → ${id(t.to)}: ${esc(t.value)} wei`);
  }
}

/**
 * A table cell: esc()'s text with every `|` escaped. A code span does not hold a pipe in a table: the row
 * is split there first, the span left open and the rest read as Markdown (a returned string
 * `"|[x](command:…)|` made a link).
 */
function cell(v: string): string {
  return esc(v).replace(/\|/g, '\\|');
}

function changeLine(c: BalanceChange): string {
  const who = `${id(c.account)}${c.accountName ? ` (${esc(c.accountName)})` : ''}`;
  const asset = c.asset === 'native' ? 'wei (native)' : `of ${id(c.asset)}${c.assetName ? ` (${esc(c.assetName)})` : ''}`;
  const sign = c.delta.startsWith('-') ? '' : '+';
  return `- ${who}: ${sign}${esc(c.delta)} ${asset}`;
}

export function renderSimulation(r: SimulationResult, original?: ReplayOriginal): string {
  const d = new Doc();
  const first = r.steps[0];
  const what = r.steps.length > 1 ? `a bundle of ${r.steps.length} calls` : `${first.contract ? `${first.contract}.` : ''}${first.function ?? first.to}`;
  d.line(`# Simulation of ${esc(what)} · ${esc(r.provider)}`);
  d.line('');
  d.line('Simulated with read methods only: nothing was signed or sent as a transaction.');
  d.line('');
  d.kv('engine', esc(ENGINE_TEXT[r.engine]));
  d.kv('block', id(r.block));
  d.kv('outcome', r.ok ? 'succeeded' : r.steps.length > 1 ? `step ${r.steps.findIndex((s) => !s.ok)} did not succeed` : 'reverted or failed');
  d.kv('state overrides', r.overrides && id(shortValue(r.overrides, 2000)));
  d.kv('block overrides', r.blockOverrides && id(shortValue(r.blockOverrides, 400)));
  for (const n of r.notes) d.kv('note', esc(n));
  if (original) {
    d.h(2, 'Beside the original');
    d.line(`| | mined ${id(original.hash)} | simulated | |`);
    d.line('|---|---|---|---|');
    for (const c of compareReplay(original, r)) d.line(`| ${c.what} | ${cell(c.original)} | ${cell(c.simulated)} | ${c.changed ? 'changed' : ''} |`);
  }
  const estimated = r.engine === 'eth_call';
  if (r.steps.length === 1) stepSection(d, first, 2, 'Result', estimated);
  else for (const s of r.steps) stepSection(d, s, 2, `Step ${s.index}`, estimated);
  if (!r.callTree) {
    d.line('');
    d.line(`No call tree is available with ${esc(r.engine)}.`);
  }
  if (r.balanceChanges.length > 0) {
    d.h(2, 'Balance changes (gas fees not counted)');
    for (const c of r.balanceChanges.slice(0, 500)) d.line(changeLine(c));
  }
  d.line('');
  return d.lines.join('\n');
}
