// A tiny real contract, shared by the devnet and the real-node tests: its runtime code emits an
// ERC-20 `Transfer(address indexed from, address indexed to, uint256 value)` log with from =
// CALLER, to = the first call argument and value = the second, so a call of
// `transfer(address,uint256)` (selector a9059cbb) logs exactly what an ERC-20 transfer logs.
// It keeps no balances (it is a log emitter, not a token).

/** keccak256("Transfer(address,address,uint256)"). */
export const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
export const TRANSFER_SELECTOR = '0xa9059cbb';

// PUSH1 0x24 CALLDATALOAD PUSH1 0 MSTORE          memory[0..32] = value
// PUSH1 0x04 CALLDATALOAD CALLER PUSH32 topic      stack: topic, caller, to
// PUSH1 0x20 PUSH1 0 LOG3 STOP                     log(memory[0..32], topic, caller, to)
export const EMITTER_RUNTIME = '0x602435600052600435337f' + TRANSFER_TOPIC.slice(2) + '60206000a300';

/** Init code: CODECOPY the runtime (appended after these 11 bytes) to memory 0 and RETURN it. */
export const EMITTER_INIT = (() => {
  const len = (EMITTER_RUNTIME.length - 2) / 2;
  const hex1 = (n: number): string => n.toString(16).padStart(2, '0');
  return '0x60' + hex1(len) + '80600b6000396000f3' + EMITTER_RUNTIME.slice(2);
})();

/** Call data of transfer(to, amount). */
export function transferCallData(to: string, amount: bigint): string {
  return TRANSFER_SELECTOR + to.slice(2).toLowerCase().padStart(64, '0') + amount.toString(16).padStart(64, '0');
}
