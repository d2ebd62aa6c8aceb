// What the keys commands share: a keystore's name as an argument, its folder and file opened
// with every check, and the secrets a new keystore needs (a key read, a new password).
import type { Context } from '../../cli/context.js';
import { UsageError } from '../../domain/errors.js';
import { passwordBytes } from '../../wallet/keystore-format.js';
import { openKeystore, type SignerDeps } from '../../wallet/owner-wallet.js';
import { parseKeystoreName } from '../../wallet/signer-source.js';

export interface KeyNameOptions {
  name: string;
}

/** The keystore name every keys subcommand but list takes. */
export const NAME_ARGUMENT = { name: '<name>', help: 'the keystore name (letters, digits, . - _)' };
/** The typed name, checked. */
export const nameOf = (raw: { args: ReadonlyArray<string | undefined> }) => parseKeystoreName(raw.args[0]!);
/** A short password is allowed (the user's choice) but said to be weak. */
export const SHORT_PASSWORD = 8;

/** The keystore folder's file operations, loaded when a subcommand runs. */
export const files = () => import('../../config/keystore-files.js');

/** The named keystore's document and path, after every check of its folder and file. */
export async function openNamed(ctx: Context, name: string) {
  const { keystoreDir, keystorePath, readKeystoreText } = await files();
  const dir = keystoreDir(ctx.config.path);
  return {
    doc: await openKeystore(name, { readKeystore: (n) => readKeystoreText(dir, n) }),
    path: keystorePath(dir, name),
  };
}

/** What reading a key needs of the run: stdin, a hidden prompt, and where warnings go. */
export function secretDeps(ctx: Context): Pick<SignerDeps, 'readStdin' | 'askSecret' | 'warn'> {
  return {
    readStdin: (what) => ctx.readSecretInput(what),
    askSecret: (m) => ctx.askSecret(m),
    warn: (l) => ctx.output.warn(l),
  };
}

/** Refuses now, before a secret is read, when a new password could be neither read nor asked. */
export function passwordCanBeHad(ctx: Context, name: string, file: string | null, flag: string): void {
  if (file === null && !ctx.terminal.interactive) {
    throw new UsageError(
      `a new password for keystore ${name} is asked at a terminal, and this run has none: give it in a file with ${flag}`,
      'PASSWORD_REQUIRED',
    );
  }
}

/** A new password: from the file, or typed twice at a hidden prompt. Never empty. */
export async function newPassword(ctx: Context, name: string, file: string | null, what: string): Promise<Buffer> {
  let text: string;
  if (file !== null) {
    const { pauseOf, readSecretFile } = await import('../../config/secret-files.js');
    const raw = await readSecretFile(file, what, (l) => ctx.output.warn(l), pauseOf(ctx));
    text = raw.toString('utf8');
    raw.fill(0);
  } else {
    text = await ctx.askSecret(`New password for keystore ${name}`);
    if (text === '') throw new UsageError('the password is empty; nothing was written', 'PASSWORD_REQUIRED');
    const again = await ctx.askSecret('The same password again');
    if (again !== text) throw new UsageError('the two passwords differ; nothing was written', 'PASSWORD_MISMATCH');
  }
  if (text.length < SHORT_PASSWORD)
    ctx.output.warn(
      `the password has fewer than ${SHORT_PASSWORD} characters: anyone who copies the keystore file can try short passwords quickly`,
    );
  return passwordBytes(text);
}
