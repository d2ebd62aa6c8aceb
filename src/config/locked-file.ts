// Read-modify-write of a small file that several `trader` processes may update at once (the
// config, the trust store): under a lock file, the current contents are read again, changed,
// written to a temp file and renamed over the original. A crash leaves the old file or the new
// one, never half of either, and no process's change is lost to another's stale copy.
// Temp and lock files are created exclusively (O_EXCL, O_NOFOLLOW) under fresh names, so a
// file or symlink planted beside the config can never be written through; and a folder or file
// that is not the user's own, or that others can write, is refused before anything is written.
import {
  closeSync,
  constants,
  existsSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import { dirname } from 'node:path';
import { NotRegularFileError, notRegular, readRegular } from './regular-file.js';

/** Create a new file only: never an existing one, never through a symlink. */
const CREATE_EXCLUSIVE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);

/** The facts of a folder or file that decide whether it may be trusted. */
export interface OwnershipFacts {
  uid: number;
  mode: number;
}

/**
 * Why a folder or file holding what the user trusts may not be used, or null when it may: it
 * must belong to the user (or root, as for ssh) and be writable by no one else, or another
 * user could change what is trusted. `myUid` null (no uids on this system): nothing to check.
 */
export function ownershipProblem(
  what: string,
  path: string,
  facts: OwnershipFacts,
  myUid: number | null,
): string | null {
  if (myUid === null) return null;
  if (facts.uid !== myUid && facts.uid !== 0)
    return `${what} ${path} belongs to another user (uid ${facts.uid}; you are uid ${myUid}); use one of your own`;
  if (facts.mode & 0o022) {
    const mode = (facts.mode & 0o777).toString(8);
    return `${what} ${path} can be changed by other users (mode ${mode}); run: chmod go-w ${path}`;
  }
  return null;
}

/** Throws LockedFileError when `path` exists and is not safe to trust (see ownershipProblem). */
export function assertOwnPrivate(what: string, path: string): void {
  let facts: OwnershipFacts;
  try {
    facts = statSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw new LockedFileError(`cannot check ${path}: ${(err as Error).message}`);
  }
  const problem = ownershipProblem(what, path, facts, typeof process.getuid === 'function' ? process.getuid() : null);
  if (problem) throw new LockedFileError(problem);
}

export interface LockTiming {
  /** The clock, to judge a lock left behind by a crashed process. */
  now(): number;
  /** How long to wait for another process's lock; default 5 s. */
  waitMs?: number;
  /** A lock older than this is taken to be left behind; default 30 s. */
  staleMs?: number;
}

/** Thrown when the file cannot be locked, read or written; the message says which file and why. */
export class LockedFileError extends Error {}

/**
 * Updates `path` under its lock: `change` gets the current text (null when there is none) and
 * returns the new text, or null to leave the file as it is. Returns what `change` returned.
 */
export function updateLockedFile(
  path: string,
  change: (current: string | null) => string | null,
  timing: LockTiming,
  what = 'file',
): string | null {
  ensureDir(dirname(path));
  assertOwnPrivate('config folder', dirname(path));
  assertOwnPrivate(what, path);
  const release = lock(`${path}.lock`, timing);
  try {
    const next = change(readOrNull(path, what));
    if (next !== null) replaceAtomically(path, next);
    return next;
  } finally {
    release();
  }
}

/**
 * Runs `work` while holding `path`'s lock (`path`.lock, the lock every writer of that file
 * takes), after checking the folder is the user's own; returns what `work` returned.
 */
export function withLock<T>(path: string, timing: LockTiming, work: () => T): T {
  ensureDir(dirname(path));
  assertOwnPrivate('config folder', dirname(path));
  const release = lock(`${path}.lock`, timing);
  try {
    return work();
  } finally {
    release();
  }
}

/** The file's text, or null when it does not exist; `what` names it when it is not a regular file (never waited on). */
export function readOrNull(path: string, what = 'file'): string | null {
  try {
    return readRegular(path, what);
  } catch (err) {
    if (err instanceof NotRegularFileError) throw new LockedFileError(err.message);
    throw new LockedFileError(`cannot read ${path}: ${(err as Error).message}`);
  }
}

const PAUSE_MS = 15;

function lock(lockPath: string, timing: LockTiming): () => void {
  const waitMs = timing.waitMs ?? 5_000;
  const staleMs = timing.staleMs ?? 30_000;
  const started = timing.now();
  // A token of our own in the lock file, so we never remove a lock another process holds.
  const token = `${process.pid}-${process.getBuiltinModule('node:crypto').randomBytes(6).toString('hex')}`;
  // Bounded by attempts as well as by the clock, so a stopped clock cannot wait for ever.
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(lockPath, CREATE_EXCLUSIVE, 0o600);
      try {
        writeSync(fd, token);
      } finally {
        closeSync(fd);
      }
      return () => {
        try {
          if (readFileSync(lockPath, 'utf8') === token) unlinkSync(lockPath);
        } catch {
          /* already gone: nothing to release */
        }
      };
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST') throw new LockedFileError(`cannot lock ${lockPath}: ${(err as Error).message}`);
    }
    // A lock is a file this tool made: a pipe or a folder there is no other process's lock.
    if (!isFileOrGone(lockPath)) throw new LockedFileError(notRegular('lock file', lockPath).message);
    if (takeOverIfStale(lockPath, timing.now(), staleMs, token)) continue;
    if (timing.now() - started >= waitMs || attempt * PAUSE_MS >= waitMs) {
      throw new LockedFileError(`${lockPath} is held by another trader process; if none is running, delete that file`);
    }
    pause(PAUSE_MS);
  }
}

function isFileOrGone(path: string): boolean {
  try {
    return lstatSync(path).isFile();
  } catch {
    return true;
  }
}

/**
 * Removes a lock left by a crashed process. It is moved aside under a name of our own first
 * (only one process can move it), and put back if what was moved is not the stale lock that
 * was judged (another process took over and locked meanwhile). True when it is worth trying
 * to lock again at once.
 */
function takeOverIfStale(lockPath: string, now: number, staleMs: number, token: string): boolean {
  let stale: string;
  try {
    if (now - statSync(lockPath).mtimeMs <= staleMs) return false;
    stale = readRegular(lockPath, 'lock file') ?? '';
  } catch (err) {
    if (err instanceof NotRegularFileError) throw new LockedFileError(err.message);
    return (err as NodeJS.ErrnoException).code === 'ENOENT'; // gone already: try again at once
  }
  const aside = `${lockPath}.stale-${token}`;
  try {
    renameSync(lockPath, aside);
  } catch {
    return true; // another process moved it first
  }
  try {
    if (readFileSync(aside, 'utf8') === stale) unlinkSync(aside);
    else renameSync(aside, lockPath);
  } catch {
    /* best effort: a lock file left aside holds nothing */
  }
  return true;
}

/** A short synchronous wait: these updates are a few milliseconds of file work. */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function replaceAtomically(path: string, text: string): void {
  // A fresh name each time, created exclusively: a file or symlink planted at a guessable temp
  // name is never opened, so it cannot be written through or have its mode changed.
  const temp = `${path}.${randomBytes(8).toString('hex')}.tmp`;
  let fd: number | null = null;
  try {
    fd = openSync(temp, CREATE_EXCLUSIVE, 0o600);
    const bytes = Buffer.from(text, 'utf8');
    for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at);
    fsyncSync(fd);
    closeSync(fd);
    fd = null;
    renameSync(temp, path);
  } catch (err) {
    if (fd !== null) closeSync(fd);
    try {
      unlinkSync(temp);
    } catch {
      /* never created, or already renamed */
    }
    throw new LockedFileError(`cannot write ${path}: ${(err as Error).message}`);
  }
}

/**
 * Creates a folder and its missing parents (mode 0700), one level at a time: Node's recursive
 * mkdirSync spins for ever on some file systems (a path under /proc, for one).
 */
export function ensureDir(dir: string): void {
  if (existsSync(dir)) return;
  const parent = dirname(dir);
  if (parent !== dir) ensureDir(parent);
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST')
      throw new LockedFileError(`cannot create ${dir}: ${(err as Error).message}`);
  }
}
