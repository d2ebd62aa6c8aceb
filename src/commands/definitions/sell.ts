// `trader sell <token> <amount>`: what can be typed, and what it means.
import { parseSellAmount, parseSolToLamports, parseTokenArgument, type TokenArgument } from '../../argument-parsers.js';
import type { SellAmountSpec } from '../../amounts.js';
import { defineCommand, parsedOption } from '../definition.js';
import { parseTradeFlags, tradeArguments, tradeOptions, type TradeFlags } from './shared-options.js';

export interface SellOptions extends TradeFlags {
  token: TokenArgument;
  /** Raw units, all, or a percentage: turned into units once the holding is read. */
  amount: SellAmountSpec;
  /** --min-sol in lamports: a signed minimum below it is refused; null when not typed. */
  minSolLamports: bigint | null;
}

export const sell = defineCommand<SellOptions>({
  arguments: tradeArguments('a current holding', 'raw token units, "all", or a percentage of the holding ("50%")'),
  options: tradeOptions({
    trades: 'sells',
    own: [{ flags: '--min-sol <sol>', help: 'refuse to sign a minimum below this many SOL' }],
    accepted: 'authorization is accepted',
    dryRun: 'show the message',
  }),
  examples: ['trader sell BONK 50%', 'trader sell <mint> all --min-sol 0.2 --yes --json', 'trader sell <mint> 1000000 --dry-run'],
  parse(raw) {
    const [token, amount] = raw.args as [string, string];
    return {
      token: parseTokenArgument(token, 'you hold'),
      amount: parseSellAmount(amount),
      ...parseTradeFlags(raw),
      minSolLamports: parsedOption(raw, 'minSol', parseSolToLamports) ?? null,
    };
  },
  load: () => import('../sell.js'),
});
