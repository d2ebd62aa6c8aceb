// `trader keys remove <name>`: deletes a keystore (asks first).
import type { Context } from '../../cli/context.js';
import { UsageError } from '../../domain/errors.js';
import { openKeystore } from '../../wallet/owner-wallet.js';
import { defineCommand } from '../../cli/definition.js';
import { files, type KeyNameOptions, NAME_ARGUMENT, nameOf } from './keystore-access.js';

export const remove = defineCommand<KeyNameOptions>({
  arguments: [NAME_ARGUMENT],
  helpAfter:
    '\nAsks first on a terminal; elsewhere it needs --yes. Without another copy or the seed phrase, the wallet cannot sign again.\n',
  examples: ['trader keys remove old', 'trader keys remove old --yes'],
  parse: (raw) => ({ name: nameOf(raw) }),
  run: removeRun,
});

/** `trader keys remove <name>`: asks, or needs --yes. */
async function removeRun(ctx: Context, { name }: KeyNameOptions): Promise<void> {
  const { keystoreDir, readKeystoreText, removeKeystore } = await files();
  const dir = keystoreDir(ctx.config.path);
  let address: string | null = null;
  try {
    address = (await openKeystore(name, { readKeystore: (n) => readKeystoreText(dir, n) })).publicKey;
  } catch (err) {
    // A damaged or unsafe file may still be removed; one that is not there may not.
    if (!(err instanceof UsageError) || /^no keystore named/.test(err.message)) throw err;
  }
  const what = `keystore ${name}${address ? ` (wallet ${address})` : ''}`;
  if (!ctx.settings.yes) {
    if (!ctx.terminal.interactive)
      throw new UsageError(
        `removing ${what} needs --yes when not interactive; nothing was removed`,
        'CONFIRMATION_REQUIRED',
      );
    if (
      !(await ctx.prompter.confirm(
        `Remove ${what}? Without another copy or its seed phrase, the wallet cannot sign again`,
        false,
      ))
    ) {
      throw new UsageError('not removed', 'NOT_CONFIRMED');
    }
  }
  const path = removeKeystore(dir, name);
  ctx.output.result({ name, address, removed: path }, () => `Removed ${what}: ${path}`);
}
