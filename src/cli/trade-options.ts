// What buy and sell do with their options and the profile: its limits, the slippage to ask
// for and to allow, the waiting deadline.
import type { Context } from './context.js';
import { DEFAULT_MAX_SLIPPAGE_BPS } from '../domain/defaults.js';
import { UsageError } from '../domain/errors.js';
import { NOTHING_SENT } from '../domain/outcome-words.js';
import { lamports } from '../domain/units.js';
import { solAndLamports } from '../domain/amounts.js';

/** How the caller typed a trade's arguments: the CLI's flags, or the MCP tool's argument names. */
function typedNames(ctx: Context): { amount: string; slippage: string } {
  return ctx.facts.agent
    ? { amount: 'amount', slippage: 'slippageBps' }
    : { amount: '<amount>', slippage: '--slippage-bps' };
}

/**
 * The profile's limits for unattended use, maxBuyLamports and maxSlippageBps, checked before
 * anything is sent or any confirmation asked or demanded; the refusal names the argument as the
 * caller typed it (a flag in the CLI, a tool argument in MCP).
 */
export function limitChecks(
  ctx: Context,
  request: { buyLamports?: bigint; amountText?: string; slippageBps?: number },
): void {
  const { maxBuyLamports, maxSlippageBps, profileName } = ctx.settings;
  const names = typedNames(ctx);
  const profile = `profile "${profileName}"'s`;
  if (request.buyLamports !== undefined && maxBuyLamports !== null && request.buyLamports > maxBuyLamports) {
    const typed =
      request.amountText !== undefined && request.amountText !== request.buyLamports.toString()
        ? `${request.amountText} (${lamports(request.buyLamports)})`
        : lamports(request.buyLamports);
    throw new UsageError(
      `${names.amount} ${typed} is over ${profile} maxBuyLamports, ${solAndLamports(maxBuyLamports)}; ${NOTHING_SENT}`,
      'OVER_LIMIT',
      ['a person may raise it: trader config set maxBuyLamports <n>sol'],
    );
  }
  if (request.slippageBps !== undefined && maxSlippageBps !== null && request.slippageBps > maxSlippageBps) {
    throw new UsageError(
      `${names.slippage} ${request.slippageBps} is over ${profile} maxSlippageBps (${maxSlippageBps}); ${NOTHING_SENT}`,
      'OVER_LIMIT',
      ['a person may raise it: trader config set maxSlippageBps <bps>'],
    );
  }
}

/**
 * How long a trade waits for its end once it is signed, in ms (--timeout). The
 * flows start counting when the waiting starts, so time spent at the prompt does not count.
 */
export function waitLimitMs(ctx: Context): number {
  return ctx.settings.timeoutSeconds * 1000;
}

/**
 * The slippage to ask for: the typed one, else the profile's limit (so the service's unknown
 * default can never exceed it), else none (the service's default).
 */
export function slippageToAsk(ctx: Context, typed: number | undefined): number | undefined {
  return typed ?? ctx.settings.maxSlippageBps ?? undefined;
}

/** The most slippage a trade may carry: the stricter of the typed one and the profile's limit, else the default cap. */
export function allowedSlippage(ctx: Context, typed: number | undefined): number {
  const limits = [typed, ctx.settings.maxSlippageBps ?? undefined].filter((n): n is number => n !== undefined);
  return limits.length > 0 ? Math.min(...limits) : DEFAULT_MAX_SLIPPAGE_BPS;
}

/** When waiting gives up (--timeout from now), on the context's clock. */
export function deadline(ctx: Context): number {
  return ctx.clock.now() + waitLimitMs(ctx);
}
