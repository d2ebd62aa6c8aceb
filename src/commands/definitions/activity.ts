// `trader activity`: what can be typed, and what it means.
import { parseActivityTypes } from '../../argument-parsers.js';
import { ACTIVITY_TYPES, type ActivityType } from '../../api/types.js';
import { defineCommand, optionFlag, optionText } from '../definition.js';
import { CSV_OPTION, PAGE_OPTIONS, parseCsv, parsePageFlags, WIDE_OPTION, type PageFlags } from './shared-options.js';

export interface ActivityOptions extends PageFlags {
  /** Only these types; undefined: all. */
  types: ActivityType[] | undefined;
  csv: boolean;
  wide: boolean;
}

export const activity = defineCommand<ActivityOptions>({
  options: [
    { flags: '--type <types>', help: `comma-separated: ${ACTIVITY_TYPES.join(',')}`, values: ACTIVITY_TYPES },
    ...PAGE_OPTIONS,
    CSV_OPTION,
    WIDE_OPTION,
  ],
  examples: ['trader activity', 'trader activity --type buy,sell --limit 50', "trader activity --all --json | jq '.[].points'", 'trader activity --all --csv > trades.csv'],
  parse(raw) {
    const csv = parseCsv(raw);
    const types = optionText(raw, 'type');
    return { types: types === undefined ? undefined : parseActivityTypes(types), ...parsePageFlags(raw), csv, wide: optionFlag(raw, 'wide') };
  },
  load: () => import('../activity.js'),
});
