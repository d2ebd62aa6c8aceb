// `trader positions [id]`: what can be typed, and what it means.
import { parsePositionStatus, parseUuidOrPrefix, type TypedId } from '../../argument-parsers.js';
import { POSITION_STATUSES } from '../../api/types.js';
import { defineCommand, parsedOption } from '../definition.js';
import { LIST_OPTIONS, parseListFlags, type ListFlags } from './shared-options.js';

export interface PositionsOptions extends ListFlags {
  /** One position to show (whole id or prefix); null lists them. */
  id: TypedId | null;
  status: string | undefined;
}

export const positions = defineCommand<PositionsOptions>({
  arguments: [{ name: '[id]', help: 'position id to show, or its first 8+ characters' }],
  options: [{ flags: '--status <status>', help: 'only positions in this status (open, closed, …)', values: POSITION_STATUSES }, ...LIST_OPTIONS],
  examples: ['trader positions', 'trader positions --status open --all --json', 'trader positions 3f0c2a9e', 'trader positions --all --csv > positions.csv'],
  parse(raw) {
    const flags = parseListFlags(raw);
    const id = raw.args[0];
    return { ...flags, id: id === undefined ? null : parseUuidOrPrefix(id, 'position id'), status: parsedOption(raw, 'status', parsePositionStatus) };
  },
  load: () => import('../positions.js'),
});
