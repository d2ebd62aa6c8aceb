// `trader buy <token> <amount>`: what can be typed, and what it means.
import { parseBuyAmount, parseLamportsOption } from '../../argument-parsers.js';
import { DEFAULT_MAX_FEE_LAMPORTS } from '../../defaults.js';
import { defineCommand, parsedOption } from '../definition.js';
import { parseTradeInput, tradeArguments, tradeOptions, type TradeInput } from './shared-options.js';

/** `amount`: the SOL to spend, in lamports. */
export interface BuyOptions extends TradeInput<bigint> {
  /** Undefined: the profile's maxFeeLamports, else DEFAULT_MAX_FEE_LAMPORTS. */
  maxFeeLamports: bigint | undefined;
}

export const buy = defineCommand<BuyOptions>({
  arguments: tradeArguments('a token you have held or traded', 'SOL to spend: lamports (100000000) or SOL with a suffix (0.1sol)'),
  options: tradeOptions({
    trades: 'buys',
    own: [{ flags: '--max-fee-lamports <lamports>', help: 'refuse a deposit whose network fee exceeds this', default: DEFAULT_MAX_FEE_LAMPORTS }],
    accepted: 'deposit is accepted; follow later with `trader trades <id> --watch`',
    dryRun: 'show what would be signed',
  }),
  examples: ['trader buy <mint> 0.1sol', 'trader buy BONK 250000000 --slippage-bps 50 --yes --json', 'trader buy <mint> 0.5sol --dry-run'],
  parse: (raw) => ({
    ...parseTradeInput(raw, 'you have held or traded', parseBuyAmount),
    maxFeeLamports: parsedOption(raw, 'maxFeeLamports', parseLamportsOption),
  }),
  load: () => import('../buy.js'),
});
