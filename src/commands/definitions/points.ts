// `trader points`: nothing to type but the global options.
import { defineCommand, type NoOptions } from '../definition.js';

export const points = defineCommand<NoOptions>({
  examples: ['trader points', 'trader points --json | jq .totalPoints'],
  parse: () => ({}),
  load: () => import('../points.js'),
});
