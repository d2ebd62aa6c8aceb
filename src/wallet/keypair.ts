// The owner key as the Solana CLI keeps it: a keypair file holding a JSON array of 64 byte
// values, the ed25519 seed followed by its public key. The content is checked, never trusted:
// the second half must be the public key the seed derives. No message ever contains the
// content (not even JSON.parse's error text, which quotes the input).

import * as nodeFs from 'node:fs';
import { basename, dirname } from 'node:path';
import bs58 from 'bs58';
import { UsageError } from '../domain/errors.js';
import { shellQuote } from '../domain/shell-quote.js';
import { SANDBOX_RECIPE } from '../domain/person-prefix.js';
import { publicKeyFromSeed } from './ed25519.js';
import { keyMaterialShape } from './key-material.js';

export interface Keypair {
  /** Base58 public key. */
  publicKey: string;
  /** 64 bytes: seed then public key (tweetnacl's secret key layout). */
  secretKey: Uint8Array;
  /** Non-fatal findings to show the user (e.g. file permissions). */
  warnings: string[];
}

/** What loadKeypair needs from the file system. */
export interface KeypairFs {
  readFileSync(path: string, encoding: 'utf8'): string;
  statSync(path: string): { mode: number; isFile(): boolean };
}

export interface KeypairDeps {
  fs?: KeypairFs;
  /** Permission bits mean nothing on Windows; skip the check there. */
  platform?: string;
}

const CODE = 'KEYPAIR';
const HOW_TO_SET =
  'set it with --keypair <path> or TRADER_KEYPAIR (create one with `solana-keygen new`, or use keystore:<name>, see `trader keys`)';
const EXPECTED = 'expected a Solana CLI keypair (a JSON array of 64 numbers)';
/** A sandbox's keypair lives in its own temporary folder, removed when the sandbox stops: the same hint as its refused connection. */
const STOPPED_SANDBOX = `it was a sandbox's, and stopping the sandbox removed it: no sandbox is running for it; start one with \`${SANDBOX_RECIPE}\``;

/** Reads and verifies a Solana CLI keypair file. Throws UsageError (code KEYPAIR) with a clear reason. */
export function loadKeypair(path: string, deps: KeypairDeps = {}): Keypair {
  const fs = deps.fs ?? nodeFs;
  const platform = deps.platform ?? process.platform;
  const fail = (why: string): never => {
    throw new UsageError(`keypair file ${path}: ${why}`, CODE);
  };

  let stat: { mode: number; isFile(): boolean };
  let text: string;
  try {
    stat = fs.statSync(path);
    if (!stat.isFile()) fail('is not a regular file');
    text = fs.readFileSync(path, 'utf8');
  } catch (e) {
    if (e instanceof UsageError) throw e;
    const code = (e as NodeJS.ErrnoException | null)?.code;
    if (code === 'ENOENT' || code === 'ENOTDIR')
      fail(`not found; ${/^trader-sandbox-/.test(basename(dirname(path))) ? STOPPED_SANDBOX : HOW_TO_SET}`);
    if (code === 'EACCES' || code === 'EPERM') fail('cannot be read (permission denied)');
    fail(`cannot be read${code ? ` (${code})` : ''}`);
  }

  let parsed: unknown;
  try {
    parsed = JSON.parse(text!.replace(/^\uFEFF/, ''));
  } catch {
    // A wallet's export (base58, hex) saved to a file: say how to use it, never what it holds.
    const shape = keyMaterialShape(text!);
    if (shape !== null) {
      fail(
        `is not JSON: it holds what could be a secret key (${shape}; not shown), not the Solana CLI's JSON array of 64 numbers; import it with \`trader keys import <name> --from stdin: < ${shellQuote(path)}\` and use keystore:<name>, or pass it for one run as --keypair stdin: < ${shellQuote(path)}`,
      );
    }
    fail(`is not JSON; ${EXPECTED}`);
  }
  const secretKey = checkedSecretKey(parsed, (why) => fail(why));

  const warnings: string[] = [];
  const mode = stat!.mode & 0o777;
  if (platform !== 'win32' && (mode & 0o077) !== 0) {
    warnings.push(
      `keypair file ${path} can be read by other users (mode ${mode.toString(8).padStart(3, '0')}); run: chmod 600 ${shellQuote(path)}`,
    );
  }
  return { publicKey: bs58.encode(secretKey.subarray(32)), secretKey, warnings };
}

/**
 * A secret key typed or piped in: a Solana CLI keypair's JSON array of 64 numbers, or the same
 * 64 bytes in base58 (as wallets export them). Checked like a file; `what` names it in errors.
 */
export function parseSecretKeyText(text: string, what: string): Uint8Array {
  const fail = (why: string): never => {
    throw new UsageError(`${what}: ${why}`, CODE);
  };
  const trimmed = text.replace(/^\uFEFF/, '').trim();
  if (trimmed === '') fail('is empty; expected a JSON array of 64 numbers or a base58 secret key');
  if (trimmed.startsWith('[')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch {
      fail(`is not JSON; ${EXPECTED}`);
    }
    return checkedSecretKey(parsed, fail);
  }
  let bytes: Uint8Array;
  try {
    bytes = bs58.decode(trimmed);
  } catch {
    return fail('is neither a JSON array nor base58');
  }
  if (bytes.length !== 64) {
    bytes.fill(0);
    fail(`decodes to ${bytes.length} bytes; a base58 secret key is 64 bytes (seed and public key)`);
  }
  return checkedSecretKey(Array.from(bytes), fail);
}

/** 64 whole numbers 0..255 whose second half is the public key of the first: the secret key. */
function checkedSecretKey(parsed: unknown, fail: (why: string) => never): Uint8Array {
  if (!Array.isArray(parsed)) fail(`is not a JSON array; ${EXPECTED}`);
  const values = parsed as unknown[];
  if (values.length !== 64) fail(`holds ${values.length} values; a Solana CLI keypair holds exactly 64`);
  if (!values.every((v) => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 255)) {
    fail('holds values that are not whole numbers from 0 to 255');
  }
  const secretKey = Uint8Array.from(values as number[]);
  const derived = publicKeyFromSeed(secretKey.subarray(0, 32));
  if (!derived.every((b, i) => b === secretKey[32 + i])) {
    secretKey.fill(0);
    fail('is corrupt: its second half is not the public key of its first half');
  }
  return secretKey;
}
