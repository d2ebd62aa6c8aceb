// Following a trade until it is final: a buy or sell group through /trades/{id}/status (with
// the buy read too, since only that read advances deposit confirmation), a sell_… id through
// the sell endpoint. No printing: progress goes to a callback.
import type { ServiceClient } from '../api/client.js';
import type { GetSellResponse, TradeStatus } from '../api/types.js';
import type { Clock } from '../domain/clock.js';
import { MIN_STATUS_INTERVAL_MS } from '../domain/defaults.js';
import { ApiError, SERVICE_CONTRADICTION } from '../domain/errors.js';
import { pollUntil } from './poll.js';
import type { SellOutcome } from '../domain/sell-outcome.js';
import { contradiction, describeHistory, type SellSeen } from '../domain/sell-evidence.js';
import { seenOf, sellGroupKey, sellOutcome } from './sell-answers.js';
import { TOKENS_UNKNOWN } from '../domain/outcome-words.js';

/**
 * Adds a report of the sell to its history; throws when it contradicts what the service said
 * before (or itself): the words then name what was seen, in order, instead of believing either.
 */
export function noteSell(history: SellSeen[], sellId: string, view: GetSellResponse, from: string): void {
  history.push(seenOf(view, from));
  const why = contradiction(history);
  if (why === null) return;
  throw new ApiError(
    `the service contradicts itself about sell ${sellId}: ${why} (seen, in order: ${describeHistory(history)}); ${TOKENS_UNKNOWN}`,
    {
      code: SERVICE_CONTRADICTION,
    },
  );
}

export interface WatchDeps {
  api: ServiceClient;
  clock: Clock;
  signal: AbortSignal;
}

export interface WatchOptions {
  intervalMs: number;
  deadlineMs: number | null;
  onStage?(stage: string): void;
  /** A sell's reports seen before this watch (the authorize answer); the watch adds its own. */
  history?: SellSeen[];
}

/** Follows a buy or sell group by its trade id until `terminal`, or the deadline. */
export async function watchTrade(
  deps: WatchDeps,
  id: string,
  opts: WatchOptions,
): Promise<{ done: boolean; status: TradeStatus | undefined }> {
  let side: string | undefined;
  const result = await pollUntil<TradeStatus>({
    clock: deps.clock,
    signal: deps.signal,
    intervalMs: Math.max(MIN_STATUS_INTERVAL_MS, opts.intervalMs),
    // A deadline never brings a status read closer than 2 s to the last one: the wait stops instead.
    minGapMs: MIN_STATUS_INTERVAL_MS,
    deadlineMs: opts.deadlineMs,
    read: async () => {
      // Only a buy read advances confirmation; the side is known after the first status read,
      // so the first round reads the buy after it (never the status twice within 2 s).
      if (side === 'buy') await deps.api.getBuy(id);
      const status = await deps.api.getTradeStatus(id);
      if (side === undefined && status.side === 'buy' && !status.terminal) await deps.api.getBuy(id);
      side = status.side;
      return status;
    },
    isDone: (s) => s.terminal,
    onValue: (s) => opts.onStage?.(s.stage),
  });
  return { done: result.done, status: result.value };
}

/** Follows a sell by its `sell_…` id until it completes or fails, or the deadline. */
export async function watchSell(
  deps: WatchDeps,
  sellId: string,
  opts: WatchOptions,
): Promise<{ done: boolean; view: GetSellResponse | undefined; outcome: SellOutcome | undefined }> {
  let groupUsable = true;
  let outcome: SellOutcome | undefined;
  const history = opts.history ?? [];
  let reads = 0;
  const result = await pollUntil<GetSellResponse>({
    clock: deps.clock,
    signal: deps.signal,
    intervalMs: Math.max(MIN_STATUS_INTERVAL_MS, opts.intervalMs),
    // Each round may read the group's status too, so the same 2 s floor holds at a deadline.
    minGapMs: MIN_STATUS_INTERVAL_MS,
    deadlineMs: opts.deadlineMs,
    read: async () => {
      const view = await deps.api.getSell(sellId);
      noteSell(history, sellId, view, `read ${++reads}`);
      const key = groupUsable ? sellGroupKey(view.sell) : null;
      let status: TradeStatus | null = null;
      if (key) {
        try {
          status = await deps.api.getTradeStatus(key);
        } catch (err) {
          // The key was a guess at the group key's field; a 4xx means it is not one.
          if (err instanceof ApiError && err.status !== null && err.status >= 400 && err.status < 500)
            groupUsable = false;
          else throw err;
        }
      }
      outcome = sellOutcome(view, status, history);
      return view;
    },
    isDone: () => outcome !== undefined && outcome.state !== 'pending',
    onValue: () => opts.onStage?.(outcome?.state === 'pending' ? outcome.stage : (outcome?.state ?? 'pending')),
  });
  return { done: result.done, view: result.value, outcome };
}
