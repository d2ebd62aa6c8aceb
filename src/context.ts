// What a command receives: terminal, output, settings, clock, the API client, the prompter.
// Built once per run from the process's streams and environment; nothing below reads
// globals (process.env, Date.now, fetch) directly, which is what makes commands testable.
import { setFlagsFromString } from 'node:v8';
import type { ServiceClient } from './api/client.js';
import type { Clock } from './clock.js';
import { configPath, readConfig, updateProfile, type LoadedConfig, type Profile } from './config/config-file.js';
import { resolveSettings, type GlobalOptions, type Settings } from './config/settings.js';
import { CHAIN_CALL_TIMEOUT_SECONDS, DEFAULT_PROFILE } from './defaults.js';
import { UsageError } from './errors.js';
import { Output } from './io/output.js';
import { createProgress, type Progress } from './io/progress.js';
import { createPrompter, type Prompter } from './io/prompter.js';
import { detectTerminal, type Terminal } from './io/terminal.js';
import { loadTheme } from './io/theme.js';
import type { TrustStore } from './config/trust-store.js';
import type { ChainReader } from './chain/chain-reader.js';

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
  /**
   * An agent drives this run (`trader mcp`). With no person to approve (no `approve`), nothing
   * is trusted on first use: a treasury or sell wording must already be pinned by a person.
   */
  agent?: boolean;
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
  /** Changes this run's profile in the config file as it is on disk now (locked, atomic, mode 0600); returns it as written. */
  updateProfile(change: (profile: Profile) => Profile): Profile;
  /** The trust store (pinned treasury and sell wording) of the configured service. */
  trustStore(): Promise<TrustStore>;
  /** The API client; throws a usage error naming how to configure when URL or key is missing. */
  api(): Promise<ServiceClient>;
  /** An API client for an explicit URL and key (config init checks a key before saving it). */
  apiFor(baseUrl: string, apiKey: string): Promise<ServiceClient>;
  prompter: Prompter;
  progress(): Promise<Progress>;
  /** The process facts this run was made from (the MCP server runs commands in-process with them). */
  facts: ProcessFacts;
  /** Whether a trade may be signed once checked: the prompt's answer, or under --yes the approval of ProcessFacts.approve, or yes. */
  approveTrade(review: string, question: string): Promise<boolean>;
  /** Whether what is trusted on first use may be pinned in this run: not when an agent trades with no person to approve. */
  mayPinOnFirstUse: boolean;
  /** A reader of the Solana chain at the configured RPC URL (loads @solana/web3.js on first use). */
  chain(): Promise<ChainReader>;
}

export const NOT_CONFIGURED_HINT =
  'run `trader config init`, or set TRADER_BASE_URL and TRADER_API_KEY; to try without an account, run `eval "$(trader sandbox --background)"`';

/** Builds the context for one run from the global flags. */
export async function createContext(flags: GlobalOptions, facts: ProcessFacts, opts: { lenient?: boolean } = {}): Promise<Context> {
  const config = readConfig(configPath(facts.env, facts.home));
  const profileName = flags.profile || facts.env.TRADER_PROFILE || DEFAULT_PROFILE;
  // A profile that does not exist yet is empty: `config set` and trust-on-first-use create it.
  const settings = resolveSettings(flags, facts.env, config.document.profiles[profileName] ?? {}, profileName, facts.home, opts);
  const terminal = detectTerminal(facts, facts.env, { json: settings.json, color: flags.color });
  const output = new Output(terminal, settings.json, await loadTheme(terminal.color));
  if (config.permissionWarning) output.warn(config.permissionWarning);
  if (settings.apiKeySource === 'flag') {
    output.warn('--api-key is visible to other users in the process list; prefer TRADER_API_KEY or `trader config set apiKey`');
  }

  const makeClient = async (baseUrl: string, apiKey: string): Promise<ServiceClient> => {
    const { createClient } = await import('./api/client.js');
    // The HTTP engine is undici as Node's global fetch. Its WebAssembly HTTP parser stays on
    // V8's baseline compiler: a CLI makes a handful of requests, and the optimizing recompile
    // would otherwise run on after the work is done, holding the exit ~70 ms (docs/bench.md).
    setFlagsFromString('--liftoff-only');
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
  };

  let client: Promise<ServiceClient> | undefined;
  const prompter = createPrompter(terminal, facts.signal);
  let chain: Promise<ChainReader> | undefined;
  return {
    terminal,
    output,
    settings,
    env: facts.env,
    clock: facts.clock,
    signal: facts.signal,
    home: facts.home,
    version: facts.version,
    config,
    updateProfile: (change) => updateProfile(config.path, settings.profileName, change, { now: facts.clock.now }),
    async trustStore() {
      if (!settings.baseUrl) throw new UsageError(`no service URL configured: ${NOT_CONFIGURED_HINT}`, 'NOT_CONFIGURED');
      const [{ TrustStore, trustStorePath }, { resolveApiRoot }] = await Promise.all([import('./config/trust-store.js'), import('./api/base-url.js')]);
      return new TrustStore(trustStorePath(config.path), resolveApiRoot(settings.baseUrl, settings.insecure).href, { now: facts.clock.now });
    },
    api() {
      if (!settings.baseUrl) throw new UsageError(`no service URL configured: ${NOT_CONFIGURED_HINT}`, 'NOT_CONFIGURED');
      if (!settings.apiKey) throw new UsageError(`no API key configured: ${NOT_CONFIGURED_HINT}`, 'NOT_CONFIGURED');
      client ??= makeClient(settings.baseUrl, settings.apiKey);
      return client;
    },
    apiFor: makeClient,
    prompter,
    progress: () => createProgress(terminal, settings.json, facts.clock),
    facts,
    mayPinOnFirstUse: !(facts.agent === true && facts.approve === undefined),
    async approveTrade(review, question) {
      if (!settings.yes) return prompter.confirm(question, false);
      return facts.approve ? facts.approve(review, question) : true;
    },
    chain: () =>
      (chain ??= import('./chain/chain-reader.js').then(({ openChain }) =>
        openChain({
          url: settings.rpcUrl,
          fetch: facts.fetch,
          clock: facts.clock,
          signal: facts.signal,
          env: facts.env,
          // A chain check must not hold a trade long: at most 10 s a call (less with --request-timeout).
          timeoutMs: Math.min(settings.requestTimeoutSeconds, CHAIN_CALL_TIMEOUT_SECONDS) * 1000,
        }),
      )),
  };
}
