// The brake for anything unattended, as pure rules: the lock a person lifts (its file's text and
// the refusal that names it), which mints an unattended run may trade, the trades of the last
// hour and the loss realized over the last 24 hours, both counted from the journal's records, and
// whether a change of a limit loosens it (a person's act) or tightens it (anyone's).
import { RefusedToSignError } from './errors.js';
import { DAY_MS, type JournalRecord } from './journal-records.js';
import { formatLocalTime } from './local-time.js';
import { NOTHING_SIGNED } from './outcome-words.js';
import { counted } from './units.js';
import { solAndLamports } from './amounts.js';

export const HOUR_MS = 60 * 60 * 1000;

/** The lock as its file holds it: when it was pulled, why, and by what kind of run. */
export interface BrakeLock {
  at: string;
  reason: string | null;
  /** `person` (a terminal), `script` (no terminal or --yes) or `agent` (trader mcp). */
  by: string;
}

/** The lock file's text for `lock` (null: unlocked). */
export function brakeText(lock: BrakeLock | null): string {
  return JSON.stringify({ v: 1, locked: lock }, null, 2) + '\n';
}

/** The lock a file's text holds (null: unlocked); throws on text that is not one, so a damaged file never reads as unlocked. */
export function parseBrake(text: string): BrakeLock | null {
  const parsed = JSON.parse(text) as { locked?: unknown };
  const locked = parsed?.locked;
  if (locked === null || locked === undefined) {
    if (typeof parsed === 'object' && parsed !== null && 'locked' in parsed) return null;
    throw new Error('it holds no "locked" field');
  }
  const l = locked as Record<string, unknown>;
  if (typeof l.at !== 'string' || (l.reason !== null && typeof l.reason !== 'string') || typeof l.by !== 'string')
    throw new Error('its "locked" field is not a lock');
  return { at: l.at, reason: l.reason as string | null, by: l.by };
}

/** The lock in words: when and why. */
export function lockWords(lock: BrakeLock): string {
  return `trading is locked (trader lock) since ${formatLocalTime(lock.at)} by ${lock.by === 'agent' ? 'an agent' : `a ${lock.by}`}${lock.reason ? `: "${lock.reason}"` : ' (no reason given)'}`;
}

/** The refusal of every signature while the lock holds (exit 6): only a person at a terminal lifts it. */
export function lockRefusal(lock: BrakeLock, after: string = NOTHING_SIGNED): RefusedToSignError {
  return new RefusedToSignError(
    [lockWords(lock)],
    [`${after}; a person at a terminal lifts the lock with: trader unlock`],
    { code: 'TRADING_LOCKED', command: 'trader unlock' },
  );
}

/** Why an unattended run may not trade `mint` under these lists, or null when it may. */
export function mintRefusedWhy(
  mint: string,
  allowed: readonly string[] | null,
  denied: readonly string[] | null,
  profile: string,
): string | null {
  if (denied?.includes(mint)) return `${mint} is in profile "${profile}"'s deniedMints`;
  if (allowed !== null && !allowed.includes(mint))
    return `${mint} is not in profile "${profile}"'s allowedMints (${allowed.length === 0 ? 'empty' : allowed.join(', ')})`;
  return null;
}

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

/** Whether one more signature fits under `max` per rolling hour: at the limit it is refused; `freesAtMs` when it fits again. */
export function hourRoom(inHour: readonly number[], max: number): { fits: boolean; freesAtMs: number | null } {
  if (inHour.length < max) return { fits: true, freesAtMs: null };
  // The oldest that must age out for one more to fit.
  const oldest = inHour[inHour.length - max];
  return { fits: false, freesAtMs: oldest === undefined ? null : oldest + HOUR_MS };
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

/** The limits an unattended trader is held to, as a change compares them. */
export const LIMIT_KEYS = [
  'maxBuyLamports',
  'maxSlippageBps',
  'maxFeeLamports',
  'maxDailyBuyLamports',
  'maxDailySellLamports',
  'maxTradesPerHour',
  'maxDailyLossLamports',
  'allowedMints',
  'deniedMints',
] as const;
export type LimitKey = (typeof LIMIT_KEYS)[number];

/** A comma-separated list of mints as a profile stores it. */
export function mintList(value: string | number | undefined): string[] | null {
  if (value === undefined || value === '') return null;
  return String(value)
    .split(',')
    .map((m) => m.trim())
    .filter((m) => m !== '');
}

/**
 * Whether changing `key` from `before` to `after` (undefined: not set) loosens it: a number
 * raised or removed (no limit is the loosest); allowedMints given a mint it lacked or removed;
 * deniedMints losing a mint. Setting a limit where there was none, or lowering one, tightens.
 */
export function loosens(
  key: LimitKey,
  before: string | number | undefined,
  after: string | number | undefined,
): boolean {
  if (key === 'allowedMints') {
    const was = mintList(before);
    const now = mintList(after);
    if (was === null) return false;
    return now === null || now.some((m) => !was.includes(m));
  }
  if (key === 'deniedMints') {
    const was = mintList(before) ?? [];
    const now = mintList(after) ?? [];
    return was.some((m) => !now.includes(m));
  }
  if (before === undefined || before === '') return false;
  // A hand-edited value the tool cannot read enforces nothing (every run refuses it until fixed),
  // and whoever edits the file can write any value: replacing it is no loosening to guard.
  if (!/^\d+$/.test(String(before))) return false;
  if (after === undefined || after === '') return true;
  return BigInt(String(after)) > BigInt(String(before));
}
