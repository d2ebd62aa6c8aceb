// The simulated chain: block height follows the sandbox clock (one block per 400 ms),
// and blockhashes are remembered with the last height at which they are still valid.
import { randomBytes } from 'node:crypto';
import bs58 from 'bs58';
import type { State } from './state.js';

export const SLOT_MS = 400;
/** Blocks a blockhash stays valid for, as on Solana. */
export const BLOCKHASH_VALIDITY = 150;

/** Current simulated block height at sandbox time `now`. */
export function blockHeight(state: State, now: number): number {
  return state.chain.genesisHeight + Math.floor((now - state.chain.genesisMs) / SLOT_MS);
}

/** Issue a fresh recent blockhash; returns it with its lastValidBlockHeight. */
export function issueBlockhash(state: State, now: number): { blockhash: string; lastValidBlockHeight: number } {
  const height = blockHeight(state, now);
  const blockhash = bs58.encode(randomBytes(32));
  const lastValidBlockHeight = height + BLOCKHASH_VALIDITY;
  // Forget long-dead blockhashes so the map (and the state file) stays small.
  const hashes = state.chain.blockhashes;
  if (Object.keys(hashes).length > 5_000) {
    for (const [h, last] of Object.entries(hashes)) if (last < height - 10_000) delete hashes[h];
  }
  hashes[blockhash] = lastValidBlockHeight;
  return { blockhash, lastValidBlockHeight };
}
