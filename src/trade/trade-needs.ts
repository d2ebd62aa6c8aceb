// What a buy or sell flow needs as it goes, said instead of done: a flow is an async generator
// that yields its next need and is resumed with the answer (trade/driver.ts turns each need into
// a tracker, journal, signing-gate, screen or prompter call, the same for buy and sell, CLI and
// MCP). A new kind of need is added here, its answer in NeedAnswers, and served in driver.ts.
import { isUncertainOutcome } from '../api/client.js';
import type { ApiError } from '../domain/errors.js';
import type { NotShown } from '../domain/screen-fit.js';
import type { Prior, ToSign, TradeAnswer } from '../journal/recorder.js';
import type { Signed, SigningVerdict } from './signing-gate.js';

/** The trade as the journal records its creation. */
export interface CreatedTrade {
  id: string;
  idempotencyKey: string;
  resumed: boolean;
  request: { mint: string; amount: bigint; slippageBps?: number };
  quote: object;
}

/** A question for the person, by its name (`confirm`, `grant`, …); the command words it. */
export interface AskNeed<Review = unknown> {
  kind: 'ask';
  ask: string;
  review: Review;
  /**
   * What a yes would sign: the journal is read first, and these very bytes signed already are not
   * asked about again (other bytes signed for this trade refuse it, exit 3).
   */
  signing?: ToSign;
}

/** What the screen shows: the trade made (or resumed), how to resume it once it passed its checks, a stage while it is followed. */
export type ShowNeed =
  | { kind: 'show'; show: 'created'; id: string; status: string; resumed: boolean }
  | { kind: 'show'; show: 'resumable' }
  | { kind: 'show'; show: 'stage'; stage: string };

/** A moment of the side's own, which its command says or keeps (a quote expired, a deposit sent again or signed). */
export interface NoteNeed {
  kind: 'note';
  note: string;
  facts?: unknown;
}

/** A pin a person's yes at the prompt grants (a buy's treasury): answers what is pinned after (another process may have pinned first). */
export interface PinNeed {
  kind: 'pin';
  pin: 'treasury';
  value: string;
}

export type TradeNeed<Review = unknown> =
  /** The trade exists: the tracker and the journal are told (which may refuse it); answers what the journal knew. */
  | { kind: 'created'; trade: CreatedTrade; last: unknown; pastSigning: boolean }
  | AskNeed<Review>
  | ShowNeed
  | NoteNeed
  | PinNeed
  /** An answer of the service to record (never refuses: the trade is under way). */
  | { kind: 'record'; answer: TradeAnswer }
  /** Sign through the one gate (trade/signing-gate.ts); answers what left it. */
  | { kind: 'sign'; verdict: SigningVerdict; toSign: ToSign }
  /** Where the trade stands now (approved, handed over), its last state seen, what a failure's read proved. */
  | { kind: 'track'; phase?: 'approved' | 'submitted'; last?: unknown; proven?: string | null }
  /** A fresh idempotency key for a fresh quote (a new trade): answers the key. */
  | { kind: 'new-key' };

/** A hand-over (a deposit, an authorize) the service answered with an error: recorded, with whether it may have been taken. */
export function failedAnswer(step: 'deposit' | 'authorize', err: ApiError): Extract<TradeNeed, { kind: 'record' }> {
  return {
    kind: 'record',
    answer: { step, status: null, error: { code: err.code, status: err.status, uncertain: isUncertainOutcome(err) } },
  };
}

/** The answer a need of each kind gets. */
interface NeedAnswers {
  created: Prior;
  ask: boolean | NotShown;
  show: void;
  note: void;
  pin: string;
  record: void;
  sign: Signed;
  track: void;
  'new-key': string;
}

/** A trade's steps: yields needs, resumed with their answers, returns how the trade ended. */
export type TradeSteps<Result, Review = unknown> = AsyncGenerator<TradeNeed<Review>, Result, unknown>;

/** Yields `need` and gives its answer, typed by its kind: `const prior = yield* need({ kind: 'created', … })`. */
export function* need<N extends TradeNeed>(asked: N): Generator<N, NeedAnswers[N['kind']], unknown> {
  return (yield asked) as NeedAnswers[N['kind']];
}

/**
 * Runs `start`, yielding the needs of each event it emits as it comes (a stage seen while a trade
 * is followed), in order, and returns its result; every event's needs come before its result or error.
 */
export async function* eventsOf<E, R, Review = unknown>(
  start: (emit: (event: E) => void) => Promise<R>,
  needsOf: (event: E) => Array<TradeNeed<Review>>,
): AsyncGenerator<TradeNeed<Review>, R, unknown> {
  const queue: E[] = [];
  let wake: () => void = () => {};
  const running = start((event) => {
    queue.push(event);
    wake();
  }).then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  for (;;) {
    const woken = new Promise<null>((resolve) => (wake = () => resolve(null)));
    const ended = await Promise.race([running, woken]);
    while (queue.length > 0) for (const asked of needsOf(queue.shift()!)) yield asked;
    if (ended === null) continue;
    if (ended.ok) return ended.value;
    throw ended.error;
  }
}
