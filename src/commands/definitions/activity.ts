// `trader activity`: what can be typed, and what it means.
import { parseActivityTypes } from '../../argument-parsers.js';
import { ACTIVITY_TYPES, type ActivityType } from '../../api/types.js';
import { defineCommand, parsedOption } from '../definition.js';
import { LIST_OPTIONS, parseListFlags, type ListFlags } from './shared-options.js';

export interface ActivityOptions extends ListFlags {
  /** Only these types; undefined: all. */
  types: ActivityType[] | undefined;
}

export const activity = defineCommand<ActivityOptions>({
  options: [{ flags: '--type <types>', help: `comma-separated: ${ACTIVITY_TYPES.join(',')}`, values: ACTIVITY_TYPES }, ...LIST_OPTIONS],
  examples: ['trader activity', 'trader activity --type buy,sell --limit 50', "trader activity --all --json | jq '.[].points'", 'trader activity --all --csv > trades.csv'],
  parse: (raw) => ({ ...parseListFlags(raw), types: parsedOption(raw, 'type', parseActivityTypes) }),
  load: () => import('../activity.js'),
});
