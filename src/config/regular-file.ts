// Opening the tool's own files (config, trust store, journal, keystores, the MCP audit log)
// without ever blocking: a FIFO planted at one of their names would make a plain open wait for a
// writer (or reader) for ever, and a synchronous wait also holds off SIGINT and SIGTERM. So every
// open is O_NONBLOCK (for a regular file it changes nothing), then fstat: anything but a regular
// file is refused, naming the path.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

const NONBLOCK = constants.O_NONBLOCK ?? 0;

/** Thrown when a path the tool keeps its state in is not a regular file (a FIFO, a device, a folder). */
export class NotRegularFileError extends Error {}

/** The error for `path`, named by `what` ("the journal", "config file"). */
export function notRegular(what: string, path: string): NotRegularFileError {
  return new NotRegularFileError(
    `${what} ${path} is not a regular file (a pipe, device or folder); refused: move it away and try again`,
  );
}

/**
 * Opens `path` with `flags` (plus O_NONBLOCK) and returns its descriptor, once fstat says it is a
 * regular file; throws NotRegularFileError otherwise (a FIFO with no reader refuses a write-only
 * open with ENXIO: that is one too). Other open errors are thrown as they are.
 */
export function openRegular(path: string, flags: number, what: string, mode?: number): number {
  let fd: number;
  try {
    fd = openSync(path, flags | NONBLOCK, mode);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENXIO') throw notRegular(what, path);
    throw err;
  }
  let regular = false;
  try {
    regular = fstatSync(fd).isFile();
  } finally {
    if (!regular) closeSync(fd);
  }
  if (!regular) throw notRegular(what, path);
  return fd;
}

/** The whole text of the regular file at `path` (opened with `flags`, O_RDONLY by default), or null when there is none. */
export function readRegular(path: string, what: string, flags: number = constants.O_RDONLY): string | null {
  let fd: number;
  try {
    fd = openRegular(path, flags, what);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  try {
    const chunks: Buffer[] = [];
    for (;;) {
      const chunk = Buffer.alloc(64 * 1024);
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      chunks.push(chunk.subarray(0, n));
    }
    return Buffer.concat(chunks).toString('utf8');
  } finally {
    closeSync(fd);
  }
}
