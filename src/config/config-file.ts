// The config file: named profiles in one JSON document, written with mode 0600 because it
// holds the API key. Writes are atomic (temp file + rename) so a crash never leaves half a file.
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { UsageError } from '../errors.js';

/** Keys a profile may hold, as `trader config set` names them. */
export const PROFILE_KEYS = [
  'baseUrl',
  'apiKey',
  'keypair',
  'treasury',
  'timeout',
  'requestTimeout',
  'maxBuyLamports',
  'maxSlippageBps',
  'maxFeeLamports',
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
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      return { path, document: { profiles: {} }, exists: false, permissionWarning: null };
    }
    throw new UsageError(`cannot read config file ${path}: ${(err as Error).message}`, 'CONFIG');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new UsageError(`config file ${path} is not valid JSON; fix it or delete it and run \`trader config init\``, 'CONFIG');
  }
  if (!isObject(parsed) || (parsed.profiles !== undefined && !isObject(parsed.profiles))) {
    throw new UsageError(`config file ${path} must be {"profiles": {"<name>": {…}}}`, 'CONFIG');
  }
  const profiles = (parsed.profiles ?? {}) as Record<string, unknown>;
  for (const [name, profile] of Object.entries(profiles)) {
    if (!isObject(profile)) throw new UsageError(`config file ${path}: profile "${name}" must be an object`, 'CONFIG');
  }
  return {
    path,
    document: { ...parsed, profiles: profiles as Record<string, Profile> },
    exists: true,
    permissionWarning: permissionWarning(path),
  };
}

/** Writes the document atomically with mode 0600, creating the folder (0700) if needed. */
export function writeConfig(path: string, document: ConfigDocument): void {
  ensureDir(dirname(path));
  // node:crypto costs ~5 ms to load and every run reads this module; only a write needs it.
  const { randomBytes } = process.getBuiltinModule('node:crypto');
  const temp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  writeFileSync(temp, JSON.stringify(document, null, 2) + '\n', { mode: 0o600 });
  chmodSync(temp, 0o600); // mode is ignored when the temp file already existed
  renameSync(temp, path);
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

/**
 * Creates a folder and its missing parents (mode 0700), one level at a time: Node's recursive
 * mkdirSync spins for ever on some file systems (a path under /proc, for one).
 */
function ensureDir(dir: string): void {
  if (existsSync(dir)) return;
  const parent = dirname(dir);
  if (parent !== dir) ensureDir(parent);
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
}
