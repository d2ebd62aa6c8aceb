// What `--keypair` (TRADER_KEYPAIR, the profile's `keypair`) names: a signer source written as
// the Solana CLI writes it (anza-xyz/agave clap-utils/src/keypair.rs, parse_signer_source), plus
// `keystore:<name>` for trader's own encrypted keystores. Pure: nothing is read here.
import { UsageError } from '../domain/errors.js';
import { keyMaterialShape } from './key-material.js';

/** A hardened SLIP-0010 path below m, as child indexes (each < 2^31, hardened when derived). */
export type DerivationPath = readonly number[];

export type SignerSource =
  | { kind: 'file'; path: string }
  | { kind: 'keystore'; name: string }
  /**
   * A seed phrase typed at a hidden prompt. `path` null is the Solana CLI's `ASK`: the BIP-39
   * seed's first 32 bytes are the key (what `solana-keygen new` printed the phrase for).
   */
  | { kind: 'prompt'; path: DerivationPath | null }
  | { kind: 'stdin' };

/** The schemes `--keypair` knows, for the error that names them. */
export const KNOWN_SCHEMES = ['file:', 'keystore:', 'prompt:', 'stdin:'] as const;

const CODE = 'KEYPAIR';
const PURPOSE = 44;
const SOLANA_COIN = 501;
const HARDENED = 0x80000000;

/** The Solana CLI's derivation when `prompt:` has no query: m/44'/501' (DerivationPath::default()). */
export const DEFAULT_PROMPT_PATH: DerivationPath = [PURPOSE, SOLANA_COIN];

/** A keystore's name: a file name of letters, digits, dot, dash and underscore, starting with a letter or digit. */
export const KEYSTORE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** Checks a keystore name (as typed for `keys` or after `keystore:`); returns it. */
export function parseKeystoreName(name: string): string {
  refuseKeyMaterial(name, 'the keystore name');
  if (!KEYSTORE_NAME.test(name)) {
    throw new UsageError(
      `keystore name ${JSON.stringify(name.slice(0, 70))} is not allowed: use up to 64 letters, digits, '.', '-' or '_', starting with a letter or digit`,
      CODE,
    );
  }
  return name;
}

/**
 * Reads a signer source. A path needs no scheme; `file:` (or `file://`), `keystore:`,
 * `prompt:` with the Solana CLI's `?key=` or `?full-path=` query, `stdin:` (and `-`), and the
 * Solana CLI's legacy `ASK`. `usb:` and any other scheme are refused with what is known.
 */
export function parseSignerSource(text: string): SignerSource {
  if (text === '') throw new UsageError('the keypair source is empty', CODE);
  refuseKeyMaterial(text);
  if (text === '-') return { kind: 'stdin' };
  if (text === 'ASK') return { kind: 'prompt', path: null };
  // A scheme is letters then ':'; one letter alone is a Windows drive, as the Solana CLI reads it.
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]+):/.exec(text)?.[1]?.toLowerCase();
  if (scheme === undefined) return { kind: 'file', path: text };
  const rest = text.slice(scheme.length + 1);
  switch (scheme) {
    case 'file': {
      const path = rest.startsWith('//') ? rest.slice(2) : rest;
      if (path === '') throw new UsageError('file: names no path; write file:<path>', CODE);
      return { kind: 'file', path };
    }
    case 'keystore':
      return { kind: 'keystore', name: parseKeystoreName(rest) };
    case 'stdin':
      return { kind: 'stdin' };
    case 'prompt':
      return { kind: 'prompt', path: promptPath(rest) };
    case 'usb':
      throw new UsageError(
        `${text.slice(0, 40)} is not supported: trader signs the service's sell authorization as raw text, which the Solana Ledger app does not sign (it signs transactions and its own off-chain message format); import the key with \`trader keys import\`, or use a keypair file`,
        CODE,
      );
    default:
      throw new UsageError(
        `unknown keypair source scheme "${scheme.slice(0, 20)}:"; known: a path, ${KNOWN_SCHEMES.join(', ')} (a path with a colon in its first part: write it ./… or file:…)`,
        CODE,
      );
  }
}

/** How to hand over a key, said wherever one was given in the wrong place. */
export const HOW_TO_PASS_A_KEY =
  'keep the key out of flags, variables and the config: import it with `trader keys import <name> --from stdin:` (or --from prompt: for a seed phrase) and use keystore:<name>, or pass it for one run as --keypair stdin: or prompt:';

/**
 * Refuses a secret typed where its source belongs (`TRADER_KEYPAIR="$(cat id.json)"`, a wallet's
 * exported key, a seed phrase, `keystore:<key>`): read as a path or name, it would be echoed in
 * "not found" and stored by `config set`. The message names what it looks like, never the text.
 */
export function refuseKeyMaterial(text: string, what = 'the keypair source'): void {
  const shape = keyMaterialShape(text);
  if (shape === null) return;
  throw new UsageError(
    `${what} could be a secret key itself (${shape}; not shown here), not where one is: ${HOW_TO_PASS_A_KEY}`,
    CODE,
  );
}

/** A source as it may be shown: its kind and name, never more (a path or keystore name is no secret). */
export function describeSource(source: SignerSource): string {
  switch (source.kind) {
    case 'file':
      return `keypair file ${source.path}`;
    case 'keystore':
      return `keystore ${source.name}`;
    case 'prompt':
      return source.path === null ? 'the seed phrase (ASK)' : `the seed phrase at ${formatPath(source.path)}`;
    case 'stdin':
      return 'the keypair on standard input';
  }
}

/** m/44'/501'/0'/0' */
export function formatPath(path: DerivationPath): string {
  return ['m', ...path.map((i) => `${i}'`)].join('/');
}

/**
 * `prompt:`'s query, as the Solana CLI's DerivationPath::from_uri_any_query reads it: none (or
 * empty) is m/44'/501'; `key=<account>[/<change>]` (or `key=m`) is below m/44'/501'; `full-path=m/…`
 * is taken whole. Every index becomes hardened, written with ' or not. One field only.
 */
function promptPath(rest: string): DerivationPath {
  // The Solana CLI ignores an authority or path (prompt://); only the query counts.
  const at = rest.indexOf('?');
  const before = at < 0 ? rest : rest.slice(0, at);
  if (before !== '' && before !== '//')
    throw new UsageError(
      `prompt: takes only a query (prompt:?key=0/0 or prompt:?full-path=m/44'/501'/0'/0'), not "${before.slice(0, 40)}"`,
      CODE,
    );
  const query = at < 0 ? '' : rest.slice(at + 1);
  if (query === '') return DEFAULT_PROMPT_PATH;
  const fields = query.split('&');
  if (fields.length > 1) throw new UsageError('prompt: takes one query field: key=… or full-path=…', CODE);
  const eq = fields[0]!.indexOf('=');
  const name = eq < 0 ? fields[0]! : fields[0]!.slice(0, eq);
  const value = decodeQueryValue(eq < 0 ? '' : fields[0]!.slice(eq + 1));
  if (name === 'key') {
    if (value === 'm') return DEFAULT_PROMPT_PATH;
    const indexes = indexesOf(value, `key=${value}`);
    if (indexes.length > 2)
      throw new UsageError(
        `prompt:?key=${value} is too deep: only <account>/<change> (the path is m/44'/501'/<account>'/<change>')`,
        CODE,
      );
    return [...DEFAULT_PROMPT_PATH, ...indexes];
  }
  if (name === 'full-path') {
    if (!value.startsWith('m/') && value !== 'm')
      throw new UsageError(`prompt:?full-path=${value} must start with m/ (e.g. m/44'/501'/0'/0')`, CODE);
    return value === 'm' ? [] : indexesOf(value.slice(2), `full-path=${value}`);
  }
  throw new UsageError(`prompt: query "${name}" is not known: use key=<account>/<change> or full-path=m/…`, CODE);
}

function decodeQueryValue(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    throw new UsageError('prompt: query is not valid percent-encoding', CODE);
  }
}

function indexesOf(text: string, what: string): number[] {
  if (text === '') throw new UsageError(`prompt:?${what}: no index given`, CODE);
  return text.split('/').map((part) => {
    const digits = /^([0-9]{1,10})'?$/.exec(part)?.[1];
    const value = digits === undefined ? NaN : Number(digits);
    if (!Number.isSafeInteger(value) || value >= HARDENED) {
      throw new UsageError(
        `prompt:?${what}: "${part}" is not a derivation index (a whole number below 2^31, ' optional)`,
        CODE,
      );
    }
    return value;
  });
}
