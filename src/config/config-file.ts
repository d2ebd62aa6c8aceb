// The config file: named profiles in one JSON document, written with mode 0600 because it
// holds the API key. Writes go through locked-file.ts: re-read, changed and replaced atomically
// under a lock, so a crash never leaves half a file and concurrent writers lose nothing.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../domain/errors.js';
import { LockedFileError, readOrNull, updateLockedFile, type LockTiming } from './locked-file.js';

/** Keys a profile may hold, as `trader config set` names them. */
export const PROFILE_KEYS = [
  'baseUrl',
  'apiKey',
  'apiKeyFile',
  'keypair',
  'treasury',
  'rpcUrl',
  'timeout',
  'requestTimeout',
  'maxBuyLamports',
  'maxSlippageBps',
  'maxFeeLamports',
  'maxDailyBuyLamports',
  'maxDailySellLamports',
  'tokenRisk',
  'maxTransferFeeBps',
  'maxTradesPerHour',
  'maxDailyLossLamports',
  'allowedMints',
  'deniedMints',
] as const;
export type ProfileKey = (typeof PROFILE_KEYS)[number];

export type Profile = Partial<Record<ProfileKey, string | number>>;

export interface ConfigDocument {
  profiles: Record<string, Profile>;
  [extra: string]: unknown;
}

/** Where the config file lives: $TRADER_CONFIG, else $XDG_CONFIG_HOME/trader, else ~/.config/trader. */
export function configPath(env: Record<string, string | undefined>, home: string): string {
  if (env.TRADER_CONFIG) return env.TRADER_CONFIG;
  const base = env.XDG_CONFIG_HOME || join(home, '.config');
  return join(base, 'trader', 'config.json');
}

export interface LoadedConfig {
  path: string;
  document: ConfigDocument;
  exists: boolean;
  /** Set when the file can be read by group or others. */
  permissionWarning: string | null;
}

/** Reads the config file; a missing file is an empty document, a malformed one a usage error. */
export function readConfig(path: string): LoadedConfig {
  let text: string | null;
  try {
    text = readOrNull(path, 'config file');
  } catch (err) {
    throw new UsageError((err as Error).message, 'CONFIG');
  }
  if (text === null) return { path, document: { profiles: {} }, exists: false, permissionWarning: null };
  return { path, document: parseConfig(path, text), exists: true, permissionWarning: permissionWarning(path) };
}

function parseConfig(path: string, text: string): ConfigDocument {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new UsageError(
      `config file ${path} is not valid JSON; fix it or delete it and run \`trader config init\``,
      'CONFIG',
    );
  }
  if (!isObject(parsed) || (parsed.profiles !== undefined && !isObject(parsed.profiles))) {
    throw new UsageError(`config file ${path} must be {"profiles": {"<name>": {…}}}`, 'CONFIG');
  }
  const profiles = (parsed.profiles ?? {}) as Record<string, unknown>;
  for (const [name, profile] of Object.entries(profiles)) {
    if (!isObject(profile)) throw new UsageError(`config file ${path}: profile "${name}" must be an object`, 'CONFIG');
  }
  return { ...parsed, profiles: profiles as Record<string, Profile> };
}

/**
 * Changes one profile of the config file as it is on disk now (not as this run read it at
 * start-up, so a change another process made meanwhile is kept), atomically, under a lock,
 * with mode 0600. Returns the profile as written.
 */
export function updateProfile(
  path: string,
  name: string,
  change: (profile: Profile) => Profile,
  timing: LockTiming,
): Profile {
  let written: Profile = {};
  try {
    updateLockedFile(
      path,
      (current) => {
        const document = current === null ? { profiles: {} } : parseConfig(path, current);
        written = change({ ...(document.profiles[name] ?? {}) });
        return JSON.stringify({ ...document, profiles: { ...document.profiles, [name]: written } }, null, 2) + '\n';
      },
      timing,
      'config file',
    );
  } catch (err) {
    if (err instanceof LockedFileError) throw new UsageError(err.message, 'CONFIG');
    throw err;
  }
  return written;
}

function permissionWarning(path: string): string | null {
  try {
    const mode = statSync(path).mode;
    if (mode & 0o077) {
      return `config file ${path} can be read by other users (mode ${(mode & 0o777).toString(8)}); run: chmod 600 ${path}`;
    }
  } catch {
    /* unreadable stat: the read above already succeeded, nothing to add */
  }
  return null;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
