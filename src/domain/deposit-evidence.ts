// What may be said of a buy's money once the service has been handed the signed deposit. A
// signed transaction stays valid until its blockhash expires (its lastValidBlockHeight, about
// 90 s); until then whoever holds it can still broadcast it, whatever the intent's status says.
// So "nothing was spent" needs proof: the chain showing the deposit can no longer land. Without
// it the words say what is known (the service's status, whether it records a deposit), what is
// not, and not to buy again before the deposit expires.
import {
  DEPOSIT_TAKEN,
  NOTHING_SPENT,
  NOT_BEFORE_EXPIRED,
  NOT_BEFORE_THEN,
  SOL_MAY_BE_SPENT,
  SOL_SPENT,
} from './outcome-words.js';

/** What is known of a buy after its signed deposit was handed over. */
export interface DepositEvidence {
  buyId: string;
  /** The intent's status as last read, or null when it could not be read. */
  status: string | null;
  /** Whether the service records a deposit signature; null when unknown (the trade could not be read). */
  depositRecorded: boolean | null;
  /** The signed deposit's lastValidBlockHeight: after it, the transaction can no longer land. */
  lastValidBlockHeight: number;
  /**
   * Whether the chain proves the deposit absent for good (its blockhash expired and its
   * signature unknown to the chain): true proves nothing was spent, false proves it landed;
   * null or absent: not checked.
   */
  chainProvesAbsent?: boolean | null;
  /** Why the chain proves neither (not read, or an RPC that did not know the deposit's blockhash), or null. */
  chainUnchecked?: string | null;
  /** What else happened, in brackets after the status ("the cancel failed"), or null. */
  note?: string | null;
  /** The command that follows the buy, or null when the caller says it elsewhere. */
  follow: string | null;
}

/** How about 90 s is said: the blockhash's life, in words a user can wait out. */
const DEPOSIT_LIFE = 'about 90 s';

/** Whether the evidence proves that nothing was spent (only the chain can). */
export function nothingSpentProven(e: DepositEvidence): boolean {
  return e.chainProvesAbsent === true;
}

/** The sentence that says what became of the money, from the evidence alone. */
export function depositWords(e: DepositEvidence): string {
  const check = e.follow ? `; check with: ${e.follow}` : '';
  const followIt = e.follow ? `; follow it with: ${e.follow}` : '';
  const status = e.status === null ? 'in an unknown state (it could not be read)' : e.status;
  const where = `buy ${e.buyId} is ${status}${e.note ? ` (${e.note})` : ''}`;
  if (e.chainProvesAbsent === true) {
    return `${where}, and the chain shows the signed deposit expired unused (after block height ${e.lastValidBlockHeight}): ${NOTHING_SPENT}`;
  }
  if (e.chainProvesAbsent === false) {
    return `${where}, but the chain shows the signed deposit landed: ${SOL_SPENT}${followIt}`;
  }
  // Why the chain proves nothing goes before the command to copy, which ends the sentence.
  const why = e.chainUnchecked ? ` (${e.chainUnchecked})` : '';
  return unproven(e, where, why + check, why + followIt);
}

function unproven(e: DepositEvidence, where: string, check: string, followIt: string): string {
  const ended = e.status === 'cancelled' || e.status === 'expired';
  if (ended && e.depositRecorded === false) {
    return (
      `${where} and the service records no deposit signature; what is not known: the signed deposit stays valid until block height ${e.lastValidBlockHeight} ` +
      `(${DEPOSIT_LIFE}) and could still land until then, so ${NOT_BEFORE_EXPIRED}${check}`
    );
  }
  if (e.depositRecorded === true) {
    return `${where} and a deposit signature is recorded: ${SOL_MAY_BE_SPENT}${followIt}`;
  }
  if (ended) {
    return `${where} and whether a deposit was recorded is unknown: the signed deposit could still land until block height ${e.lastValidBlockHeight} (${DEPOSIT_LIFE}); ${NOT_BEFORE_THEN}${check}`;
  }
  if (e.status === null || e.status === 'awaiting_deposit') {
    return `${where}: the signed deposit may still be spent until block height ${e.lastValidBlockHeight} (${DEPOSIT_LIFE}); ${NOT_BEFORE_THEN}${followIt}`;
  }
  return `${where}: ${DEPOSIT_TAKEN}${followIt}`;
}
