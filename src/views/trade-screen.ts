// What a buy or sell shows while it runs and how its end is said, written once for both: the
// creation note (with the command that resumes it), the stage on the progress line, a dry run's
// verdict, and the error of a trade that is still pending. Each command gives only its words.
// A stop is not said here: trade/trade-tracker.ts's tradeRun gives the error what became of the
// trade, and the entry prints it.
import type { Context } from '../cli/context.js';
import { PendingError, RefusedToSignError, type NeededTrust } from '../domain/errors.js';
import type { Theme } from '../io/theme.js';
import { stageWords } from './stage.js';
import { commandLines, withCommand } from '../io/command-line.js';
import { notShownWhole, type NotShown } from '../domain/screen-fit.js';
import { followCommand } from '../domain/follow-command.js';
import { personCommand } from '../cli/person-command.js';
import { DRY_RUN_PASSED, MAY_STILL_FINISH, NOTHING_SIGNED } from '../domain/outcome-words.js';
import { secondsText } from '../domain/units.js';

export interface TradeWords {
  side: 'buy' | 'sell';
  /** What the first note says the trade is once made ("created", "quoted"). */
  created: string;
  /** What the quote makes on the service ("buy intent"), which a dry run says it left there. */
  made: string;
}

/** The screen of one buy or sell run. */
export interface TradeScreen {
  /** The trade exists: a resumed one says so; a new one's note waits for resumable(). */
  created(tradeId: string, status: string, resumed: boolean): void;
  /** A new trade passed its checks: says it was made, with how to resume it (with its key alone on a dry run). */
  resumable(resume: string): void;
  /** Whether `shown` (what a yes agrees to) and the question below it fit the terminal whole; why not and the rows needed, else null. */
  notShownWhole(what: string, shown: string, question: string, countdown: { expired: string }): NotShown | null;
  /** Runs the flow with a progress line that shows its stage, stopped whatever its end. */
  run<R>(flow: (stage: (stage: string) => void) => Promise<R>): Promise<R>;
  /** A dry run's review and verdict, with what became of the unsigned trade; throws the refusal (exit 6) when a check failed, or trust a person must grant is missing. */
  dryRun(
    json: Record<string, unknown>,
    problems: string[],
    review: (theme: Theme) => string,
    fate: string,
    trust?: NeededTrust | null,
  ): void;
  /** The error of a trade not final when --timeout ran out (exit 5), with the command that follows it. */
  pending(tradeId: string, state: string): PendingError;
}

/** The screen for a buy or sell; `idempotencyKey` is asked each time, as a fresh quote changes it. */
export function tradeScreen(
  ctx: Context,
  words: TradeWords,
  idempotencyKey: () => string,
  isDryRun: boolean,
): TradeScreen {
  const title = words.side === 'buy' ? 'Buy' : 'Sell';
  let id: string | null = null;
  let isNew = false;
  const note = (text: string) => ctx.output.note(text);
  return {
    created(tradeId, status, resumed) {
      [id, isNew] = [tradeId, !resumed];
      if (resumed) note(`Resuming ${words.side} ${tradeId} (${status}).`);
    },
    resumable(typed) {
      if (!isNew) return;
      isNew = false;
      const resume = personCommand(ctx, typed);
      // On a terminal the lines are laid out to its width; piped, the command stays one line.
      const shellWidth = ctx.terminal.stderrColumns;
      const columns = shellWidth ?? ctx.terminal.columns;
      const onTerminal = shellWidth !== undefined;
      // A dry run leaves nothing to resume: the key alone is said (not a command: no shell lines; the note wraps at spaces).
      if (isDryRun)
        note(withCommand(`${title} ${id} ${words.created}.`, `Idempotency key: ${idempotencyKey()}`, columns));
      // The resume command holds the key; it stands on its own line, whole, to be copied.
      else
        note(
          `${withCommand(`${title} ${id} ${words.created}.`, 'If interrupted, resume with:', columns, onTerminal)}\n${onTerminal ? commandLines(resume, columns) : resume}`,
        );
    },
    notShownWhole(what, shown, question, countdown) {
      // Only a person at the prompt is asked; --yes (or an MCP client's person) reads it elsewhere.
      if (ctx.settings.yes) return null;
      return notShownWhole(
        { rows: ctx.terminal.rows, columns: ctx.terminal.stderrColumns, shownRows: ctx.output.noteRows(shown) },
        what,
        question,
        countdown,
      );
    },
    async run(flow) {
      const progress = await ctx.progress();
      try {
        return await flow((stage) => progress.update(`${title} ${id}: ${stageWords(stage)}`));
      } finally {
        progress.stop();
      }
    },
    dryRun(json, problems, review, fate, trust = null) {
      // The quote is a trade made on the service: said, with what became of it.
      const trace = id === null ? fate : `the quote created ${words.made} ${id} on the service; ${fate}`;
      ctx.output.result({ dryRun: true, ok: problems.length === 0, problems, ...json }, (theme) =>
        [
          review(theme),
          problems.length === 0
            ? `${theme.success(`${DRY_RUN_PASSED}.`)}\n${upperFirst(trace)}.`
            : // The reasons are the error's to say, once (the entry prints it below); --json keeps them here too.
              theme.failure('Dry run: refused; the error below says why.'),
        ].join('\n'),
      );
      const next = trust?.command ? `; a person who has read it grants it with: ${trust.command}` : '';
      if (problems.length > 0)
        throw new RefusedToSignError(problems, [`dry run: ${NOTHING_SIGNED}; ${trace}${next}`], trust);
    },
    pending(tradeId, state) {
      // The follow command is in the message itself, so --json's error line carries it too.
      const follow = followCommand(tradeId);
      return new PendingError(
        `${words.side} ${tradeId} is ${state} after ${secondsText(ctx.settings.timeoutSeconds * 1000)}; ${MAY_STILL_FINISH}; follow it with: ${follow}`,
      ).endingWith(follow);
    },
  };
}

const upperFirst = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
