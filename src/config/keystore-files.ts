// The keystore folder: `keys/` beside the config file, one `<name>.json` per key (format:
// wallet/keystore-format.ts). The folder is checked as the config's is (the user's own, no one
// else may write it), and must not be a symlink; a file must be a regular file of the user's,
// mode 0600 or stricter, opened without following a symlink. Writes go to a fresh temp file
// (O_EXCL, O_NOFOLLOW, 0600), fsynced, then linked (a new key: never over an existing one) or
// renamed (a new password) into place, so a crash leaves the old file or the new, never half.
import {
  closeSync,
  constants,
  fstatSync,
  fsyncSync,
  linkSync,
  lstatSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { UsageError } from '../domain/errors.js';
import { KEYSTORE_NAME } from '../wallet/signer-source.js';
import { assertOwnPrivate, ensureDir, LockedFileError, ownershipProblem } from './locked-file.js';
import { NotRegularFileError, openRegular } from './regular-file.js';

const CODE = 'KEYSTORE';
const SUFFIX = '.json';
const CREATE_EXCLUSIVE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);
const READ_NO_FOLLOW = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0);
/** A keystore is a few hundred bytes; a large file is not one. */
const MAX_BYTES = 64 * 1024;

/** The keystore folder for a config file. */
export function keystoreDir(configFile: string): string {
  return join(dirname(configFile), 'keys');
}

/** Where keystore `name` lives. */
export function keystorePath(dir: string, name: string): string {
  return join(dir, `${name}${SUFFIX}`);
}

/** The facts of this system that the checks need; tests and Windows change them. */
export interface KeystoreFsFacts {
  /** The user's uid, or null where there are none (Windows): nothing to check then. */
  uid: number | null;
}

const facts = (): KeystoreFsFacts => ({ uid: typeof process.getuid === 'function' ? process.getuid() : null });

/** Reads keystore `name`'s text after every check; throws UsageError (KEYSTORE) saying what is wrong. */
export function readKeystoreText(dir: string, name: string): string {
  checkFolder(dir, false);
  const path = keystorePath(dir, name);
  let fd: number;
  try {
    fd = openRegular(path, READ_NO_FOLLOW, 'keystore');
  } catch (err) {
    if (err instanceof NotRegularFileError) throw new UsageError(err.message, CODE);
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT')
      throw new UsageError(
        `no keystore named ${name} (${path}); see \`trader keys list\`, or create it with \`trader keys import ${name}\``,
        CODE,
      );
    if (code === 'ELOOP')
      throw new UsageError(
        `keystore ${path} is a symbolic link; refused (a keystore must be a file of its own in ${dir})`,
        CODE,
      );
    throw new UsageError(`cannot open keystore ${path}: ${code ?? (err as Error).message}`, CODE);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new UsageError(`keystore ${path} is not a regular file; refused`, CODE);
    const problem = fileProblem(path, stat, facts());
    if (problem) throw new UsageError(problem, CODE);
    if (stat.size > MAX_BYTES)
      throw new UsageError(`keystore ${path} is ${stat.size} bytes, too large to be a keystore`, CODE);
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}

/** Why a keystore file with these facts may not be used, or null: it must be the user's and private (0600 or stricter). */
export function fileProblem(path: string, stat: { uid: number; mode: number }, system: KeystoreFsFacts): string | null {
  if (system.uid === null) return null;
  if (stat.uid !== system.uid)
    return `keystore ${path} belongs to another user (uid ${stat.uid}; you are uid ${system.uid}); refused`;
  if (stat.mode & 0o077)
    return `keystore ${path} has mode ${(stat.mode & 0o777).toString(8).padStart(3, '0')}, so other users can reach it; refused: run chmod 600 ${path}`;
  return null;
}

/** The names of the keystores in the folder, sorted (none when there is no folder). */
export function keystoreNames(dir: string): string[] {
  if (!checkFolder(dir, false)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith(SUFFIX) && KEYSTORE_NAME.test(f.slice(0, -SUFFIX.length)))
    .map((f) => f.slice(0, -SUFFIX.length))
    .sort();
}

/** Writes a new keystore; refuses when one of that name exists. Returns its path. */
export function writeNewKeystore(dir: string, name: string, text: string): string {
  checkFolder(dir, true);
  const path = keystorePath(dir, name);
  const temp = writeTemp(dir, name, text);
  try {
    linkSync(temp, path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') {
      throw new UsageError(
        `a keystore named ${name} exists already (${path}); choose another name, or remove it first with \`trader keys remove ${name}\``,
        CODE,
      );
    }
    throw new UsageError(`cannot write keystore ${path}: ${(err as Error).message}`, CODE);
  } finally {
    unlinkQuietly(temp);
  }
  syncFolder(dir);
  return path;
}

/** Replaces an existing keystore's file (a new password) atomically. */
export function replaceKeystore(dir: string, name: string, text: string): string {
  checkFolder(dir, true);
  const path = keystorePath(dir, name);
  readKeystoreText(dir, name); // still there, still a private file of the user's (not a symlink)
  const temp = writeTemp(dir, name, text);
  try {
    renameSync(temp, path);
  } catch (err) {
    unlinkQuietly(temp);
    throw new UsageError(`cannot write keystore ${path}: ${(err as Error).message}`, CODE);
  }
  syncFolder(dir);
  return path;
}

/** Removes keystore `name` (a symlink of that name too: it is never followed). */
export function removeKeystore(dir: string, name: string): string {
  checkFolder(dir, false);
  const path = keystorePath(dir, name);
  try {
    unlinkSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT')
      throw new UsageError(`no keystore named ${name} (${path}); see \`trader keys list\``, CODE);
    throw new UsageError(`cannot remove keystore ${path}: ${(err as Error).message}`, CODE);
  }
  syncFolder(dir);
  return path;
}

/** Writes a file that must not exist yet, mode 0600, never through a symlink (`keys export --output`). */
export function writePrivateFile(path: string, text: string): void {
  let fd: number;
  try {
    fd = openSync(path, CREATE_EXCLUSIVE, 0o600);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST')
      throw new UsageError(`${path} exists already; choose a new file (nothing was written)`, CODE);
    throw new UsageError(`cannot create ${path}: ${code ?? (err as Error).message}`, CODE);
  }
  try {
    writeAll(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Checks the config folder and the keystore folder (creating it, mode 0700, when `create`);
 * false when it does not exist and was not to be created.
 */
function checkFolder(dir: string, create: boolean): boolean {
  try {
    if (create) ensureDir(dirname(dir));
    assertOwnPrivate('config folder', dirname(dir));
  } catch (err) {
    if (err instanceof LockedFileError) throw new UsageError(err.message, CODE);
    throw err;
  }
  let stat;
  try {
    stat = lstatSync(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
      throw new UsageError(`cannot check ${dir}: ${(err as Error).message}`, CODE);
    if (!create) return false;
    try {
      ensureDir(dir);
    } catch (e) {
      throw new UsageError((e as Error).message, CODE);
    }
    stat = lstatSync(dir);
  }
  if (stat.isSymbolicLink())
    throw new UsageError(`keystore folder ${dir} is a symbolic link; refused (it must be a folder of its own)`, CODE);
  if (!stat.isDirectory()) throw new UsageError(`keystore folder ${dir} is not a folder`, CODE);
  const problem = ownershipProblem('keystore folder', dir, stat, facts().uid);
  if (problem) throw new UsageError(problem, CODE);
  return true;
}

function writeTemp(dir: string, name: string, text: string): string {
  const temp = join(dir, `.${name}.${randomBytes(8).toString('hex')}.tmp`);
  let fd: number | null = null;
  try {
    fd = openSync(temp, CREATE_EXCLUSIVE, 0o600);
    writeAll(fd, text);
    fsyncSync(fd);
    closeSync(fd);
    return temp;
  } catch (err) {
    if (fd !== null) closeSync(fd);
    unlinkQuietly(temp);
    throw new UsageError(`cannot write in keystore folder ${dir}: ${(err as Error).message}`, CODE);
  }
}

function writeAll(fd: number, text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at);
}

function syncFolder(dir: string): void {
  try {
    const fd = openSync(dir, constants.O_RDONLY);
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    /* not every system syncs a folder: the rename itself is atomic */
  }
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    /* already gone */
  }
}
