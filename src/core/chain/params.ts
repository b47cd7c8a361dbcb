// The parameters operations share (a height, a hash, an address, transaction bytes, a JSON-RPC
// method and params, a path, an event count), each with its prompt and validator, and the small
// helpers the catalogue's builders and summaries use.

import * as l10n from '../base/l10n';
import { LocalizedError } from '../base/errors';
import { parseSignature } from './abiCall';
import { parseDecimalHeight, parseHexQuantity, shownNumber } from '../base/limits';
import type { Args, ParamSpec } from './operation';
import * as v from './validate';
import { isEvmAddress } from '../base/text';

export const height: ParamSpec = {
  key: 'height',
  get title() {
    return l10n.t('Block height');
  },
  get prompt() {
    return l10n.t('A block height: a whole number from 1 to 9223372036854775807');
  },
  get placeholder() {
    return l10n.t('e.g. 1234');
  },
  validate: v.validateHeight,
};
export const optionalHeight: ParamSpec = {
  key: height.key,
  // Not spread from `height`: a spread would read its title getter once, at module load.
  get title() {
    return height.title;
  },
  get prompt() {
    return l10n.t('A block height, or leave empty for the latest block');
  },
  get placeholder() {
    return l10n.t('empty = latest');
  },
  optional: true,
  validate: v.validateOptionalHeight,
};
/** eth_getBlockByNumber's second parameter: whole transactions instead of their hashes. */
export const fullTransactions: ParamSpec = {
  key: 'full',
  get title() {
    return l10n.t('Full transactions');
  },
  get prompt() {
    return l10n.t('true: every transaction in full; false or empty: their hashes only');
  },
  get placeholder() {
    return l10n.t('empty = false');
  },
  optional: true,
  validate: v.validateBoolean,
};
export const evmTxHash: ParamSpec = {
  key: 'hash',
  get title() {
    return l10n.t('Transaction hash');
  },
  get prompt() {
    return l10n.t('The Ethereum transaction hash: 0x followed by 64 hex digits');
  },
  placeholder: '0x…',
  validate: v.validateEvmTxHash,
};
export const cometTxHash: ParamSpec = {
  key: 'hash',
  get title() {
    return l10n.t('Transaction hash');
  },
  get prompt() {
    return l10n.t('The Cosmos transaction hash (SHA-256 of the tx bytes): 64 hex digits');
  },
  get placeholder() {
    return l10n.t('e.g. 4A5B…');
  },
  validate: v.validateCometTxHash,
};
export const evmAddress: ParamSpec = {
  key: 'address',
  get title() {
    return l10n.t('Address');
  },
  get prompt() {
    return l10n.t('An EVM address: 0x followed by 40 hex digits');
  },
  placeholder: '0x…',
  validate: v.validateEvmAddress,
};
export const bech32Address: ParamSpec = {
  key: 'address',
  get title() {
    return l10n.t('Address');
  },
  get prompt() {
    return l10n.t('A bech32 account address');
  },
  get placeholder() {
    return l10n.t('e.g. cosmos1…');
  },
  validate: v.validateBech32Address,
};
export const txBytes: ParamSpec = {
  key: 'tx',
  get title() {
    return l10n.t('Signed transaction');
  },
  get prompt() {
    return l10n.t('The signed transaction bytes, as base64 or 0x-prefixed hex (sent as base64)');
  },
  get placeholder() {
    return l10n.t('base64 or 0x…');
  },
  validate: v.validateTxBytes,
};
export const evmRawTx: ParamSpec = {
  key: 'tx',
  get title() {
    return l10n.t('Signed transaction');
  },
  get prompt() {
    return l10n.t('The signed, RLP-encoded transaction as 0x-prefixed hex');
  },
  placeholder: '0x02f8…',
  validate: v.validateEvmRawTx,
};
export const method: ParamSpec = {
  key: 'method',
  get title() {
    return l10n.t('Method');
  },
  get prompt() {
    return l10n.t('The JSON-RPC method name');
  },
  get placeholder() {
    return l10n.t('e.g. eth_getLogs, status, abci_info');
  },
  validate: v.validateMethodName,
};
export const params: ParamSpec = {
  key: 'params',
  get title() {
    return l10n.t('Params');
  },
  get prompt() {
    return l10n.t('The params as JSON: an array or an object (empty for none)');
  },
  get placeholder() {
    return l10n.t('e.g. ["latest", false] or {"height":"5"}');
  },
  optional: true,
  validate: v.validateJsonParams,
};
export const getPath: ParamSpec = {
  key: 'path',
  get title() {
    return l10n.t('Path');
  },
  get prompt() {
    return l10n.t('A path and optional query, relative to the base address');
  },
  get placeholder() {
    return l10n.t('e.g. /status or /cosmos/bank/v1beta1/supply?pagination.limit=5');
  },
  validate: v.validateGetPath,
};
export const eventCount: ParamSpec = {
  key: 'count',
  get title() {
    return l10n.t('Events');
  },
  get prompt() {
    return l10n.t('How many NewBlockHeader events to collect (1 to 100)');
  },
  get placeholder() {
    return l10n.t('empty = 3');
  },
  optional: true,
  validate: v.validateEventCount,
};

// Helpers for builders and summaries.

export function hexToDecimal(result: unknown): string | undefined {
  const n = parseHexQuantity(result); // a uint256 at most: a longer answer is not a quantity
  if (n === undefined) return typeof result === 'string' ? l10n.t('not a quantity: {0}', shownNumber(result)) : undefined;
  return l10n.t('{0} = {1} (decimal)', String(result), n.toString());
}

export function hexToWei(result: unknown): string | undefined {
  const n = parseHexQuantity(result);
  if (n === undefined) return typeof result === 'string' ? l10n.t('not a quantity: {0}', shownNumber(result)) : undefined;
  return l10n.t('{0} = {1} wei', String(result), n.toString());
}

export function jsonParams(args: Args): unknown {
  const text = (args.params ?? '').trim();
  return text === '' ? [] : JSON.parse(text);
}

export function splitPath(input: string): { path: string; rawQuery?: string } {
  const text = input.trim();
  const q = text.indexOf('?');
  return q < 0 ? { path: text } : { path: text.slice(0, q), rawQuery: text.slice(q + 1) };
}

export function heightOf(args: Args): string | undefined {
  const h = (args.height ?? '').trim();
  return h === '' ? undefined : v.normalizeHeight(h);
}

export function cometStatusSummary(result: unknown): string | undefined {
  const r = result as { sync_info?: { latest_block_height?: string }; node_info?: { network?: string } } | undefined;
  const h = r?.sync_info?.latest_block_height;
  if (!h) return undefined;
  const height = parseDecimalHeight(h) !== undefined ? String(h) : l10n.t('not a block height ({0})', shownNumber(String(h)));
  return l10n.t('height {0} · chain {1}', height, shownNumber(String(r?.node_info?.network ?? '?')));
}

export { NEW_BLOCK_QUERY as NEW_BLOCK_HEADER } from '../transport/jsonRpc';

export const callFunction: ParamSpec = {
  key: 'function',
  get title() {
    return l10n.t('Function');
  },
  get prompt() {
    return l10n.t('A function signature: balanceOf(address), or with outputs balanceOf(address)(uint256)');
  },
  placeholder: 'balanceOf(address)',
  validate: (text) => {
    try {
      parseSignature(text);
      return undefined;
    } catch (err) {
      return err instanceof LocalizedError ? err.shown : String(err);
    }
  },
};

export const callArgs: ParamSpec = {
  key: 'args',
  get title() {
    return l10n.t('Arguments');
  },
  get prompt() {
    return l10n.t('The arguments: comma-separated, or a JSON array');
  },
  optional: true,
  validate: () => undefined,
};

export const callBlock: ParamSpec = {
  key: 'block',
  get title() {
    return l10n.t('Block');
  },
  get prompt() {
    return l10n.t('A block number or tag (latest when empty)');
  },
  optional: true,
  validate: (text) =>
    text.trim() === '' || /^(latest|earliest|pending|safe|finalized|\d{1,19}|0x[0-9a-fA-F]{1,16})$/.test(text.trim())
      ? undefined
      : l10n.t('A block number, 0x quantity, or latest / pending / earliest / safe / finalized.'),
};

/** A JSON object or list given as text (evm.simulate's overrides, blockOverrides, steps). */
function jsonParam(key: string, list: boolean, title: () => string, prompt: () => string): ParamSpec {
  return optionalText(key, title, prompt, (text) => {
    try {
      const v: unknown = JSON.parse(text);
      if (list ? Array.isArray(v) : v !== null && typeof v === 'object' && !Array.isArray(v)) return undefined;
    } catch {
      // below
    }
    return list ? l10n.t('A JSON list.') : l10n.t('A JSON object.');
  });
}

function optionalText(key: string, title: () => string, prompt: () => string, validate: v.Validator = () => undefined): ParamSpec {
  return {
    key,
    get title() {
      return title();
    },
    get prompt() {
      return prompt();
    },
    optional: true,
    validate: (text) => (text.trim() === '' ? undefined : validate(text.trim())),
  };
}

const quantityText: v.Validator = (t) => (/^(\d{1,78}|0x[0-9a-fA-F]{1,64})$/.test(t) ? undefined : l10n.t('An integer (decimal or 0x hex).'));

/** evm.simulate: evm.callContract's keys (all optional: `steps` may replace them) and the simulation's own. */
export const simulateParams: readonly ParamSpec[] = [
  { ...evmAddress, optional: true, validate: (t) => (t.trim() === '' ? undefined : evmAddress.validate(t)) },
  { ...callFunction, optional: true, validate: (t) => (t.trim() === '' ? undefined : callFunction.validate(t)) },
  callArgs,
  callBlock,
  optionalText(
    'data',
    () => l10n.t('Calldata'),
    () => l10n.t('The calldata as 0x hex, instead of a function and its arguments'),
    (t) => (/^0x([0-9a-fA-F]{2})*$/.test(t) ? undefined : l10n.t('0x and hex bytes.')),
  ),
  optionalText(
    'from',
    () => l10n.t('From'),
    () => l10n.t('The sender (0x…); none when empty'),
    (t) => (isEvmAddress(t) ? undefined : l10n.t('0x and 40 hex digits.')),
  ),
  optionalText(
    'value',
    () => l10n.t('Value'),
    () => l10n.t('Wei sent with the call (decimal or 0x)'),
    quantityText,
  ),
  optionalText(
    'gas',
    () => l10n.t('Gas'),
    () => l10n.t('The gas limit (decimal or 0x)'),
    quantityText,
  ),
  jsonParam(
    'overrides',
    false,
    () => l10n.t('State overrides'),
    () => l10n.t('JSON by address: {"0x…": {"balance": "0x…", "code": "0x…", "state": {…}}}'),
  ),
  jsonParam(
    'blockOverrides',
    false,
    () => l10n.t('Block overrides'),
    () => l10n.t('JSON: {"number": "0x…", "time": "0x…", "baseFee": "0x…"}'),
  ),
  jsonParam(
    'steps',
    true,
    () => l10n.t('Steps'),
    () => l10n.t('A JSON list of calls sharing state (a bundle), each with the same keys'),
  ),
  optionalText(
    'nonce',
    () => l10n.t('Nonce'),
    () => l10n.t("The sender's nonce (decimal or 0x); the node's when empty"),
    quantityText,
  ),
  optionalText(
    'replayOf',
    () => l10n.t('Replay of'),
    () => l10n.t('The hash of the mined transaction this simulation changes: the result is compared with it'),
    (t) => (/^0x[0-9a-fA-F]{64}$/.test(t) ? undefined : l10n.t('0x and 64 hex digits.')),
  ),
];
