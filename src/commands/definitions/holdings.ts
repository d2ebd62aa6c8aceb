// `trader holdings`: what can be typed, and what it means.
import { defineCommand, optionFlag } from '../definition.js';
import { CSV_OPTION, parseCsv, WIDE_OPTION } from './shared-options.js';

export interface HoldingsOptions {
  csv: boolean;
  wide: boolean;
}

export const holdings = defineCommand<HoldingsOptions>({
  options: [CSV_OPTION, WIDE_OPTION],
  examples: ['trader holdings', "trader holdings --json | jq '.[] | {symbol, amount}'", 'trader holdings --csv > holdings.csv'],
  parse: (raw) => ({ csv: parseCsv(raw), wide: optionFlag(raw, 'wide') }),
  load: () => import('../holdings.js'),
});
