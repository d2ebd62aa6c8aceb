// `trader config init|get|set|list|path` and `config trust`: the config file and its profiles,
// what can be typed, and the runs. They run with a lenient context: a profile holding a value
// they would refuse can still be fixed.
import { PROFILE_KEYS, type Profile, type ProfileKey } from '../../config/config-file.js';
import type { Context } from '../../cli/context.js';
import { DeclinedError, UsageError } from '../../domain/errors.js';
import { LIMIT_KEYS, loosens, type LimitKey } from '../../domain/brake-rules.js';
import { isCanonicalIntegerString, lamportsAndSol } from '../../domain/amounts.js';
import { audit } from '../brake.js';
import { renderFields } from '../../io/table.js';
import { keyMaterialShape } from '../../wallet/key-material.js';
import { parseSignerSource } from '../../wallet/signer-source.js';
import { trust } from './config-trust.js';
import { defineCommand, type CommandGroup, type NoOptions } from '../../cli/definition.js';
import { parseProfileKey, parseProfileValue } from '../../config/profile-values.js';
import { isLoopbackHost, parseBaseUrl, parseRpcUrl } from '../../net/urls.js';

const KEY_HELP = PROFILE_KEYS.join(', ');

export interface ConfigKeyOptions {
  key: ProfileKey;
}

export interface ConfigSetOptions extends ConfigKeyOptions {
  /** What is stored, checked by the parser that reads it back; undefined removes the key (`""`). */
  value: string | number | undefined;
  /** `config set apiKey -`: the key is read from standard input (hidden on a terminal), never typed on the command line. */
  fromInput?: boolean;
}

const init = defineCommand<NoOptions>({
  examples: ['trader config init', 'trader --profile staging config init'],
  lenient: true,
  parse: () => ({}),
  run: initRun,
});

const get = defineCommand<ConfigKeyOptions>({
  arguments: [{ name: '<key>', help: KEY_HELP, values: PROFILE_KEYS }],
  examples: ['trader config get baseUrl'],
  lenient: true,
  parse: (raw) => ({ key: parseProfileKey(raw.args[0]!) }),
  run: getRun,
});

const set = defineCommand<ConfigSetOptions>({
  arguments: [
    { name: '<key>', help: KEY_HELP, values: PROFILE_KEYS },
    {
      name: '<value>',
      help: 'the value ("" to remove; for apiKey, - reads it from standard input, hidden on a terminal)',
    },
  ],
  examples: [
    'trader config set maxBuyLamports 500000000',
    'trader config set treasury <address>',
    'trader config set apiKey -',
    'trader config set keypair keystore:main',
  ],
  lenient: true,
  parse(raw) {
    const key = parseProfileKey(raw.args[0]!);
    const value = raw.args[1]!;
    if (key === 'apiKey' && value === '-') return { key, value: undefined, fromInput: true };
    return { key, value: value === '' ? undefined : parseProfileValue(key, value, { insecure: raw.globals.insecure }) };
  },
  run: setRun,
});

const list = defineCommand<NoOptions>({
  lenient: true,
  parse: () => ({}),
  run: listRun,
});

const path = defineCommand<NoOptions>({
  lenient: true,
  parse: () => ({}),
  run: pathRun,
});

export const config: CommandGroup = {
  examples: [
    'trader config init',
    'trader config set maxBuyLamports 500000000',
    'trader --profile staging config list',
  ],
  subcommands: [
    {
      name: 'init',
      dangerous: true,
      needsApiKey: true,
      needsKeypair: true,
      summary: 'ask for URL, API key, keypair and RPC URL, check the key with the service, save (mode 0600)',
      command: init,
    },
    {
      name: 'get',
      dangerous: false,
      needsApiKey: false,
      needsKeypair: false,
      summary: 'print one setting of the profile (the API key masked)',
      command: get,
    },
    {
      name: 'set',
      dangerous: true,
      needsApiKey: false,
      needsKeypair: false,
      summary: 'set one setting of the profile',
      command: set,
    },
    {
      name: 'list',
      dangerous: false,
      needsApiKey: false,
      needsKeypair: false,
      summary: 'print every setting of the profile (the API key masked)',
      command: list,
    },
    {
      name: 'path',
      dangerous: false,
      needsApiKey: false,
      needsKeypair: false,
      summary: 'print where the config file is',
      command: path,
    },
    {
      name: 'trust',
      dangerous: false,
      needsApiKey: false,
      needsKeypair: false,
      summary:
        'what is trusted for the configured service (treasury, sell wording, token facts) and by which act; accept-… grants it (trust.json beside the config)',
      command: trust,
    },
  ],
};

/** Shows enough of a key to recognise it, never the whole. */
export function maskKey(key: string): string {
  return key.length <= 8 ? '****' : `${key.slice(0, 4)}…(${key.length} characters)`;
}

function shown(key: ProfileKey, value: string | number | undefined): string | undefined {
  if (value === undefined) return undefined;
  // A key an earlier version stored as the keypair's source is not shown, only named.
  if (key === 'keypair' && keyMaterialShape(String(value)) !== null)
    return '(could be a secret key, not shown: remove it with `trader config set keypair ""`)';
  return key === 'apiKey' ? maskKey(String(value)) : String(value);
}

/** A value as a person reads it: a lamport key's lamports with its SOL beside them (`1000000000 lamports (1 SOL)`). */
function inWords(key: ProfileKey, value: string | number | undefined): string | undefined {
  return key.endsWith('Lamports') && isCanonicalIntegerString(value) ? lamportsAndSol(value) : shown(key, value);
}

function profileOf(ctx: Context): Profile {
  return ctx.config.document.profiles[ctx.settings.profileName] ?? {};
}

/** `trader config path`. */
async function pathRun(ctx: Context): Promise<void> {
  ctx.output.result({ path: ctx.config.path }, () => ctx.config.path);
}

/** `trader config get <key>`: the API key masked; a flag or variable that wins over it in this run is said. */
async function getRun(ctx: Context, { key }: ConfigKeyOptions): Promise<void> {
  const value = shown(key, profileOf(ctx)[key]);
  const overridden = overrideWords(ctx, key);
  if (overridden) ctx.output.warn(overridden);
  ctx.output.result(
    { profile: ctx.settings.profileName, key, value: value ?? null, overriddenBy: ctx.settings.overrides[key] ?? null },
    () => value ?? `(${key} is not set in profile "${ctx.settings.profileName}")`,
  );
}

/** The value a key has in this run when a flag or variable sets it, as shown (the API key masked). */
function effectiveValue(ctx: Context, key: ProfileKey): string | null {
  const s = ctx.settings;
  const values: Partial<Record<ProfileKey, string | number | null>> = {
    baseUrl: s.baseUrl,
    keypair: s.keypair,
    treasury: s.treasury,
    rpcUrl: s.rpcUrl,
    timeout: s.timeoutSeconds,
    requestTimeout: s.requestTimeoutSeconds,
    apiKey: s.apiKey === null ? null : maskKey(s.apiKey),
  };
  const value = values[key];
  return value === null || value === undefined ? null : String(value);
}

/** What wins over the profile's `key` in this run, and the value used instead; null when the profile's counts. */
export function overrideWords(ctx: Context, key: ProfileKey): string | null {
  const by = ctx.settings.overrides[key];
  if (by === undefined) return null;
  const where = by.startsWith('--') ? 'on this command line' : 'in this environment';
  const value = effectiveValue(ctx, key);
  return `${by} is set ${where} and wins over profile "${ctx.settings.profileName}"'s ${key}${value === null ? '' : `: commands run here use ${value}`}`;
}

/** `trader config set <key> <value>`: the value was checked by the definition; undefined removes the key. */
async function setRun(ctx: Context, opts: ConfigSetOptions): Promise<void> {
  const { key } = opts;
  let value = opts.value;
  if (opts.fromInput) {
    value = (await ctx.readSecretInput('the API key')).trim();
    if (value === '') throw new UsageError('the API key read from standard input is empty; nothing was changed');
  } else if (key === 'apiKey' && value !== undefined) {
    ctx.output.warn(
      'a key typed on the command line stays in your shell history and shows in the process list; `trader config set apiKey -` reads it from standard input, hidden',
    );
  }
  const limit = (LIMIT_KEYS as readonly string[]).includes(key);
  const before = profileOf(ctx)[key];
  const loosened = limit && loosens(key as LimitKey, before, value);
  if (loosened) await askToLoosen(ctx, key, before, value);
  // The file is read again under its lock: a change another process made meanwhile is kept.
  const profile = ctx.updateProfile((current) => {
    // A limit is loosened only from the value the person was shown.
    if (loosened && current[key] !== before)
      throw new UsageError(
        `${key} of profile "${ctx.settings.profileName}" changed while you were asked (it is now ${current[key] ?? 'not set'}); nothing was changed: run the command again`,
        'CONFIG_CHANGED',
      );
    const next = { ...current };
    if (value === undefined) delete next[key];
    else next[key] = value;
    return next;
  });
  if (profile.apiKey !== undefined && profile.apiKeyFile !== undefined) {
    ctx.output.warn(
      `profile "${ctx.settings.profileName}" now sets both apiKey and apiKeyFile, which is refused when the key is used; remove one with \`trader config set <key> ""\``,
    );
  }
  if (limit && before !== profile[key])
    audit(ctx, { event: 'limit', key, from: before ?? null, to: profile[key] ?? null, loosened });
  const display = shown(key, profile[key]);
  const overridden = overrideWords(ctx, key);
  if (overridden) ctx.output.warn(overridden);
  ctx.output.result(
    {
      profile: ctx.settings.profileName,
      key,
      value: display ?? null,
      overriddenBy: ctx.settings.overrides[key] ?? null,
    },
    () =>
      display === undefined
        ? `removed ${key} from profile "${ctx.settings.profileName}"`
        : `set ${key} = ${inWords(key, profile[key])} in profile "${ctx.settings.profileName}"`,
  );
}

/**
 * Loosening a limit (raised, removed, a mint allowed or no longer denied) is a person's act: asked
 * at a terminal, never under --yes, --json, a pipe or an agent (exit 2, nothing changed).
 */
async function askToLoosen(
  ctx: Context,
  key: ProfileKey,
  before: string | number | undefined,
  after: string | number | undefined,
): Promise<void> {
  const change = `${key} of profile "${ctx.settings.profileName}" from ${inWords(key, before)} to ${inWords(key, after) ?? 'no limit'}`;
  const here = ctx.presence(false);
  if (!here.mayGrantTrust) {
    throw new UsageError(
      `loosening ${change} is a person's act, and here ${here.why}; nothing was changed (tightening needs no one)`,
      'PERSON_REQUIRED',
      ['run it at your own terminal, without --yes or --json'],
    );
  }
  if (!(await ctx.prompter.confirm(`Loosen ${change}? Unattended runs (--yes, trader mcp) trade within it.`, false)))
    throw new DeclinedError(`declined: ${key} stays ${before}`);
}

/** `trader config list`: the API key masked; each key a flag or variable sets instead in this run is marked, with the value used. */
async function listRun(ctx: Context): Promise<void> {
  const profile = profileOf(ctx);
  const masked: Record<string, string | number> = {};
  for (const key of PROFILE_KEYS) {
    const value = key === 'apiKey' || key === 'keypair' ? shown(key, profile[key]) : profile[key];
    if (value !== undefined) masked[key] = value;
  }
  const overrides = ctx.settings.overrides;
  ctx.output.result(
    {
      profile: ctx.settings.profileName,
      path: ctx.config.path,
      settings: masked,
      overrides: Object.fromEntries(Object.entries(overrides).filter(([k]) => masked[k] !== undefined)),
    },
    (theme) => {
      const fields = PROFILE_KEYS.filter((k) => masked[k] !== undefined).map((k): [string, string] => {
        const used = effectiveValue(ctx, k);
        const value = inWords(k, profile[k]); // masked once, by inWords (masked[] is the JSON one)
        return [
          k,
          overrides[k] === undefined
            ? String(value)
            : `${value} ${theme.pending(`(${overrides[k]} wins here${used === null ? '' : `: ${used}`})`)}`,
        ];
      });
      const header = `Profile "${ctx.settings.profileName}" in ${ctx.config.path}`;
      return fields.length === 0
        ? `${header}: nothing set (run \`trader config init\`)`
        : `${header}\n${renderFields(fields, theme)}`;
    },
  );
}

/** `trader config init`: asks, checks the key with the service, saves. */
async function initRun(ctx: Context): Promise<void> {
  if (!ctx.terminal.interactive) {
    throw new UsageError(
      'config init asks questions and needs an interactive terminal; in scripts use `trader config set <key> <value>` or the TRADER_* variables',
    );
  }
  const current = profileOf(ctx);
  const ask = ctx.prompter;
  const baseUrl = await ask.input('Service URL', {
    default: ctx.settings.baseUrl ?? (current.baseUrl as string | undefined),
    // The one URL rule, as for --base-url and `config set baseUrl`.
    validate: (v) => {
      try {
        parseBaseUrl(v, { insecure: ctx.settings.insecure });
        return true;
      } catch (err) {
        return (err as Error).message;
      }
    },
  });
  const apiKey = await ask.secret('API key', { validate: (v) => (v.trim() ? true : 'the API key is required') });
  const keypair = await ask.input('Wallet keypair file (or keystore:<name>, see trader keys)', {
    default: ctx.settings.keypair,
    validate: (v) => {
      try {
        parseSignerSource(v);
        return true;
      } catch (err) {
        return (err as Error).message;
      }
    },
  });
  // Pre-filled as the chain is read now: TRADER_RPC_URL (the sandbox exports its own), else the profile's, else mainnet.
  const rpcUrl = await ask.input('Solana RPC URL (the chain balances and checks are read from)', {
    default: ctx.settings.rpcUrl,
    validate: (v) => {
      try {
        parseRpcUrl(v, 'RPC URL');
        return true;
      } catch (err) {
        return (err as Error).message;
      }
    },
  });
  const chainMismatch = loopbackServicePublicChain(baseUrl, rpcUrl);
  if (chainMismatch) ctx.output.warn(chainMismatch);

  ctx.output.note('Checking the key with the service…');
  const account = await (await ctx.apiFor(baseUrl, apiKey.trim())).me();

  try {
    const publicKey = await publicKeyOf(ctx, keypair);
    if (publicKey !== null && publicKey !== account.walletAddress) {
      ctx.output.warn(
        `the keypair ${keypair} is ${publicKey}, but the account's wallet is ${account.walletAddress}: trades will be refused until they match`,
      );
    }
  } catch (err) {
    ctx.output.warn(`${(err as Error).message} (saved anyway; fix it before trading)`);
  }
  ctx.updateProfile((latest) => ({ ...latest, baseUrl, apiKey: apiKey.trim(), keypair, rpcUrl: rpcUrl.trim() }));
  ctx.output.result(
    { profile: ctx.settings.profileName, path: ctx.config.path, walletAddress: account.walletAddress },
    () =>
      `Saved profile "${ctx.settings.profileName}" to ${ctx.config.path} (mode 0600). Account wallet: ${account.walletAddress}`,
  );
}

/** The wallet's address when it can be known without a secret (a keypair file, a keystore); null for a typed or piped key. */
async function publicKeyOf(ctx: Context, text: string): Promise<string | null> {
  const source = parseSignerSource(text);
  if (source.kind === 'file') {
    const [{ loadKeypair }, { expandHome }] = await Promise.all([
      import('../../wallet/keypair.js'),
      import('../../config/settings.js'),
    ]);
    const loaded = loadKeypair(expandHome(source.path, ctx.home));
    loaded.secretKey.fill(0);
    for (const warning of loaded.warnings) ctx.output.warn(warning);
    return loaded.publicKey;
  }
  if (source.kind === 'keystore') {
    const [{ openKeystore }, { keystoreDir, readKeystoreText }] = await Promise.all([
      import('../../wallet/owner-wallet.js'),
      import('../../config/keystore-files.js'),
    ]);
    return (
      await openKeystore(source.name, { readKeystore: (name) => readKeystoreText(keystoreDir(ctx.config.path), name) })
    ).publicKey;
  }
  return null;
}

/**
 * A service on this machine (a sandbox) read against a chain that is not: balances and the chain's
 * checks would read another chain than the one its deposits land on. Null when they agree.
 */
export function loopbackServicePublicChain(baseUrl: string, rpcUrl: string): string | null {
  const host = (url: string) => {
    try {
      return new URL(url.trim()).hostname;
    } catch {
      return null;
    }
  };
  const service = host(baseUrl);
  const chain = host(rpcUrl);
  if (service === null || chain === null || !isLoopbackHost(service) || isLoopbackHost(chain)) return null;
  // Only the chain's host: a provider's URL may carry its key.
  return `the service ${baseUrl.trim()} is on this machine (a sandbox?) but the RPC URL (host ${chain}) is not: balances and the chain checks would read that chain, not the one its deposits land on (the sandbox's is its TRADER_RPC_URL; change it with \`trader config set rpcUrl <url>\`)`;
}
