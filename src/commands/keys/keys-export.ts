// `trader keys export <name>`: the key in clear, as a Solana CLI keypair file.
import type { Context } from '../../cli/context.js';
import { UsageError } from '../../domain/errors.js';
import { unlockKeystore } from '../../wallet/owner-wallet.js';
import { defineCommand, parsedOption } from '../../cli/definition.js';
import { files, type KeyNameOptions, NAME_ARGUMENT, nameOf, openNamed } from './keystore-access.js';

export interface ExportOptions extends KeyNameOptions {
  /** Write the keypair file here (new, mode 0600) instead of to stdout. */
  output: string | undefined;
}

export const exportKey = defineCommand<ExportOptions>({
  arguments: [NAME_ARGUMENT],
  options: [
    {
      flags: '--output <file>',
      help: 'write the Solana CLI keypair file here (a new file, mode 0600) instead of to stdout',
    },
  ],
  helpAfter: `
Prints (or writes) the key in clear as a Solana CLI keypair file: a JSON array of 64 numbers.
Anyone who has it can spend from the wallet. On a terminal it asks before printing (--yes: no).
`,
  examples: ['trader keys export main --output backup.json', 'trader keys export main > id.json'],
  parse: (raw) => ({ name: nameOf(raw), output: parsedOption(raw, 'output', (t) => t) }),
  run: exportRun,
});

/** `trader keys export <name> [--output <file>]`. */
async function exportRun(ctx: Context, { name, output }: ExportOptions): Promise<void> {
  const { doc } = await openNamed(ctx, name);
  const printing = output === undefined;
  const { expandHome } = await import('../../config/settings.js');
  const path = output === undefined ? null : expandHome(output, ctx.home);
  // Said before the password is asked; the write itself never replaces a file either (O_EXCL).
  if (path !== null && (await import('node:fs')).existsSync(path))
    throw new UsageError(`${path} exists already; choose a new file (nothing was written)`, 'KEYSTORE');
  // Asked before the password: a key shown on a screen can be read over a shoulder or in scroll-back.
  if (printing && ctx.terminal.stdoutIsTTY && !ctx.settings.yes) {
    if (!(await ctx.prompter.confirm(`Print the secret key of wallet ${doc.publicKey} on this terminal?`, false))) {
      throw new UsageError(
        'not exported; write it to a file with --output <file>, or redirect stdout',
        'NOT_CONFIRMED',
      );
    }
  }
  const secretKey = await unlockKeystore(name, doc, ctx.passwords);
  try {
    const text = JSON.stringify(Array.from(secretKey));
    ctx.output.warn(
      `this is the secret key of wallet ${doc.publicKey} in clear: anyone who has it can spend from the wallet`,
    );
    if (path === null) {
      ctx.output.result(JSON.parse(text), () => text);
      return;
    }
    (await files()).writePrivateFile(path, `${text}\n`);
    ctx.output.result(
      { name, address: doc.publicKey, path },
      () => `Wrote the keypair of wallet ${doc.publicKey} to ${path} (mode 0600).`,
    );
  } finally {
    secretKey.fill(0);
  }
}
