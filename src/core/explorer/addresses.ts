// One address, every form: the same bytes as bech32 with the chain's prefix (account, validator
// operator, consensus) and as 0x with its EIP-55 checksum. The prefix comes from the provider's
// REST `/cosmos/auth/v1beta1/bech32`, else from the address typed, else from the chain id.

import { getAddress } from 'viem';
import { bech32 } from '@scure/base';
import { BoundedMemo } from '../base/memo';
import { bech32Decode, bech32Encode } from '../chain/validate';
import type { AddressRole } from './identify';
import { isEvmAddress } from '../base/text';

export interface AddressForms {
  /** 0x with the EIP-55 checksum (20-byte addresses only). */
  readonly hex?: string;
  /** UPPERCASE hex without 0x, as CometBFT shows consensus addresses. */
  readonly cometHex: string;
  readonly account?: string;
  readonly valoper?: string;
  readonly valcons?: string;
}

/** The account prefix from a role prefix (`cosmosvaloper` -> `cosmos`). */
export function accountPrefixOf(prefix: string): string {
  return prefix.replace(/(valoper|valcons)(pub)?$/, '') || prefix;
}

/**
 * The account prefix a chain id suggests, when it follows the EVM chains' `name_9001-2` form;
 * `cosmos` otherwise (the Cosmos EVM default).
 */
export function prefixFromChainId(chainId: string | undefined): string {
  const m = /^([a-z]+)_\d+-\d+$/.exec(chainId ?? '');
  return m ? m[1] : 'cosmos';
}

export function checksumAddress(bytes: Uint8Array): string | undefined {
  if (bytes.length !== 20) return undefined;
  return getAddress(`0x${Buffer.from(bytes).toString('hex')}`);
}

/** Every form of `bytes` with the account prefix `prefix` (`cosmos`, `evmos`, …). */
export function addressForms(bytes: Uint8Array, prefix: string, role: AddressRole = 'account'): AddressForms {
  const cometHex = Buffer.from(bytes).toString('hex').toUpperCase();
  const forms: { -readonly [K in keyof AddressForms]: AddressForms[K] } = { cometHex, hex: checksumAddress(bytes) };
  if (role === 'valcons') {
    forms.valcons = bech32Encode(`${prefix}valcons`, bytes);
  } else {
    forms.account = bech32Encode(prefix, bytes);
    forms.valoper = bech32Encode(`${prefix}valoper`, bytes);
  }
  return forms;
}

/** Addresses already decoded (a receipt reads the same few hundreds of times); each caller gets a copy. */
const decoded = new BoundedMemo<Uint8Array | undefined>(4096);

/** 0x hex (any case) or bech32 (checksum verified) into its bytes; undefined when it is neither. */
export function bytesOf(text: string): Uint8Array | undefined {
  const t = text.trim();
  if (isEvmAddress(t)) return Uint8Array.from(Buffer.from(t.slice(2), 'hex'));
  if (t.length > 90) return undefined; // longer than any bech32 string: not remembered either
  return decoded
    .get(t, () => {
      const d = bech32Decode(t);
      if (typeof d === 'string') return undefined;
      try {
        return bech32.fromWords(d.data);
      } catch {
        return undefined;
      }
    })
    ?.slice();
}
