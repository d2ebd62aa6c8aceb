// What a command receives: terminal, output, settings, clock, the API client, the prompter.
// Built once per run from the process's streams and environment; nothing below reads
// globals (process.env, Date.now, fetch) directly, which is what makes commands testable.
import { setFlagsFromString } from 'node:v8';
import type { ServiceClient } from '../api/client.js';
import type { Clock } from '../domain/clock.js';
import { configPath, readConfig, updateProfile, type LoadedConfig, type Profile } from '../config/config-file.js';
import { checkSecretFile, pauseOf, readSecretFile, type Pause } from '../config/secret-files.js';
import { expandHome, resolveSettings, type GlobalOptions, type Settings } from '../config/settings.js';
import { CHAIN_CALL_TIMEOUT_SECONDS, DEFAULT_PROFILE } from '../domain/defaults.js';
import { UsageError } from '../domain/errors.js';
import { Output } from '../io/output.js';
import { createProgress, type Progress } from '../io/progress.js';
import { createPrompter, type Countdown, type Prompter } from '../io/prompter.js';
import { detectTerminal, type Terminal } from '../io/terminal.js';
import { loadTheme } from '../io/theme.js';
import type { TrustStore } from '../config/trust-store.js';
import type { ChainReader } from '../chain/chain-reader.js';
import type { PasswordSource, Signer } from '../wallet/owner-wallet.js';
import { presence, type Presence } from '../domain/presence.js';
import { SANDBOX_RECIPE } from '../domain/person-prefix.js';

export interface ProcessFacts {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream;
  env: Record<string, string | undefined>;
  home: string;
  clock: Clock;
  /** Aborted on SIGINT/SIGTERM; its reason says which. */
  signal: AbortSignal;
  version: string;
  /** Node's global fetch (undici): the HTTP engine. */
  fetch: typeof globalThis.fetch;
  /**
   * A person asked through another channel (the MCP client), even under --yes: shown a trade's
   * review, resolves true only on their yes. Absent: --yes answers for them.
   */
  approve?(review: string, question: string): Promise<boolean>;
  /** An agent drives this run (`trader mcp`): whatever its client answers, no trust is granted (domain/presence.ts). */
  agent?: boolean;
}

/** What a run of `trader` in this process printed (captured streams), and its exit code. */
export interface CapturedRun {
  code: number;
  stdout: string;
  stderr: string;
}

export interface Context {
  terminal: Terminal;
  output: Output;
  settings: Settings;
  env: Record<string, string | undefined>;
  clock: Clock;
  signal: AbortSignal;
  home: string;
  version: string;
  /** The config file as read at start-up. */
  config: LoadedConfig;
  /** The settings as the profile on disk is now, with this run's flags and environment (a long run re-reads its limits). */
  settingsNow(): Settings;
  /** Changes this run's profile in the config file as it is on disk now (locked, atomic, mode 0600); returns it as written. */
  updateProfile(change: (profile: Profile) => Profile): Profile;
  /** The trust store (pinned treasury and sell wording) of the configured service. */
  trustStore(): Promise<TrustStore>;
  /** The API client; throws a usage error naming how to configure when URL or key is missing. */
  api(): Promise<ServiceClient>;
  /** The API key, read from its file or standard input the first time when it comes from one; null when none is configured. */
  apiKey(): Promise<string | null>;
  /** The owner wallet (--keypair): its public key at once, its secret only inside a signature. */
  signer(): Promise<Signer>;
  /** Where a keystore's password comes from in this run: the password file, else a hidden prompt. */
  passwords: PasswordSource;
  /** Standard input's whole text, once a run (a hidden prompt for it on a terminal): a secret piped in. */
  readSecretInput(what: string): Promise<string>;
  /** A hidden prompt for a secret; a usage error when no person can answer. */
  askSecret(message: string): Promise<string>;
  /** An API client for an explicit URL and key (config init checks a key before saving it). */
  apiFor(baseUrl: string, apiKey: string): Promise<ServiceClient>;
  prompter: Prompter;
  progress(): Promise<Progress>;
  /** The process facts this run was made from (the MCP server runs commands in-process with them). */
  facts: ProcessFacts;
  /**
   * Whether a trade may be signed once checked: the prompt's answer (its question counting down to
   * `countdown`), or under --yes the approval of ProcessFacts.approve, or yes.
   */
  approveTrade(review: string, question: string, countdown?: Countdown): Promise<boolean>;
  /** Whether a person is here to grant trust in this run (domain/presence.ts), for a command that is or is not a dry run. */
  presence(dryRun: boolean): Presence;
  /** A reader of the Solana chain at the configured RPC URL (opened on first use). */
  chain(): Promise<ChainReader>;
}

export const NOT_CONFIGURED_HINT = `run \`trader config init\`, or set TRADER_BASE_URL and TRADER_API_KEY; to try without an account, run \`${SANDBOX_RECIPE}\``;

/**
 * The same under `trader mcp`: the MCP client starts the server with its own environment, which no
 * `eval` in a shell reaches, so the client's config must pass the variables or name a profile.
 */
export const MCP_NOT_CONFIGURED_HINT =
  'the MCP client starts `trader mcp` with its own environment: pass TRADER_BASE_URL, TRADER_API_KEY and TRADER_KEYPAIR in the server\'s "env", or a profile in its "args" (["--profile", "<name>", "mcp"]); for the sandbox, `trader sandbox --background --write-profile sandbox` saves one (docs/agents.md)';

/** Which profile of which config file a run read, for a "not configured" under MCP (TRADER_CONFIG or HOME in the client's "env" pick another). */
export const readFrom = (profile: string, path: string): string =>
  `read profile "${profile}" of ${path} (TRADER_CONFIG or XDG_CONFIG_HOME in the server's "env" name another file)`;

/** What one run's context is made of, and the parts it makes once, on first use. */
interface Run {
  flags: GlobalOptions;
  facts: ProcessFacts;
  opts: { lenient?: boolean };
  profileName: string;
  config: LoadedConfig;
  settings: Settings;
  terminal: Terminal;
  output: Output;
  prompter: Prompter;
  passwords: PasswordSource;
  /** The "not configured" hint of this run (under MCP it names the config file read). */
  notConfigured: string;
  warn: (line: string) => void;
  once: {
    client?: Promise<ServiceClient>;
    apiKey?: Promise<string | null>;
    signer?: Promise<Signer>;
    chain?: Promise<ChainReader>;
    /** Standard input is read once: two secrets cannot both come from it. */
    stdinTaken: boolean;
  };
}

/** Builds the context for one run from the global flags. */
export async function createContext(
  flags: GlobalOptions,
  facts: ProcessFacts,
  opts: { lenient?: boolean } = {},
): Promise<Context> {
  const run = await startRun(flags, facts, opts);
  const { settings, terminal, config, prompter } = run;
  return {
    terminal,
    output: run.output,
    settings,
    env: facts.env,
    clock: facts.clock,
    signal: facts.signal,
    home: facts.home,
    version: facts.version,
    config,
    settingsNow: () => settingsOf(run, readConfig(config.path).document),
    updateProfile: (change) => updateProfile(config.path, settings.profileName, change, { now: facts.clock.now }),
    trustStore: () => openTrustStore(run),
    api: () => apiClient(run),
    apiKey: () => (run.once.apiKey ??= readApiKey(run)),
    signer: () => (run.once.signer ??= openRunSigner(run)),
    passwords: run.passwords,
    readSecretInput: (what) => readSecretInput(run, what),
    askSecret: (message) => askSecret(run, message),
    apiFor: (baseUrl, apiKey) => makeClient(run, baseUrl, apiKey),
    prompter,
    progress: () => createProgress(terminal, settings.json, facts.clock),
    facts,
    presence: (dryRun) =>
      presence({
        yes: settings.yes,
        json: settings.json,
        dryRun,
        interactive: terminal.interactive,
        agent: facts.agent === true,
      }),
    async approveTrade(review, question, countdown) {
      if (!settings.yes) return prompter.confirm(question, false, countdown);
      return facts.approve ? facts.approve(review, question) : true;
    },
    chain: () => (run.once.chain ??= openRunChain(run)),
  };
}

/** Reads the config and settings, sets up the terminal and output, and warns of what start-up saw. */
async function startRun(flags: GlobalOptions, facts: ProcessFacts, opts: { lenient?: boolean }): Promise<Run> {
  const config = readConfig(configPath(facts.env, facts.home));
  const profileName = flags.profile || facts.env.TRADER_PROFILE || DEFAULT_PROFILE;
  const partial = { flags, facts, opts, profileName };
  const settings = settingsOf(partial, config.document);
  const terminal = detectTerminal(facts, facts.env, { json: settings.json, color: flags.color });
  // Human text is laid out to stdout's width; on a terminal, a value wider than it is shortened rather than broken.
  const output = new Output(
    terminal,
    settings.json,
    await loadTheme(terminal.color, { width: terminal.columns, shorten: terminal.stdoutIsTTY }),
  );
  if (config.permissionWarning) output.warn(config.permissionWarning);
  if (settings.apiKeySource === 'flag' && settings.apiKey !== null) {
    output.warn(
      '--api-key is visible to other users in the process list; prefer TRADER_API_KEY or `trader config set apiKey`',
    );
  }
  // Under MCP the client's environment chose the config file: which one was read is half the answer.
  const notConfigured = facts.agent
    ? `${readFrom(settings.profileName, config.path)}; ${MCP_NOT_CONFIGURED_HINT}`
    : NOT_CONFIGURED_HINT;
  const prompter = createPrompter(terminal, facts.signal, facts.clock);
  const warn = (line: string) => output.warn(line);
  // Standard input is read once: two secrets cannot both come from it.
  const keypairFromStdin = /^(-|stdin:.*)$/i.test(settings.keypair);
  if (settings.apiKeyInput?.kind === 'stdin' && keypairFromStdin) {
    throw new UsageError(
      'standard input can carry one secret: --api-key-stdin and a keypair from stdin: were both given',
    );
  }
  const passwords = passwordSource(
    settings,
    terminal.interactive,
    (message) => prompter.secret(message),
    warn,
    settings.json,
    pauseOf(facts),
  );
  return {
    ...partial,
    config,
    settings,
    terminal,
    output,
    prompter,
    passwords,
    notConfigured,
    warn,
    once: { stdinTaken: false },
  };
}

/** The run's settings over a config document (a profile that does not exist yet is empty: `config set` and trust-on-first-use create it). */
function settingsOf(run: Pick<Run, 'flags' | 'facts' | 'opts' | 'profileName'>, document: LoadedConfig['document']) {
  const { flags, facts, opts, profileName } = run;
  return resolveSettings(flags, facts.env, document.profiles[profileName] ?? {}, profileName, facts.home, opts);
}

/** An API client for a URL and key, with this run's engine, timeouts and --verbose request log. */
async function makeClient(run: Run, baseUrl: string, apiKey: string): Promise<ServiceClient> {
  const { facts, settings, output } = run;
  const { createClient } = await import('../api/client.js');
  baselineHttpParser();
  return createClient({
    fetch: facts.fetch,
    random: Math.random,
    baseUrl,
    apiKey,
    requestTimeoutMs: settings.requestTimeoutSeconds * 1000,
    insecure: settings.insecure,
    env: facts.env,
    clock: facts.clock,
    signal: facts.signal,
    userAgent: `trader/${facts.version}`,
    onRequest: settings.verbose
      ? (log) => {
          const line = `${log.method} ${log.path} ${log.status ?? log.error ?? 'no response'} ${Math.round(log.ms)}ms${log.requestId ? ` requestId=${log.requestId}` : ''}${log.attempt > 1 ? ` attempt=${log.attempt}` : ''}`;
          if (settings.json) facts.stderr.write(JSON.stringify({ request: log }) + '\n');
          else facts.stderr.write(`${output.theme.dim(line)}\n`);
        }
      : undefined,
  });
}

/** The configured service's client, made once; a usage error naming how to configure when URL or key is missing. */
function apiClient(run: Run): Promise<ServiceClient> {
  const { settings, notConfigured } = run;
  if (!settings.baseUrl) throw new UsageError(`no service URL configured: ${notConfigured}`, 'NOT_CONFIGURED');
  const baseUrl = settings.baseUrl;
  run.once.client ??= (run.once.apiKey ??= readApiKey(run)).then((key) => {
    if (!key) throw new UsageError(`no API key configured: ${notConfigured}`, 'NOT_CONFIGURED');
    return makeClient(run, baseUrl, key);
  });
  return run.once.client;
}

/** The trust store of the configured service. */
async function openTrustStore(run: Run): Promise<TrustStore> {
  const { settings, config, facts } = run;
  if (!settings.baseUrl) throw new UsageError(`no service URL configured: ${run.notConfigured}`, 'NOT_CONFIGURED');
  const [{ TrustStore, trustStorePath }, { resolveApiRoot }] = await Promise.all([
    import('../config/trust-store.js'),
    import('../api/base-url.js'),
  ]);
  return new TrustStore(trustStorePath(config.path), resolveApiRoot(settings.baseUrl, settings.insecure).href, {
    now: facts.clock.now,
  });
}

/** A hidden prompt for a secret; a usage error when no person can answer. */
async function askSecret(run: Run, message: string): Promise<string> {
  if (!run.terminal.interactive) {
    throw new UsageError(
      `${message.replace(/ \(.*\)$/, '')} is asked at a terminal, and this run has none (${run.settings.json ? '--json' : 'input or output is not a terminal'})`,
      'SECRET_REQUIRED',
    );
  }
  return run.prompter.secret(message);
}

/** Standard input's whole text, once a run (hidden at a terminal, where it would echo). */
async function readSecretInput(run: Run, what: string): Promise<string> {
  if (run.once.stdinTaken)
    throw new UsageError(`standard input was read already in this run; ${what} cannot come from it too`);
  run.once.stdinTaken = true;
  const stdin = run.facts.stdin;
  if ((stdin as { isTTY?: boolean }).isTTY) {
    // Typed at a terminal it would echo: ask for it hidden instead.
    return askSecret(run, `Paste ${what} (hidden)`);
  }
  const { readStdinText } = await import('../io/read-stdin.js');
  return readStdinText(stdin, what);
}

/** The API key from the settings, its file or standard input; null when none is configured. */
async function readApiKey(run: Run): Promise<string | null> {
  const input = run.settings.apiKeyInput;
  if (input === null) return run.settings.apiKey;
  let text: string;
  if (input.kind === 'stdin') text = await readSecretInput(run, 'the API key');
  else {
    const bytes = await readSecretFile(input.path, 'API key file', run.warn, pauseOf(run.facts));
    text = bytes.toString('utf8');
    bytes.fill(0);
  }
  const key = text.trim();
  if (key === '')
    throw new UsageError(`the API key from ${input.kind === 'stdin' ? 'standard input' : input.path} is empty`);
  return key;
}

/** The owner wallet of --keypair (its modules load on first use). */
async function openRunSigner(run: Run): Promise<Signer> {
  const { settings, facts, config } = run;
  const [{ parseSignerSource }, { openSigner }, { keystoreDir, readKeystoreText }] = await Promise.all([
    import('../wallet/signer-source.js'),
    import('../wallet/owner-wallet.js'),
    import('../config/keystore-files.js'),
  ]);
  const source = parseSignerSource(settings.keypair);
  return openSigner(source.kind === 'file' ? { ...source, path: expandHome(source.path, facts.home) } : source, {
    readKeystore: (name) => readKeystoreText(keystoreDir(config.path), name),
    passwords: run.passwords,
    readStdin: (what) => readSecretInput(run, what),
    askSecret: (message) => askSecret(run, message),
    warn: run.warn,
  });
}

/**
 * The HTTP engine is undici as Node's global fetch. Its WebAssembly HTTP parser stays on V8's
 * baseline compiler: a CLI makes a handful of requests, and the optimizing recompile would
 * otherwise run on after the work is done (~70 ms at exit, docs/bench.md; ~0.1 s of CPU). Set
 * before the first request of either client: the service's or the chain's.
 */
const baselineHttpParser = () => setFlagsFromString('--liftoff-only');

/** A reader of the chain at the configured RPC URL (its own JSON-RPC client over the run's fetch). */
async function openRunChain(run: Run): Promise<ChainReader> {
  const { settings, facts } = run;
  const { openChain } = await import('../chain/chain-reader.js');
  baselineHttpParser();
  return openChain({
    url: settings.rpcUrl,
    fetch: facts.fetch,
    clock: facts.clock,
    signal: facts.signal,
    env: facts.env,
    // A chain check must not hold a trade long: at most 10 s a call (less with --request-timeout).
    timeoutMs: Math.min(settings.requestTimeoutSeconds, CHAIN_CALL_TIMEOUT_SECONDS) * 1000,
  });
}

/**
 * A keystore's password in this run: from the password file (one try), else at a hidden prompt
 * (three tries) when a person is there, else none (the trade is refused before anything is sent).
 */
function passwordSource(
  settings: Settings,
  interactive: boolean,
  ask: (message: string) => Promise<string>,
  warn: (line: string) => void,
  json: boolean,
  pause: Pause,
): PasswordSource {
  const file = settings.passwordFile;
  if (file !== null) {
    return {
      origin: `password file ${file}`,
      attempts: 1,
      unavailable() {
        // Checked before anything is sent; read only when the signature is made.
        checkSecretFile(file, 'password file');
        return null;
      },
      async get() {
        const raw = await readSecretFile(file, 'password file', warn, pause);
        const text = raw.toString('utf8');
        raw.fill(0);
        return text;
      },
    };
  }
  return {
    origin: 'the prompt',
    attempts: 3,
    unavailable: (name) =>
      interactive
        ? null
        : `keystore ${name} needs its password to sign, and ${json ? 'with --json nothing is asked' : 'there is no terminal to ask it on'}: pass --password-file <path> or set TRADER_KEYSTORE_PASSWORD_FILE`,
    get: (name, attempt) =>
      ask(
        attempt === 1
          ? `Password for keystore ${name}`
          : `Wrong password; password for keystore ${name} (try ${attempt} of 3)`,
      ),
  };
}
