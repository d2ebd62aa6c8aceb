// The daily limits of buy and sell: the profile's maxDailyBuyLamports / maxDailySellLamports,
// which a flag may lower for one run but never raise, and the refusal (exit 2) that names what
// the last 24 hours committed, the cap, and when room frees up. The counting itself is the
// journal's: what the last 24 hours committed, counted from its records under its lock (the
// recorder's `created` and the signing gate's locked step).
import type { Settings } from '../config/settings.js';
import type { JournalRecord, JournalSide } from './records.js';
import { UsageError } from '../domain/errors.js';
import { NOTHING_SENT } from '../domain/outcome-words.js';
import { solAndLamports } from '../domain/amounts.js';
import { formatLocalTime } from '../domain/local-time.js';

/** The cap one run is held to. */
export interface DailyCap {
  side: JournalSide;
  lamports: bigint;
  /** What set it, for the message. */
  source: string;
}

/** The rolling window of the daily limits. */
export const DAY_MS = 24 * 60 * 60 * 1000;

export const DAILY_KEYS = { buy: 'maxDailyBuyLamports', sell: 'maxDailySellLamports' } as const;
export const DAILY_FLAGS = { buy: '--max-daily-buy-lamports', sell: '--max-daily-sell-lamports' } as const;

/** The option each side's command takes to lower its daily limit for one run. */
export function dailyLimitOption(side: JournalSide) {
  const what = side === 'buy' ? 'signed deposits' : 'signed sell minimums';
  return {
    flags: `${DAILY_FLAGS[side]} <n>`,
    help: `lower, for this run, the lamports ${what} may total in any 24 hours (never above the profile's)`,
    short: `lower this run's 24-hour limit (config ${DAILY_KEYS[side]})`,
    configKey: DAILY_KEYS[side],
  };
}

/** The cap for this run: the flag's when given (refused when it would raise the profile's), else the profile's, else none. */
export function dailyCap(
  ctx: { settings: Pick<Settings, 'maxDailyBuyLamports' | 'maxDailySellLamports' | 'profileName'> },
  side: JournalSide,
  flag: bigint | undefined,
): DailyCap | null {
  const key = DAILY_KEYS[side];
  const profile = ctx.settings[key];
  if (flag === undefined)
    return profile === null
      ? null
      : { side, lamports: profile, source: `profile "${ctx.settings.profileName}"'s ${key}` };
  if (profile !== null && flag > profile) {
    throw new UsageError(
      `${DAILY_FLAGS[side]} ${flag} would raise profile "${ctx.settings.profileName}"'s ${key} (${profile}); a flag can only lower it; ${NOTHING_SENT}`,
      'OVER_LIMIT',
    );
  }
  return { side, lamports: flag, source: DAILY_FLAGS[side] };
}

/** Throws the refusal (exit 2) when `lamports` more would pass the cap within the 24 hours before `nowMs`. */
export function assertDailyRoom(
  records: readonly JournalRecord[],
  wallet: string,
  cap: DailyCap,
  lamports: bigint,
  nowMs: number,
  after: string,
): void {
  const room = dailyRoom(commitments(records, wallet, cap.side, nowMs), lamports, cap.lamports);
  if (room.fits) return;
  const what =
    cap.side === 'buy'
      ? `a buy of ${solAndLamports(lamports)}`
      : `a sell with a signed minimum of ${solAndLamports(lamports)}`;
  const spent = cap.side === 'buy' ? 'committed by signed deposits' : 'signed as sell minimums';
  const frees =
    room.freesAtMs === null
      ? lamports > cap.lamports
        ? 'it alone is more than the cap'
        : 'room does not free up in the next 24 hours'
      : `room for it frees up at ${formatLocalTime(room.freesAtMs)}`;
  // The next step where a person may take one: a profile's cap is raised in the profile (loosening
  // it asks the person at the terminal); a flag's only lowers that cap for the run.
  const key = DAILY_KEYS[cap.side];
  const raise = cap.source === DAILY_FLAGS[cap.side] ? [] : [`a person may raise it: trader config set ${key} <n>sol`];
  throw new UsageError(
    `${what} would go over the daily limit: ${solAndLamports(room.spent)} ${spent} in the last 24 hours, cap ${solAndLamports(cap.lamports)} (${cap.source}); ${frees}; ${after}`,
    'OVER_DAILY_LIMIT',
    raise,
  );
}

/** One signed commitment inside the window: when it was signed and how much it counts. */
export interface Commitment {
  atMs: number;
  lamports: bigint;
  trade: string;
}

/**
 * The wallet's commitments of one side within the 24 hours before `nowMs`, oldest first: a buy's
 * signed deposits (each signature once: a deposit signed again for the same intent is the same
 * transaction), a sell's signed minimums (each trade's message once). Every service counts: it is
 * the wallet's SOL.
 */
export function commitments(
  records: readonly JournalRecord[],
  wallet: string,
  side: JournalSide,
  nowMs: number,
): Commitment[] {
  const seen = new Set<string>();
  const out: Commitment[] = [];
  for (const r of records) {
    if (r.type !== 'before-signing' || r.wallet !== wallet || r.side !== side) continue;
    const atMs = Date.parse(r.at);
    if (!(atMs > nowMs - DAY_MS)) continue;
    // A deposit is one by its bytes (an earlier version's record, by its signature): signed again, it is the same.
    const key =
      r.side === 'buy'
        ? r.messageSha256
          ? `d:${r.trade}:${r.messageSha256}`
          : `d:${r.signature}`
        : `s:${r.trade}:${r.messageSha256}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ atMs, lamports: BigInt(r.side === 'buy' ? r.amountLamports : r.minimumOutputLamports), trade: r.trade });
  }
  return out.sort((a, b) => a.atMs - b.atMs);
}

/** Whether `lamports` more fits under `cap`, and if not, when enough of the window's commitments age out. */
export interface DailyRoom {
  fits: boolean;
  /** Committed in the window now. */
  spent: bigint;
  /** When it would fit (ms), or null when it fits now or never will (more than the cap alone). */
  freesAtMs: number | null;
}

/** At the cap fits; one lamport past it does not. */
export function dailyRoom(window: readonly Commitment[], lamports: bigint, cap: bigint): DailyRoom {
  const spent = window.reduce((sum, c) => sum + c.lamports, 0n);
  if (spent + lamports <= cap) return { fits: true, spent, freesAtMs: null };
  if (lamports > cap) return { fits: false, spent, freesAtMs: null };
  // Oldest first: each leaves the window 24 hours after it was signed.
  let left = spent;
  for (const c of window) {
    left -= c.lamports;
    if (left + lamports <= cap) return { fits: false, spent, freesAtMs: c.atMs + DAY_MS };
  }
  return { fits: false, spent, freesAtMs: null };
}
