// `trader keys list`: the keystores and their addresses (never a secret).
import type { Context } from '../../cli/context.js';
import { UsageError } from '../../domain/errors.js';
import { renderFields } from '../../io/table.js';
import { openKeystore } from '../../wallet/owner-wallet.js';
import { defineCommand } from '../../cli/definition.js';
import { files } from './keystore-access.js';

export const list = defineCommand<Record<string, never>>({
  examples: ['trader keys list', 'trader keys list --json'],
  parse: () => ({}),
  run: listRun,
});

/** `trader keys list`: names and addresses; a file that cannot be read says why. */
async function listRun(ctx: Context): Promise<void> {
  const { keystoreDir, keystoreNames, keystorePath, readKeystoreText } = await files();
  const dir = keystoreDir(ctx.config.path);
  const entries: Array<{ name: string; address: string | null; path: string; problem?: string }> = [];
  for (const name of keystoreNames(dir)) {
    const path = keystorePath(dir, name);
    try {
      entries.push({
        name,
        address: (await openKeystore(name, { readKeystore: (n) => readKeystoreText(dir, n) })).publicKey,
        path,
      });
    } catch (err) {
      if (!(err instanceof UsageError)) throw err;
      entries.push({ name, address: null, path, problem: err.message });
    }
  }
  ctx.output.result({ folder: dir, keys: entries }, () =>
    entries.length === 0
      ? `No keystores in ${dir}. Import one with: trader keys import <name> --from <keypair file>`
      : renderFields(entries.map((e) => [e.name, e.address ?? `(${e.problem})`] as [string, string])),
  );
}
