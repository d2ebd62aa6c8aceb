// `trader sell <token> <amount>`: what can be typed, and what it means.
import { parseSellAmount, parseSolToLamports, parseTokenArgument, type TokenArgument } from '../../argument-parsers.js';
import type { SellAmountSpec } from '../../amounts.js';
import { defineCommand, optionText } from '../definition.js';
import { idempotencyKeyOption, parseTradeFlags, SLIPPAGE_OPTION, type TradeFlags } from './shared-options.js';

export interface SellOptions extends TradeFlags {
  token: TokenArgument;
  /** Raw units, all, or a percentage: turned into units once the holding is read. */
  amount: SellAmountSpec;
  /** --min-sol in lamports: a signed minimum below it is refused; null when not typed. */
  minSolLamports: bigint | null;
}

export const sell = defineCommand<SellOptions>({
  arguments: [
    { name: '<token>', help: 'token mint address, or the symbol or mint prefix (8+ characters) of a current holding' },
    { name: '<amount>', help: 'raw token units, "all", or a percentage of the holding ("50%")' },
  ],
  options: [
    SLIPPAGE_OPTION,
    idempotencyKeyOption('sells'),
    { flags: '--min-sol <sol>', help: 'refuse to sign a minimum below this many SOL' },
    { flags: '--no-wait', help: 'stop once the authorization is accepted' },
    { flags: '--dry-run', help: 'quote and check everything, show the message, sign nothing' },
  ],
  examples: ['trader sell BONK 50%', 'trader sell <mint> all --min-sol 0.2 --yes --json', 'trader sell <mint> 1000000 --dry-run'],
  parse(raw) {
    const [token, amount] = raw.args as [string, string];
    const typedToken = parseTokenArgument(token, 'you hold');
    const amountSpec = parseSellAmount(amount);
    const flags = parseTradeFlags(raw);
    const minSol = optionText(raw, 'minSol');
    return { token: typedToken, amount: amountSpec, ...flags, minSolLamports: minSol === undefined ? null : parseSolToLamports(minSol) };
  },
  load: () => import('../sell.js'),
});
