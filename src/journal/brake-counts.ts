// What the brake counts from the journal's records: one wallet's signatures in the last hour
// (maxTradesPerHour) and the loss realized over the last 24 hours (maxDailyLossLamports). The
// rules that judge the counts are domain/brake-rules.ts's.
import { solAndLamports } from '../domain/amounts.js';
import { counted } from '../domain/units.js';
import { HOUR_MS } from '../domain/brake-rules.js';
import { DAY_MS } from './daily-limits.js';
import type { JournalRecord } from './records.js';

/** The signatures one wallet made: each trade's signed bytes once (a deposit or message signed again is the same), with when. */
function signedTrades(
  records: readonly JournalRecord[],
  wallet: string,
): Array<{ atMs: number; record: Extract<JournalRecord, { type: 'before-signing' }> }> {
  const made = new Set(records.filter((r) => r.type === 'signed').map((r) => `${r.trade}:${r.messageSha256}`));
  const seen = new Set<string>();
  const out: Array<{ atMs: number; record: Extract<JournalRecord, { type: 'before-signing' }> }> = [];
  for (const r of records) {
    if (r.type !== 'before-signing' || r.wallet !== wallet) continue;
    // An earlier version's record was signed when written; a before-signing with no signed after it never left.
    const key = r.messageSha256 ? `${r.trade}:${r.messageSha256}` : `sig:${r.side === 'buy' ? r.signature : r.trade}`;
    if (r.messageSha256 && !made.has(key)) continue;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ atMs: Date.parse(r.at), record: r });
  }
  return out.sort((a, b) => a.atMs - b.atMs);
}

/** The wallet's signatures within the hour before `nowMs`, oldest first (ms each was made). */
export function tradesInHour(records: readonly JournalRecord[], wallet: string, nowMs: number): number[] {
  return signedTrades(records, wallet)
    .map((s) => s.atMs)
    .filter((at) => at > nowMs - HOUR_MS);
}

/** Outcomes after which a trade moved nothing (its tokens or SOL stayed where they were). */
const NOTHING_MOVED = new Set(['refunded', 'failed', 'expired', 'cancelled', 'declined', 'refused']);

/** The realized loss of one window, and how it was reckoned. */
export interface RealizedLoss {
  /** Cost of what was sold less what the sells paid; negative: a gain. */
  lossLamports: bigint;
  /** Sells in the window counted. */
  sells: number;
  /** Sells in the window whose cost the journal cannot know (no buy of that mint recorded): not counted. */
  unknownCost: number;
}

/**
 * The realized loss over the 24 hours before `nowMs`, from the journal alone (average cost, as
 * `trader pnl` reckons it): per mint, the signed buys and sells are walked oldest first; a buy adds
 * its deposit (fee included) and the fewest units its quote promised (`minimumOutputAmount`) to
 * the pool; a sell takes its share of the pool's cost (units sold / units held, all of it when it
 * empties the pool) and is paid its signed minimum (`minimumOutputLamports`). The journal holds
 * no payout, so both are the bounds the trade signed: the loss counted is the most it can be,
 * never less, and the stop comes early rather than late. A trade whose last outcome moved nothing
 * (refunded, failed, expired, cancelled) is left out. Only sells inside the window count.
 */
export function realizedLoss(records: readonly JournalRecord[], wallet: string, nowMs: number): RealizedLoss {
  const created = new Map<string, Extract<JournalRecord, { type: 'created' }>>();
  const last = new Map<string, string>();
  for (const r of records) {
    if (r.wallet !== wallet) continue;
    if (r.type === 'created' && !created.has(`${r.side}:${r.trade}`)) created.set(`${r.side}:${r.trade}`, r);
    if (r.type === 'outcome') last.set(`${r.side}:${r.trade}`, r.outcome);
  }
  const pools = new Map<string, { units: bigint; cost: bigint }>();
  const counted = new Set<string>();
  let loss = 0n;
  let sells = 0;
  let unknownCost = 0;
  for (const { atMs, record } of signedTrades(records, wallet)) {
    const id = `${record.side}:${record.trade}`;
    const made = created.get(id);
    if (!made || counted.has(id) || NOTHING_MOVED.has(last.get(id) ?? '')) continue;
    counted.add(id);
    const pool = pools.get(made.request.mint) ?? { units: 0n, cost: 0n };
    pools.set(made.request.mint, pool);
    if (record.side === 'buy') {
      const units = digits(made.quote.minimumOutputAmount) ?? digits(made.quote.expectedOutputAmount);
      if (units === null) continue;
      pool.units += units;
      pool.cost += BigInt(record.amountLamports);
      continue;
    }
    const sold = digits(made.request.amount) ?? 0n;
    const share = pool.units === 0n ? null : sold >= pool.units ? pool.cost : divRound(pool.cost * sold, pool.units);
    if (share !== null) {
      pool.cost -= share;
      pool.units = sold >= pool.units ? 0n : pool.units - sold;
    }
    if (!(atMs > nowMs - DAY_MS)) continue;
    if (share === null) {
      unknownCost++;
      continue;
    }
    sells++;
    loss += share - BigInt(record.minimumOutputLamports);
  }
  return { lossLamports: loss, sells, unknownCost };
}

/** How the loss was reckoned, for the refusal that names it. */
export function lossWords(loss: RealizedLoss, max: bigint, profile: string): string {
  const unknown = loss.unknownCost
    ? `; ${counted(loss.unknownCost, 'sell')} of tokens bought outside this journal not counted`
    : '';
  return (
    `the loss realized in the last 24 hours, ${solAndLamports(loss.lossLamports)}, passes profile "${profile}"'s maxDailyLossLamports, ${solAndLamports(max)}: ` +
    `reckoned from this tool's journal over ${counted(loss.sells, 'sell')}, each paid its signed minimum against its share of the average cost of the signed buys of its token (deposit, fee included, over the fewest units quoted)${unknown}`
  );
}

function digits(v: unknown): bigint | null {
  return typeof v === 'string' && /^\d+$/.test(v) ? BigInt(v) : null;
}

function divRound(n: bigint, d: bigint): bigint {
  return (n * 2n + d) / (2n * d);
}
