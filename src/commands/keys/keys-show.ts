// `trader keys show <name>`: a keystore's address, file and encryption.
import type { Context } from '../../cli/context.js';
import { formatLocalTime } from '../../domain/local-time.js';
import { renderFields } from '../../io/table.js';
import { defineCommand } from '../../cli/definition.js';
import { type KeyNameOptions, NAME_ARGUMENT, nameOf, openNamed } from './keystore-access.js';

export const show = defineCommand<KeyNameOptions>({
  arguments: [NAME_ARGUMENT],
  examples: ['trader keys show main'],
  parse: (raw) => ({ name: nameOf(raw) }),
  run: showRun,
});

/** `trader keys show <name>`. */
async function showRun(ctx: Context, { name }: KeyNameOptions): Promise<void> {
  const { doc, path } = await openNamed(ctx, name);
  const info = {
    name,
    address: doc.publicKey,
    path,
    createdAt: doc.createdAt,
    kdf: { name: doc.kdf.name, n: doc.kdf.n, r: doc.kdf.r, p: doc.kdf.p },
    cipher: doc.cipher.name,
  };
  ctx.output.result(info, () =>
    renderFields([
      ['Name', name],
      ['Address', doc.publicKey],
      ['File', path],
      ['Created', formatLocalTime(doc.createdAt)],
      ['Encryption', `scrypt (N=2^${Math.log2(doc.kdf.n)}, r=${doc.kdf.r}, p=${doc.kdf.p}), ${doc.cipher.name}`],
    ]),
  );
}
