// What a transaction on chain proves about a money claim of the service, as pure functions over
// a ChainTransaction: a deposit of exactly the intent's amount from the owner to the treasury; a
// payout or refund of SOL to the owner (at least a minimum); a swap that exists and succeeded.
import { formatSol } from '../domain/amounts.js';
import { lamportsChange, largestGain, touchesMint, type ChainTransaction } from './chain-transaction.js';
import { formatLocalTime } from '../domain/local-time.js';

/**
 * verified: the chain shows what the service said. not-found: the chain has no such
 * transaction. contradicts: the chain shows something else. pending: not on chain yet but
 * it still may be (a deposit before its blockhash expires). unchecked: the chain could not be read.
 */
/** attributed: on chain as the service says, but what ties it to this trade (an amount owed, a figure) is only the service's word. */
export type Mark = 'verified' | 'attributed' | 'not-found' | 'contradicts' | 'pending' | 'unchecked';

export interface Check {
  mark: Mark;
  /** What the chain shows, in words. */
  chain: string;
}

const sol = (lamports: bigint) => `${formatSol(lamports)} SOL`;

/**
 * An address that is not the user's, named for what it is, whole: the pinned treasury, or an
 * unknown third party (the chain gives an address, never its holder).
 */
export function whose(address: string, known: { owner: string; treasury: string | null }): string {
  if (address === known.owner) return `your wallet ${address}`;
  if (address === known.treasury) return `the service's treasury ${address}`;
  return `an unknown third party ${address}`;
}

function failed(tx: ChainTransaction): Check | null {
  return tx.err === null
    ? null
    : { mark: 'contradicts', chain: `the transaction failed on chain (${JSON.stringify(tx.err)})` };
}

/**
 * A deposit: signed by the owner (the fee payer), the owner's SOL down by exactly the amount
 * plus the fee, and the recipient (the treasury when it is known, else whoever gained) up by the amount.
 */
export function checkDeposit(
  tx: ChainTransaction | null,
  expected: { owner: string; treasury: string | null; amountLamports: bigint },
): Check {
  if (tx === null) return { mark: 'not-found', chain: 'not on chain' };
  const bad = failed(tx);
  if (bad) return bad;
  if (tx.accounts[0] !== expected.owner)
    return { mark: 'contradicts', chain: `paid by ${tx.accounts[0]}, not your wallet` };
  const spent = -lamportsChange(tx, expected.owner) - tx.fee;
  if (spent !== expected.amountLamports) {
    return {
      mark: 'contradicts',
      chain: `your wallet paid ${sol(spent)} (plus a ${sol(tx.fee)} fee), not ${sol(expected.amountLamports)}`,
    };
  }
  const recipient = expected.treasury ?? largestGain(tx)?.address ?? null;
  const received = recipient === null ? 0n : lamportsChange(tx, recipient);
  if (recipient === null || received !== expected.amountLamports) {
    const gain = largestGain(tx);
    const went = gain ? `${sol(gain.lamports)} went to ${whose(gain.address, expected)}` : 'no account received it';
    return {
      mark: 'contradicts',
      chain: `${sol(spent)} left your wallet but ${went}${expected.treasury ? `, not the treasury ${expected.treasury}` : ''}`,
    };
  }
  return {
    mark: 'verified',
    chain: `${sol(spent)} from your wallet to ${expected.treasury ? 'the treasury' : `${recipient} (no treasury is pinned here: the chain does not say whose it is)`} (fee ${sol(tx.fee)}), slot ${tx.slot}`,
  };
}

/**
 * A payout or refund: SOL to the owner from another account. The owner must not have signed it
 * (a transaction the owner paid for or moved between its own accounts proves no payout), its
 * gain must be matched by what other accounts lost, it must not predate the trade (`notBeforeMs`,
 * when the chain gives a blockTime), and it must pay at least `minimumLamports` when one is
 * given. What it paid is returned for a total over several payouts.
 */
export function checkPayout(
  tx: ChainTransaction | null,
  expected: { owner: string; minimumLamports?: bigint; what?: string; notBeforeMs?: number },
): Check & { paidLamports: bigint } {
  if (tx === null) return { mark: 'not-found', chain: 'not on chain', paidLamports: 0n };
  const bad = failed(tx);
  if (bad) return { ...bad, paidLamports: 0n };
  if (tx.accounts.slice(0, tx.signers).includes(expected.owner)) {
    return {
      mark: 'contradicts',
      chain: `your wallet signed it${tx.accounts[0] === expected.owner ? ' and paid its fee' : ''}: a transaction of your own is no payout, slot ${tx.slot}`,
      paidLamports: 0n,
    };
  }
  const paid = lamportsChange(tx, expected.owner);
  if (paid <= 0n) {
    const gain = largestGain(tx);
    const went = gain
      ? `pays ${sol(gain.lamports)} to ${whose(gain.address, { owner: expected.owner, treasury: null })}, not your wallet`
      : 'pays no SOL to your wallet';
    return { mark: 'contradicts', chain: went, paidLamports: 0n };
  }
  let given = 0n;
  tx.accounts.forEach((a, i) => {
    if (a !== expected.owner && tx.postBalances[i]! < tx.preBalances[i]!)
      given += tx.preBalances[i]! - tx.postBalances[i]!;
  });
  if (given - tx.fee < paid) {
    return {
      mark: 'contradicts',
      chain: `your wallet gains ${sol(paid)} but other accounts give only ${sol(given - tx.fee > 0n ? given - tx.fee : 0n)} beyond the fee`,
      paidLamports: 0n,
    };
  }
  if (
    expected.notBeforeMs !== undefined &&
    tx.blockTime !== null &&
    tx.blockTime < Math.floor(expected.notBeforeMs / 1000)
  ) {
    return {
      mark: 'contradicts',
      chain: `landed at ${formatLocalTime(tx.blockTime * 1000)}, before the trade was created`,
      paidLamports: 0n,
    };
  }
  if (expected.minimumLamports !== undefined && paid < expected.minimumLamports) {
    return {
      mark: 'contradicts',
      chain: `pays ${sol(paid)} to your wallet, less than ${expected.what ?? 'the minimum'} ${sol(expected.minimumLamports)}`,
      paidLamports: paid,
    };
  }
  return { mark: 'verified', chain: `${sol(paid)} to your wallet, slot ${tx.slot}`, paidLamports: paid };
}

/**
 * A swap the service names: it exists and succeeded (what it traded is the service's side), or
 * failed when the service reports the trade failed; it landed no earlier than the trade (see
 * swapTooEarly); and it touches the traded token (`mint`: among its accounts, or its token
 * balances moving), else it exists but nothing ties it to this trade (any transaction succeeds).
 */
export function checkSwap(
  tx: ChainTransaction | null,
  expected: { failureReported: boolean; mint: string } & SwapBounds,
): Check {
  if (tx === null) return { mark: 'not-found', chain: 'not on chain' };
  const asReported = tx.err !== null && expected.failureReported;
  const bad = asReported ? null : failed(tx);
  if (bad) return bad;
  const early = swapTooEarly(tx, expected);
  if (early) return early;
  const done = asReported ? `failed on chain, as the service reports, slot ${tx.slot}` : `succeeded, slot ${tx.slot}`;
  if (!touchesMint(tx, expected.mint))
    return {
      mark: 'attributed',
      chain: `exists, not attributable: ${done}, but it touches no account or token balance of ${expected.mint}`,
    };
  return { mark: 'verified', chain: done };
}

/** What a trade's swap cannot predate: the trade's creation (as a payout's bound), and a buy's own deposit. */
export interface SwapBounds {
  /** When the trade was created (ms, the payout check's bound); a block time before it is too early. */
  notBeforeMs?: number;
  /** A buy's deposit slot, when the chain showed it: a swap in an earlier slot cannot spend it. */
  notBeforeSlot?: number | null;
}

/**
 * A contradiction when the swap landed before the trade could have had one: before it was created,
 * or (a buy) in a slot before its deposit's; null when it did not. An old swap of the same
 * mint would otherwise "verify" for any trade.
 */
export function swapTooEarly(tx: ChainTransaction, bounds: SwapBounds): Check | null {
  if (bounds.notBeforeSlot != null && tx.slot < bounds.notBeforeSlot)
    return {
      mark: 'contradicts',
      chain: `landed in slot ${tx.slot}, before your deposit (slot ${bounds.notBeforeSlot}): it cannot be this buy's swap`,
    };
  if (bounds.notBeforeMs !== undefined && tx.blockTime !== null && tx.blockTime < Math.floor(bounds.notBeforeMs / 1000))
    return {
      mark: 'contradicts',
      chain: `landed at ${formatLocalTime(tx.blockTime * 1000)}, before the trade was created: it cannot be its swap`,
    };
  return null;
}

/**
 * A swap the journal knows for another trade (`knownAs`: which, in words): one transaction proves
 * one trade, so it is not this one's swap, whatever the chain shows of it.
 */
export function swapOfAnother(knownAs: string, side: 'buy' | 'sell'): Check {
  return {
    mark: 'contradicts',
    chain: `the journal knows this transaction as ${knownAs}; one transaction proves one trade, so it is not this ${side}'s swap`,
  };
}

/**
 * A signed deposit that is not on chain: it may still land while the chain holds its blockhash
 * valid; once the chain says the blockhash expired, it never will, provided this chain knew the
 * blockhash before signing (else it is another cluster, and its "invalid" proves nothing).
 */
export function depositAbsence(
  blockhashValid: boolean,
  knownBeforeSigning: boolean,
  lastValidBlockHeight: number,
): Check & { proven: boolean } {
  if (blockhashValid)
    return {
      mark: 'pending',
      proven: false,
      chain: `not on chain yet; its blockhash is still valid, so it may still land (the service gives block ${lastValidBlockHeight} as its last)`,
    };
  if (!knownBeforeSigning)
    return {
      mark: 'pending',
      proven: false,
      chain: "not on chain, but not proven never to land: the RPC did not know the deposit's blockhash before signing",
    };
  return {
    mark: 'verified',
    proven: true,
    chain: 'not on chain, and the chain says its blockhash expired: it can never land',
  };
}
