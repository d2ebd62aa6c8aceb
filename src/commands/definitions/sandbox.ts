// `trader sandbox`: what can be typed, and what it means.
import { parsePort, parseSolToLamports, parseText } from '../../argument-parsers.js';
import { formatSol } from '../../amounts.js';
import { SANDBOX_HOST, SANDBOX_PORT, SANDBOX_START_BALANCE_LAMPORTS } from '../../defaults.js';
import { defineCommand, parsedOption } from '../definition.js';

export interface SandboxOptions {
  /** 0: any free port. */
  port: number;
  host: string;
  /** A file to keep state in across restarts; undefined: memory only. */
  state: string | undefined;
  /** The wallet of the sandbox account; undefined: a new keypair in a temp file, removed on stop. */
  keypair: string | undefined;
  /** A fresh account gets a few days of trades. */
  history: boolean;
  /** What the account's wallet holds at the start. */
  balanceLamports: bigint;
}

export const sandbox = defineCommand<SandboxOptions>({
  options: [
    { flags: '--port <n>', help: 'port to listen on (0 = any free port)', default: SANDBOX_PORT },
    { flags: '--host <host>', help: 'address to bind', default: SANDBOX_HOST },
    { flags: '--state <file>', help: 'keep state in this file across restarts' },
    { flags: '--no-history', help: 'start with no trades (by default a fresh account has a few days of buys and sells)' },
    // The global --keypair, listed here too: for the sandbox it is the wallet of its account.
    { flags: '--keypair <path>', help: 'wallet of the sandbox account (default: a new keypair in a temp file, removed on stop)' },
    { flags: '--balance-sol <sol>', help: "SOL in the account's wallet at the start; deposits beyond it are refused", default: formatSol(SANDBOX_START_BALANCE_LAMPORTS) },
  ],
  examples: [
    'trader sandbox',
    'trader sandbox --port 0 > sandbox.env & sleep 1; . ./sandbox.env',
    'trader sandbox --port 0 --json > sandbox.json &   # one JSON object',
    'trader sandbox --state ./sandbox.json --keypair ./wallet.json',
    'trader sandbox --no-history',
  ],
  parse(raw) {
    return {
      port: parsedOption(raw, 'port', parsePort) ?? SANDBOX_PORT,
      host: parsedOption(raw, 'host', (host) => parseText(host, '--host')) ?? SANDBOX_HOST,
      state: parsedOption(raw, 'state', (file) => parseText(file, '--state')),
      // Commander gives a --keypair typed anywhere to the global option.
      keypair: raw.globals.keypair,
      history: raw.options.history !== false,
      balanceLamports: parsedOption(raw, 'balanceSol', (sol) => parseSolToLamports(sol, '--balance-sol')) ?? SANDBOX_START_BALANCE_LAMPORTS,
    };
  },
  load: () => import('../sandbox.js'),
});
