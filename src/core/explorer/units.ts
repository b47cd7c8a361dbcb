// One rule per unit, for every document and hover of the explorer: gas prices and base fees in
// wei with gwei beside; EVM addresses checksummed (EIP-55); amounts in display units (`0.000001
// test`) with base units kept for the hover; EVM chain ids in hex and decimal; timestamps (Unix
// seconds or RFC 3339) as local time and age.

import { checksumAddress } from './addresses';
import type { DenomUnit } from './context';
import { displayAmount } from './decodeEvm';
import { isEvmAddress } from '../base/text';
import { MAX_INTEGER_TEXT, shownNumber } from '../base/limits';

/** `123456800 wei (0.1234568 gwei)`; the input as given when it is no whole number (hex accepted). */
export function weiWithGwei(wei: string): string {
  if (wei.length > MAX_INTEGER_TEXT) return shownNumber(wei);
  let n: bigint;
  try {
    n = BigInt(wei.trim());
  } catch {
    return wei;
  }
  if (n < 0n) return wei;
  return `${n.toString()} wei (${displayAmount(n, 9)} gwei)`;
}

/** An EVM address in its EIP-55 form; anything else unchanged. */
export function evmAddress(text: string): string {
  if (!isEvmAddress(text)) return text;
  return checksumAddress(Uint8Array.from(Buffer.from(text.slice(2), 'hex'))) ?? text;
}

/** `0.000001 test` when the denom's display unit is known, else `1000000atest` (base units). */
export function amountText(amount: string, denom: string, unit: DenomUnit | undefined): string {
  return unit && /^\d+$/.test(amount) ? `${displayAmount(amount, unit.exponent)} ${unit.display}` : `${amount}${denom}`;
}

/** `0x2328 = 9000`: an EVM chain id (hex or decimal) in both forms. */
export function chainIdText(id: string): string {
  if (id.length > MAX_INTEGER_TEXT) return shownNumber(id);
  let n: bigint;
  try {
    n = BigInt(id.trim());
  } catch {
    return id;
  }
  return `0x${n.toString(16)} = ${n.toString()}`;
}

function age(ms: number): string {
  const s = Math.round(Math.abs(ms) / 1000);
  const text = s < 120 ? `${s} s` : s < 7200 ? `${Math.round(s / 60)} min` : s < 172800 ? `${Math.round(s / 3600)} h` : `${Math.round(s / 86400)} days`;
  return ms >= 0 ? `${text} ago` : `in ${text}`;
}

/** Local time and age of a time in milliseconds: `25/11/2026, 16:04:06 (3 min ago)`. */
export function timeText(ms: number, now = Date.now()): string {
  return `${new Date(ms).toLocaleString()} (${age(now - ms)})`;
}

type CoinOf = (denom: string, amount: string) => Promise<{ denom: string; amount: string; display?: string }>;

/**
 * A message's fields with each coin (`{ denom, amount }`, wherever it sits) given its display form
 * like the fee's, so a document shows message amounts and fees the same way. Bounded: the first
 * 200 objects, 8 levels deep.
 */
export async function withDisplayAmounts(fields: unknown, coin: CoinOf): Promise<unknown> {
  let budget = 200;
  const walk = async (v: unknown, depth: number): Promise<unknown> => {
    if (depth > 8 || budget <= 0 || v === null || typeof v !== 'object') return v;
    budget--;
    if (Array.isArray(v)) {
      const out: unknown[] = [];
      for (const x of v) out.push(await walk(x, depth + 1));
      return out;
    }
    const o = v as Record<string, unknown>;
    const keys = Object.keys(o);
    if (keys.length === 2 && typeof o.denom === 'string' && typeof o.amount === 'string' && /^\d{1,78}$/.test(o.amount)) return coin(o.denom, o.amount);
    const out: Record<string, unknown> = {};
    for (const k of keys) out[k] = await walk(o[k], depth + 1);
    return out;
  };
  return walk(fields, 0);
}
