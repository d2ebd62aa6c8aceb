// `trader sandbox`: run the local simulated service until SIGINT/SIGTERM. Stdout carries how to
// reach it: lines a shell can eval (exports, then # comments), or with --json one JSON object;
// notes go to stderr. `--background` starts it detached and returns once it listens (the
// recipe that cannot race: `eval "$(trader sandbox --background)"`); `trader sandbox stop`
// ends that one and removes what it made (sandbox-background.ts: the process, not the simulated service).
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatSol } from '../../domain/amounts.js';
import { parsePort, parseProfileName, parseSolToLamports } from '../../cli/argument-parsers.js';
import { updateProfile, type Profile } from '../../config/config-file.js';
import type { Context } from '../../cli/context.js';
import { SANDBOX_HOST, SANDBOX_PORT, SANDBOX_START_BALANCE_LAMPORTS } from '../../domain/defaults.js';
import { UsageError } from '../../domain/errors.js';
import {
  answers,
  backgroundChild,
  backgroundDir,
  claimRecord,
  isAlive,
  readRecord,
  releaseRecord,
  removeLeftovers,
  startDetached,
  stopProcess,
  type BackgroundRecord,
} from './sandbox-background.js';
import type { RunningSandbox } from '../../sandbox/index.js';
import { shellQuote } from '../../domain/shell-quote.js';
import { TABLE_WIDTH } from '../../io/table.js';
import { packWords, piecesOf } from '../../io/word-wrap.js';
import { displayWidth } from '../../io/display-width.js';
import { formatLocalTime } from '../../domain/local-time.js';
import { defineCommand, parsedOption, type NoOptions } from '../../cli/definition.js';
import { parseText } from '../../config/profile-values.js';
import { errorMessage } from '../../io/error-line.js';

/** The binary, which the detached sandbox runs (dist/commands/ → bin/). */
const BIN = fileURLToPath(new URL('../../../bin/trader.js', import.meta.url));

const STOP_COMMAND = 'trader sandbox stop';

export interface SandboxOptions {
  /** 0: any free port; undefined: not given (SANDBOX_PORT in the foreground, 0 in the background). */
  port: number | undefined;
  host: string;
  /** A file to keep state in across restarts; undefined: memory only. */
  state: string | undefined;
  /** The wallet of the sandbox account; undefined: a new keypair in a temp file, removed on stop. */
  keypair: string | undefined;
  /** A fresh account gets a few days of trades. */
  history: boolean;
  /** Deposits carry an SPL Memo naming their intent. */
  depositMemo: boolean;
  /** What the account's wallet holds at the start. */
  balanceLamports: bigint;
  /** Start it detached, return once it listens. */
  background: boolean;
  /** A config profile to save how to reach it in (for MCP clients, which get no `eval`), or null. */
  writeProfile: string | null;
}

/**
 * What `--write-profile` saves: how to reach the sandbox; the profile's other keys (its limits) are
 * kept. Never its treasury: only a person pins one (`accept-treasury` with the banner's address), as for any service.
 */
const SAVED_KEYS = ['baseUrl', 'apiKey', 'keypair', 'rpcUrl'] as const;

const stop = defineCommand<NoOptions>({
  examples: [STOP_COMMAND],
  helpAfter: [
    '',
    'Ends the sandbox that `trader sandbox --background` started (its record is in',
    'sandbox/ beside the config file) and removes what it made: the record, the log',
    'and the keypair it generated. Nothing running is not an error (exit 0).',
    '',
  ].join('\n'),
  parse: () => ({}),
  run: stopRun,
});

export const sandbox = defineCommand<SandboxOptions>({
  options: [
    { flags: '--background', help: 'start it detached; return its exports once it listens' },
    { flags: '--port <n>', help: 'port, 0 for any free one', default: SANDBOX_PORT },
    { flags: '--host <host>', help: 'address to bind', default: SANDBOX_HOST },
    { flags: '--state <file>', help: 'keep state in this file across restarts' },
    { flags: '--no-history', help: 'a fresh account with no trades' },
    { flags: '--deposit-memo', help: 'deposits carry an SPL Memo naming their buy' },
    // The global --keypair, listed here too: for the sandbox it is the wallet of its account.
    { flags: '--keypair <path>', help: 'its wallet (default: a new one, removed on stop)' },
    {
      flags: '--balance-sol <sol>',
      help: "the wallet's SOL at the start",
      default: formatSol(SANDBOX_START_BALANCE_LAMPORTS),
    },
    { flags: '--write-profile <name>', help: 'save how to reach it in profile <name> (for MCP)' },
  ],
  examples: [
    'eval "$(trader sandbox --background)"   # returns once it listens',
    'trader sandbox   # in the foreground; Ctrl-C stops it',
    'trader sandbox --background --write-profile sandbox   # for MCP clients',
  ],
  parse(raw) {
    return {
      port: parsedOption(raw, 'port', parsePort),
      host: parsedOption(raw, 'host', (host) => parseText(host, '--host')) ?? SANDBOX_HOST,
      state: parsedOption(raw, 'state', (file) => parseText(file, '--state')),
      // Commander gives a --keypair typed anywhere to the global option.
      keypair: raw.globals.keypair,
      history: raw.options.history !== false,
      depositMemo: raw.options.depositMemo === true,
      balanceLamports:
        parsedOption(raw, 'balanceSol', (sol) => parseSolToLamports(sol, '--balance-sol')) ??
        SANDBOX_START_BALANCE_LAMPORTS,
      background: raw.options.background === true,
      writeProfile: parsedOption(raw, 'writeProfile', parseProfileName) ?? null,
    };
  },
  run: (ctx, opts) => (opts.background ? runBackground(ctx, opts) : run(ctx, opts)),
  subcommands: [
    {
      name: 'stop',
      summary: 'stop the background sandbox, remove what it made',
      command: stop,
      dangerous: false,
      needsApiKey: false,
      needsKeypair: false,
    },
  ],
});

/** Starts the sandbox, prints how to reach it, and resolves after a clean close once ctx.signal aborts. */
async function run(ctx: Context, opts: SandboxOptions): Promise<void> {
  const port = opts.port ?? SANDBOX_PORT;
  const statePath = opts.state === undefined ? null : resolve(opts.state);
  // The sandbox (and @solana/web3.js with it) loads only when it runs, not for its --help.
  const { startSandbox } = await import('../../sandbox/index.js');
  const sandbox = await startSandbox({
    port,
    host: opts.host,
    statePath: statePath ?? undefined,
    keypairPath: opts.keypair === undefined ? undefined : resolve(opts.keypair),
    startBalanceLamports: opts.balanceLamports,
    log: (line) => ctx.output.warn(line),
    history: opts.history,
    depositMemo: opts.depositMemo,
  }).catch((err: unknown) => {
    throw listenError(err, { host: opts.host, port }) ?? err;
  });
  const details = connectionDetails(sandbox, statePath);
  // The detached child of --background: the starter writes the profile, once it is told.
  const profile = opts.writeProfile && !backgroundChild(ctx.env) ? saveProfile(ctx, opts.writeProfile, details) : null;
  ctx.output.result(profile ? { ...details, profile } : details, () => exportLines(details));
  if (profile) noteProfile(ctx, profile.name);
  // Started by --background: its record tells `stop` and a second start where it is; the
  // process that started it returns once told.
  const child = backgroundChild(ctx.env);
  if (child) {
    const record: BackgroundRecord = {
      pid: child.pid,
      startedAt: new Date(ctx.clock.now()).toISOString(),
      baseUrl: details.baseUrl,
      walletAddress: details.walletAddress,
      exports: exportLines(details),
      details,
      logPath: child.logPath,
      generatedKeypairDir: sandbox.generatedKeypairPath && resolve(sandbox.generatedKeypairPath, '..'),
    };
    if (!(await claimRecord(child.dir, record))) {
      // Closed (its keypair removed) before the starter is told, so nothing of it outlives the starter.
      await sandbox.close();
      child.tell({ alreadyRunning: true });
      return;
    }
    child.tell({ ready: true });
  }
  ctx.output.note(
    `trader sandbox listening on ${sandbox.url} (${statePath ? `state in ${statePath}` : 'memory only'}); ${child ? `\`${STOP_COMMAND}\`` : 'Ctrl-C'} to stop`,
  );
  if (!ctx.signal.aborted)
    await new Promise<void>((done) => ctx.signal.addEventListener('abort', () => done(), { once: true }));
  await sandbox.close();
  if (child) await releaseRecord(child.dir, child.pid);
  ctx.output.note('trader sandbox stopped');
}

/** The options of the foreground run that `--background` starts detached. */
function childArgs(opts: SandboxOptions): string[] {
  return [
    '--port',
    String(opts.port ?? 0),
    '--host',
    opts.host,
    '--balance-sol',
    formatSol(opts.balanceLamports),
    ...(opts.state === undefined ? [] : ['--state', resolve(opts.state)]),
    ...(opts.keypair === undefined ? [] : ['--keypair', resolve(opts.keypair)]),
    ...(opts.history ? [] : ['--no-history']),
    ...(opts.depositMemo ? ['--deposit-memo'] : []),
  ];
}

/** `trader sandbox --background`: starts it detached and prints its exports once it listens. */
async function runBackground(ctx: Context, opts: SandboxOptions): Promise<void> {
  const dir = backgroundDir(ctx.config.path);
  const existing = await readRecord(dir);
  if (existing && isAlive(existing.pid)) {
    if (await answers(existing)) return printBackground(ctx, existing, true, opts.writeProfile);
    // Its pid runs but nothing answers as that sandbox: a hung sandbox, or a dead one's pid
    // taken by another process. Either way its files are not ours to remove while it may run.
    throw new UsageError(
      `a background sandbox is recorded in ${dir} (pid ${existing.pid}), but nothing answers as it at ${existing.baseUrl}; if it has ended, \`${STOP_COMMAND}\` clears its record`,
      'SANDBOX_NOT_ANSWERING',
    );
  }
  // A record whose sandbox is gone (killed before it could clean up): its files are stale.
  if (existing) await removeLeftovers(dir, existing);
  const outcome = await startDetached({ bin: BIN, args: childArgs(opts), env: ctx.env, dir });
  if ('started' in outcome) return printBackground(ctx, outcome.started, false, opts.writeProfile);
  if ('alreadyRunning' in outcome) return printBackground(ctx, outcome.alreadyRunning, true, opts.writeProfile);
  // It ended before it listened: what it said is the error; nothing of it is left.
  await removeLeftovers(dir, null);
  const last = outcome.failed.log.split('\n').filter(Boolean).at(-1);
  const said = last === undefined ? 'it printed nothing' : errorMessage(last);
  const message = `the background sandbox did not start: ${said}`;
  if (outcome.failed.code === 2) throw new UsageError(message, 'SANDBOX_NOT_STARTED');
  throw new Error(`${message} (exit ${outcome.failed.code ?? 'unknown'})`);
}

function printBackground(ctx: Context, record: BackgroundRecord, already: boolean, writeProfile: string | null): void {
  const background = {
    pid: record.pid,
    startedAt: record.startedAt,
    logPath: record.logPath,
    stop: STOP_COMMAND,
    alreadyRunning: already,
  };
  const details = record.details as SandboxDetails;
  const profile = writeProfile ? saveProfile(ctx, writeProfile, details) : null;
  ctx.output.result({ ...details, background, ...(profile ? { profile } : {}) }, () =>
    [record.exports, comment(`background sandbox pid ${record.pid}; stop it with: ${STOP_COMMAND}`)].join('\n'),
  );
  if (profile) noteProfile(ctx, profile.name);
  ctx.output.note(
    already
      ? `a background sandbox already runs (pid ${record.pid}, since ${formatLocalTime(record.startedAt)}): these are its details; to start another, \`${STOP_COMMAND}\` first`
      : `trader sandbox running in the background (pid ${record.pid}) on ${record.baseUrl}, log ${record.logPath}; stop it with \`${STOP_COMMAND}\``,
  );
}

/** `trader sandbox stop`. */
async function stopRun(ctx: Context): Promise<void> {
  const dir = backgroundDir(ctx.config.path);
  const record = await readRecord(dir);
  // Only a process that answers as the recorded sandbox is signalled: a dead sandbox's pid may be another's now.
  const alive = record !== null && isAlive(record.pid);
  const running = alive && (await answers(record));
  if (running) await stopProcess(record.pid);
  await removeLeftovers(dir, record);
  ctx.output.result({ stopped: running, pid: record?.pid ?? null, baseUrl: record?.baseUrl ?? null }, () =>
    running
      ? `stopped the background sandbox (pid ${record.pid}) at ${record.baseUrl}`
      : alive
        ? `pid ${record.pid} does not answer as the background sandbox at ${record.baseUrl}, so it was not signalled (if it is a hung sandbox, kill ${record.pid}); removed the sandbox's files`
        : record
          ? `the background sandbox (pid ${record.pid}) had already ended; removed its files`
          : 'no background sandbox is running',
  );
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

/**
 * The human form: `export` lines a shell can eval, then comments, laid out to 80 columns by the
 * one wrapping rule: a comment that does not fit goes on with `#   `, never breaking a value.
 */
function exportLines(d: SandboxDetails): string {
  return [
    `export TRADER_BASE_URL=${shellQuote(d.baseUrl)}`,
    `export TRADER_API_KEY=${shellQuote(d.apiKey)}`,
    `export TRADER_KEYPAIR=${shellQuote(d.keypairPath)}`,
    `export TRADER_RPC_URL=${shellQuote(d.rpcUrl)}`,
    ...[
      'trader sandbox: a simulated service and its chain (docs/sandbox.md)',
      `wallet ${d.walletAddress}`,
      // Said once, when it started: a banner printed again later would otherwise state a stale balance.
      `  ${formatSol(BigInt(d.walletLamports))} SOL when the sandbox started`,
      `treasury ${d.treasury}`,
      'tokens: symbol, decimals, mint, name',
    ].map(comment),
    ...tokenLines(d.tokens),
    ...[
      `read-only key: ${d.readOnlyApiKey}`,
      `other account key: ${d.otherApiKey}`,
      `control surface: ${d.controlUrl}`,
    ].map(comment),
  ].join('\n');
}

/** The tokens as a small table in comments: `#   WOOF  5  <mint>  Woof Sandbox Dog`, columns aligned. */
function tokenLines(tokens: SandboxDetails['tokens']): string[] {
  const symbols = Math.max(...tokens.map((t) => t.symbol.length));
  const decimals = Math.max(...tokens.map((t) => String(t.decimals).length));
  return tokens.map((t) =>
    comment(`  ${t.symbol.padEnd(symbols)}  ${String(t.decimals).padStart(decimals)}  ${t.mint}  ${t.name}`),
  );
}

/** A `#` comment of the banner within 80 columns (what a shell shows piped, or an 80-column terminal), continued with `#     `. */
function comment(text: string): string {
  if (displayWidth(text) + 2 <= TABLE_WIDTH) return `# ${text}`;
  const indent = /^ */.exec(text)![0];
  return packWords(piecesOf(text.slice(indent.length)), {
    room: () => TABLE_WIDTH,
    first: `# ${indent}`,
    next: `#     ${indent}`,
  }).join('\n');
}

/** A port that is taken or an address that cannot be bound is the user's to change: exit 2, saying which. */
function listenError(err: unknown, opts: { host: string; port: number }): UsageError | null {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  const why: Record<string, string> = {
    EADDRINUSE: 'the port is in use (--port 0 picks a free one)',
    EACCES: 'permission denied (ports below 1024 need privileges; --port 0 picks a free one)',
    EADDRNOTAVAIL: 'no such address on this machine',
    ENOTFOUND: 'no such host',
  };
  return code && why[code]
    ? new UsageError(`cannot listen on ${opts.host}:${opts.port}: ${why[code]}`, 'LISTEN_FAILED')
    : null;
}

/** Saves how to reach the sandbox in profile `name` of the config file (its other keys kept); returns where. */
function saveProfile(ctx: Context, name: string, d: SandboxDetails): { name: string; path: string } {
  const saved: Profile = { baseUrl: d.baseUrl, apiKey: d.apiKey, keypair: d.keypairPath, rpcUrl: d.rpcUrl };
  updateProfile(
    ctx.config.path,
    name,
    (profile) => ({ ...profile, ...Object.fromEntries(SAVED_KEYS.map((k) => [k, saved[k]])) }),
    { now: ctx.clock.now },
  );
  return { name, path: ctx.config.path };
}

/** Says where the profile is and how an MCP client uses it (stderr: stdout stays the exports). */
function noteProfile(ctx: Context, name: string): void {
  ctx.output.note(
    `saved in profile "${name}" of ${ctx.config.path}: an MCP client reaches this sandbox with "args": ["--profile", ${JSON.stringify(name)}, "mcp"] (docs/agents.md)`,
  );
}
