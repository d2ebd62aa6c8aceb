// `trader sandbox`: run the local simulated service until SIGINT/SIGTERM. Stdout carries how to
// reach it: lines a shell can eval (exports, then # comments), or with --json one JSON object;
// notes go to stderr.
import { resolve } from 'node:path';
import { formatSol } from '../amounts.js';
import { parsePort, parseSolToLamports, parseText } from '../argument-parsers.js';
import type { Context } from '../context.js';
import { SANDBOX_HOST, SANDBOX_PORT, SANDBOX_START_BALANCE_LAMPORTS } from '../defaults.js';
import { UsageError } from '../errors.js';
import type { RunningSandbox } from '../sandbox/index.js';
import { shellQuote } from '../shell-quote.js';
import { defineCommand, parsedOption } from './definition.js';

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
  run,
});

/** Starts the sandbox, prints how to reach it, and resolves after a clean close once ctx.signal aborts. */
async function run(ctx: Context, opts: SandboxOptions): Promise<void> {
  const statePath = opts.state === undefined ? null : resolve(opts.state);
  // The sandbox (and @solana/web3.js with it) loads only when it runs, not for its --help.
  const { startSandbox } = await import('../sandbox/index.js');
  const sandbox = await startSandbox({
    port: opts.port,
    host: opts.host,
    statePath: statePath ?? undefined,
    keypairPath: opts.keypair === undefined ? undefined : resolve(opts.keypair),
    startBalanceLamports: opts.balanceLamports,
    log: (line) => ctx.output.warn(line),
    history: opts.history,
  }).catch((err: unknown) => {
    throw listenError(err, opts) ?? err;
  });
  const details = connectionDetails(sandbox, statePath);
  ctx.output.result(details, () => exportLines(details));
  ctx.output.note(`trader sandbox listening on ${sandbox.url} (${statePath ? `state in ${statePath}` : 'memory only'}); Ctrl-C to stop`);
  if (!ctx.signal.aborted) await new Promise<void>((done) => ctx.signal.addEventListener('abort', () => done(), { once: true }));
  await sandbox.close();
  ctx.output.note('trader sandbox stopped');
}

/** What `trader sandbox --json` prints: everything needed to use the sandbox, in one object. */
export interface SandboxDetails {
  baseUrl: string;
  apiKey: string;
  /** The simulated chain's Solana JSON-RPC endpoint. */
  rpcUrl: string;
  keypairPath: string;
  walletAddress: string;
  /** What the wallet holds now (a restored --state keeps its balance). */
  walletLamports: string;
  treasury: string;
  tokens: RunningSandbox['tokens'];
  /** The same account, read scopes only. */
  readOnlyApiKey: string;
  /** A second account, whose ids are 404 to the first. */
  otherApiKey: string;
  /** The control surface (docs/sandbox.md): prices, clock, faults, request log. */
  controlUrl: string;
  /** Null: state in memory only. */
  statePath: string | null;
}

function connectionDetails(sandbox: RunningSandbox, statePath: string | null): SandboxDetails {
  return {
    baseUrl: sandbox.url,
    apiKey: sandbox.apiKey,
    rpcUrl: sandbox.rpcUrl,
    keypairPath: sandbox.keypairPath,
    walletAddress: sandbox.walletAddress,
    walletLamports: sandbox.walletLamports.toString(),
    treasury: sandbox.treasury,
    tokens: sandbox.tokens,
    readOnlyApiKey: sandbox.readOnlyApiKey,
    otherApiKey: sandbox.otherApiKey,
    controlUrl: `${sandbox.url}/_sandbox/`,
    statePath,
  };
}

/** The human form: `export` lines a shell can eval, then comments. */
function exportLines(d: SandboxDetails): string {
  return [
    `export TRADER_BASE_URL=${shellQuote(d.baseUrl)}`,
    `export TRADER_API_KEY=${shellQuote(d.apiKey)}`,
    `export TRADER_KEYPAIR=${shellQuote(d.keypairPath)}`,
    `export TRADER_RPC_URL=${shellQuote(d.rpcUrl)}`,
    `# trader sandbox: wallet ${d.walletAddress} (${formatSol(BigInt(d.walletLamports))} SOL), treasury ${d.treasury}`,
    ...d.tokens.map((t) => `# token ${t.symbol} ${t.mint} (${t.name}, ${t.decimals} decimals)`),
    `# read-only key: ${d.readOnlyApiKey}`,
    `# other account key: ${d.otherApiKey}`,
    `# control surface: ${d.controlUrl} (see docs/sandbox.md)`,
  ].join('\n');
}

/** A port that is taken or an address that cannot be bound is the user's to change: exit 2, saying which. */
function listenError(err: unknown, opts: SandboxOptions): UsageError | null {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  const why: Record<string, string> = {
    EADDRINUSE: 'the port is in use (--port 0 picks a free one)',
    EACCES: 'permission denied (ports below 1024 need privileges; --port 0 picks a free one)',
    EADDRNOTAVAIL: 'no such address on this machine',
    ENOTFOUND: 'no such host',
  };
  return code && why[code] ? new UsageError(`cannot listen on ${opts.host}:${opts.port}: ${why[code]}`, 'LISTEN_FAILED') : null;
}
