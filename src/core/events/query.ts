// CometBFT's event query grammar, checked while the user types: conditions `key op value` joined
// by AND; ops = != < <= > >= CONTAINS EXISTS (EXISTS takes no value); values 'quoted strings',
// numbers, and dates/times (DATE 2024-01-02, TIME 2024-01-02T15:04:05Z). At most 512 characters
// (docs/protocols.md). The node stays the judge: this catches typing mistakes before a round trip.

import * as l10n from '../base/l10n';
import { NEW_BLOCK_QUERY } from '../transport/jsonRpc';

export const MAX_QUERY_LENGTH = 512;

export interface QueryTemplate {
  readonly label: string;
  /** The query; `…` marks what the user fills in (the input box selects it). */
  readonly query: string;
}

/** The builder's starting points (the QuickPick). */
export function queryTemplates(): QueryTemplate[] {
  return [
    { label: l10n.t('New blocks'), query: "tm.event='NewBlock'" },
    { label: l10n.t('New block headers (light)'), query: NEW_BLOCK_QUERY },
    { label: l10n.t('All transactions'), query: "tm.event='Tx'" },
    { label: l10n.t('Transactions sent by an account'), query: "tm.event='Tx' AND message.sender='…'" },
    { label: l10n.t('Transfers to an address'), query: "tm.event='Tx' AND transfer.recipient='…'" },
    { label: l10n.t('An Ethereum transaction by hash'), query: "tm.event='Tx' AND ethereum_tx.ethereumTxHash='…'" },
    { label: l10n.t('Validator set updates'), query: "tm.event='ValidatorSetUpdates'" },
  ];
}

type Token = { kind: 'and' | 'op' | 'string' | 'number' | 'date' | 'key' | 'bad'; text: string; at: number };

const OPS = ['<=', '>=', '!=', '=', '<', '>'];

function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const at = i;
    if (c === "'") {
      const end = src.indexOf("'", i + 1);
      if (end < 0) return [...out, { kind: 'bad', text: l10n.t("a quote opened at character {0} is never closed: end the value with '", at + 1), at }];
      out.push({ kind: 'string', text: src.slice(i + 1, end), at });
      i = end + 1;
      continue;
    }
    const op = OPS.find((o) => src.startsWith(o, i));
    if (op) {
      out.push({ kind: 'op', text: op, at });
      i += op.length;
      continue;
    }
    const word = /^[^\s'<>=!]+/.exec(src.slice(i));
    if (!word) {
      out.push({ kind: 'bad', text: l10n.t('unexpected "{0}" at character {1}', c, at + 1), at });
      return out;
    }
    const w = word[0];
    i += w.length;
    if (w === 'AND') out.push({ kind: 'and', text: w, at });
    else if (w === 'CONTAINS' || w === 'EXISTS') out.push({ kind: 'op', text: w, at });
    else if (w === 'DATE' || w === 'TIME') {
      const m = /^\s+(\S+)/.exec(src.slice(i));
      const value = m?.[1] ?? '';
      const ok = w === 'DATE' ? /^\d{4}-\d{2}-\d{2}$/.test(value) : /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(value);
      if (!ok) {
        const example = w === 'DATE' ? 'DATE 2024-01-02' : 'TIME 2024-01-02T15:04:05Z';
        return [...out, { kind: 'bad', text: l10n.t('{0} at character {1} needs a value such as {2}', w, at + 1, example), at }];
      }
      i += m![0].length;
      out.push({ kind: 'date', text: `${w} ${value}`, at });
    } else if (/^-?\d+(\.\d+)?$/.test(w)) out.push({ kind: 'number', text: w, at });
    else if (/^[A-Za-z_][\w.\-/]*$/.test(w)) out.push({ kind: 'key', text: w, at });
    else return [...out, { kind: 'bad', text: l10n.t('"{0}" at character {1} is neither a key nor a value (quote strings: \'…\')', w, at + 1), at }];
  }
  return out;
}

/**
 * Checks a query. Returns the sentence that says what to fix, or undefined when it is valid.
 * Shown as-is under the input box.
 */
export function validateQuery(text: string): string | undefined {
  const src = text.trim();
  if (src === '') return l10n.t("Type a query such as tm.event='Tx' AND transfer.recipient='cosmos1…'.");
  if (src.length > MAX_QUERY_LENGTH) return l10n.t('The query is {0} characters long; CometBFT accepts at most {1}.', src.length, MAX_QUERY_LENGTH);
  if (src.includes('…')) return l10n.t('Replace … with a value.');
  if (/\bOR\b/.test(src)) return l10n.t('CometBFT queries have no OR: join conditions with AND, or start one watch per alternative.');
  const tokens = tokenize(src);
  let i = 0;
  for (;;) {
    const key = tokens[i++];
    if (!key) return l10n.t('The query ends after AND: add a condition such as transfer.amount EXISTS.');
    if (key.kind === 'bad') return l10n.t('Query error: {0}.', key.text);
    if (key.kind !== 'key') return l10n.t('Expected a key (such as tm.event or message.sender) at character {0}, found "{1}".', key.at + 1, key.text);
    const op = tokens[i++];
    if (!op) return l10n.t('"{0}" needs an operator and a value: = != < <= > >= CONTAINS, or EXISTS.', key.text);
    if (op.kind === 'bad') return l10n.t('Query error: {0}.', op.text);
    if (op.kind !== 'op') return l10n.t('Expected an operator (= != < <= > >= CONTAINS EXISTS) after "{0}", found "{1}".', key.text, op.text);
    if (op.text !== 'EXISTS') {
      const value = tokens[i++];
      if (!value) return l10n.t('"{0} {1}" needs a value: a quoted string, a number or a date.', key.text, op.text);
      if (value.kind === 'bad') return l10n.t('Query error: {0}.', value.text);
      if (value.kind === 'key') return l10n.t("The value {0} at character {1} must be quoted: '{0}'.", value.text, value.at + 1);
      if (value.kind !== 'string' && value.kind !== 'number' && value.kind !== 'date') {
        return l10n.t('Expected a value after "{0} {1}", found "{2}".', key.text, op.text, value.text);
      }
      if (op.text === 'CONTAINS' && value.kind !== 'string') return l10n.t('CONTAINS takes a quoted string.');
      if (['<', '<=', '>', '>='].includes(op.text) && value.kind === 'string') {
        return l10n.t('{0} compares numbers or dates; "{1}" is a string.', op.text, value.text);
      }
    }
    const next = tokens[i++];
    if (!next) return undefined;
    if (next.kind === 'bad') return l10n.t('Query error: {0}.', next.text);
    if (next.kind !== 'and') return l10n.t('Join conditions with AND (found "{0}" at character {1}).', next.text, next.at + 1);
  }
}
