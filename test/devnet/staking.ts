// The devnet's staking state at every height (for restState.ts and the staking precompile of
// ledger.ts): delegations per delegator and validator, and the height rewards were last
// withdrawn. Rewards accrue at a fixed rate per block and per delegation, so the pending rewards at
// height h are (h − last withdrawal) × DEVNET_REWARD_PER_BLOCK, and a withdrawal in block N pays
// N − last of them (block N's allocation comes before its txs, as on a Cosmos SDK chain: what is
// pending at N−1 is less than what N withdraws, and nothing is pending at N).
// History is kept per (delegator, validator) pair, bounded: a pair keeps its last MAX_CHANGES changes.

export const DEVNET_REWARD_PER_BLOCK = 1_000_000_000_000_000n;
/** alice's genesis delegation to the first validator. */
export const DEVNET_DELEGATION = 10_000_000_000_000_000_000n;
const MAX_CHANGES = 5_000;

interface Change {
  height: bigint;
  amount: bigint;
  /** Rewards are counted from this height (exclusive). */
  rewardsFrom: bigint;
}

export interface DelegationAt {
  validator: string;
  amount: bigint;
  /** Pending rewards at the height. */
  rewards: bigint;
}

export class DevStaking {
  /** delegator (bech32) → validator (valoper) → changes, oldest first. */
  private readonly pairs = new Map<string, Map<string, Change[]>>();

  /** A delegation that exists from genesis (rewards counted from height 0). */
  genesis(delegator: string, validator: string, amount: bigint): void {
    this.changesOf(delegator, validator).push({ height: 0n, amount, rewardsFrom: 0n });
  }

  /** The delegations of a delegator at a height, with their pending rewards (none: []). */
  at(delegator: string, height: bigint): DelegationAt[] {
    const out: DelegationAt[] = [];
    for (const [validator, changes] of this.pairs.get(delegator) ?? []) {
      const c = latest(changes, height);
      if (c && c.amount > 0n) out.push({ validator, amount: c.amount, rewards: (height - c.rewardsFrom) * DEVNET_REWARD_PER_BLOCK });
    }
    return out;
  }

  /**
   * Delegates `amount` more in block `height`: withdraws the pending rewards first (returned; 0 for
   * a first delegation), as the distribution module's hook does when a delegation changes.
   */
  delegate(delegator: string, validator: string, amount: bigint, height: bigint): { rewards: bigint; total: bigint } {
    const changes = this.changesOf(delegator, validator);
    const before = latest(changes, height);
    const rewards = before && before.amount > 0n ? (height - before.rewardsFrom) * DEVNET_REWARD_PER_BLOCK : 0n;
    const total = (before?.amount ?? 0n) + amount;
    const last = changes[changes.length - 1];
    if (last && last.height === height) changes.pop();
    changes.push({ height, amount: total, rewardsFrom: height });
    if (changes.length > MAX_CHANGES) changes.splice(0, changes.length - MAX_CHANGES);
    return { rewards, total };
  }

  private changesOf(delegator: string, validator: string): Change[] {
    let byValidator = this.pairs.get(delegator);
    if (!byValidator) this.pairs.set(delegator, (byValidator = new Map()));
    let changes = byValidator.get(validator);
    if (!changes) byValidator.set(validator, (changes = []));
    return changes;
  }
}

/** The last change at or below `height` (the oldest kept one for a height older than the history). */
function latest(changes: Change[], height: bigint): Change | undefined {
  for (let i = changes.length - 1; i >= 0; i--) if (changes[i].height <= height) return changes[i];
  return undefined;
}
