// The chain's word on a trade, held to this tool's journal: one function for every path that
// shows a chain verdict (buy and sell at their end, a resumed one too; `trades <id> --watch`;
// `trades <id> --verify`; the MCP trade tool through them), so that none checks less than another.
// What the journal recorded when this tool signed is used over the service's later word: the
// deposit it signed, the minimum it signed, the fee its review showed, when it made the trade. Each transaction that proved
// the trade is claimed for it alone: one the journal records as another trade's evidence is a
// contradiction (one transaction proves one trade, across processes).
import type { Trade } from '../api/types.js';
import { ChainContradictionError } from '../chain/chain-errors.js';
import type { SignedDeposit } from '../chain/deposit-absence.js';
import type { Verification } from '../chain/verify-trade.js';
import type { Context } from '../cli/context.js';
import { reviewedFeeOf } from '../journal/trade-history.js';
import { ApiError, SERVICE_CONTRADICTION, UsageError } from '../domain/errors.js';
import { oneLine } from '../api/http-errors.js';
import { JournalError } from '../journal/journal-file.js';
import { knowledgeFor, tradeHistory, type TradeJournal } from '../journal/opened-journal.js';
import { sortClaims, type EvidenceConflict } from '../journal/other-trades.js';
import type { EvidenceRole, JournalSide, NewRecord } from '../journal/records.js';
import { signedDepositsOf } from '../journal/trade-history.js';

/** What a check needs besides the trade: whose it is, and what this run knows beyond the journal. */
export interface ChainCheck {
  /** The journal of this service and the owner's wallet. */
  journal: TradeJournal;
  /** The trade as this tool knows it: a buy id, a sell_… id (or a trade id the journal learnt for one). */
  id: string;
  owner: string;
  /** The treasury the user trusts (pinned or set), or null. */
  treasury: string | null;
  /** The deposit this run signed (a buy run); otherwise the journal's. */
  signedDeposit?: SignedDeposit | null;
  /** A sell's minimum as the service reports it: used only where the journal has none signed. */
  serviceMinimumLamports?: bigint | null;
  /** Whether the caller says an unchecked verdict itself (`--verify` fails on it); else --json warns. */
  reportsUnchecked?: boolean;
}

/**
 * Checks every signature the trade names against the chain, bounded by the journal, and claims
 * what proved it (recorded when the journal knows the trade; compared only when it does not: its
 * id may be another name of one it knows). Null when there is no trade to check. A chain that
 * cannot be read is the verdict 'unchecked', never an error: the trade has happened either way.
 */
export async function verifyOnChain(
  ctx: Context,
  check: ChainCheck,
  trade: Trade | null,
): Promise<Verification | null> {
  if (trade === null) return null;
  const { verifyTrade } = await import('../chain/verify-trade.js');
  const history = tradeHistory(ctx, check.journal, check.id);
  sideAsJournaled(history, trade, check.id);
  const journaled = signedDepositsOf(history);
  const input = {
    trade,
    owner: check.owner,
    treasury: check.treasury,
    // Every deposit the journal shows signed for a buy (this run's among them), not only the last.
    signedDeposits: journaled.length > 0 ? journaled : check.signedDeposit ? [check.signedDeposit] : [],
    signedMinimumLamports: history?.signedMinimumLamports
      ? BigInt(history.signedMinimumLamports)
      : (check.serviceMinimumLamports ?? null),
    createdAtMs: history?.madeAtMs ?? null,
    // The platform fee the person saw before signing the deposit: what a refund is held to.
    reviewedFeeLamports: reviewedFeeOf(history, check.signedDeposit?.signature ?? trade.signatures.deposit),
    // What the journal knows of other trades: a transaction tied to one of them is not this trade's.
    journal: knowledgeFor(ctx, check.journal, history?.trade ?? check.id),
  };
  let verification: Verification;
  try {
    verification = await verifyTrade(await ctx.chain(), input);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    // Only the host: a provider's URL may carry its key in the path or query.
    verification = { rpc: hostOf(ctx.settings.rpcUrl), verdict: 'unchecked', checks: [], reason: err.message };
  }
  // Human output says it in the On chain line under the summary; a warning would say it twice.
  if (verification.verdict === 'unchecked' && ctx.output.json && !check.reportsUnchecked)
    ctx.output.warn(`not checked on chain: ${verification.reason}`);
  return claimEvidence(ctx, check.journal, trade.side, history?.trade ?? check.id, verification, history !== null);
}

/**
 * A trade the journal knows keeps the side this tool made it on: the service calling it the
 * other kind is a contradiction (exit 3), never shown or checked as that kind (a buy's token
 * amount read as a sell's lamports, its signed deposit left unchecked).
 */
export function sideAsJournaled(history: { side: string } | null, trade: Pick<Trade, 'side'>, id: string): void {
  if (history === null || history.side === trade.side) return;
  throw new ApiError(
    `the service reports trade ${oneLine(id, 80)} as a ${oneLine(String(trade.side), 20)}, but this tool made it as a ${history.side} (its journal): not shown or checked as the service's`,
    { code: SERVICE_CONTRADICTION },
  );
}

/** Exit 3 with the evidence in one line and the command to look again, when the chain contradicts the service. */
export async function stopIfContradicted(verification: Verification | null, tradeId: string): Promise<void> {
  if (verification?.verdict !== 'contradicted') return;
  const { contradictionLine } = await import('../chain/verify-trade.js');
  throw new ChainContradictionError(contradictionLine(verification)!, [
    `look again with: trader trades ${tradeId} --verify`,
  ]);
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'the configured RPC URL';
  }
}

/**
 * Claims the transactions a verification found on chain as this trade's evidence, under the lock:
 * one that already proved another trade becomes a contradiction naming both (exit 3 follows).
 * With `record` false (a trade the journal does not know: its id may be another name of one it
 * does) they are only compared. A journal that cannot be written is a warning; its records are
 * still compared.
 */
export async function claimEvidence(
  ctx: Context,
  tj: TradeJournal,
  side: JournalSide,
  trade: string,
  verification: Verification | null,
  record = true,
): Promise<Verification | null> {
  if (verification === null) return null;
  const { evidenceClaims, withEvidenceConflicts } = await import('../chain/verify-trade.js');
  const { named, proven } = evidenceClaims(verification);
  if (named.length === 0) return verification;
  let conflicts: EvidenceConflict[] = [];
  const evidence = (signature: string, role: EvidenceRole): NewRecord => ({
    type: 'evidence',
    side,
    trade,
    signature,
    role,
  });
  try {
    tj.journal.update((records) => {
      conflicts = sortClaims(records, trade, named).conflicts;
      return record ? sortClaims(records, trade, proven).fresh.map((c) => evidence(c.signature, c.role)) : [];
    });
  } catch (err) {
    if (!(err instanceof JournalError)) throw err;
    ctx.output.warn(`${err.message}; the evidence of ${trade} is not recorded`);
    try {
      conflicts = sortClaims(tj.journal.read(), trade, named).conflicts;
    } catch (readError) {
      if (!(readError instanceof JournalError)) throw readError;
    }
  }
  return withEvidenceConflicts(verification, trade, conflicts);
}
