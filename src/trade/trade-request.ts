// What a buy's and a sell's flow both take from the run: the limits its checks settled
// (trade/preflight.ts's TradeStart), the options typed, the key and whether a person is present.
import type { Context } from '../cli/context.js';
import type { TradeInput } from '../cli/shared-options.js';
import type { Presence } from '../domain/presence.js';

/** What a buy's and a sell's flow both take from the run's checks and the options typed. */
export interface TradeRequest {
  /** The slippage to ask the service for (undefined: its default). */
  slippageBps?: number;
  /** The most slippage the user allows (the stricter of --slippage-bps and the profile's maxSlippageBps, or the default cap). */
  allowedSlippageBps: number;
  idempotencyKey: string;
  /** The user typed the key (to resume), rather than it being made fresh for this run. */
  keyTyped: boolean;
  /** Whether a person is here to grant trust (domain/presence.ts): only then is a first treasury pinned, a wording approved. */
  presence: Presence;
  /** The treasury the user trusts (set or pinned), or null: a buy's deposit must pay it; a sell's random values must not be it. */
  treasury: string | null;
  /** --yes: nothing can be asked (what cannot be checked, or a fresh quote, is refused rather than asked about). */
  assumeYes: boolean;
  wait: boolean;
  dryRun: boolean;
  /** How long to wait for the end once handed over (not counting the prompt). */
  waitLimitMs: number;
}

/** The request both sides share; `run`: this run's key and whether it is a dry run (a sell's may be one for --min-sol's quote). */
export function tradeRequest(
  ctx: Context,
  start: Pick<TradeRequest, 'slippageBps' | 'allowedSlippageBps' | 'treasury' | 'waitLimitMs'>,
  opts: Pick<TradeInput<unknown>, 'idempotencyKey' | 'wait' | 'dryRun'>,
  run: { idempotencyKey: string; dryRun: boolean },
): TradeRequest {
  return {
    slippageBps: start.slippageBps,
    allowedSlippageBps: start.allowedSlippageBps,
    idempotencyKey: run.idempotencyKey,
    keyTyped: opts.idempotencyKey !== undefined,
    presence: ctx.presence(opts.dryRun),
    treasury: start.treasury,
    assumeYes: ctx.settings.yes,
    wait: opts.wait !== false,
    dryRun: run.dryRun,
    waitLimitMs: start.waitLimitMs,
  };
}
