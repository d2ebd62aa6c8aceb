// Every command, in the order `trader --help` lists them: its name, heading and one line, and
// where the rest of its definition is. Nothing here is imported until a command runs or its
// own help is asked for, so `trader --help` and `--version` load no definition at all.
import type { CommandEntry } from './definition.js';

const TRADING = 'Trading:';
const READING = 'Reading:';
const SETUP = 'Setup:';

export const COMMANDS: readonly CommandEntry[] = [
  {
    name: 'buy',
    group: TRADING,
    summary: 'buy a token with SOL: create, check, confirm, sign the deposit, follow until done',
    definition: async () => (await import('./buy.js')).buy,
  },
  {
    name: 'sell',
    group: TRADING,
    summary: 'sell a token for SOL: create, check, confirm, sign the message, follow until done',
    definition: async () => (await import('./sell.js')).sell,
  },
  {
    name: 'cancel',
    group: TRADING,
    summary: 'cancel a buy that is still awaiting its deposit',
    definition: async () => (await import('./cancel.js')).cancel,
  },
  {
    name: 'trades',
    group: READING,
    summary: 'show one trade (a buy id, a sell_… id or a sell group key); --watch follows it',
    definition: async () => (await import('./trades.js')).trades,
  },
  {
    name: 'positions',
    group: READING,
    summary: 'list positions, or show one',
    definition: async () => (await import('./positions.js')).positions,
  },
  {
    name: 'activity',
    group: READING,
    summary: 'list account activity, newest first',
    definition: async () => (await import('./activity.js')).activity,
  },
  {
    name: 'holdings',
    group: READING,
    summary: 'tokens held for you by the service, by USD value, with each share and a total',
    definition: async () => (await import('./holdings.js')).holdings,
  },
  {
    name: 'pnl',
    group: READING,
    summary: 'profit and loss per token and in total: cost basis, value now, unrealized and realized P&L, fees',
    definition: async () => (await import('./pnl.js')).pnl,
  },
  {
    name: 'balance',
    group: READING,
    summary: "your wallet's SOL balance, read from the chain (not from the service)",
    definition: async () => (await import('./balance.js')).balance,
  },
  {
    name: 'me',
    group: READING,
    summary: 'your account, wallet and API key (prefix and scopes only)',
    definition: async () => (await import('./me.js')).me,
  },
  {
    name: 'points',
    group: READING,
    summary: 'points earned, volume and leaderboard rank',
    definition: async () => (await import('./points.js')).points,
  },
  {
    name: 'config',
    group: SETUP,
    summary: 'manage the config file (profiles, URL, key, keypair, limits)',
    definition: async () => (await import('./config.js')).config,
  },
  {
    name: 'sandbox',
    group: SETUP,
    summary: 'run a local simulated service to try the tool or rehearse scripts (no account needed)',
    definition: async () => (await import('./sandbox.js')).sandbox,
  },
  {
    name: 'completion',
    group: SETUP,
    summary: 'print a shell completion script (bash, zsh or fish)',
    definition: async () => (await import('./completion.js')).completion,
  },
];
