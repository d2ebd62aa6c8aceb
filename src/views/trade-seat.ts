// The seat a buy or sell runs in from a command (and from `trader mcp`, whose context approves
// through the client's elicitation): the person is asked through the context's prompter, the
// screen is views/trade-screen.ts. The command gives only its side's words: each question, the
// command that resumes the trade, and its own notes.
import { randomUUID } from 'node:crypto';
import type { Context } from '../cli/context.js';
import type { NotShown } from '../domain/screen-fit.js';
import type { Countdown } from '../io/prompter.js';
import type { TradeScreen } from './trade-screen.js';
import type { TradeSeat } from '../trade/driver.js';
import type { AskNeed, NoteNeed, PinNeed } from '../trade/trade-needs.js';
import type { StopWords } from '../trade/trade-tracker.js';

/** A question as the person sees it. */
export interface Question {
  question: string;
  /** What explains the question, printed above `text` but not what a yes approves: left out of the fit (`whole`). */
  context?: string;
  /** What is shown above the question (noted first). */
  text?: string;
  /** With `text`: what must stand whole on the screen with the question, or it is not asked. */
  whole?: string;
  countdown?: Countdown;
  defaultYes?: boolean;
  /** Whether a yes approves the trade itself (under --yes answered for the person, or by an MCP client's person). */
  approves?: boolean;
}

/** The side's words and acts around the driver's needs. */
export interface SideWords<Review> {
  /** What a stop says of this side's trade. */
  stop: StopWords;
  /** The question a need asks. */
  question(need: AskNeed<Review>): Question;
  /** What a person's answer grants beyond the trade (a symbol bound, risks accepted); returns the answer. */
  answered?(need: AskNeed<Review>, yes: boolean): boolean;
  /** The command that resumes the trade with its current key. */
  resume(): string;
  /** The side's own moments. */
  note?(need: NoteNeed): void;
  /** Pins what a person's yes granted; returns what is pinned after. */
  pin?(need: PinNeed): string;
}

/** What a command's run holds that its seat uses: the wallet, the journal, the screen, and the key a fresh quote replaces. */
export interface SeatRun<Review> {
  readonly start: { readonly signer: TradeSeat<Review>['signer'] };
  readonly journal: TradeSeat<Review>['journal'];
  readonly screen: TradeScreen;
  idempotencyKey: string;
}

/** The seat for a trade run by a command. */
export function promptSeat<Review>(
  ctx: Context,
  run: SeatRun<Review>,
  track: TradeSeat<Review>['track'],
  side: SideWords<Review>,
): TradeSeat<Review> {
  let stage: (stage: string) => void = () => {};
  const { screen } = run;
  return {
    signer: run.start.signer,
    journal: run.journal,
    track,
    words: side.stop,
    // A fresh quote is a new trade, on a new key: the run keeps it, for the resume command.
    newKey: () => (run.idempotencyKey = randomUUID()),
    async ask(need) {
      const answer = await askPerson(ctx, screen, side.question(need));
      return typeof answer === 'object' || !side.answered ? answer : side.answered(need, answer);
    },
    show(need) {
      if (need.show === 'created') screen.created(need.id, need.status, need.resumed);
      else if (need.show === 'resumable') screen.resumable(side.resume());
      else stage(need.stage);
    },
    note: (need) => side.note?.(need),
    pin(need) {
      if (!side.pin) throw new Error(`nothing pins ${need.pin} here`);
      return side.pin(need);
    },
    progress: (flow) =>
      screen.run((update) => {
        stage = update;
        return flow();
      }),
  };
}

/** Shows the question's text and asks it; `notShown` when what must stand whole with it does not fit the screen. */
async function askPerson(ctx: Context, screen: TradeScreen, q: Question): Promise<boolean | NotShown> {
  if (q.whole && q.text) {
    const needed = screen.notShownWhole(q.whole, q.text, q.question, q.countdown ?? { expired: '' });
    if (needed) return needed;
  }
  if (q.context) ctx.output.note(q.context);
  if (q.text) ctx.output.note(q.text);
  return q.approves
    ? ctx.approveTrade([q.context, q.text].filter(Boolean).join('\n'), q.question, q.countdown)
    : ctx.prompter.confirm(q.question, q.defaultYes ?? false, q.countdown);
}
