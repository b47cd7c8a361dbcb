// Small ABI fixtures of our own for the contracts tests: a token with a custom error and events, a
// router that calls it and the bank precompile, written as Foundry and Hardhat artifacts into a
// temporary workspace; runtime code is synthetic but shaped as solc writes it (PUSH32 immutables,
// trailing CBOR metadata with its 2-byte length). Data is encoded with viem, as a node would send it.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Abi, encodeAbiParameters, encodeErrorResult, encodeFunctionData } from 'viem';
import { BANK_ABI } from '../../../devnet/fixtureContracts';

export const TOKEN_ABI = [
  { type: 'constructor', inputs: [{ name: 'supply', type: 'uint256' }], stateMutability: 'nonpayable' },
  {
    type: 'function',
    name: 'transfer',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'to', type: 'address' },
      { name: 'amount', type: 'uint256' },
    ],
    outputs: [{ name: '', type: 'bool' }],
  },
  { type: 'function', name: 'balanceOf', stateMutability: 'view', inputs: [{ name: 'account', type: 'address' }], outputs: [{ name: '', type: 'uint256' }] },
  { type: 'function', name: 'owner', stateMutability: 'view', inputs: [], outputs: [{ name: '', type: 'address' }] },
  {
    type: 'function',
    name: 'info',
    stateMutability: 'view',
    inputs: [],
    outputs: [
      { name: 'name', type: 'string' },
      { name: 'supply', type: 'uint256' },
    ],
  },
  {
    type: 'event',
    name: 'Transfer',
    anonymous: false,
    inputs: [
      { name: 'from', type: 'address', indexed: true },
      { name: 'to', type: 'address', indexed: true },
      { name: 'value', type: 'uint256', indexed: false },
    ],
  },
  {
    type: 'event',
    name: 'Memo',
    anonymous: false,
    inputs: [
      { name: 'tag', type: 'string', indexed: true },
      { name: 'text', type: 'string', indexed: false },
    ],
  },
  {
    type: 'error',
    name: 'InsufficientBalance',
    inputs: [
      { name: 'balance', type: 'uint256' },
      { name: 'needed', type: 'uint256' },
    ],
  },
] as const satisfies Abi;

export const ROUTER_ABI = [
  {
    type: 'function',
    name: 'send',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'token', type: 'address' },
      { name: 'to', type: 'address' },
      { name: 'amount', type: 'uint256' },
    ],
    outputs: [{ name: 'bankBalance', type: 'uint256' }],
  },
] as const satisfies Abi;

export const TOKEN = '0x1111111111111111111111111111111111111111';
export const ROUTER = '0x2222222222222222222222222222222222222222';
export const ALICE = '0xAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'.toLowerCase();
export const BOB = '0xbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb';
export const BANK = '0x0000000000000000000000000000000000000804';

/** solc-shaped runtime code: some ops, a PUSH32 immutable slot (zeros in the artifact), more ops, then CBOR metadata. */
export function runtime(body: string, immutable: string | undefined, metadataSeed: string): string {
  const imm = immutable ?? '00'.repeat(32);
  const cbor = `a264697066735822${metadataSeed.repeat(34).slice(0, 68)}64736f6c6343000812`; // {ipfs: 34 bytes, solc: 0.8.18}
  const len = (cbor.length / 2).toString(16).padStart(4, '0');
  return `0x6080604052${body}7f${imm}6000526020600060003960206000f3${cbor}${len}`;
}

export const TOKEN_BODY = '348015600e575f80fd5b50';
export const ROUTER_BODY = '5f80fd5b5060043610';
/** The artifact's immutable starts after 0x, 6080604052 (5 bytes), the body, and the PUSH32 opcode. */
export function immutableStart(body: string): number {
  return 5 + body.length / 2 + 1;
}

/** A temporary workspace with Foundry and Hardhat artifacts (and files that must be skipped). */
export function workspace(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ce-abi-'));
  const w = (rel: string, data: unknown) => {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), typeof data === 'string' ? data : JSON.stringify(data));
  };
  w('out/Token.sol/Token.json', {
    abi: TOKEN_ABI,
    deployedBytecode: {
      object: runtime(TOKEN_BODY, undefined, 'ab'),
      immutableReferences: { '7': [{ start: immutableStart(TOKEN_BODY), length: 32 }] },
      linkReferences: {},
    },
    methodIdentifiers: { 'transfer(address,uint256)': 'a9059cbb' },
  });
  // Hardhat: no immutableReferences in the artifact; the zero PUSH32 is the immutable.
  w('artifacts/contracts/Router.sol/Router.json', {
    _format: 'hh-sol-artifact-1',
    contractName: 'Router',
    abi: ROUTER_ABI,
    deployedBytecode: runtime(ROUTER_BODY, undefined, 'cd'),
  });
  w('artifacts/contracts/Router.sol/Router.dbg.json', { _format: 'hh-sol-dbg-1', buildInfo: '../../build-info/x.json' });
  w('artifacts/build-info/x.json', { output: { contracts: {} } });
  w('out/build-info/y.json', { output: {} });
  w('out/IThing.sol/IThing.json', {
    abi: [{ type: 'function', name: 'ping', inputs: [], outputs: [], stateMutability: 'nonpayable' }],
    deployedBytecode: { object: '0x' },
  });
  return root;
}

// The bank precompile's balances(address), as the devnet serves it.

/** A trace as evmd v0.3.2 sends it (callTracer): Router.send → Token.transfer, then STATICCALL bank.balances. */
export function evmdTrace(failed = false) {
  const transfer = {
    from: ROUTER,
    gas: '0x2dc6c0',
    gasUsed: failed ? '0x0' : '0x6d60',
    to: TOKEN,
    input: encodeFunctionData({ abi: TOKEN_ABI, functionName: 'transfer', args: [BOB, 250n] }),
    output: failed
      ? encodeErrorResult({ abi: TOKEN_ABI, errorName: 'InsufficientBalance', args: [100n, 250n] })
      : encodeAbiParameters([{ type: 'bool' }], [true]),
    ...(failed ? { error: 'execution reverted' } : {}),
    value: '0x0',
    type: 'CALL',
  };
  const bank = {
    from: ROUTER,
    gas: '0x2dc6c0',
    gasUsed: '0xbb8',
    to: BANK,
    input: encodeFunctionData({ abi: BANK_ABI, functionName: 'balances', args: [BOB] }),
    output: encodeAbiParameters(BANK_ABI[0].outputs, [[{ contractAddress: TOKEN, amount: 750n }]]),
    type: 'STATICCALL',
  };
  return {
    from: ALICE,
    gas: '0x2dc6c0',
    gasUsed: failed ? '0x0' : '0x8a3c',
    to: ROUTER,
    input: encodeFunctionData({ abi: ROUTER_ABI, functionName: 'send', args: [TOKEN, BOB, 250n] }),
    output: failed ? transfer.output : encodeAbiParameters([{ type: 'uint256' }], [750n]),
    ...(failed ? { error: 'execution reverted' } : {}),
    calls: failed ? [transfer] : [transfer, bank],
    value: '0x0',
    type: 'CALL',
  };
}
