// The brake's checks as a trade meets them: early in the preflight (nothing sent yet) and again
// in the signing gate's locked step (trade/signing-gate.ts, through the recorder), where the
// journal read under its lock is the one every process shares. The lock refuses every signature
// (exit 6); an unattended run (--yes, --json, no terminal, trader mcp) trades only mints its
// profile allows (exit 6; a person at the prompt is asked instead) and stops buying past the
// loss limit (exit 2); every run is held to the trades per hour (exit 2).
import type { Context } from '../cli/context.js';
import { brakePath, readBrake } from '../config/brake-file.js';
import { LockedFileError } from '../config/locked-file.js';
import { hourRoom, lockRefusal, mintRefusedWhy } from '../domain/brake-rules.js';
import { lossWords, realizedLoss, tradesInHour } from '../journal/brake-counts.js';
import { DeclinedError, RefusedToSignError, UsageError } from '../domain/errors.js';
import { readOrRefuse, type TradeJournal } from '../journal/opened-journal.js';
import type { BrakeChecks } from '../journal/recorder.js';
import type { JournalRecord, JournalSide } from '../journal/records.js';
import { formatLocalTime } from '../domain/local-time.js';
import type { Settings } from '../config/settings.js';
import { NOTHING_SENT } from '../domain/outcome-words.js';
import { counted } from '../domain/units.js';

/** No person answers in this run (--yes, --json, no terminal, an agent): the brake's unattended rules hold. */
export function unattended(ctx: Context): boolean {
  return !ctx.presence(false).mayGrantTrust;
}

/** Throws the lock's refusal (exit 6) while `trader lock` holds; a lock file that cannot be read refuses too (exit 2). */
export function assertUnlocked(ctx: Context, after: string): void {
  let lock;
  try {
    lock = readBrake(brakePath(ctx.config.path));
  } catch (err) {
    if (err instanceof LockedFileError) throw new UsageError(`${err.message}; ${after}`, 'LOCK_FILE');
    throw err;
  }
  if (lock) throw lockRefusal(lock, after);
}

/**
 * The brake's refusal of one more signature of `side` in `mint` (null: it may be made): the
 * trades of the last hour, and for an unattended run the mint lists and, for a buy, the loss stop.
 */
export function brakeRefusal(
  settings: Settings,
  records: readonly JournalRecord[],
  run: { wallet: string; side: JournalSide; mint: string | null; unattended: boolean; nowMs: number; after: string },
): Error | null {
  const profile = settings.profileName;
  if (run.unattended && run.mint !== null) {
    const why = mintRefusedWhy(run.mint, settings.allowedMints, settings.deniedMints, profile);
    if (why) return mintRefusal(why, run.after);
  }
  if (settings.maxTradesPerHour !== null) {
    const inHour = tradesInHour(records, run.wallet, run.nowMs);
    const room = hourRoom(inHour, settings.maxTradesPerHour);
    if (!room.fits) {
      const frees =
        room.freesAtMs === null ? 'no trade fits in an hour' : `one fits again at ${formatLocalTime(room.freesAtMs)}`;
      return new UsageError(
        `${counted(inHour.length, 'trade')} signed in the last hour by this wallet (this tool's journal, every process), profile "${profile}"'s maxTradesPerHour ${settings.maxTradesPerHour}: ${frees}; ${run.after}`,
        'OVER_HOURLY_TRADES',
      );
    }
  }
  if (run.unattended && run.side === 'buy' && settings.maxDailyLossLamports !== null) {
    const loss = realizedLoss(records, run.wallet, run.nowMs);
    if (loss.lossLamports > settings.maxDailyLossLamports) {
      return new UsageError(
        `${lossWords(loss, settings.maxDailyLossLamports, profile)}: unattended runs stop buying (selling stays allowed; a person at a terminal may still buy); ${run.after}`,
        'LOSS_STOP',
      );
    }
  }
  return null;
}

function mintRefusal(why: string, after: string): RefusedToSignError {
  return new RefusedToSignError(
    [`${why}: an unattended run does not trade it`],
    [`${after}; a person at a terminal is asked, or changes the list with \`trader config set allowedMints …\``],
    { code: 'MINT_NOT_ALLOWED', command: null },
  );
}

/**
 * A mint outside the profile's lists, once the trade knows it: refused unattended (exit 6), asked
 * of a person at the prompt, who is told why (a no ends the run, exit 4; nothing was sent).
 */
export async function checkMint(
  ctx: Context,
  mint: string,
  dryRun: boolean,
  after: string = NOTHING_SENT,
): Promise<void> {
  const why = mintRefusedWhy(mint, ctx.settings.allowedMints, ctx.settings.deniedMints, ctx.settings.profileName);
  if (why === null) return;
  if (unattended(ctx)) throw mintRefusal(why, after);
  if (dryRun) return ctx.output.warn(`${why}: an unattended run would not trade it`);
  if (!(await ctx.prompter.confirm(`${why}, so an unattended run would not trade it. Trade it anyway?`, false)))
    throw new DeclinedError(`declined: ${why}; ${after}`);
}

/** The brake's checks before anything is created (trades per hour; unattended: the loss stop, and the mint when typed): checked again before signing. */
export function preCheckBrake(ctx: Context, tj: TradeJournal, side: JournalSide, mint: string | null): void {
  const records = readOrRefuse(tj, NOTHING_SENT);
  const refused = brakeRefusal(ctx.settings, records, {
    wallet: tj.wallet,
    side,
    mint,
    unattended: unattended(ctx),
    nowMs: ctx.clock.now(),
    after: NOTHING_SENT,
  });
  if (refused) throw refused;
}

/** The brake's checks the recorder runs under the journal's lock; the profile as it is then: a limit a person tightened since the run started holds. */
export function brakeChecks(ctx: Context): BrakeChecks {
  return {
    assertUnlocked: (after) => assertUnlocked(ctx, after),
    refusal: (records, run) => brakeRefusal(ctx.settingsNow(), records, { ...run, unattended: unattended(ctx) }),
  };
}
