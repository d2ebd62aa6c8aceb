// Resolves every setting by the contract's precedence: flag > environment > config profile > default.
import { join } from 'node:path';
import { parseSeconds } from '../amounts.js';
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
  treasurySource: Source | null;
  /** Seconds to wait for a terminal status; null = wait without limit. */
  timeoutSeconds: number | null;
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
/** How long buy, sell and --watch wait by default: past the 10-minute deposit window. */
export const DEFAULT_TIMEOUT_SECONDS = 900;

/** Builds the settings from flags, the environment and one profile of the config file. */
export function resolveSettings(
  flags: GlobalFlags,
  env: Record<string, string | undefined>,
  profile: Profile,
  profileName: string,
  home: string,
): Settings {
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
  const [treasury, treasurySource] = pick(flags.treasury, env.TRADER_TREASURY, str(profile.treasury));
  const [timeout, timeoutSource] = pick(flags.timeout, env.TRADER_TIMEOUT, str(profile.timeout));
  const [requestTimeout, requestTimeoutSource] = pick(flags.requestTimeout, undefined, str(profile.requestTimeout));

  return {
    profileName,
    baseUrl: baseUrl ?? null,
    apiKey: apiKey ?? null,
    apiKeySource,
    keypairPath: expandHome(keypair ?? join(home, '.config', 'solana', 'id.json'), home),
    treasury: treasury ?? null,
    treasurySource,
    timeoutSeconds: timeout === undefined ? DEFAULT_TIMEOUT_SECONDS : parseSeconds(timeout, { option: optionName('--timeout', 'TRADER_TIMEOUT', 'timeout', timeoutSource) }),
    requestTimeoutSeconds:
      requestTimeout === undefined
        ? DEFAULT_REQUEST_TIMEOUT_SECONDS
        : parseSeconds(requestTimeout, { option: optionName('--request-timeout', '', 'requestTimeout', requestTimeoutSource) }),
    maxBuyLamports: profile.maxBuyLamports === undefined ? null : parseProfileInteger(profile.maxBuyLamports, 'maxBuyLamports'),
    maxSlippageBps:
      profile.maxSlippageBps === undefined ? null : Number(parseProfileInteger(profile.maxSlippageBps, 'maxSlippageBps', 10_000n)),
    maxFeeLamports: profile.maxFeeLamports === undefined ? null : parseProfileInteger(profile.maxFeeLamports, 'maxFeeLamports'),
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

function parseProfileInteger(value: string | number, key: string, max = 18_446_744_073_709_551_615n): bigint {
  const text = String(value);
  if (!/^\d+$/.test(text) || BigInt(text) > max) {
    throw new UsageError(`config key ${key} must be a non-negative integer${max < 1_000_000n ? ` up to ${max}` : ''}, got "${text}"`, 'CONFIG');
  }
  return BigInt(text);
}

function expandHome(path: string, home: string): string {
  return path === '~' || path.startsWith('~/') ? join(home, path.slice(1)) : path;
}
