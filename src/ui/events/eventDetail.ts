// The text of an event console line when it is expanded: for a CometBFT Tx event, the transaction
// its `TxResult.tx` carries, decoded with the explorer's decoders (messages, fee, signers, and the
// Ethereum transaction inside a MsgEthereumTx with its sender recovered), then the event as
// received. Other events are shown as received. Never throws: a transaction that does not decode
// says why and the event is still shown.

import { decodeCosmosTx } from '../../core/explorer/decodeCosmos';
import { decodeEvmRaw, type EvmTx } from '../../core/explorer/decodeEvm';
import { errorMessage } from '../../core/base/errors';
import * as l10n from '../../core/base/l10n';

/** Base64 of a transaction larger than this is not decoded (CometBFT's default max tx is 1 MiB). */
const MAX_TX_BASE64 = 1_500_000;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The base64 `TxResult.tx` of a Tx event, in the subscription result or its `data`. */
export function txOfEvent(data: unknown): string | undefined {
  const inner = isRecord(data) && isRecord(data.data) ? data.data : data;
  if (!isRecord(inner) || !isRecord(inner.value) || !isRecord(inner.value.TxResult)) return undefined;
  const tx = inner.value.TxResult.tx;
  return typeof tx === 'string' && tx.length > 0 && tx.length <= MAX_TX_BASE64 ? tx : undefined;
}

function json(v: unknown): string {
  try {
    return JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x instanceof Uint8Array ? Buffer.from(x).toString('hex') : x), 2);
  } catch (err) {
    // An event nested thousands of levels deep (JSON.parse reads it; JSON.stringify's recursion overflows).
    return l10n.t('The event cannot be shown: {0}', errorMessage(err));
  }
}

/** The expanded line's text, before any length cut. `labels` are the (translated) section titles. */
export async function eventDetail(data: unknown, labels: { decoded: string; ethereum: string; event: string }): Promise<string> {
  const event = json(data);
  const b64 = txOfEvent(data);
  if (b64 === undefined) return event;
  const decoded = decodeCosmosTx(Buffer.from(b64, 'base64'));
  const ethereum: Array<EvmTx | { error: string }> = [];
  for (const m of decoded.messages) {
    if (!m.ethereum?.raw) continue;
    try {
      ethereum.push(await decodeEvmRaw(m.ethereum.raw));
    } catch (err) {
      ethereum.push({ error: errorMessage(err) });
    }
  }
  const parts = [`${labels.decoded}\n${json(decoded)}`];
  if (ethereum.length > 0) parts.push(`${labels.ethereum}\n${json(ethereum)}`);
  parts.push(`${labels.event}\n${event}`);
  return parts.join('\n\n');
}
