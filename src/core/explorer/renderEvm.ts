// An EVM transaction's decoding in the Look Up document: the contract called and where its ABI came
// from, the call with each argument by name, type and value, the return value or the revert, each
// log's event (indexed arguments marked), and the call tree, one line per frame, paged. Every value
// goes through esc()/id(): decoded strings are server text.

import type { Decoded, DecodedArg } from '../contracts/types';
import type { TraceFrame, TraceView } from '../contracts/trace';
import { TRACE_PAGE } from '../contracts/trace';
import { shortValue } from '../contracts/values';
import { type Doc, type Escapes, esc, id, memoEscapes } from './mdDoc';
import { evmAddress } from './units';
import type { AddressView, EvmLog, EvmView } from './views';

const MAX_ARGS_SHOWN = 64;

function argLine(a: DecodedArg): string {
  return `${esc(a.name || '(unnamed)')} (${esc(a.type)}${a.indexed ? ', indexed' : ''}): ${id(shortValue(a.value, 400))}`;
}

function argsInline(args: readonly DecodedArg[] | undefined): string {
  return (args ?? [])
    .slice(0, 8)
    .map((a) => `${a.name ? `${esc(a.name)}=` : ''}${id(shortValue(a.value, 80))}`)
    .join(', ');
}

/** How a guess says so: its source when that says "guessed" (which table or artifact), else the plain phrase. */
function guessed(x: Decoded): string {
  return x.source && /^guessed/.test(x.source) ? esc(x.source) : 'guessed from its selector';
}

/** One phrase: `transfer(address,uint256)` · Token · where its ABI came from. */
function header(x: Decoded): string {
  if (x.kind === 'unknown') return `not decoded${x.selector ? ` (selector ${id(x.selector)})` : ''}${x.note ? `: ${esc(x.note)}` : ''}`;
  const parts = [id(x.signature)];
  if (x.contract) parts.push(esc(x.contract));
  if (x.guessed) parts.push(guessed(x));
  else if (x.source) parts.push(esc(x.source));
  return parts.join(' · ');
}

function renderArgs(d: Doc, args: readonly DecodedArg[] | undefined, indent = '  '): void {
  for (const a of (args ?? []).slice(0, MAX_ARGS_SHOWN)) d.line(`${indent}- ${argLine(a)}`);
  if ((args?.length ?? 0) > MAX_ARGS_SHOWN) d.line(`${indent}- … ${(args?.length ?? 0) - MAX_ARGS_SHOWN} more`);
}

/** A revert in one phrase: `Error("…")`, `Panic(0x11): arithmetic overflow`, or a custom error with its arguments. */
export function revertText(r: Decoded): string {
  if (r.kind === 'unknown') return `not decoded${r.selector ? ` (selector ${id(r.selector)})` : ''}${r.note ? `: ${esc(r.note)}` : ''}`;
  const meaning = r.meaning ? `: ${esc(r.meaning)}` : '';
  return `${esc(r.name)}(${argsInline(r.args)})${meaning} · ${id(r.signature)}${r.guessed ? ` · ${guessed(r)}` : r.source ? ` · ${esc(r.source)}` : ''}`;
}

function logLine(l: EvmLog, i: number): string {
  const where = `log ${esc(l.logIndex ?? String(i))}: ${id(evmAddress(l.address))}`;
  const x = l.decoded;
  if (!x || x.kind === 'unknown') return `- ${where} topics ${l.topics.map(id).join(', ') || '—'} data ${id(l.data)}`;
  const from = x.contract ? ` (${esc(x.contract)})` : '';
  return `- ${where}${from} event ${esc(x.name)}(${argsInline(x.args)}) · ${id(x.signature)}${x.guessed ? ` · ${guessed(x)}` : x.source ? ` · ${esc(x.source)}` : ''}`;
}

/** The decoded parts after the transaction's facts (renderEvm in render.ts calls it). */
export function renderEvmDecoding(d: Doc, e: EvmView, level: number): void {
  const x = e.decoded;
  if (x?.contract) d.kv('contract', `${esc(x.contract.name)} (ABI: ${esc(x.contract.source)})`);
  if (x?.call) {
    d.kv('call', header(x.call));
    if (x.call.kind !== 'unknown') renderArgs(d, x.call.args);
  }
  if (x?.returns) {
    d.kv('returns', x.returns.length === 0 ? 'nothing' : '');
    if (x.returns.length > 0) {
      d.line('- returns:');
      renderArgs(d, x.returns);
    }
  }
  if (x?.revert) {
    d.kv('revert', revertText(x.revert));
    if (x.revert.kind !== 'unknown' && (x.revert.args?.length ?? 0) > 0) renderArgs(d, x.revert.args);
  }
  for (const [i, l] of (e.logs ?? []).entries()) {
    d.line(logLine(l, i));
    if (l.decoded && l.decoded.kind !== 'unknown') renderArgs(d, l.decoded.args);
  }
  if (x?.traceNote) d.kv('call trace', esc(x.traceNote));
  if (x?.trace) renderTrace(d, e.hash, x.trace, level + 1);
}

function endName(x: Escapes, address: string | undefined, name: string | undefined): string {
  if (!address) return '—';
  return name ? `${x.esc(name)} ${x.id(address)}` : x.id(address);
}

const PLAIN_ESCAPES: Escapes = { esc, id };

/** One frame of a call tree; `x`: the document's escapes when it has many frames (addresses repeat). */
export function frameLine(f: TraceFrame, x: Escapes = PLAIN_ESCAPES): string {
  const depth = f.depth > 24 ? `[depth ${f.depth}] ` : '';
  // A creation's input is init code: its first 4 bytes are no selector.
  const what = /^CREATE/.test(f.type)
    ? `creation${f.input && f.input.length > 2 ? ` (init code ${Math.floor((f.input.length - 2) / 2)} bytes)` : ''}`
    : f.call && f.call.kind !== 'unknown'
      ? `${esc(f.call.name)}(${argsInline(f.call.args)})${f.call.guessed ? ' (guessed)' : ''}`
      : f.input && f.input.length >= 10
        ? `selector ${x.id(f.input.slice(0, 10))}`
        : f.input === '0x' || !f.input
          ? 'no input'
          : '';
  const head = `${f.index}. ${INDENT[Math.min(f.depth, 24)] ?? '· '.repeat(Math.min(f.depth, 24))}${depth}**${x.esc(f.type)}** ${endName(x, f.from, f.fromName)} → ${endName(x, f.to, f.toName)}`;
  // The head ends in a code span or a dash: only `what` can leave whitespace at the end (trimmed as before).
  let line = what === '' ? head : /\s$/.test(what) ? `${head} ${what}`.trimEnd() : `${head} ${what}`;
  if (f.outputs && f.outputs.length > 0) line += ` · → (${argsInline(f.outputs)})`;
  if (f.value && f.value !== '0') line += ` · value ${x.esc(f.value)}`;
  if (f.gasUsed) line += ` · gas used ${x.esc(f.gasUsed)}`;
  if (f.error) line += ` · **${esc(f.error)}**${f.revert ? `: ${revertText(f.revert)}` : f.revertReason ? `: ${esc(f.revertReason)}` : ''}`;
  return line;
}

/** The indent of each depth shown (a frame deeper than 24 says its depth). */
const INDENT = Array.from({ length: 25 }, (_, d) => '· '.repeat(d));

export function renderTrace(d: Doc, hash: string, t: TraceView, level: number): void {
  const count = t.total > t.frames.length ? `${t.frames.length} of ${t.total} frames (cut at ${t.frames.length})` : `${t.frames.length} frame(s)`;
  d.h(level, `Call trace (${count})`);
  d.kv(
    'from',
    `debug_traceTransaction with callTracer (tracerConfig sent as ${t.configAs === 'string' ? 'a JSON string, as evmd wants' : 'an object, as geth wants'})`,
  );
  if (t.depthCut) d.kv('depth', 'calls deeper than the limit are left out');
  const first = (t.page - 1) * TRACE_PAGE;
  const last = Math.min(t.frames.length, first + TRACE_PAGE) - 1;
  if (t.pages > 1) d.kv('decoded', `frames ${first} to ${last} (page ${t.page} of ${t.pages})${pageLinks(hash, t)}`);
  d.line('');
  const x = memoEscapes();
  for (let i = first; i <= last; i++) d.line(frameLine(t.frames[i], x));
  if (t.pages > 1) {
    d.line('');
    d.kv('pages', `page ${t.page} of ${t.pages}${pageLinks(hash, t)}`);
  }
}

function pageLinks(hash: string, t: TraceView): string {
  const near = [1, t.page - 1, t.page + 1, t.pages].filter((n, i, all) => n >= 1 && n <= t.pages && n !== t.page && all.indexOf(n) === i);
  return near
    .map((n) => ` · ${n === t.page - 1 ? 'previous' : n === t.page + 1 ? 'next' : n === 1 ? 'first' : 'last'} ${id(`${hash} trace page ${n}`)}`)
    .join('');
}

/** A contract's name, ABI source and view functions (each a link that opens a call). */
export function renderAddressContract(d: Doc, a: AddressView): void {
  const c = a.contract;
  if (!c) return;
  d.h(3, `Contract ${esc(c.name)}`);
  d.kv('ABI', esc(c.source));
  if (c.note) d.kv('note', esc(c.note));
  if (c.views.length > 0) {
    d.line('- view functions (open one to call it):');
    for (const v of c.views.slice(0, 200)) d.line(`  - ${id(v)}`);
  }
}
