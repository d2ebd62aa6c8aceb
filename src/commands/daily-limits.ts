// The daily limits of buy and sell: the profile's maxDailyBuyLamports / maxDailySellLamports,
// which a flag may lower for one run but never raise, and the refusal (exit 2) that names what
// the last 24 hours committed, the cap, and when room frees up. The counting itself is the
// journal's (domain/journal-records.ts), under its lock (commands/trade-journal.ts).
import type { Context } from '../cli/context.js';
import { commitments, dailyRoom, type JournalRecord, type JournalSide } from '../domain/journal-records.js';
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
export function dailyCap(ctx: Context, side: JournalSide, flag: bigint | undefined): DailyCap | null {
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
  throw new UsageError(
    `${what} would pass the daily limit: ${solAndLamports(room.spent)} ${spent} in the last 24 hours, cap ${solAndLamports(cap.lamports)} (${cap.source}); ${frees}; ${after}`,
    'OVER_DAILY_LIMIT',
  );
}
