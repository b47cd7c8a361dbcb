// A lookup result as a read-only Markdown document: headings per part, facts as "- key: value"
// lines, every identifier in backticks so it reads plainly and the editor's links (ui/explorer/documentLinks.ts)
// find it. Server text is plain words and numbers or a code span (fenced so nothing inside closes
// it) and never becomes a link by itself, even in a preview with linkify on: links are made only by
// the link provider, from identifiers it recognises. Long values are cut (the data has them).

import type { DumpField } from './protoDump';
import { Doc, coin, esc, id } from './mdDoc';
import { renderAddressContract, renderEvmDecoding } from './renderEvm';
import type { AddressView, BlockView, Coin, EventView, EvmView, LookupResult, TxView } from './views';
import { evmAddress, weiWithGwei } from './units';
import { renderAccountState, renderBalanceLines, renderComparison, renderHistory, renderTokens } from './account/renderAccount';
import { renderReceipt } from './receipt/renderReceipt';

const MAX_EVENTS_SHOWN = 2000;

export { esc } from './mdDoc';

export function renderLookup(r: LookupResult): string {
  const d = new Doc();
  d.line(`# Look Up ${id(r.query)} · ${esc(r.provider)}`);
  d.line('');
  d.line(`Found: ${esc(r.found)}.`);
  switch (r.kind) {
    case 'tx': {
      // The receipt first (both layers joined, docs/receipt.md); it lists the events once, with their causes.
      if (r.receipt) renderReceipt(d, r.receipt, 2);
      const tx = r.receipt ? { ...r.tx, events: [] } : r.tx;
      // Looked up by its EVM hash: the EVM view first, then the Cosmos transaction carrying it.
      if (/^0x/i.test(r.query)) for (const e of r.tx.evm) renderEvm(d, e, 2);
      renderTx(d, /^0x/i.test(r.query) ? { ...tx, evm: [] } : tx, 2);
      break;
    }
    case 'block':
      renderBlock(d, r.block);
      break;
    case 'address':
      renderAddress(d, r.address);
      break;
    case 'notFound':
      d.line('');
      d.line(r.reason ? esc(r.reason) : `Nothing found. Tried: ${r.tried.map(esc).join(', ')}.`);
  }
  if (r.notes.length > 0) {
    d.h(2, 'Notes');
    for (const n of r.notes.slice(0, 200)) d.line(`- ${esc(n)}`);
  }
  d.line('');
  return d.lines.join('\n');
}

function renderTx(d: Doc, tx: TxView, level: number): void {
  if (tx.hash) {
    d.h(level, `Cosmos transaction ${id(tx.hash)}`);
    d.kv('hash', id(tx.hash));
    d.kv('height', tx.height && id(tx.height));
    d.kv('index', tx.index === undefined ? undefined : String(tx.index));
    d.kv('time', tx.timestamp && id(tx.timestamp));
    d.kv('code', tx.code === undefined ? undefined : `${tx.code}${tx.code === 0 ? ' (success)' : ' (failed)'}${tx.codespace ? ` ${esc(tx.codespace)}` : ''}`);
    d.kv('log', tx.log && esc(tx.log));
    d.kv('gas', tx.gasWanted || tx.gasUsed ? `${esc(tx.gasUsed ?? '?')} used of ${esc(tx.gasWanted ?? '?')} wanted` : undefined);
    d.kv(
      'fee',
      tx.fee &&
        `${tx.fee.amount.map(coin).join(', ') || '0'} · gas limit ${esc(tx.fee.gasLimit)}${tx.fee.payer ? ` · payer ${id(tx.fee.payer)}` : ''}${tx.fee.granter ? ` · granter ${id(tx.fee.granter)}` : ''}`,
    );
    d.kv('memo', tx.memo ? esc(tx.memo) : undefined);
    d.kv('decoded by', tx.decodedBy === 'rest' ? 'the node (REST tx service)' : 'Chain Endpoints (cosmjs-types)');
    if (tx.error) d.kv('error', esc(tx.error));
    for (const [i, s] of tx.signers.entries()) {
      d.kv(
        `signer ${i}`,
        `${s.address ? id(s.address) : '—'}${s.hexAddress ? ` = ${id(s.hexAddress)}` : ''} · sequence ${esc(s.sequence)}${s.pubKeyType ? ` · ${esc(s.pubKeyType)}` : ''}`,
      );
    }
    for (const [i, m] of tx.messages.entries()) {
      d.h(level + 1, `Message ${i}: ${esc(m.typeUrl)}`);
      if (m.evmHash) d.kv('EVM transaction', id(m.evmHash));
      if (m.error) d.kv('decoding failed', esc(m.error));
      if (m.fields) renderFields(d, m.fields, '');
      if (m.unknown) {
        d.kv('type not known here: bytes (hex)', id(m.unknown.hex));
        d.kv('bytes (base64)', id(m.unknown.base64));
        if (m.unknown.dump) renderDump(d, m.unknown.dump, '');
      }
    }
    if (tx.events.length > 0) {
      d.h(level + 1, 'Events');
      let shown = 0;
      for (const g of tx.events) {
        d.line(`**${g.msgIndex === undefined ? 'transaction' : `message ${esc(g.msgIndex)}`}**`);
        d.line('');
        for (const e of g.events) if (shown++ < MAX_EVENTS_SHOWN) renderEvent(d, e);
        d.line('');
      }
    }
  }
  for (const e of tx.evm) renderEvm(d, e, level);
}

/** A coin given its display form (units.ts withDisplayAmounts): shown like a fee. */
function isCoin(v: unknown): v is Coin {
  const c = v as Coin | null;
  return typeof c === 'object' && c !== null && typeof c.denom === 'string' && typeof c.amount === 'string' && typeof c.display === 'string';
}

function renderFields(d: Doc, fields: unknown, indent: string): void {
  if (fields === null || typeof fields !== 'object') return;
  for (const [k, v] of Object.entries(fields as Record<string, unknown>).slice(0, 200)) {
    if (isCoin(v)) d.line(`${indent}- ${esc(k)}: ${coin(v)}`);
    else if (Array.isArray(v) && v.length > 0 && v.every(isCoin)) d.line(`${indent}- ${esc(k)}: ${v.map(coin).join(', ')}`);
    else if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
      d.line(`${indent}- ${esc(k)}:`);
      renderFields(d, v, `${indent}  `);
    } else if (Array.isArray(v) && v.some((x) => x !== null && typeof x === 'object')) {
      d.line(`${indent}- ${esc(k)}:`);
      for (const item of v.slice(0, 200)) {
        if (item !== null && typeof item === 'object') {
          d.line(`${indent}  -`);
          renderFields(d, item, `${indent}    `);
        } else d.line(`${indent}  - ${id(item)}`);
      }
    } else {
      d.line(`${indent}- ${esc(k)}: ${Array.isArray(v) ? v.map(id).join(', ') : id(v)}`);
    }
  }
}

function renderDump(d: Doc, fields: readonly DumpField[], indent: string): void {
  for (const f of fields) {
    d.line(`${indent}- field ${f.field} (${f.wire})${f.value !== undefined ? `: ${id(f.value)}` : ''}`);
    if (f.nested) renderDump(d, f.nested, `${indent}  `);
  }
}

function renderEvent(d: Doc, e: EventView): void {
  d.line(`- ${esc(e.type)}: ${e.attributes.map((a) => `${esc(a.key)}=${id(a.value)}`).join(' · ')}`);
}

/** The label of Look Up's replay link (src/ui/explorer/documentLinks.ts makes it a link to Simulate with Changes…). */
export const SIMULATE_LINK_TEXT = '`Simulate with changes…`';
/** A replay link line's label and hash. */
export const SIMULATE_LINK_RE = /`Simulate with changes…` · `(0x[0-9a-fA-F]{64})`/;

function renderEvm(d: Doc, e: EvmView, level: number): void {
  d.h(level, `EVM transaction ${id(e.hash)}`);
  d.kv('hash', id(e.hash));
  d.kv('Cosmos transaction', e.cosmosHash && id(e.cosmosHash));
  d.kv('status', e.status && esc(e.status));
  d.kv('block', e.blockNumber && `${id(e.blockNumber)}${e.blockHash ? ` ${id(e.blockHash)}` : ''}`);
  d.kv('from', e.from && `${id(evmAddress(e.from))}${e.fromEvents ? ' (as the events name it; not recovered from the signature)' : ''}`);
  d.kv('to', e.to ? id(evmAddress(e.to)) : e.source === 'events' ? undefined : 'contract creation');
  d.kv('created contract', e.contractAddress && id(evmAddress(e.contractAddress)));
  d.kv('value', e.value && coin(e.value));
  d.kv('nonce', e.nonce && esc(e.nonce));
  d.kv('gas', e.gas && `${esc(e.gasUsed ?? '?')} used of ${esc(e.gas)}`);
  if (!e.gas) d.kv('gas used', e.gasUsed && esc(e.gasUsed));
  d.kv('gas price', e.gasPrice && `${esc(weiWithGwei(e.gasPrice))}${e.effectiveGasPrice ? ` · effective ${esc(weiWithGwei(e.effectiveGasPrice))}` : ''}`);
  d.kv('max fee per gas', e.maxFeePerGas && esc(weiWithGwei(e.maxFeePerGas)));
  d.kv('max priority fee per gas', e.maxPriorityFeePerGas && esc(weiWithGwei(e.maxPriorityFeePerGas)));
  d.kv('input', e.input && (e.input === '0x' ? '0x (none)' : id(e.input)));
  d.kv('read from', e.source === 'evmRpc' ? 'the EVM RPC' : e.source === 'decoded' ? 'the signed bytes (decoded with viem)' : 'the Cosmos events only');
  // A mined call can be re-run at its parent block, changed (a link: chainEndpoints.evm.simulateWithChanges, docs/simulate.md).
  if (e.to && e.blockNumber && e.source === 'evmRpc') d.kv('what if', `${SIMULATE_LINK_TEXT} · ${id(e.hash)}`);
  renderEvmDecoding(d, e, level);
}

function renderBlock(d: Doc, b: BlockView): void {
  d.h(2, `Block ${id(b.height)}`);
  d.kv('height', id(b.height));
  d.kv('hash', b.hash && id(b.hash));
  d.kv('time', b.time && id(b.time));
  d.kv('chain', b.chainId && esc(b.chainId));
  d.kv('proposer', b.proposer && `${id(b.proposer.cometHex)}${b.proposer.valcons ? ` = ${id(b.proposer.valcons)}` : ''}`);
  d.kv('app hash', b.appHash && id(b.appHash));
  d.kv('transactions', String(b.txs.length));
  if (b.evm)
    d.kv(
      'EVM block',
      `${id(b.evm.hash)} · ${b.evm.txCount} EVM transaction(s) · gas used ${esc(b.evm.gasUsed)}${b.evm.gasLimit ? ` of ${esc(b.evm.gasLimit)}` : ''}`,
    );
  d.kv('base fee', b.evm?.baseFeePerGas && esc(weiWithGwei(b.evm.baseFeePerGas)));
  if (b.page) d.kv('decoded', pageText(b.height, b.page));
  if (b.txs.length > 0) {
    d.h(3, 'Transactions');
    for (const t of b.txs) d.line(`${t.index}. ${id(t.hash)} ${esc(t.summary)}`);
  }
  if (b.events.length > 0) {
    d.h(3, 'Block events');
    for (const e of b.events.slice(0, MAX_EVENTS_SHOWN)) renderEvent(d, e);
  }
  if (b.page) d.h(3, `Decoded: transactions ${b.page.first} to ${b.page.last} (page ${b.page.number} of ${b.page.pages})`);
  for (const t of b.txs) if (t.tx) renderTx(d, t.tx, 3);
  if (b.page) {
    d.line('');
    d.kv('pages', pageText(b.height, b.page));
  }
}

/** Which transactions are decoded, and where the other pages are: `H page N`, which Look Up reads and documents link. */
function pageText(height: string, p: NonNullable<BlockView['page']>): string {
  const near = [1, p.number - 1, p.number + 1, p.pages].filter((n, i, all) => n >= 1 && n <= p.pages && n !== p.number && all.indexOf(n) === i);
  const label = (n: number) => (n === p.number - 1 ? 'previous ' : n === p.number + 1 ? 'next ' : n === 1 ? 'first ' : 'last ');
  const others = near.map((n) => `${label(n)}${id(`${height} page ${n}`)}`);
  return `transactions ${p.first} to ${p.last} (page ${p.number} of ${p.pages}, ${p.size} a page)${others.length > 0 ? ` · ${others.join(' · ')}` : ''}`;
}

function renderAddress(d: Doc, a: AddressView): void {
  d.h(2, `Address ${id(a.typed)}${a.height ? ` at height ${id(a.height)}` : ''}`);
  d.kv('state read at', a.readAt && `block ${id(a.readAt)} (the latest, read once: every balance below is of that block)`);
  d.kv('account', a.forms.account && id(a.forms.account));
  d.kv('EVM', a.forms.hex && id(a.forms.hex));
  d.kv('validator operator', a.role === 'valoper' && a.forms.valoper ? id(a.forms.valoper) : undefined);
  d.kv('consensus', a.forms.valcons && id(a.forms.valcons));
  d.kv('hex', id(a.forms.cometHex));
  d.kv('EVM balance', a.evmBalance && coin(a.evmBalance));
  if (a.balances) d.kv('bank balances', a.balances.length === 0 ? 'none' : a.balances.map(coin).join(', '));
  if (a.state) renderBalanceLines(d, a.state);
  d.kv('account number', a.account?.accountNumber && esc(a.account.accountNumber));
  d.kv('sequence', a.account?.sequence && esc(a.account.sequence));
  d.kv('account type', a.account?.type && esc(a.account.type));
  d.kv('EVM nonce', a.nonce && esc(a.nonce));
  d.kv('contract', a.isContract === undefined ? undefined : a.isContract ? `yes (${a.codeBytes} bytes of code)` : 'no');
  renderAddressContract(d, a);
  if (a.validator) {
    d.h(3, 'Validator');
    renderFields(d, a.validator, '');
  }
  if (a.state) renderAccountState(d, a.state);
  if (a.comparison) renderComparison(d, a.comparison);
  if (a.tokens) renderTokens(d, a.tokens);
  if (a.history) renderHistory(d, a.history);
}
