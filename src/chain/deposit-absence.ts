// Whether a signed deposit the service did not take was spent, as the chain says: the proof that
// "nothing was spent" needs. Absent is proven only once the chain's block height has passed the
// transaction's lastValidBlockHeight; until then it may still land (the service holds it).
import { UsageError } from '../errors.js';
import { ChainUnavailableError, type ChainReader } from './chain-reader.js';
import { depositAbsence } from './transfer-checks.js';

export type DepositEvidence =
  /** Not on chain and past its last valid block: it can never land. */
  | { kind: 'proven-absent'; blockHeight: number; lastValidBlockHeight: number }
  /** Not on chain yet: it may land until `lastValidBlockHeight`. */
  | { kind: 'may-land'; blockHeight: number; lastValidBlockHeight: number }
  /** On chain: the deposit was spent whatever the service says. */
  | { kind: 'on-chain'; lastValidBlockHeight: number }
  /** The chain could not be read. */
  | { kind: 'unknown'; reason: string; lastValidBlockHeight: number };

/** Looks the deposit up on chain and compares the block height with its last valid block. */
export async function depositEvidence(chain: () => Promise<ChainReader>, signature: string, lastValidBlockHeight: number): Promise<DepositEvidence> {
  try {
    const reader = await chain();
    // Height first: a deposit that is absent at a height past its last valid block can never land.
    const blockHeight = await reader.blockHeight();
    if ((await reader.transaction(signature)) !== null) return { kind: 'on-chain', lastValidBlockHeight };
    return depositAbsence(blockHeight, lastValidBlockHeight).proven
      ? { kind: 'proven-absent', blockHeight, lastValidBlockHeight }
      : { kind: 'may-land', blockHeight, lastValidBlockHeight };
  } catch (err) {
    if (err instanceof ChainUnavailableError || err instanceof UsageError) return { kind: 'unknown', reason: err.message, lastValidBlockHeight };
    throw err;
  }
}

/** What the chain says of a signed deposit the service reports it did not take, in words after "no deposit recorded: ". */
export function depositEvidenceWords(e: DepositEvidence): { nothingSpent: boolean; words: string } {
  switch (e.kind) {
    case 'proven-absent':
      return { nothingSpent: true, words: `nothing was spent (the chain shows the signed deposit is not on chain and block height ${e.blockHeight} is past its last valid block ${e.lastValidBlockHeight}, so it can never land)` };
    case 'may-land':
      return { nothingSpent: false, words: `the signed deposit is not on chain yet, but the service holds it and it may still land until block ${e.lastValidBlockHeight} (now ${e.blockHeight})` };
    case 'on-chain':
      return { nothingSpent: false, words: 'yet the signed deposit IS on chain: it was spent' };
    case 'unknown':
      return { nothingSpent: false, words: `the signed deposit may still land until block ${e.lastValidBlockHeight} (not checked on chain: ${e.reason})` };
  }
}
