// What a buy gets for what it pays, before anything is signed. The intent carries only the
// amount and the minimum out; the trade read (GET /trades/{id}) adds the expected output, the
// platform fee and the slippage the service applied. That read is not required: when it fails,
// or answers for another trade, the facts it would give are reported unknown, never guessed.
import type { ServiceClient } from '../api/client.js';
import type { BuyIntent, Trade } from '../api/types.js';
import { solPerToken, toDecimalString } from '../domain/amounts.js';
import { ApiError } from '../domain/errors.js';
import { belowSlippageFloor, slippageFloor, validBps } from '../wallet/slippage.js';
import type { BuyQuote, BuyToken, QuoteRead } from './buy-review.js';
import { counted } from '../domain/units.js';

/** Reads the new intent's trade; a service failure or a trade that does not match becomes `problem`. */
export async function readQuote(api: ServiceClient, intent: BuyIntent): Promise<QuoteRead> {
  let trade: Trade;
  try {
    trade = await api.getTrade(intent.id);
  } catch (err) {
    if (err instanceof ApiError) return { trade: null, problem: `the trade could not be read (${err.message})` };
    throw err;
  }
  const matches =
    trade.id === intent.id &&
    trade.side === 'buy' &&
    trade.outputMint === intent.outputMint &&
    trade.inputAmount === intent.amountLamports &&
    trade.minimumOutputAmount === intent.minimumOutputAmount;
  return matches ? { trade, problem: null } : { trade: null, problem: 'the trade read does not match the buy intent' };
}

/**
 * The quote's slippage against what the user allows (--slippage-bps, maxSlippageBps or the
 * default cap): not wider, and the intent's minimum out its floor (the floor of the allowed
 * slippage when the service names none). When the trade could not be read nothing can be
 * checked: at the prompt the review says so; unattended (`assumeYes`) the buy is refused.
 */
export function buySlippageProblems(
  intent: BuyIntent,
  quote: QuoteRead,
  allowedBps: number,
  assumeYes: boolean,
): string[] {
  const trade = quote.trade;
  if (!trade) return assumeYes ? [`the quote's slippage cannot be checked: ${quote.problem}`] : [];
  const problems: string[] = [];
  const bps = validBps(trade.slippageBps);
  if (trade.slippageBps !== null && bps === null)
    problems.push(
      `the quote's slippage ${JSON.stringify(trade.slippageBps)} is not a number of basis points from 0 to 10000`,
    );
  if (bps !== null && bps > allowedBps)
    problems.push(`the quote's slippage ${bps} bps is more than the ${allowedBps} bps allowed`);
  if (!/^\d+$/.test(trade.expectedOutputAmount) || !/^\d+$/.test(intent.minimumOutputAmount)) return problems;
  const expected = BigInt(trade.expectedOutputAmount);
  const minimum = BigInt(intent.minimumOutputAmount);
  const floorBps = bps ?? allowedBps;
  if (minimum > expected)
    problems.push(`the minimum out ${counted(minimum, 'raw unit')} is above the expected ${expected}`);
  else if (belowSlippageFloor(expected, minimum, floorBps)) {
    problems.push(
      `the minimum out ${counted(minimum, 'raw unit')} is below what ${floorBps} bps of slippage allows on the expected ${expected} (${slippageFloor(expected, floorBps)})`,
    );
  }
  return problems;
}

/** The buy review's facts from the intent, the deposit's network fee, the quote read and the token's bound facts. */
export function buyQuote(
  intent: BuyIntent,
  networkFeeLamports: bigint,
  quote: QuoteRead,
  token: BuyToken,
  slippageBpsAsked: number | undefined,
): BuyQuote {
  const bound = token.binding.token;
  const decimals = bound.decimals;
  const whole = (raw: string | null) =>
    raw === null || decimals === null ? null : toDecimalString(BigInt(raw), decimals);
  const trade = quote.trade;
  const expected = trade?.expectedOutputAmount ?? null;
  const unknown: string[] = [];
  if (!trade) unknown.push(`expected output, platform fee and slippage: ${quote.problem}`);
  if (decimals === null) {
    const why = token.chainUnread !== null ? 'the chain could not be read' : 'the chain has no token mint there';
    unknown.push(`the token's decimals (${why}): amounts in raw units, no price`);
  }
  return {
    token: {
      ...bound,
      seenBefore: token.seenBefore,
      unbound: token.binding.unbound,
      chainUnread: token.chainUnread,
      risks: token.risks,
    },
    depositLamports: intent.amountLamports,
    platformFeeLamports: trade?.platformFeeLamports ?? null,
    networkFeeMaxLamports: networkFeeLamports.toString(),
    totalMaxLamports: (BigInt(intent.amountLamports) + networkFeeLamports).toString(),
    expectedOutputAmount: expected,
    minimumOutputAmount: intent.minimumOutputAmount,
    expectedOutput: whole(expected),
    minimumOutput: whole(intent.minimumOutputAmount),
    slippageBps: trade?.slippageBps ?? null,
    slippageBpsAsked: slippageBpsAsked ?? null,
    pricePerTokenSol:
      expected !== null && decimals !== null && BigInt(expected) > 0n
        ? solPerToken(BigInt(intent.amountLamports), BigInt(expected), decimals)
        : null,
    unknown: unknown.length ? unknown.join('; ') : null,
  };
}
