// Secrets a script hands over in a file rather than on a command line (where `ps` shows them):
// the keystore password (--password-file, TRADER_KEYSTORE_PASSWORD_FILE) and the API key
// (--api-key-file, the profile's apiKeyFile). A pipe works too (`--password-file <(pass show x)`).
import { closeSync, constants, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { UsageError } from '../domain/errors.js';

/** More than any password or key; a larger file is the wrong file. */
const MAX_BYTES = 4096;

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
export function readSecretFile(path: string, what: string, warn: (line: string) => void): Buffer {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY);
  } catch (err) {
    throw new UsageError(
      `${what} ${path} cannot be read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
      'SECRET_FILE',
    );
  }
  const buffer = Buffer.alloc(MAX_BYTES + 1);
  let length = 0;
  try {
    const stat = fstatSync(fd);
    if (stat.isDirectory()) throw new UsageError(`${what} ${path} is a folder, not a file`, 'SECRET_FILE');
    if (stat.isFile() && process.platform !== 'win32' && stat.mode & 0o077) {
      warn(
        `${what} ${path} can be read by other users (mode ${(stat.mode & 0o777).toString(8).padStart(3, '0')}); run: chmod 600 ${path}`,
      );
    }
    for (let n; length <= MAX_BYTES && (n = readSync(fd, buffer, length, buffer.length - length, null)) > 0;)
      length += n;
  } finally {
    closeSync(fd);
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
