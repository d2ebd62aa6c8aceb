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

/**
 * The chain's answer as domain/deposit-evidence.ts takes it: true proves nothing was spent,
 * false proves the deposit landed, null proves neither (it may still land, or the chain could
 * not be read: the reason is returned for a warning).
 */
export function chainProvesAbsent(e: DepositEvidence): { provesAbsent: boolean | null; unchecked: string | null } {
  switch (e.kind) {
    case 'proven-absent':
      return { provesAbsent: true, unchecked: null };
    case 'on-chain':
      return { provesAbsent: false, unchecked: null };
    case 'may-land':
      return { provesAbsent: null, unchecked: null };
    case 'unknown':
      return { provesAbsent: null, unchecked: e.reason };
  }
}
