// The lock file (brake.json beside the config, mode 0600) and the audit log of the brake
// (limits-audit.jsonl beside it): every lock, unlock and change of a profile's limits, one JSON
// line each. The lock is written with locked-file.ts's atomic update; a lock file that is not a
// regular file (a symlink, a folder, a fifo) or cannot be read is an error, never "unlocked".
import { closeSync, constants, fchmodSync, fstatSync, lstatSync, openSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { brakeText, parseBrake, type BrakeLock } from '../domain/brake-rules.js';
import { ensureDir, LockedFileError, readOrNull, updateLockedFile, type LockTiming } from './locked-file.js';

/** The lock file beside this config file. */
export function brakePath(configFile: string): string {
  return join(dirname(configFile), 'brake.json');
}

/** The audit log of the brake beside this config file. */
export function brakeAuditPath(configFile: string): string {
  return join(dirname(configFile), 'limits-audit.jsonl');
}

/** Refuses a lock file that is there but not a regular file (never followed, never trusted). */
function assertRegular(path: string): void {
  try {
    if (!lstatSync(path).isFile())
      throw new LockedFileError(
        `the lock file ${path} is not a regular file; remove it (trading stays refused until then)`,
      );
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err instanceof LockedFileError
      ? err
      : new LockedFileError(`cannot check the lock file ${path}: ${(err as Error).message}`);
  }
}

/** The lock in force (null: none); throws LockedFileError for a file that is not a lock. */
export function readBrake(path: string): BrakeLock | null {
  assertRegular(path);
  let text: string | null;
  try {
    text = readOrNull(path);
  } catch (err) {
    throw new LockedFileError(`cannot read the lock file ${path}: ${(err as Error).message}`);
  }
  if (text === null) return null;
  try {
    return parseBrake(text);
  } catch (err) {
    throw new LockedFileError(
      `the lock file ${path} is not one this tool wrote (${(err as Error).message}); trading stays refused until a person runs \`trader unlock\``,
    );
  }
}

/** Writes `lock` (null: lifts it) atomically under the file's lock; returns the lock that was in force before. */
export function writeBrake(path: string, lock: BrakeLock | null, timing: LockTiming): BrakeLock | null {
  assertRegular(path);
  let before: BrakeLock | null = null;
  updateLockedFile(
    path,
    (current) => {
      try {
        before = current === null ? null : parseBrake(current);
      } catch {
        // A damaged file is replaced: locking writes a lock, unlocking (a person's act) writes none.
        before = null;
      }
      return brakeText(lock);
    },
    timing,
    'lock file',
  );
  return before;
}

/** Append, creating if need be; never through a symlink. */
const APPEND_NO_FOLLOW = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | (constants.O_NOFOLLOW ?? 0);

/** Appends one line to the brake's audit log (0600, a regular file of this user). */
export function appendBrakeAudit(path: string, entry: Record<string, unknown>): void {
  ensureDir(dirname(path));
  const fd = openSync(path, APPEND_NO_FOLLOW, 0o600);
  try {
    const facts = fstatSync(fd);
    if (!facts.isFile()) throw new LockedFileError(`${path} is not a regular file`);
    if ((facts.mode & 0o077) !== 0) fchmodSync(fd, 0o600);
    writeSync(fd, JSON.stringify(entry) + '\n');
  } finally {
    closeSync(fd);
  }
}
