// The one gate every signature passes: a buy's deposit and a sell's message, from the CLI and
// from `trader mcp` (which runs the same flows). It takes the trade's verdict (sign, or refusals)
// and then, in one step under the journal's lock: re-reads the journal; if this trade already
// has a signature recorded, signs nothing new (the same bytes get the same signature back, as
// Ed25519 signs deterministically: a retry is idempotent; other bytes are a contradiction, exit
// 3, naming the first); checks the brake (the lock first of all; trades per hour, mints and loss
// stop for a new signature) and the daily limits; writes and fsyncs `before-signing`; signs;
// writes `signed`; releases. Two processes or two MCP calls on one trade: one signature leaves.
// The secret is obtained (a keystore's password asked) before the lock is taken and wiped after.
// No other module imports wallet/signatures.ts or unlocks the signer (test/unit/import-graph.test.ts).
import { ApiError, SERVICE_CONTRADICTION, RefusedToSignError } from '../domain/errors.js';
import type { JournalRecord, NewRecord } from '../journal/records.js';
import { formatLocalTime } from '../domain/local-time.js';
import { NOTHING_SIGNED } from '../domain/outcome-words.js';
import type { LockedJournal, ToSign, TradeRecorder } from '../journal/recorder.js';
import type { Signer } from '../wallet/owner-wallet.js';
import { signDepositTransaction, signedBytesSha256, signMessage } from '../wallet/signatures.js';
import { firstSignature as depositSignature } from '../chain/deposit-signature.js';

/**
 * A judge's word on a trade (the buy's deposit checks, the sell guard's judgeSell): sign, the
 * reasons not to, or what only a person grants (which the flow asks for before it comes here).
 */
export type SigningVerdict = { kind: 'sign' } | { kind: 'refused' | 'person'; reasons: string[] };

/** What left the gate: the signature, and what carries it (the signed transaction, or the signature itself). */
export interface Signed {
  signature: string;
  /** A deposit: the signed transaction (base64); a sell: the signature. */
  signed: string;
  /** The journal had this very signature already (a retry, another run's): nothing new was signed. */
  again: boolean;
}

/** Signs `what` for the journal's trade once, as the header says; throws the refusal otherwise. */
export async function signThroughGate(
  signer: Signer,
  journal: TradeRecorder,
  verdict: SigningVerdict,
  what: ToSign,
): Promise<Signed> {
  if (verdict.kind !== 'sign') throw new RefusedToSignError(verdict.reasons, [NOTHING_SIGNED]);
  const sha256 = signedBytesSha256(what);
  const secretKey = await signer.unlock();
  try {
    return journal.exclusive((locked) => {
      // The brake first: while `trader lock` holds, nothing is signed, not even bytes signed before.
      locked.assertUnlocked();
      const first = standingSignature(locked.own, what);
      if (first && first.sha256 !== sha256) throw signedOtherwise(what, locked.trade, first);
      const sign = () =>
        what.kind === 'deposit'
          ? signDepositTransaction(what.transaction, secretKey)
          : signMessage(what.message, secretKey);
      if (first) {
        // The same bytes: the same signature, recorded once.
        const signed = sign();
        const signature = what.kind === 'deposit' ? depositSignature(signed) : signed;
        if (!first.signed) locked.append(signedRecord(locked.trade, what, sha256, signature, signed));
        return { signature, signed, again: first.signed };
      }
      locked.assertMayTrade();
      locked.assertDailyRoom(what.kind === 'deposit' ? what.amountLamports : what.minimumOutputLamports);
      locked.append(beforeSigning(locked.trade, what, sha256));
      const signed = sign();
      const signature = what.kind === 'deposit' ? depositSignature(signed) : signed;
      locked.append(signedRecord(locked.trade, what, sha256, signature, signed));
      return { signature, signed, again: false };
    });
  } finally {
    secretKey.fill(0);
  }
}

/**
 * Before a person is asked: refuses (exit 3) when the journal shows other bytes signed for this
 * trade meanwhile; true when these very bytes were signed already (nothing is asked: the gate
 * gives their signature back), false when nothing stands in the way.
 */
export function signedAlready(journal: TradeRecorder, what: ToSign): boolean {
  const sha256 = signedBytesSha256(what);
  return journal.exclusive((locked: LockedJournal) => {
    const first = standingSignature(locked.own, what);
    if (first && first.sha256 !== sha256) throw signedOtherwise(what, locked.trade, first);
    return first !== null && first.signed;
  });
}

/** The first signature this trade's records hold that still stands (a deposit the chain proved dead does not), or null. */
interface StandingSignature {
  sha256: string | null;
  at: string;
  /** Its `signed` record is on disk: the signature may have left this process. */
  signed: boolean;
  signature: string | null;
  lastValidBlockHeight: number | null;
}

function standingSignature(own: readonly JournalRecord[], what: ToSign): StandingSignature | null {
  const dead = new Set(what.kind === 'deposit' ? what.provenDead : []);
  for (const r of own) {
    if (r.type !== 'before-signing') continue;
    if (r.side === 'buy' && r.messageSha256 === undefined) {
      // An earlier version's record: signed when written; its bytes are its transaction's.
      if (r.signature !== undefined && dead.has(r.signature)) continue;
      const sha256 = r.transaction ? safeSha256(r.transaction) : null;
      return {
        sha256,
        at: r.at,
        signed: true,
        signature: r.signature ?? null,
        lastValidBlockHeight: r.lastValidBlockHeight,
      };
    }
    const hash = r.messageSha256!;
    const made = own.find((s) => s.type === 'signed' && s.messageSha256 === hash);
    const signature = made?.type === 'signed' ? made.signature : null;
    // A before-signing with no signature after it never left this process (it stopped between the two).
    if (signature === null || dead.has(signature)) continue;
    return {
      sha256: hash,
      at: r.at,
      signed: true,
      signature,
      lastValidBlockHeight: r.side === 'buy' ? r.lastValidBlockHeight : null,
    };
  }
  return null;
}

function safeSha256(transaction: string): string | null {
  try {
    return signedBytesSha256({ kind: 'deposit', transaction });
  } catch {
    return null;
  }
}

function signedOtherwise(what: ToSign, trade: string, first: StandingSignature): ApiError {
  const when = formatLocalTime(first.at);
  if (what.kind === 'deposit') {
    return new ApiError(
      `the service offers buy ${trade} a deposit other than the one signed for it at ${when}${first.signature ? ` (${first.signature})` : ''}; one buy is signed once, so this one is not: ${NOTHING_SIGNED}; ` +
        `the deposit signed then may still land${first.lastValidBlockHeight === null ? '' : ` until block height ${first.lastValidBlockHeight}`}, so do not buy again before it has settled`,
      { code: SERVICE_CONTRADICTION, hints: [`follow it with: trader trades ${trade} --verify`] },
    );
  }
  return new ApiError(
    `the service gives sell ${trade} another message than the one signed for it at ${when}; one authorization is signed once, so this one is not: ${NOTHING_SIGNED}; the signature given then may still be used, so the sell may still go on`,
    { code: SERVICE_CONTRADICTION, hints: [`check it with: trader trades ${trade}`] },
  );
}

function beforeSigning(trade: string, what: ToSign, sha256: string): NewRecord {
  if (what.kind === 'sell')
    return {
      type: 'before-signing',
      side: 'sell',
      trade,
      messageSha256: sha256,
      minimumOutputLamports: what.minimumOutputLamports.toString(),
    };
  return {
    type: 'before-signing',
    side: 'buy',
    trade,
    messageSha256: sha256,
    blockhash: what.blockhash,
    lastValidBlockHeight: what.lastValidBlockHeight,
    blockhashKnownBeforeSigning: what.blockhashKnownBeforeSigning,
    amountLamports: what.amountLamports.toString(),
    platformFeeLamports: what.platformFeeLamports === null ? null : what.platformFeeLamports.toString(),
  };
}

function signedRecord(trade: string, what: ToSign, sha256: string, signature: string, signed: string): NewRecord {
  return {
    type: 'signed',
    side: what.kind === 'deposit' ? 'buy' : 'sell',
    trade,
    messageSha256: sha256,
    signature,
    ...(what.kind === 'deposit' ? { transaction: signed } : {}),
  };
}
