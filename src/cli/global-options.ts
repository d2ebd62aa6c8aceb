// The options every command takes, before or after it: declared once with their help, and the
// values typed parsed once. The environment and the profile fill in the rest (config/settings.ts).
import type { GlobalOptions } from '../config/settings.js';
import {
  DEFAULT_KEYPAIR_PATH,
  DEFAULT_RPC_URL,
  DEFAULT_PROFILE,
  DEFAULT_REQUEST_TIMEOUT_SECONDS,
  DEFAULT_TIMEOUT_SECONDS,
} from '../domain/defaults.js';
import { UsageError } from '../domain/errors.js';
import type { OptionSpec } from './definition.js';

const CONNECTION = 'Connection options:';
const WALLET = 'Wallet options:';
const OUTPUT = 'Output options:';

export const GLOBAL_OPTIONS: readonly OptionSpec[] = [
  {
    group: CONNECTION,
    flags: '--base-url <url>',
    short: 'service root URL (TRADER_BASE_URL)',
    help: 'service root URL',
    env: 'TRADER_BASE_URL',
    configKey: 'baseUrl',
  },
  {
    group: CONNECTION,
    flags: '--api-key <key>',
    short: 'API key; prefer TRADER_API_KEY or the config',
    help: 'API key; prefer env TRADER_API_KEY, --api-key-file or the config file',
  },
  {
    group: CONNECTION,
    flags: '--api-key-file <path>',
    short: 'read the API key from this file',
    help: 'read the API key from this file',
    configKey: 'apiKeyFile',
  },
  {
    group: CONNECTION,
    flags: '--api-key-stdin',
    short: 'read the API key from standard input',
    help: 'read the API key from standard input',
  },
  {
    group: CONNECTION,
    flags: '--rpc-url <url>',
    short: 'Solana JSON-RPC endpoint (TRADER_RPC_URL)',
    help: 'Solana JSON-RPC endpoint the chain is read from (balance, funds, verification)',
    env: 'TRADER_RPC_URL',
    configKey: 'rpcUrl',
    default: DEFAULT_RPC_URL,
  },
  {
    group: CONNECTION,
    flags: '--profile <name>',
    short: 'config profile (TRADER_PROFILE; default "default")',
    help: 'config profile to use',
    env: 'TRADER_PROFILE',
    default: JSON.stringify(DEFAULT_PROFILE),
  },
  {
    group: CONNECTION,
    flags: '--request-timeout <seconds>',
    short: 'per HTTP request (default 30)',
    help: 'timeout of each HTTP request in seconds',
    configKey: 'requestTimeout',
    default: DEFAULT_REQUEST_TIMEOUT_SECONDS,
  },
  {
    group: CONNECTION,
    flags: '--insecure',
    short: 'allow http:// to hosts other than this one',
    help: 'allow plain http:// to hosts other than this machine',
  },
  {
    group: WALLET,
    flags: '--keypair <source>',
    short: 'wallet: a file, keystore:<name>, prompt:, stdin:',
    help: 'owner wallet: a keypair file, keystore:<name> (trader keys), prompt: (a seed phrase) or stdin:',
    env: 'TRADER_KEYPAIR',
    configKey: 'keypair',
    default: DEFAULT_KEYPAIR_PATH,
  },
  {
    group: WALLET,
    flags: '--password-file <path>',
    short: "a keystore's password, for scripts",
    help: "the keystore's password for scripts (else asked, hidden, at signing)",
    env: 'TRADER_KEYSTORE_PASSWORD_FILE',
  },
  {
    group: WALLET,
    flags: '--treasury <address>',
    short: "the service's deposit address (TRADER_TREASURY)",
    help: "pin the service's deposit address",
    env: 'TRADER_TREASURY',
    configKey: 'treasury',
  },
  {
    group: OUTPUT,
    flags: '--json',
    short: 'machine output: one JSON document on stdout',
    help: 'machine output: one JSON document on stdout',
  },
  {
    group: OUTPUT,
    flags: '-y, --yes',
    short: 'answer yes; trading needs it with no terminal',
    help: 'answer yes to confirmations (required to trade when not interactive)',
  },
  {
    group: OUTPUT,
    flags: '--timeout <seconds>',
    short: 'how long trades and --watch wait (default 900)',
    help: 'how long buy, sell and --watch wait for a final status',
    env: 'TRADER_TIMEOUT',
    configKey: 'timeout',
    default: DEFAULT_TIMEOUT_SECONDS,
  },
  { group: OUTPUT, flags: '--no-color', short: 'no colours (also NO_COLOR)', help: 'no colours (also NO_COLOR)' },
  {
    group: OUTPUT,
    flags: '-v, --verbose',
    short: 'log each request to stderr, the key redacted',
    help: 'log each HTTP request to stderr, API key redacted (also TRADER_DEBUG=1)',
  },
];

/**
 * The global options as commander read them (strings and booleans) → typed; exit 2 for a bad
 * value. Async only to load the parsers when a command runs, not for `--help`.
 */
export async function parseGlobalOptions(raw: Readonly<Record<string, unknown>>): Promise<GlobalOptions> {
  const [{ parseAddress, parseSeconds }, { parseBaseUrl, parseRpcUrl }] = await Promise.all([
    import('../config/profile-values.js'),
    import('../net/urls.js'),
  ]);
  // An empty value (`--base-url "$URL"` with URL unset) must not quietly fall back to another
  // service, key or wallet from the environment or the profile.
  const text = (key: string, flag: string): string | undefined => {
    const value = raw[key];
    if (typeof value !== 'string') return undefined;
    if (value === '') throw new UsageError(`${flag} was given an empty value`);
    return value;
  };
  const flag = (key: string) => raw[key] === true;
  const insecure = flag('insecure');
  const baseUrl = text('baseUrl', '--base-url');
  if (baseUrl !== undefined) parseBaseUrl(baseUrl, { insecure, what: '--base-url' });
  const treasury = text('treasury', '--treasury');
  const rpcUrl = text('rpcUrl', '--rpc-url');
  if (rpcUrl !== undefined) parseRpcUrl(rpcUrl, '--rpc-url');
  const timeout = text('timeout', '--timeout');
  const requestTimeout = text('requestTimeout', '--request-timeout');
  const keypair = text('keypair', '--keypair');
  // A bad source is refused before anything else happens, as a bad URL is.
  if (keypair !== undefined) (await import('../wallet/signer-source.js')).parseSignerSource(keypair);
  return {
    baseUrl,
    apiKey: text('apiKey', '--api-key'),
    apiKeyFile: text('apiKeyFile', '--api-key-file'),
    apiKeyStdin: flag('apiKeyStdin'),
    keypair,
    passwordFile: text('passwordFile', '--password-file'),
    rpcUrl,
    treasury: treasury === undefined ? undefined : parseAddress(treasury, '--treasury'),
    profile: text('profile', '--profile'),
    timeoutSeconds: timeout === undefined ? undefined : parseSeconds(timeout, { option: '--timeout' }),
    requestTimeoutSeconds:
      requestTimeout === undefined ? undefined : parseSeconds(requestTimeout, { option: '--request-timeout' }),
    json: flag('json'),
    yes: flag('yes'),
    // Commander sets `color: false` for --no-color, and true otherwise.
    color: raw.color !== false,
    verbose: flag('verbose'),
    insecure,
  };
}
