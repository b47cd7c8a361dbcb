// What a chain refuses over eth_sendRawTransaction (and what it says about unknown accounts): the
// cases run against a real evmd (test/real/recordEvmdRefusals.ts records its answers into
// test/fixtures/evmd/evm-refusals.json; evmdRefusals.real.test.ts compares live) and against the
// devnet (devnetRefusals.unit.test.ts compares with the recording). Each case is one JSON-RPC
// request built from the node's own chain id, base fee and the funded account's next nonce.
import { sha256 } from '@noble/hashes/sha256';
import { type Hex, type LocalAccount, keccak256, parseTransaction, serializeTransaction } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

export interface RefusalContext {
  chainId: number;
  /** The node's base fee / gas price (wei). */
  gasPrice: bigint;
  /** A funded account and its next nonce. */
  funded: LocalAccount;
  nonce: number;
}

export interface RefusalCase {
  name: string;
  what: string;
  method: string;
  /** Built when the case runs (after the previous cases: nonces move). */
  params: (c: RefusalContext) => Promise<unknown[]>;
  /** Send this one but do not count it as a refusal (it must succeed: the valid tx). */
  accepted?: boolean;
}

/** An account nobody funds (same key on every run). */
export const UNFUNDED = privateKeyToAccount(`0x${Buffer.from(sha256('chain-endpoints unfunded account')).toString('hex')}`);
const TO = '0x00000000000000000000000000000000c0ffee00' as Hex;
const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

const tx1559 = (c: RefusalContext, over: Record<string, unknown> = {}) => ({
  type: 'eip1559' as const,
  chainId: c.chainId,
  nonce: c.nonce,
  to: TO,
  value: 1n,
  gas: 21_000n,
  maxFeePerGas: c.gasPrice * 2n,
  maxPriorityFeePerGas: 1n,
  ...over,
});

let validRaw: Hex | undefined;

export const REFUSAL_CASES: RefusalCase[] = [
  { name: 'empty', what: '`0x`', method: 'eth_sendRawTransaction', params: async () => ['0x'] },
  { name: 'one byte', what: '`0x01` (a typed tx with no payload)', method: 'eth_sendRawTransaction', params: async () => ['0x01'] },
  { name: 'junk', what: '`0xdeadbeef`', method: 'eth_sendRawTransaction', params: async () => ['0xdeadbeef'] },
  { name: 'unknown type', what: 'type byte 0x05 and an empty list', method: 'eth_sendRawTransaction', params: async () => ['0x05c0'] },
  {
    name: 'valid',
    what: 'a valid EIP-1559 transfer from the funded account (accepted: its hash)',
    method: 'eth_sendRawTransaction',
    accepted: true,
    params: async (c) => {
      validRaw = await c.funded.signTransaction(tx1559(c));
      return [validRaw];
    },
  },
  { name: 'already known', what: 'the same signed tx again', method: 'eth_sendRawTransaction', params: async () => [validRaw ?? '0x'] },
  {
    name: 'nonce too low',
    what: 'a tx with the nonce the valid tx used (another value)',
    method: 'eth_sendRawTransaction',
    params: async (c) => [await c.funded.signTransaction(tx1559(c, { nonce: c.nonce - 1, value: 2n }))],
  },
  {
    name: 'nonce too high',
    what: 'a tx 10 nonces ahead',
    method: 'eth_sendRawTransaction',
    params: async (c) => [await c.funded.signTransaction(tx1559(c, { nonce: c.nonce + 10 }))],
  },
  {
    name: 'valid legacy',
    what: 'a legacy tx with EIP-155 replay protection (accepted)',
    method: 'eth_sendRawTransaction',
    accepted: true,
    params: async (c) => [
      await c.funded.signTransaction({ type: 'legacy', chainId: c.chainId, nonce: c.nonce, to: TO, value: 1n, gas: 21_000n, gasPrice: c.gasPrice * 2n }),
    ],
  },
  {
    name: 'valid access list',
    what: 'an EIP-2930 tx with an empty access list (accepted)',
    method: 'eth_sendRawTransaction',
    accepted: true,
    params: async (c) => [
      await c.funded.signTransaction({
        type: 'eip2930',
        chainId: c.chainId,
        nonce: c.nonce,
        to: TO,
        value: 1n,
        gas: 21_000n,
        gasPrice: c.gasPrice * 2n,
        accessList: [],
      }),
    ],
  },
  {
    name: 'unprotected',
    what: 'a legacy tx signed without a chain id (no EIP-155)',
    method: 'eth_sendRawTransaction',
    params: async (c) => [
      await c.funded.signTransaction({ type: 'legacy', nonce: c.nonce, to: TO, value: 1n, gas: 21_000n, gasPrice: c.gasPrice * 2n } as never),
    ],
  },
  {
    name: 'wrong chain id',
    what: 'an EIP-1559 tx for chain id 1',
    method: 'eth_sendRawTransaction',
    params: async (c) => [await c.funded.signTransaction(tx1559(c, { chainId: 1 }))],
  },
  {
    name: 'insufficient funds',
    what: 'a transfer of 1 wei from an account with no balance',
    method: 'eth_sendRawTransaction',
    params: async (c) => [await UNFUNDED.signTransaction(tx1559({ ...c, nonce: 0 }))],
  },
  {
    name: 'gas below intrinsic',
    what: 'a transfer with a 20,000 gas limit',
    method: 'eth_sendRawTransaction',
    params: async (c) => [await c.funded.signTransaction(tx1559(c, { gas: 20_000n }))],
  },
  {
    name: 'fee cap below base fee',
    what: 'maxFeePerGas 1 wei',
    method: 'eth_sendRawTransaction',
    params: async (c) => [await c.funded.signTransaction(tx1559(c, { maxFeePerGas: 1n, maxPriorityFeePerGas: 1n }))],
  },
  {
    name: 'high s',
    what: 'a valid signature made malleable (s -> n - s, parity flipped)',
    method: 'eth_sendRawTransaction',
    params: async (c) => {
      const signed = parseTransaction(await c.funded.signTransaction(tx1559(c)));
      const { r, s, yParity, v: _v, ...fields } = signed;
      const high = `0x${(SECP256K1_N - BigInt(s as Hex)).toString(16).padStart(64, '0')}` as Hex;
      return [serializeTransaction(fields as never, { r: r as Hex, s: high, yParity: yParity === 0 ? 1 : 0 })];
    },
  },
  {
    name: 'balance of an unknown account',
    what: '`eth_getBalance` of an account nobody funded',
    method: 'eth_getBalance',
    params: async () => [UNFUNDED.address, 'latest'],
  },
  {
    name: 'nonce of an unknown account',
    what: '`eth_getTransactionCount` of an account nobody funded',
    method: 'eth_getTransactionCount',
    params: async () => [UNFUNDED.address, 'latest'],
  },
];

export interface RefusalAnswer {
  name: string;
  what: string;
  request: { method: string; params: unknown[] };
  response: { result?: unknown; error?: { code: number; message: string; data?: unknown } };
}

/** Runs every case in order against one EVM JSON-RPC URL. `rpc` posts one request and returns the parsed answer. */
export async function runRefusals(c: RefusalContext, rpc: (method: string, params: unknown[]) => Promise<RefusalAnswer['response']>): Promise<RefusalAnswer[]> {
  const out: RefusalAnswer[] = [];
  for (const k of REFUSAL_CASES) {
    const params = await k.params(c);
    const response = await rpc(k.method, params);
    out.push({ name: k.name, what: k.what, request: { method: k.method, params }, response });
    if (k.accepted) {
      if (!response.result) throw new Error(`case "${k.name}" was refused: ${JSON.stringify(response)}`);
      c.nonce++;
    }
  }
  return out;
}

/** A message with what differs between two runs (hashes, addresses, numbers) replaced. */
export function wording(s: unknown): string | undefined {
  return typeof s === 'string'
    ? s
        .replace(/0x[0-9a-fA-F]{64}/g, 'HASH')
        .replace(/0x[0-9a-fA-F]{40}/g, 'ADDRESS')
        .replace(/\d+/g, 'N')
    : undefined;
}

/** The keccak hash of a raw tx (what a node answers for an accepted one). */
export const rawHash = (raw: Hex): Hex => keccak256(raw);
