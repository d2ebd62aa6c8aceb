// `trader sell <token> <amount>`: what can be typed, and what it means.
import { parseSellAmount, parseSolToLamports } from '../../argument-parsers.js';
import type { SellAmountSpec } from '../../amounts.js';
import { defineCommand, parsedOption } from '../definition.js';
import { parseTradeInput, tradeArguments, tradeOptions, type TradeInput } from './shared-options.js';

/** `amount`: raw units, all, or a percentage, turned into units once the holding is read. */
export interface SellOptions extends TradeInput<SellAmountSpec> {
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
  parse: (raw) => ({
    ...parseTradeInput(raw, 'you hold', parseSellAmount),
    minSolLamports: parsedOption(raw, 'minSol', parseSolToLamports) ?? null,
  }),
  load: () => import('../sell.js'),
});
