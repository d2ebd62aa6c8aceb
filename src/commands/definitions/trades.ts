// `trader trades <id> [--watch]`: what can be typed, and what it means.
import { parseSeconds, parseTradeIdArgument, type TypedTradeId } from '../../argument-parsers.js';
import { DEFAULT_WATCH_INTERVAL_SECONDS, MIN_WATCH_INTERVAL_SECONDS } from '../../defaults.js';
import { defineCommand, optionFlag, parsedOption } from '../definition.js';

export interface TradesOptions {
  id: TypedTradeId;
  watch: boolean;
  /** Between status reads while watching. */
  intervalSeconds: number;
}

export const trades = defineCommand<TradesOptions>({
  arguments: [{ name: '<id>', help: 'buy intent id (or its first 8+ characters), sell authorization id (sell_…) or trade id' }],
  options: [
    { flags: '--watch', help: 'follow the trade until it is final' },
    {
      flags: '--interval <seconds>',
      help: `seconds between status reads while watching, at least ${MIN_WATCH_INTERVAL_SECONDS}`,
      default: DEFAULT_WATCH_INTERVAL_SECONDS,
    },
  ],
  examples: ['trader trades <buyId>', 'trader trades sell_abc123 --watch', 'trader trades <id> --watch --json --timeout 600'],
  parse(raw) {
    const interval = (text: string) => parseSeconds(text, { option: '--interval', min: MIN_WATCH_INTERVAL_SECONDS });
    return {
      id: parseTradeIdArgument(raw.args[0]!),
      watch: optionFlag(raw, 'watch'),
      intervalSeconds: parsedOption(raw, 'interval', interval) ?? DEFAULT_WATCH_INTERVAL_SECONDS,
    };
  },
  load: () => import('../trades.js'),
});
