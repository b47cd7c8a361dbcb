// The REST gateway's decoded view of a devnet transaction, as evmd's /cosmos/tx/v1beta1/txs/{hash}
// answers it (test/fixtures/evmd/rest-tx-*.json): body, auth_info and signatures decoded from the
// TxRaw bytes with cosmjs-types, messages as protobuf-JSON with "@type"; and the auth account view.
import { MsgSend } from 'cosmjs-types/cosmos/bank/v1beta1/tx';
import { PubKey } from 'cosmjs-types/cosmos/crypto/secp256k1/keys';
import { signModeToJSON } from 'cosmjs-types/cosmos/tx/signing/v1beta1/signing';
import { AuthInfo, TxBody, TxRaw } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import type { Any } from 'cosmjs-types/google/protobuf/any';
import { getAddress } from 'viem';
import type { TxRecord } from './chain';
import { DYNAMIC_FEE_TX_TYPE, ETH_PUBKEY_TYPE, MSG_ETH_TX_TYPE, MSG_SEND_TYPE } from './devTx';
import type { Ledger } from './ledger';
import { bech32Encode } from './encoding';

const b64 = (b: Uint8Array): string => Buffer.from(b).toString('base64');
const orNullB64 = (b: Uint8Array | Buffer): string | null => (b.length ? b64(b) : null);

/** The `tx` member of the REST answer, or undefined when the bytes are not a TxRaw the devnet made. */
export function restTxJson(t: TxRecord): Record<string, unknown> | undefined {
  if (!t.real) return undefined;
  const raw = TxRaw.decode(t.bytes);
  const body = TxBody.decode(raw.bodyBytes);
  const auth = AuthInfo.decode(raw.authInfoBytes);
  return {
    body: {
      messages: body.messages.map((m) => messageJson(m, t)),
      memo: body.memo,
      timeout_height: body.timeoutHeight.toString(),
      unordered: false,
      timeout_timestamp: null,
      extension_options: body.extensionOptions.map((o) => ({ '@type': o.typeUrl })),
      non_critical_extension_options: [],
    },
    auth_info: {
      signer_infos: auth.signerInfos.map((s) => ({
        public_key: s.publicKey ? { '@type': s.publicKey.typeUrl, key: b64(PubKey.decode(s.publicKey.value).key) } : null,
        mode_info: { single: { mode: signModeToJSON(s.modeInfo?.single?.mode ?? 0) } },
        sequence: s.sequence.toString(),
      })),
      fee: {
        amount: (auth.fee?.amount ?? []).map((c) => ({ denom: c.denom, amount: c.amount })),
        gas_limit: (auth.fee?.gasLimit ?? 0n).toString(),
        payer: auth.fee?.payer ?? '',
        granter: auth.fee?.granter ?? '',
      },
      tip: null,
    },
    signatures: raw.signatures.map(b64),
  };
}

function messageJson(m: Any, t: TxRecord): Record<string, unknown> {
  if (m.typeUrl === MSG_SEND_TYPE) {
    const s = MsgSend.decode(m.value);
    return { '@type': m.typeUrl, from_address: s.fromAddress, to_address: s.toAddress, amount: s.amount.map((c) => ({ denom: c.denom, amount: c.amount })) };
  }
  if (m.typeUrl === MSG_ETH_TX_TYPE && t.real?.kind === 'evm') {
    const tx = t.real.tx;
    const big = (n: bigint): Buffer =>
      n === 0n ? Buffer.alloc(0) : Buffer.from(n.toString(16).padStart(Math.ceil(n.toString(16).length / 2) * 2, '0'), 'hex');
    const sig = {
      r: orNullB64(big(tx.r)),
      s: orNullB64(big(tx.s)),
    };
    const common = {
      nonce: tx.nonce.toString(),
      gas: tx.gas.toString(),
      to: tx.to ? getAddress(tx.to) : '',
      value: tx.value.toString(),
      data: tx.input === '0x' ? null : Buffer.from(tx.input.slice(2), 'hex').toString('base64'),
    };
    // LegacyTx and AccessListTx (from eth_sendRawTransaction) keep gas_price; the devnet's own txs are DynamicFeeTx.
    const data =
      tx.txType === 'legacy'
        ? {
            '@type': '/cosmos.evm.vm.v1.LegacyTx',
            ...common,
            gas_price: tx.maxFeePerGas.toString(),
            v: orNullB64(big(BigInt(tx.yParity) + 35n + 2n * tx.chainId)),
            ...sig,
          }
        : tx.txType === 'eip2930'
          ? {
              '@type': '/cosmos.evm.vm.v1.AccessListTx',
              chain_id: tx.chainId.toString(),
              ...common,
              gas_price: tx.maxFeePerGas.toString(),
              accesses: [],
              v: orNullB64(big(BigInt(tx.yParity))),
              ...sig,
            }
          : {
              '@type': DYNAMIC_FEE_TX_TYPE,
              chain_id: tx.chainId.toString(),
              nonce: common.nonce,
              gas_tip_cap: tx.maxPriorityFeePerGas.toString(),
              gas_fee_cap: tx.maxFeePerGas.toString(),
              gas: common.gas,
              to: common.to,
              value: common.value,
              data: common.data,
              accesses: [],
              v: orNullB64(big(BigInt(tx.yParity))),
              ...sig,
            };
    return {
      '@type': m.typeUrl,
      data,
      size: 0,
      hash: tx.hash,
      from: '',
    };
  }
  return { '@type': m.typeUrl, value: b64(m.value) };
}

/** /cosmos/auth/v1beta1/accounts/{address} of a dev account (BaseAccount with its ethsecp256k1 key once it has signed). */
export function restAccountJson(ledger: Ledger, address: Buffer): Record<string, unknown> | undefined {
  const a = ledger.account(address);
  if (!a) return undefined;
  return {
    account: {
      '@type': '/cosmos.auth.v1beta1.BaseAccount',
      address: bech32Encode('cosmos', address),
      pub_key: a.sequence > 0n ? { '@type': ETH_PUBKEY_TYPE, key: a.key.pubKey.toString('base64') } : null,
      account_number: a.accountNumber.toString(),
      sequence: a.sequence.toString(),
    },
  };
}
