// `trader me`: nothing to type but the global options.
import { defineCommand, type NoOptions } from '../definition.js';

export const me = defineCommand<NoOptions>({
  name: 'me',
  group: 'Reading:',
  description: 'your account, wallet and API key (prefix and scopes only)',
  examples: ['trader me', 'trader me --json | jq -r .walletAddress'],
  parse: () => ({}),
  load: () => import('../me.js'),
});
