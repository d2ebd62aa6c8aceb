// `trader positions [id]`: what can be typed, and what it means.
import { parsePositionStatus, parseUuidOrPrefix, type TypedId } from '../../argument-parsers.js';
import { POSITION_STATUSES } from '../../api/types.js';
import { defineCommand, optionFlag, optionText } from '../definition.js';
import { CSV_OPTION, PAGE_OPTIONS, parseCsv, parsePageFlags, WIDE_OPTION, type PageFlags } from './shared-options.js';

export interface PositionsOptions extends PageFlags {
  /** One position to show (whole id or prefix); null lists them. */
  id: TypedId | null;
  status: string | undefined;
  csv: boolean;
  wide: boolean;
}

export const positions = defineCommand<PositionsOptions>({
  arguments: [{ name: '[id]', help: 'position id to show, or its first 8+ characters' }],
  options: [
    { flags: '--status <status>', help: 'only positions in this status (open, closed, …)', values: POSITION_STATUSES },
    ...PAGE_OPTIONS,
    CSV_OPTION,
    WIDE_OPTION,
  ],
  examples: ['trader positions', 'trader positions --status open --all --json', 'trader positions 3f0c2a9e', 'trader positions --all --csv > positions.csv'],
  parse(raw) {
    const csv = parseCsv(raw);
    const id = raw.args[0];
    const status = optionText(raw, 'status');
    return {
      id: id === undefined ? null : parseUuidOrPrefix(id, 'position id'),
      status: status === undefined ? undefined : parsePositionStatus(status),
      ...parsePageFlags(raw),
      csv,
      wide: optionFlag(raw, 'wide'),
    };
  },
  load: () => import('../positions.js'),
});
