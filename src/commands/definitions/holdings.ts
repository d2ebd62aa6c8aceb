// `trader holdings`: what can be typed, and what it means.
import { defineCommand } from '../definition.js';
import { CSV_OPTION, parseTableFlags, WIDE_OPTION, type TableFlags } from './shared-options.js';

export type HoldingsOptions = TableFlags;

export const holdings = defineCommand<HoldingsOptions>({
  options: [CSV_OPTION, WIDE_OPTION],
  examples: ['trader holdings', "trader holdings --json | jq '.[] | {symbol, amount}'", 'trader holdings --csv > holdings.csv'],
  parse: parseTableFlags,
  load: () => import('../holdings.js'),
});
