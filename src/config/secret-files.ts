// Secrets a script hands over in a file rather than on a command line (where `ps` shows them):
// the keystore password (--password-file, TRADER_KEYSTORE_PASSWORD_FILE) and the API key
// (--api-key-file, the profile's apiKeyFile). A pipe works too (`--password-file <(pass show x)`).
import { constants, statSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { UsageError } from '../domain/errors.js';
import type { Clock } from '../domain/clock.js';

/** More than any password or key; a larger file is the wrong file. */
const MAX_BYTES = 4096;

/** How long a pipe may stay silent before its writer is taken to be missing. */
export const PIPE_WAIT_MS = 30_000;
const PIPE_POLL_MS = 20;

/**
 * A pause between reads of a silent pipe: the run's clock, ended by its signal (Ctrl-C or SIGTERM
 * ends the wait at once, with the signal's reason), or a test's virtual clock.
 */
export type Pause = (ms: number) => Promise<void>;

/** The run's pause: its clock's sleep, ended by its signal. */
export function pauseOf(run: { clock: Clock; signal: AbortSignal }): Pause {
  return (ms) => run.clock.sleep(ms, run.signal);
}

/** Checks now, before anything is sent, that the file can be opened later; throws a UsageError naming it. */
export function checkSecretFile(path: string, what: string): void {
  let stat;
  try {
    stat = statSync(path);
  } catch (err) {
    throw new UsageError(
      `${what} ${path} cannot be read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
      'SECRET_FILE',
    );
  }
  if (stat.isDirectory()) throw new UsageError(`${what} ${path} is a folder, not a file`, 'SECRET_FILE');
}

/**
 * The file's bytes less one final line ending (`echo secret > file` writes one), as a Buffer the
 * caller wipes. Warns through `warn` when others can read a regular file. Empty is refused.
 */
export async function readSecretFile(
  path: string,
  what: string,
  warn: (line: string) => void,
  wait: Pause,
): Promise<Buffer> {
  let file: FileHandle;
  try {
    // Non-blocking: a plain open of a FIFO waits for a writer inside the kernel, and a thread
    // stuck there holds the process past its exit (a signal could not end the run).
    file = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    throw new UsageError(
      `${what} ${path} cannot be read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
      'SECRET_FILE',
    );
  }
  const buffer = Buffer.alloc(MAX_BYTES + 1);
  let length = 0;
  try {
    const stat = await file.stat();
    if (stat.isDirectory()) throw new UsageError(`${what} ${path} is a folder, not a file`, 'SECRET_FILE');
    if (stat.isFile() && process.platform !== 'win32' && stat.mode & 0o077) {
      warn(
        `${what} ${path} can be read by other users (mode ${(stat.mode & 0o777).toString(8).padStart(3, '0')}); run: chmod 600 ${path}`,
      );
    }
    length = stat.isFile() ? await readAll(file, buffer) : await readPipe(file, buffer, path, what, wait);
  } finally {
    await file.close();
  }
  if (length > MAX_BYTES) {
    buffer.fill(0);
    throw new UsageError(
      `${what} ${path} is larger than ${MAX_BYTES} bytes; it should hold the secret alone`,
      'SECRET_FILE',
    );
  }
  let end = length;
  if (end > 0 && buffer[end - 1] === 0x0a) end--;
  if (end > 0 && buffer[end - 1] === 0x0d) end--;
  const secret = Buffer.from(buffer.subarray(0, end));
  buffer.fill(0);
  if (secret.length === 0) throw new UsageError(`${what} ${path} is empty`, 'SECRET_FILE');
  return secret;
}

async function readAll(file: FileHandle, buffer: Buffer): Promise<number> {
  let length = 0;
  for (let n; length < buffer.length && (n = (await file.read(buffer, length, buffer.length - length)).bytesRead) > 0;)
    length += n;
  return length;
}

/**
 * A pipe's bytes until its writer closes it (`--password-file <(pass show x)`, a named FIFO).
 * Read without blocking, so the run stays answerable to signals: end of file before any byte
 * means no writer yet, and is waited out for a while.
 */
async function readPipe(file: FileHandle, buffer: Buffer, path: string, what: string, wait: Pause): Promise<number> {
  let length = 0;
  for (let waited = 0; length < buffer.length;) {
    let n: number;
    try {
      n = (await file.read(buffer, length, buffer.length - length)).bytesRead;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') throw err;
      n = -1; // a writer, nothing written yet
    }
    if (n > 0) length += n;
    else if (n === 0 && length > 0)
      break; // the writer closed it
    else {
      if (waited >= PIPE_WAIT_MS)
        throw new UsageError(
          `${what} ${path} is a pipe that gave nothing in ${PIPE_WAIT_MS / 1000} seconds; is anything writing to it?`,
          'SECRET_FILE',
        );
      await wait(PIPE_POLL_MS);
      waited += PIPE_POLL_MS;
    }
  }
  return length;
}
