// `trader sandbox`: run the local simulated service until SIGINT/SIGTERM. Stdout carries only
// lines a shell can eval (exports, then # comments); notes go to stderr.
import { resolve } from 'node:path';
import { startSandbox } from '../sandbox/index.js';
import { shellQuote } from '../shell-quote.js';
import { formatSol } from '../amounts.js';

export interface SandboxCommandOptions {
  port?: number;
  host?: string;
  state?: string;
  keypair?: string;
  /** A fresh account gets a few days of trades (default true). */
  history?: boolean;
  /** Start balance of the wallet in lamports. */
  balanceLamports?: bigint;
}

/** Start the sandbox, print its environment, and resolve after a clean close once `signal` aborts. */
export async function runSandboxCommand(
  opts: SandboxCommandOptions,
  io: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream },
  signal: AbortSignal,
): Promise<void> {
  const sandbox = await startSandbox({
    port: opts.port ?? 0,
    host: opts.host,
    statePath: opts.state ? resolve(opts.state) : undefined,
    keypairPath: opts.keypair ? resolve(opts.keypair) : undefined,
    startBalanceLamports: opts.balanceLamports,
    log: (line) => void io.stderr.write(`${line}\n`),
    history: opts.history ?? true,
  });
  const lines = [
    `export TRADER_BASE_URL=${shellQuote(sandbox.url)}`,
    `export TRADER_API_KEY=${shellQuote(sandbox.apiKey)}`,
    `export TRADER_KEYPAIR=${shellQuote(sandbox.keypairPath)}`,
    `# trader sandbox: wallet ${sandbox.walletAddress} (${formatSol(sandbox.walletLamports)} SOL), treasury ${sandbox.treasury}`,
    ...sandbox.tokens.map((t) => `# token ${t.symbol} ${t.mint} (${t.name}, ${t.decimals} decimals)`),
    `# read-only key: ${sandbox.readOnlyApiKey}`,
    `# other account key: ${sandbox.otherApiKey}`,
    `# control surface: ${sandbox.url}/_sandbox/ (see docs/sandbox.md)`,
  ];
  io.stdout.write(`${lines.join('\n')}\n`);
  io.stderr.write(
    `trader sandbox listening on ${sandbox.url} (${opts.state ? `state in ${resolve(opts.state)}` : 'memory only'}); Ctrl-C to stop\n`,
  );
  if (!signal.aborted) await new Promise<void>((done) => signal.addEventListener('abort', () => done(), { once: true }));
  await sandbox.close();
  io.stderr.write('trader sandbox stopped\n');
}
