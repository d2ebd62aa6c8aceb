// `trader cancel <buyId>`: what can be typed, and what it means.
import { parseUuidOrPrefix, type TypedId } from '../../argument-parsers.js';
import { defineCommand } from '../definition.js';

export interface CancelOptions {
  /** A whole buy id, or a prefix looked up among the account's buys. */
  buyId: TypedId;
}

export const cancel = defineCommand<CancelOptions>({
  arguments: [{ name: '<buyId>', help: 'buy intent id (uuid), or its first 8+ characters' }],
  examples: ['trader cancel 3f0c2a9e-1b2c-4d5e-8f90-0123456789ab', 'trader cancel 3f0c2a9e --json'],
  parse: (raw) => ({ buyId: parseUuidOrPrefix(raw.args[0]!, 'buy id') }),
  load: () => import('../cancel.js'),
});
