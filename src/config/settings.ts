// Resolves every setting by the contract's precedence: flag > environment > config profile > default.
import { join } from 'node:path';
import {
  DEFAULT_KEYPAIR_PATH,
  DEFAULT_RPC_URL,
  DEFAULT_REQUEST_TIMEOUT_SECONDS,
  DEFAULT_TIMEOUT_SECONDS,
} from '../domain/defaults.js';
import { UsageError } from '../domain/errors.js';
import type { Profile, ProfileKey } from './config-file.js';
import {
  parseLamportsOption,
  parseMints,
  parseSeconds,
  parseSlippageBps,
  parseTokenRiskPolicy,
  parseTradesPerHour,
  parseTransferFeeBps,
} from './profile-values.js';
import type { TokenRiskPolicy } from '../domain/token-risks.js';
import { refuseKeyMaterial } from '../wallet/signer-source.js';

/** The global options as typed, parsed by cli/global-options.ts; what was not given is undefined. */
export interface GlobalOptions {
  baseUrl?: string;
  apiKey?: string;
  /** --api-key-file: the key is the file's content. */
  apiKeyFile?: string;
  /** --api-key-stdin: the key is standard input's content. */
  apiKeyStdin?: boolean;
  keypair?: string;
  /** --password-file: the keystore's password for scripts. */
  passwordFile?: string;
  treasury?: string;
  rpcUrl?: string;
  profile?: string;
  timeoutSeconds?: number;
  requestTimeoutSeconds?: number;
  json: boolean;
  yes: boolean;
  /** False with --no-color. */
  color: boolean;
  verbose: boolean;
  insecure: boolean;
}

export type Source = 'flag' | 'env' | 'profile' | 'default';

/** Where the API key comes from when it is not a value: read by context.ts at start-up. */
export type ApiKeyInput = { kind: 'file'; path: string } | { kind: 'stdin' };

export interface Settings {
  profileName: string;
  baseUrl: string | null;
  /** The API key; null until context.ts has read `apiKeyInput` (a file or standard input). */
  apiKey: string | null;
  apiKeySource: Source | null;
  /** Set when the key is to be read from a file or standard input rather than given as a value. */
  apiKeyInput: ApiKeyInput | null;
  /** The owner wallet's signer source as given (wallet/signer-source.ts): a path, file:, keystore:, prompt:, stdin:. */
  keypair: string;
  /** The keystore password's file (--password-file, TRADER_KEYSTORE_PASSWORD_FILE), or null: asked at a prompt. */
  passwordFile: string | null;
  /** Pinned treasury (flag, env or profile); null means trust on first use. */
  treasury: string | null;
  /** Solana JSON-RPC endpoint the chain is read from. */
  rpcUrl: string;
  /** Seconds to wait for a terminal status; null = wait without limit. */
  timeoutSeconds: number;
  requestTimeoutSeconds: number;
  maxBuyLamports: bigint | null;
  maxSlippageBps: number | null;
  maxFeeLamports: bigint | null;
  /** SOL that signed buy deposits may commit in any 24 hours (the journal counts), or null. */
  maxDailyBuyLamports: bigint | null;
  /** The signed minimums of sells in any 24 hours, or null. */
  maxDailySellLamports: bigint | null;
  /** How unattended runs treat a token's warn-level risks (domain/token-risks.ts); null: the default, warn. */
  tokenRisk: TokenRiskPolicy | null;
  /** The highest transfer fee that is only a warning, in bps; null: the default. */
  maxTransferFeeBps: number | null;
  /** Signatures (buys and sells) in any rolling hour, counted by the journal across processes, or null. */
  maxTradesPerHour: number | null;
  /** The loss realized in any 24 hours past which unattended runs stop buying (domain/brake-rules.ts), or null. */
  maxDailyLossLamports: bigint | null;
  /** The only mints an unattended run may trade, or null (any). */
  allowedMints: string[] | null;
  /** Mints an unattended run never trades, or null. */
  deniedMints: string[] | null;
  json: boolean;
  yes: boolean;
  verbose: boolean;
  insecure: boolean;
  /** The flag or environment variable that sets a profile key in this run instead of the profile (`config get/set/list` say so). */
  overrides: Partial<Record<ProfileKey, string>>;
}

/** Builds the settings from flags, the environment and one profile of the config file. */
export function resolveSettings(
  flags: GlobalOptions,
  env: Record<string, string | undefined>,
  profile: Profile,
  profileName: string,
  home: string,
  opts: { lenient?: boolean } = {},
): Settings {
  const lenient = opts.lenient === true;
  const [baseUrl] = pick(flags.baseUrl, env.TRADER_BASE_URL, str(profile.baseUrl));
  const api = apiKeyOf(flags, env, profile, home, lenient);
  const keypair = keypairOf(flags, env, profile, lenient);
  const [passwordFile] = pick(flags.passwordFile, env.TRADER_KEYSTORE_PASSWORD_FILE, undefined);
  const [treasury] = pick(flags.treasury, env.TRADER_TREASURY, str(profile.treasury));
  const [rpcUrl] = pick(flags.rpcUrl, env.TRADER_RPC_URL, str(profile.rpcUrl));
  return {
    profileName,
    baseUrl: baseUrl ?? null,
    ...api,
    keypair: keypair ?? DEFAULT_KEYPAIR_PATH,
    passwordFile: passwordFile === undefined ? null : expandHome(passwordFile, home),
    treasury: treasury ?? null,
    rpcUrl: rpcUrl ?? DEFAULT_RPC_URL,
    timeoutSeconds: secondsOf(flags.timeoutSeconds, env, 'TRADER_TIMEOUT', profile, 'timeout', lenient),
    requestTimeoutSeconds: secondsOf(flags.requestTimeoutSeconds, env, null, profile, 'requestTimeout', lenient),
    ...profileLimits(profile, lenient),
    json: flags.json,
    yes: flags.yes,
    verbose: flags.verbose || env.TRADER_DEBUG === '1',
    insecure: flags.insecure,
    overrides: overridesOf(flags, env, api.apiKeySource),
  };
}

/**
 * A profile value parsed, or null when unset. `config` commands must work even when the profile
 * holds a value they would refuse, or the user could not fix it with `config set`: there
 * (lenient) a bad profile value is treated as unset.
 */
function fromProfile<T>(value: string | number | undefined, parse: (text: string) => T, lenient: boolean): T | null {
  if (value === undefined || value === '') return null;
  try {
    return parse(String(value));
  } catch (err) {
    if (lenient) return null;
    throw err;
  }
}

/** The flag, else the environment's value, else the profile's, with where it came from. */
function pick<T>(
  flag: T | undefined,
  envValue: T | undefined,
  profileValue: T | undefined,
): [T | undefined, Source | null] {
  if (flag !== undefined) return [flag, 'flag'];
  if (envValue !== undefined && envValue !== '') return [envValue, 'env'];
  if (profileValue !== undefined && profileValue !== '') return [profileValue, 'profile'];
  return [undefined, null];
}

function str(v: string | number | undefined): string | undefined {
  return v === undefined ? undefined : String(v);
}

/** The wallet's path or name; key material given as its own source is refused. */
function keypairOf(
  flags: GlobalOptions,
  env: Record<string, string | undefined>,
  profile: Profile,
  lenient: boolean,
): string | undefined {
  // A key given as its own source is refused before anything can print it (a review names the source).
  if (env.TRADER_KEYPAIR) refuseKeyMaterial(env.TRADER_KEYPAIR, 'TRADER_KEYPAIR');
  const [chosen, keypairFrom] = pick(flags.keypair, env.TRADER_KEYPAIR, str(profile.keypair));
  return keypairFrom === 'profile'
    ? (fromProfile(chosen, (t) => (refuseKeyMaterial(t, "the profile's keypair"), t), lenient) ?? undefined)
    : chosen;
}

/** A wait in seconds. A flag is parsed already; the environment and the profile are read here, each named in its error. */
function secondsOf(
  flag: number | undefined,
  env: Record<string, string | undefined>,
  envName: string | null,
  profile: Profile,
  key: 'timeout' | 'requestTimeout',
  lenient: boolean,
): number {
  if (flag !== undefined) return flag;
  const fromEnv = envName === null ? undefined : env[envName];
  if (fromEnv !== undefined && fromEnv !== '') return parseSeconds(fromEnv, { option: envName! });
  const fallback = key === 'timeout' ? DEFAULT_TIMEOUT_SECONDS : DEFAULT_REQUEST_TIMEOUT_SECONDS;
  return fromProfile(profile[key], (t) => parseSeconds(t, { option: `config key ${key}` }), lenient) ?? fallback;
}

type ProfileLimits = Pick<
  Settings,
  | 'maxBuyLamports'
  | 'maxSlippageBps'
  | 'maxFeeLamports'
  | 'maxDailyBuyLamports'
  | 'maxDailySellLamports'
  | 'tokenRisk'
  | 'maxTransferFeeBps'
  | 'maxTradesPerHour'
  | 'maxDailyLossLamports'
  | 'allowedMints'
  | 'deniedMints'
>;

/** The limits only the profile sets, each parsed and named in its error. */
function profileLimits(profile: Profile, lenient: boolean): ProfileLimits {
  const lamports = (key: keyof Profile) =>
    fromProfile(profile[key], (t) => parseLamportsOption(t, `config key ${key}`), lenient);
  return {
    maxBuyLamports: lamports('maxBuyLamports'),
    maxSlippageBps: fromProfile(
      profile.maxSlippageBps,
      (t) => parseSlippageBps(t, 'config key maxSlippageBps'),
      lenient,
    ),
    maxFeeLamports: lamports('maxFeeLamports'),
    maxDailyBuyLamports: lamports('maxDailyBuyLamports'),
    maxDailySellLamports: lamports('maxDailySellLamports'),
    tokenRisk: fromProfile(profile.tokenRisk, (t) => parseTokenRiskPolicy(t), lenient),
    maxTransferFeeBps: fromProfile(profile.maxTransferFeeBps, (t) => parseTransferFeeBps(t), lenient),
    maxTradesPerHour: fromProfile(
      profile.maxTradesPerHour,
      (t) => parseTradesPerHour(t, 'config key maxTradesPerHour'),
      lenient,
    ),
    maxDailyLossLamports: lamports('maxDailyLossLamports'),
    allowedMints: fromProfile(profile.allowedMints, (t) => parseMints(t, 'config key allowedMints'), lenient),
    deniedMints: fromProfile(profile.deniedMints, (t) => parseMints(t, 'config key deniedMints'), lenient),
  };
}

/** Which flag or variable wins over each profile key in this run: the profile's value is then not the one used. */
function overridesOf(
  flags: GlobalOptions,
  env: Record<string, string | undefined>,
  apiKeySource: Source | null,
): Partial<Record<ProfileKey, string>> {
  const either = (flag: unknown, flagName: string, envName: string | null): string | undefined =>
    flag !== undefined ? flagName : envName !== null && env[envName] ? envName : undefined;
  const apiKey =
    apiKeySource === 'flag'
      ? flags.apiKey !== undefined
        ? '--api-key'
        : flags.apiKeyFile !== undefined
          ? '--api-key-file'
          : '--api-key-stdin'
      : apiKeySource === 'env'
        ? 'TRADER_API_KEY'
        : undefined;
  const all: Partial<Record<ProfileKey, string | undefined>> = {
    baseUrl: either(flags.baseUrl, '--base-url', 'TRADER_BASE_URL'),
    apiKey,
    apiKeyFile: apiKey,
    keypair: either(flags.keypair, '--keypair', 'TRADER_KEYPAIR'),
    treasury: either(flags.treasury, '--treasury', 'TRADER_TREASURY'),
    rpcUrl: either(flags.rpcUrl, '--rpc-url', 'TRADER_RPC_URL'),
    timeout: either(flags.timeoutSeconds, '--timeout', 'TRADER_TIMEOUT'),
    requestTimeout: either(flags.requestTimeoutSeconds, '--request-timeout', null),
  };
  return Object.fromEntries(Object.entries(all).filter(([, v]) => v !== undefined));
}

/**
 * The API key's value or where to read it: at most one way per level (--api-key,
 * --api-key-file, --api-key-stdin; the profile's apiKey or apiKeyFile), the flag's level
 * first, then TRADER_API_KEY, then the profile.
 */
function apiKeyOf(
  flags: GlobalOptions,
  env: Record<string, string | undefined>,
  profile: Profile,
  home: string,
  lenient: boolean,
): Pick<Settings, 'apiKey' | 'apiKeySource' | 'apiKeyInput'> {
  const given = [
    flags.apiKey !== undefined && '--api-key',
    flags.apiKeyFile !== undefined && '--api-key-file',
    flags.apiKeyStdin && '--api-key-stdin',
  ].filter(Boolean);
  if (given.length > 1) throw new UsageError(`give the API key one way: ${given.join(' and ')} were both given`);
  if (flags.apiKey !== undefined) return { apiKey: flags.apiKey, apiKeySource: 'flag', apiKeyInput: null };
  if (flags.apiKeyFile !== undefined)
    return {
      apiKey: null,
      apiKeySource: 'flag',
      apiKeyInput: { kind: 'file', path: expandHome(flags.apiKeyFile, home) },
    };
  if (flags.apiKeyStdin) return { apiKey: null, apiKeySource: 'flag', apiKeyInput: { kind: 'stdin' } };
  if (env.TRADER_API_KEY) return { apiKey: env.TRADER_API_KEY, apiKeySource: 'env', apiKeyInput: null };
  const value = profile.apiKey === undefined || profile.apiKey === '' ? undefined : String(profile.apiKey);
  const file = profile.apiKeyFile === undefined || profile.apiKeyFile === '' ? undefined : String(profile.apiKeyFile);
  // `config` commands must still run to remove one of the two.
  if (value !== undefined && file !== undefined && !lenient)
    throw new UsageError('the profile sets both apiKey and apiKeyFile; remove one with `trader config set <key> ""`');
  if (file !== undefined)
    return { apiKey: null, apiKeySource: 'profile', apiKeyInput: { kind: 'file', path: expandHome(file, home) } };
  if (value !== undefined) return { apiKey: value, apiKeySource: 'profile', apiKeyInput: null };
  return { apiKey: null, apiKeySource: null, apiKeyInput: null };
}

/** `~` and `~/…` in a path given in the config or environment, as a shell would. */
export function expandHome(path: string, home: string): string {
  return path === '~' || path.startsWith('~/') ? join(home, path.slice(1)) : path;
}
