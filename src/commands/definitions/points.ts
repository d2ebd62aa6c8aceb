// `trader points`: nothing to type but the global options.
import { defineCommand, type NoOptions } from '../definition.js';

export const points = defineCommand<NoOptions>({
  name: 'points',
  group: 'Reading:',
  description: 'points earned, volume and leaderboard rank',
  examples: ['trader points', 'trader points --json | jq .totalPoints'],
  parse: () => ({}),
  load: () => import('../points.js'),
});
