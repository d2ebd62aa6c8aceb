// Resolves every setting by the contract's precedence: flag > environment > config profile > default.
import { join } from 'node:path';
import { parseLamportsOption, parseSeconds, parseSlippageBps } from '../amounts.js';
import { UsageError } from '../errors.js';
import type { Profile } from './config-file.js';

/** Options common to every command, as commander hands them over (strings, unparsed). */
export interface GlobalFlags {
  baseUrl?: string;
  apiKey?: string;
  keypair?: string;
  treasury?: string;
  profile?: string;
  json?: boolean;
  yes?: boolean;
  timeout?: string;
  requestTimeout?: string;
  color?: boolean;
  verbose?: boolean;
  insecure?: boolean;
}

const FLAG_NAMES = {
  baseUrl: '--base-url',
  apiKey: '--api-key',
  keypair: '--keypair',
  treasury: '--treasury',
  profile: '--profile',
  timeout: '--timeout',
  requestTimeout: '--request-timeout',
} as const;

export type Source = 'flag' | 'env' | 'profile' | 'default';

export interface Settings {
  profileName: string;
  baseUrl: string | null;
  apiKey: string | null;
  apiKeySource: Source | null;
  keypairPath: string;
  /** Pinned treasury (flag, env or profile); null means trust on first use. */
  treasury: string | null;
  /** Seconds to wait for a terminal status; null = wait without limit. */
  timeoutSeconds: number;
  requestTimeoutSeconds: number;
  maxBuyLamports: bigint | null;
  maxSlippageBps: number | null;
  maxFeeLamports: bigint | null;
  json: boolean;
  yes: boolean;
  verbose: boolean;
  insecure: boolean;
}

export const DEFAULT_REQUEST_TIMEOUT_SECONDS = 30;
/** The slippage a trade may carry when neither --slippage-bps nor the profile's maxSlippageBps is set. */
export const DEFAULT_MAX_SLIPPAGE_BPS = 500;
/** How long buy, sell and --watch wait by default: past the 10-minute deposit window. */
export const DEFAULT_TIMEOUT_SECONDS = 900;

/** Builds the settings from flags, the environment and one profile of the config file. */
export function resolveSettings(
  flags: GlobalFlags,
  env: Record<string, string | undefined>,
  profile: Profile,
  profileName: string,
  home: string,
  opts: { lenient?: boolean } = {},
): Settings {
  // `config` commands must work even when the profile holds a value they would refuse, or the
  // user could not fix it with `config set`: there a bad profile value is treated as unset.
  const fromProfile = <T>(value: string | number | undefined, parse: (text: string) => T): T | null => {
    if (value === undefined || value === '') return null;
    try {
      return parse(String(value));
    } catch (err) {
      if (opts.lenient) return null;
      throw err;
    }
  };
  const pick = <T>(flag: T | undefined, envValue: T | undefined, profileValue: T | undefined): [T | undefined, Source | null] => {
    if (flag !== undefined) return [flag, 'flag'];
    if (envValue !== undefined && envValue !== '') return [envValue, 'env'];
    if (profileValue !== undefined && profileValue !== '') return [profileValue, 'profile'];
    return [undefined, null];
  };
  const str = (v: string | number | undefined) => (v === undefined ? undefined : String(v));
  // An empty flag (`--base-url "$URL"` with URL unset) must not quietly fall back to another
  // service, key or wallet from the environment or the profile.
  for (const [name, value] of Object.entries(FLAG_NAMES)) {
    if (flags[name as keyof typeof FLAG_NAMES] === '') throw new UsageError(`${value} was given an empty value`);
  }

  const [baseUrl] = pick(flags.baseUrl, env.TRADER_BASE_URL, str(profile.baseUrl));
  const [apiKey, apiKeySource] = pick(flags.apiKey, env.TRADER_API_KEY, str(profile.apiKey));
  const [keypair] = pick(flags.keypair, env.TRADER_KEYPAIR, str(profile.keypair));
  const [treasury] = pick(flags.treasury, env.TRADER_TREASURY, str(profile.treasury));
  const [timeout, timeoutSource] = pick(flags.timeout, env.TRADER_TIMEOUT, str(profile.timeout));
  const [requestTimeout, requestTimeoutSource] = pick(flags.requestTimeout, undefined, str(profile.requestTimeout));

  const seconds = (value: string | undefined, source: Source | null, fallback: number, option: string): number => {
    if (value === undefined) return fallback;
    if (source === 'profile') return fromProfile(value, (t) => parseSeconds(t, { option })) ?? fallback;
    return parseSeconds(value, { option });
  };

  return {
    profileName,
    baseUrl: baseUrl ?? null,
    apiKey: apiKey ?? null,
    apiKeySource,
    keypairPath: expandHome(keypair ?? join(home, '.config', 'solana', 'id.json'), home),
    treasury: treasury ?? null,
    timeoutSeconds: seconds(timeout, timeoutSource, DEFAULT_TIMEOUT_SECONDS, optionName('--timeout', 'TRADER_TIMEOUT', 'timeout', timeoutSource)),
    requestTimeoutSeconds: seconds(
      requestTimeout,
      requestTimeoutSource,
      DEFAULT_REQUEST_TIMEOUT_SECONDS,
      optionName('--request-timeout', '', 'requestTimeout', requestTimeoutSource),
    ),
    maxBuyLamports: fromProfile(profile.maxBuyLamports, (t) => parseLamportsOption(t, 'config key maxBuyLamports')),
    maxSlippageBps: fromProfile(profile.maxSlippageBps, (t) => parseSlippageBps(t, 'config key maxSlippageBps')),
    maxFeeLamports: fromProfile(profile.maxFeeLamports, (t) => parseLamportsOption(t, 'config key maxFeeLamports')),
    json: Boolean(flags.json),
    yes: Boolean(flags.yes),
    verbose: Boolean(flags.verbose) || env.TRADER_DEBUG === '1',
    insecure: Boolean(flags.insecure),
  };
}

function optionName(flag: string, envName: string, key: string, source: Source | null): string {
  if (source === 'env') return envName;
  if (source === 'profile') return `config key ${key}`;
  return flag;
}


function expandHome(path: string, home: string): string {
  return path === '~' || path.startsWith('~/') ? join(home, path.slice(1)) : path;
}
