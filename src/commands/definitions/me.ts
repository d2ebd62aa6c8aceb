// `trader me`: nothing to type but the global options.
import { defineCommand, type NoOptions } from '../definition.js';

export const me = defineCommand<NoOptions>({
  examples: ['trader me', 'trader me --json | jq -r .walletAddress'],
  parse: () => ({}),
  load: () => import('../me.js'),
});
