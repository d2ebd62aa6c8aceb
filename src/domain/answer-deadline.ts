// How long a person has to answer a trade's question, and how that is said. A buy's signed
// deposit can land only until its blockhash expires (the deposit's lastValidBlockHeight, about a
// minute after the quote), long before the intent's own 10-minute deadline: the time left is the
// blocks left, read from the chain, at about 400 ms a block (an estimate). Only when the chain
// cannot be read is the intent's deadline what is said, and it is said to be the service's. A
// sell's is its authorization's expiry.

/** A Solana block, on average: what turns blocks left into time left (an estimate). */
export const BLOCK_ESTIMATE_MS = 400;

export type AnswerDeadline =
  /** From the chain: the deposit's blockhash is valid `blocksLeft` more blocks, read at `readAtMs`. */
  | { source: 'chain'; lastValidBlockHeight: number; blocksLeft: number; readAtMs: number; atMs: number }
  /** The service's deadline for the intent (the chain could not be read: `reason`), or a sell's expiry. */
  | { source: 'service'; atMs: number; reason: string | null };

/** The deadline the chain's block height gives a deposit whose blockhash lasts to `lastValidBlockHeight`. */
export function chainDeadline(lastValidBlockHeight: number, blockHeight: number, readAtMs: number): AnswerDeadline {
  const blocksLeft = Math.max(0, lastValidBlockHeight - blockHeight);
  return {
    source: 'chain',
    lastValidBlockHeight,
    blocksLeft,
    readAtMs,
    atMs: readAtMs + blocksLeft * BLOCK_ESTIMATE_MS,
  };
}

/** The service's deadline (an ISO time); `reason`: why the chain's is not known, or null for a sell's expiry. */
export function serviceDeadline(iso: string, reason: string | null): AnswerDeadline {
  return { source: 'service', atMs: Date.parse(iso), reason };
}

/** `1m 42s`, `42s`, or `expired`. */
export function timeLeft(atMs: number, nowMs: number): string {
  const ms = atMs - nowMs;
  if (Number.isNaN(ms)) return 'unknown';
  if (ms <= 0) return 'expired';
  const total = Math.floor(ms / 1000);
  const minutes = Math.floor(total / 60);
  return minutes > 0 ? `${minutes}m ${total % 60}s` : `${total}s`;
}

/** Whether the deadline has passed by `nowMs`, as far as the clock alone can tell. */
export function passed(d: AnswerDeadline, nowMs: number): boolean {
  return nowMs >= d.atMs;
}
