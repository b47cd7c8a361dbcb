// What a lookup needs to know about the chain besides its answer: the bech32 account prefix, the
// EVM's denom and each denom's display unit. Read once per provider (REST), kept in a small bounded
// cache that hovers read too; a chain without REST gets the prefix from the chain id.

import { errorMessage } from '../base/errors';
import { displayAmount } from './decodeEvm';
import { accountPrefixOf, prefixFromChainId } from './addresses';
import { type ExplorerSource, isNotFound, rethrowCancel } from './source';
import type { Coin } from './views';

export interface DenomUnit {
  readonly display: string;
  readonly exponent: number;
}

interface Known {
  prefix?: string;
  evmDenom?: string;
  units: Map<string, DenomUnit | null>;
}

const MAX_PROVIDERS = 32;
const MAX_DENOMS = 64;
const known = new Map<string, Known>();

function entry(provider: string): Known {
  let k = known.get(provider);
  if (!k) {
    if (known.size >= MAX_PROVIDERS) known.delete(known.keys().next().value as string);
    k = { units: new Map() };
    known.set(provider, k);
  }
  return k;
}

/** What is known of a provider's chain so far (hovers: no request). */
export function knownContext(provider: string): { prefix?: string; unit(denom: string): DenomUnit | undefined } {
  const k = known.get(provider);
  return { prefix: k?.prefix, unit: (denom) => k?.units.get(denom) ?? undefined };
}

export function forgetContext(): void {
  known.clear();
}

export class ChainContext {
  private readonly k: Known;
  constructor(
    private readonly source: ExplorerSource,
    private readonly notes: string[],
    typedPrefix?: string,
  ) {
    this.k = entry(source.provider);
    if (typedPrefix && !this.k.prefix) this.k.prefix = accountPrefixOf(typedPrefix);
  }

  async prefix(): Promise<string> {
    if (this.k.prefix) return this.k.prefix;
    if (this.source.has.rest) {
      try {
        const r = (await this.source.rest('/cosmos/auth/v1beta1/bech32')) as { bech32_prefix?: unknown };
        if (typeof r?.bech32_prefix === 'string' && /^[a-z]{1,40}$/.test(r.bech32_prefix)) return (this.k.prefix = r.bech32_prefix);
      } catch (err) {
        rethrowCancel(err);
        this.notes.push(`bech32 prefix: ${errorMessage(err)}`);
      }
    }
    return prefixFromChainId(this.source.chainId);
  }

  /** The EVM's denom (vm params), when REST can say. */
  async evmDenom(): Promise<string | undefined> {
    if (this.k.evmDenom || !this.source.has.rest) return this.k.evmDenom;
    for (const path of ['/cosmos/evm/vm/v1/params', '/ethermint/evm/v1/params']) {
      try {
        const r = (await this.source.rest(path)) as { params?: { evm_denom?: unknown } };
        if (typeof r?.params?.evm_denom === 'string') return (this.k.evmDenom = r.params.evm_denom);
      } catch (err) {
        rethrowCancel(err);
        // the other module name, or no EVM module
      }
    }
    return undefined;
  }

  async unit(denom: string): Promise<DenomUnit | undefined> {
    if (this.k.units.has(denom)) return this.k.units.get(denom) ?? undefined;
    if (!this.source.has.rest || this.k.units.size >= MAX_DENOMS) return undefined;
    let unit: DenomUnit | null = null;
    try {
      const r = (await this.source.rest(`/cosmos/bank/v1beta1/denoms_metadata/${encodeURIComponent(denom)}`)) as {
        metadata?: { display?: unknown; denom_units?: Array<{ denom?: unknown; exponent?: unknown }> };
      };
      const m = r?.metadata;
      const shown = m?.denom_units?.find((u) => u.denom === m.display);
      if (typeof m?.display === 'string' && shown && typeof shown.exponent === 'number' && shown.exponent >= 0 && shown.exponent <= 36) {
        unit = { display: m.display, exponent: shown.exponent };
      }
    } catch (err) {
      rethrowCancel(err);
      // A timeout or a rate limit may pass: not remembered (the next lookup asks again).
      if (!isNotFound(err)) return undefined;
      unit = null; // no metadata for this denom: amounts stay in base units
    }
    this.k.units.set(denom, unit);
    return unit ?? undefined;
  }

  async coin(denom: string, amount: string): Promise<Coin> {
    const u = await this.unit(denom);
    return u ? { denom, amount, display: `${displayAmount(amount, u.exponent)} ${u.display}` } : { denom, amount };
  }

  /** An EVM value (wei-like, 18 decimals) in the EVM denom. */
  async evmValue(wei: string): Promise<Coin> {
    const denom = await this.evmDenom();
    const u = denom ? await this.unit(denom) : undefined;
    return {
      denom: denom ?? 'wei',
      amount: wei,
      display: u ? `${displayAmount(wei, u.exponent)} ${u.display}` : `${displayAmount(wei, 18)} (18 decimals)`,
    };
  }
}
