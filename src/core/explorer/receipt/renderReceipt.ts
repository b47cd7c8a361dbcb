// The receipt as Markdown (Look Up's document of a transaction): the one-line verdict, the coverage,
// every balance change with its causes and any unexplained remainder, the Cosmos effects in words
// under their cause (the precompile frame, the ante handler's fee, the refund, EVM value transfers),
// the state of each account at N−1 and N, and the events each listed once (a `tx_log` that copies an
// EVM log is named as such, not shown again). Server text goes through esc()/id() (mdDoc.ts): a
// sentence is cut into words, and any word that is not plain (an address, a denom with a slash,
// markup) becomes a code span. Bounded: MAX_SHOWN of each list. Addresses, denoms, keys and sentences
// repeat across thousands of lines: each text is escaped once per document (Text, below).

import { type Doc, type Escapes, esc, id, memo, memoEscapes } from '../mdDoc';
import type { BalanceChange, Cause, ReceiptView, StateSnapshot } from './types';

const MAX_SHOWN = 2000;
const MAX_ATTRS = 40;

const SAFE = /^[A-Za-z0-9 .,:;()×−+-]*$/;
const ADDRESS = /\b(?:0x[0-9a-fA-F]{6,}|[a-z]{1,20}1[02-9ac-hj-np-z]{6,})\b/g;
const PLAIN_WORD = /^[A-Za-z]*[A-Za-z−×-]?$|^[0-9]+(?:\.[0-9]+)?$|^\(?[A-Za-z0-9−×-]+[),:;.]?$/;

/** A sentence built here from server values: plain words as they are, anything else (addresses, odd text) in a code span. */
export function words(text: string): string {
  let t = text.slice(0, 4000);
  const plain = plainSentence(t);
  if (plain !== undefined) return plain;
  // Whitespace other than single spaces made single spaces.
  if (/[^\S ]| {2}/.test(t)) t = t.replace(/\s+/g, ' ');
  // Only plain characters: the addresses put in code spans.
  if (SAFE.test(t) && !/[A-Za-z]\.[A-Za-z]/.test(t)) return wordsSlow(t);
  return wordByWord(t);
}

/** words() as first written, all by regular expressions (the tests compare it with words()). */
export function wordsSlow(text: string): string {
  const t = text.slice(0, 4000).replace(/\s+/g, ' ');
  if (SAFE.test(t) && !/[A-Za-z]\.[A-Za-z]/.test(t)) return t.replace(ADDRESS, (m) => id(m));
  return wordByWord(t);
}

/** What a sentence of SAFE characters must not have either: two spaces together, a letter.letter. */
const NOT_PLAIN = / {2}|[A-Za-z]\.[A-Za-z]/;

/**
 * words() of the common sentence: only SAFE characters, no two spaces together, no letter.letter;
 * its addresses in code spans. What wordsSlow() gives such a text (its whitespace is single spaces
 * already), found with ADDRESS's exec() (a scan of native code) and joined without a callback per
 * match. Undefined for any other text (then words() goes on as wordsSlow() would).
 */
function plainSentence(t: string): string | undefined {
  if (!SAFE.test(t) || NOT_PLAIN.test(t)) return undefined;
  ADDRESS.lastIndex = 0;
  let m = ADDRESS.exec(t);
  if (m === null) return t;
  let out = '';
  let last = 0;
  do {
    out += `${t.slice(last, m.index)}${id(m[0])}`;
    last = ADDRESS.lastIndex;
    m = ADDRESS.exec(t);
  } while (m !== null);
  // exec() has set lastIndex back to 0 (ADDRESS is shared: wordsSlow()'s replace() starts from there too).
  return `${out}${t.slice(last)}`;
}

function wordByWord(t: string): string {
  return t
    .split(/\s+/)
    .map((w) => {
      if (w === '') return w;
      const m = /^(\(?)(.*?)([),:;]?)$/.exec(w)!;
      const core = m[2];
      if (/^(0x[0-9a-fA-F]{6,}|[a-z]{1,20}1[02-9ac-hj-np-z]{6,})$/.test(core)) return `${m[1]}${id(core)}${m[3]}`;
      return PLAIN_WORD.test(w) && !/[A-Za-z]\.[A-Za-z]/.test(w) ? w : esc(w);
    })
    .join(' ');
}

/** esc(), id() and words() for one document, each distinct text worked out once. */
interface Text extends Escapes {
  words(s: string): string;
}

function signed(x: Text, amount: string, denom: string, display?: string): string {
  return `${signedAmount(amount)} ${x.esc(denom)}${display ? ` (${x.esc(display)})` : ''}`;
}

/** `+5` or `` `−5` `` (the minus sign is no plain character): what esc() gives, decided without it for a whole number. */
export function signedAmount(amount: string): string {
  if (/^-?[0-9]{1,200}$/.test(amount)) return amount.startsWith('-') ? `\`−${amount.slice(1)}\`` : `+${amount}`;
  return esc(amount.startsWith('-') ? `−${amount.slice(1)}` : `+${amount}`);
}

function changeLine(x: Text, c: BalanceChange, causes: readonly Cause[]): string {
  const who = `${x.id(c.bech32)} = ${x.id(c.account)} · ${x.esc(c.denom)}`;
  let parts = '';
  for (let k = 0; k < c.parts.length; k++) {
    const p = c.parts[k];
    parts += `${parts === '' ? '' : ' '}${x.esc(causes[p.cause]?.kind ?? '?')} ${signed(x, p.amount, c.denom, p.display)}`;
  }
  if (parts === '') parts = 'no cause';
  if (c.status === 'unmeasured') return `- ${who}: not measured (${x.words(c.why ?? '')}); causes: ${parts}`;
  const measured = `${signed(x, c.measured ?? '0', c.denom, c.measuredDisplay)} (${x.esc(c.before ?? '?')} → ${x.esc(c.after ?? '?')})`;
  if (c.status === 'explained') return `- ${who}: ${measured} = ${parts} · explained`;
  return `- ${who}: ${measured} = ${parts} + **unexplained** ${signed(x, c.unexplained ?? '0', c.denom, c.unexplainedDisplay)}`;
}

function snapshotLines(d: Doc, label: string, s: StateSnapshot | undefined): void {
  if (!s) {
    d.line(`  - ${label}: not read`);
    return;
  }
  const head = `  - ${label} (height ${id(s.height)})${s.pruned ? ': **pruned on this provider**' : ''}`;
  d.line(head);
  if (s.readThrough) d.line(`    - ${words(s.readThrough)}`);
  if (s.balances)
    d.line(
      `    - balances: ${
        s.balances.length === 0
          ? 'none'
          : s.balances
              .slice(0, 50)
              .map((c) => `${esc(c.amount)} ${esc(c.denom)}`)
              .join(', ')
      }`,
    );
  if (s.evmBalance !== undefined) d.line(`    - EVM balance: ${esc(s.evmBalance)}`);
  if (s.delegations)
    d.line(
      `    - delegations: ${
        s.delegations.length === 0
          ? 'none'
          : s.delegations
              .slice(0, 20)
              .map((x) => `${esc(x.amount ?? x.shares)} to ${id(x.validator)}`)
              .join(', ')
      }`,
    );
  if (s.rewards)
    d.line(
      `    - pending rewards: ${
        s.rewards.length === 0
          ? 'none'
          : s.rewards
              .slice(0, 20)
              .map((r) => `${r.reward.map((c) => `${esc(c.amount)} ${esc(c.denom)}`).join(', ') || '0'} from ${id(r.validator)}`)
              .join(', ')
      }`,
    );
  if (s.unbondings && s.unbondings.length > 0)
    d.line(
      `    - unbonding: ${s.unbondings
        .slice(0, 20)
        .map((u) => `${esc(u.balance)} from ${id(u.validator)} until ${id(u.completionTime)}`)
        .join(', ')}`,
    );
  for (const m of s.missing.slice(0, 10)) d.line(`    - not read: ${words(m)}`);
}

/** The receipt's sections, at heading `level`. */
export function renderReceipt(d: Doc, r: ReceiptView, level: number): void {
  d.h(level, 'Receipt: both layers');
  d.kv('EVM transaction', r.evmHash && id(r.evmHash));
  d.kv('Cosmos transaction', r.cosmosHash && id(r.cosmosHash));
  d.kv('block', r.height && `${id(r.height)}${r.parentHeight ? ` (state compared with ${id(r.parentHeight)})` : ''}`);
  d.line('');
  d.line(`**${words(r.summary)}**`);
  if (r.coverage) {
    d.line('');
    d.line(`Coverage: ${words(r.coverage)}`);
  }

  // An object literal of its own (not a spread copy): one shape from the first document on, for the optimised code.
  const escapes = memoEscapes();
  const x: Text = { esc: escapes.esc, id: escapes.id, words: memo(words) };
  d.h(level + 1, 'Balance changes');
  if (r.changes.length === 0) d.line('No balance change measured or caused.');
  for (const c of r.changes.slice(0, MAX_SHOWN)) d.line(changeLine(x, c, r.causes));

  d.h(level + 1, 'Effects by cause');
  if (r.causes.length === 0) d.line('No Cosmos effect with a balance or stake movement.');
  // The last precompile origin's words: causes of one precompile call come one after another (made once for them).
  let lastOrigin: Cause['origin'];
  let lastBy = '';
  for (let i = 0; i < Math.min(r.causes.length, MAX_SHOWN); i++) {
    const c = r.causes[i];
    const o = c.origin;
    let by: string;
    if (o?.precompile) {
      const same =
        lastOrigin !== undefined && o.precompile === lastOrigin.precompile && o.precompileName === lastOrigin.precompileName && o.frame === lastOrigin.frame;
      if (!same) {
        lastOrigin = o;
        lastBy = ` · by the ${x.esc(o.precompileName ?? 'precompile')} precompile ${x.id(o.precompile)}${o.frame !== undefined ? ` (frame ${o.frame})` : ''}`;
      }
      by = lastBy;
    } else
      by =
        c.kind === 'fee'
          ? ' · by the ante handler'
          : o?.message !== undefined
            ? ` · message ${o.message}${o.frame !== undefined ? `, frame ${o.frame}` : ''}`
            : '';
    let events = '';
    for (let k = 0; k < Math.min(c.events.length, 20); k++) events += `${k === 0 ? ' · events ' : ', '}#${c.events[k]}`;
    // Each sentence says its own amounts: words() without the memo (it would keep every one).
    d.line(`${i}. ${x.esc(c.kind)}: ${words(c.sentence)}${by}${events}`);
  }

  d.h(level + 1, 'State before and after');
  for (const a of r.accounts.slice(0, MAX_SHOWN)) {
    d.line(`- ${id(a.bech32)} = ${id(a.account)} · ${esc(a.roles.join(', '))}`);
    snapshotLines(d, 'before', a.before);
    snapshotLines(d, 'after', a.after);
  }

  d.h(level + 1, `Cosmos events (${r.events.length}${r.logCopies > 0 ? `, of which ${r.logCopies} tx_log copies of the EVM logs` : ''})`);
  // A cause's words, made for the first of its events (each cause covers two to four).
  const causeWords: string[] = [];
  for (let i = 0; i < Math.min(r.events.length, MAX_SHOWN); i++) {
    const e = r.events[i];
    const where = e.msgIndex === undefined ? 'tx' : `msg ${e.msgIndex}`;
    if (e.copyOfLog !== undefined) {
      d.line(`- #${e.index} ${where} ${x.esc(e.type)} · copy of EVM log ${e.copyOfLog} (shown with the EVM logs)`);
      continue;
    }
    const what =
      e.cause !== undefined
        ? (causeWords[e.cause] ??= ` · cause ${e.cause} (${x.esc(r.causes[e.cause]?.kind ?? '?')})`)
        : e.echo
          ? ` · ${x.words(e.echo)}`
          : '';
    // The attributes but msg_index (said by `where`), at most MAX_ATTRS.
    let attrs = '';
    let shown = 0;
    for (let k = 0; k < e.attributes.length; k++) {
      const at = e.attributes[k];
      if (at.key === 'msg_index') continue;
      if (shown++ === MAX_ATTRS) break;
      attrs += `${attrs === '' ? ' · ' : ' '}${x.esc(at.key)}=${x.id(at.value)}`;
    }
    d.line(`- #${e.index} ${where} ${x.esc(e.type)}${what}${attrs}`);
  }
  if (r.notes.length > 0) {
    d.h(level + 1, 'About this receipt');
    for (const n of r.notes.slice(0, 50)) d.line(`- ${words(n)}`);
  }
}
