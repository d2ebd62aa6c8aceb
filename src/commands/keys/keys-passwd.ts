// `trader keys passwd <name>`: a keystore's password changed (a new salt and nonce).
import type { Context } from '../../cli/context.js';
import { encryptKey, formatKeystore, parseKeystore } from '../../wallet/keystore-format.js';
import { unlockKeystore } from '../../wallet/owner-wallet.js';
import { defineCommand, parsedOption } from '../../cli/definition.js';
import {
  files,
  type KeyNameOptions,
  NAME_ARGUMENT,
  nameOf,
  newPassword,
  openNamed,
  passwordCanBeHad,
} from './keystore-access.js';

export interface PasswdOptions extends KeyNameOptions {
  /** The new password's file, for scripts (the current one is --password-file's). */
  newPasswordFile: string | undefined;
}

export const passwd = defineCommand<PasswdOptions>({
  arguments: [NAME_ARGUMENT],
  options: [
    {
      flags: '--new-password-file <path>',
      help: 'the new password, for scripts (the current one comes from --password-file, or is asked)',
    },
  ],
  examples: ['trader keys passwd main', 'trader keys passwd main --password-file old.txt --new-password-file new.txt'],
  parse: (raw) => ({ name: nameOf(raw), newPasswordFile: parsedOption(raw, 'newPasswordFile', (t) => t) }),
  run: passwdRun,
});

/** `trader keys passwd <name>`: the current password, then the new one; a new salt and nonce. */
async function passwdRun(ctx: Context, { name, newPasswordFile }: PasswdOptions): Promise<void> {
  const { doc } = await openNamed(ctx, name);
  passwordCanBeHad(ctx, name, newPasswordFile ?? null, '--new-password-file <path>');
  const [{ keystoreDir, replaceKeystore }, { expandHome }] = await Promise.all([
    files(),
    import('../../config/settings.js'),
  ]);
  const secretKey = await unlockKeystore(name, doc, ctx.passwords);
  let password: Buffer | null = null;
  try {
    password = await newPassword(
      ctx,
      name,
      newPasswordFile === undefined ? null : expandHome(newPasswordFile, ctx.home),
      'new password file',
    );
    const next = await encryptKey(secretKey, password, doc.createdAt);
    const text = formatKeystore(next);
    parseKeystore(text);
    const path = replaceKeystore(keystoreDir(ctx.config.path), name, text);
    ctx.output.result(
      { name, address: next.publicKey, path },
      () => `Changed the password of keystore ${name} (wallet ${next.publicKey}).`,
    );
  } finally {
    secretKey.fill(0);
    password?.fill(0);
  }
}
