// Whether a signed deposit the service did not take was spent, as the chain says: the proof that
// "nothing was spent" needs. The service's lastValidBlockHeight proves nothing (it is the
// service's word): absent is proven only by the chain's own answers, in the order that cannot
// race: first the deposit's recentBlockhash no longer valid (finalized: expired on every fork,
// so nothing can land on it any more), then its signature unknown. And only on an RPC that knew
// that blockhash before signing: an RPC on another cluster knows neither.
import { UsageError } from '../domain/errors.js';
import { ChainUnavailableError, type ChainReader } from './chain-reader.js';

/** The signed deposit: its signature, the recentBlockhash of its message, the service's lastValidBlockHeight (for words only). */
export interface SignedDeposit {
  signature: string;
  blockhash: string;
  lastValidBlockHeight: number;
  /** The chain at --rpc-url knew the blockhash before signing (the funds check asked); false or absent: not recorded. */
  blockhashKnownBeforeSigning?: boolean;
}

/** A signed deposit's facts: the signature, and the blockhash facts of the message it signs. */
export function signedDepositOf(signature: string, signed: Omit<SignedDeposit, 'signature'>): SignedDeposit {
  return {
    signature,
    blockhash: signed.blockhash,
    lastValidBlockHeight: signed.lastValidBlockHeight,
    blockhashKnownBeforeSigning: signed.blockhashKnownBeforeSigning,
  };
}

export const BLOCKHASH_NOT_KNOWN = "not proven: the RPC did not know the deposit's blockhash before signing";

export type DepositEvidence =
  /** Not on chain and its blockhash expired: it can never land. */
  | { kind: 'proven-absent'; lastValidBlockHeight: number }
  /** Not on chain yet and its blockhash still valid: it may land. */
  | { kind: 'may-land'; lastValidBlockHeight: number }
  /** On chain: the deposit was spent whatever the service says. */
  | { kind: 'on-chain'; lastValidBlockHeight: number }
  /** The chain could not be read, or cannot prove it (another cluster): the reason says which. */
  | { kind: 'unknown'; reason: string; lastValidBlockHeight: number };

/** Asks the chain whether the deposit's blockhash expired, then whether the deposit is on chain. */
export async function depositEvidence(
  chain: () => Promise<ChainReader>,
  deposit: SignedDeposit,
): Promise<DepositEvidence> {
  const { lastValidBlockHeight } = deposit;
  try {
    const reader = await chain();
    // Blockhash first: a signature absent once its blockhash is dead can never appear.
    const valid = await reader.blockhashValid(deposit.blockhash, 'finalized');
    if ((await reader.transaction(deposit.signature)) !== null) return { kind: 'on-chain', lastValidBlockHeight };
    if (valid) return { kind: 'may-land', lastValidBlockHeight };
    // An RPC that never knew the blockhash calls it invalid: that proves nothing.
    if (deposit.blockhashKnownBeforeSigning !== true)
      return { kind: 'unknown', reason: BLOCKHASH_NOT_KNOWN, lastValidBlockHeight };
    return { kind: 'proven-absent', lastValidBlockHeight };
  } catch (err) {
    if (err instanceof ChainUnavailableError || err instanceof UsageError)
      return { kind: 'unknown', reason: `not checked on chain: ${err.message}`, lastValidBlockHeight };
    throw err;
  }
}

/**
 * The chain's answer as domain/deposit-evidence.ts takes it: true proves nothing was spent,
 * false proves the deposit landed, null proves neither (it may still land, or the chain could
 * not be read or cannot prove it: the reason is returned for the words).
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
