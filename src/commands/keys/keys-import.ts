// `trader keys import <name>`: a key from a file, stdin: or a seed phrase, stored encrypted.
import type { Context } from '../../cli/context.js';
import { UsageError } from '../../domain/errors.js';
import { encryptKey, formatKeystore, parseKeystore } from '../../wallet/keystore-format.js';
import { derivationWords, readSecretKey } from '../../wallet/owner-wallet.js';
import { parseSignerSource, type SignerSource } from '../../wallet/signer-source.js';
import { defineCommand, parsedOption } from '../../cli/definition.js';
import {
  files,
  type KeyNameOptions,
  NAME_ARGUMENT,
  nameOf,
  newPassword,
  passwordCanBeHad,
  secretDeps,
} from './keystore-access.js';

export interface ImportOptions extends KeyNameOptions {
  source: SignerSource;
}

export const importKey = defineCommand<ImportOptions>({
  arguments: [NAME_ARGUMENT],
  options: [
    {
      flags: '--from <source>',
      help: "the key to import, as --keypair takes it: a keypair file (path or file:<path>), stdin: (a JSON array of 64 numbers or a base58 secret key), or prompt: (a seed phrase, derived as the Solana CLI's prompt:, e.g. prompt:?key=0/0; ASK: solana-keygen new's key)",
      short:
        'a keypair file, stdin: (JSON or base58), or prompt: (the default: a seed phrase; prompt:?key=0/0 for a derivation path)',
      default: 'prompt:',
    },
  ],
  helpAfter: `
The new password is asked twice, hidden; for scripts give it in a file with
--password-file (TRADER_KEYSTORE_PASSWORD_FILE). The keystore is written to keys/<name>.json
beside the config file, mode 0600: scrypt (N=2^17) and AES-256-GCM, the public key in clear
(docs/keys.md).
`,
  examples: [
    'trader keys import main --from ~/.config/solana/id.json',
    'trader keys import phantom --from "prompt:?key=0/0"',
    'trader keys import main --from stdin: --password-file ~/.trader-pw < id.json',
    'trader config set keypair keystore:main',
  ],
  parse(raw) {
    const source = parseSignerSource(parsedOption(raw, 'from', (t) => t) ?? 'prompt:');
    if (source.kind === 'keystore')
      throw new UsageError(
        `--from keystore:${source.name} is a keystore already; to copy it, export it and import the file`,
        'KEYPAIR',
      );
    return { name: nameOf(raw), source };
  },
  run: importRun,
});

/** `trader keys import <name> [--from <source>]`. */
async function importRun(ctx: Context, { name, source }: ImportOptions): Promise<void> {
  const [{ keystoreDir, keystorePath, writeNewKeystore }, { expandHome }, { existsSync }] = await Promise.all([
    files(),
    import('../../config/settings.js'),
    import('node:fs'),
  ]);
  const dir = keystoreDir(ctx.config.path);
  // Said before any secret is asked for: the name is taken, or no password can be had.
  if (existsSync(keystorePath(dir, name))) {
    throw new UsageError(
      `a keystore named ${name} exists already (${keystorePath(dir, name)}); choose another name, or remove it first with \`trader keys remove ${name}\``,
      'KEYSTORE',
    );
  }
  passwordCanBeHad(ctx, name, ctx.settings.passwordFile, '--password-file <path> (TRADER_KEYSTORE_PASSWORD_FILE)');
  const from = source.kind === 'file' ? { ...source, path: expandHome(source.path, ctx.home) } : source;
  const secretKey = await readSecretKey(from, secretDeps(ctx));
  let password: Buffer | null = null;
  try {
    password = await newPassword(ctx, name, ctx.settings.passwordFile, 'password file');
    const doc = await encryptKey(secretKey, password, new Date(ctx.clock.now()).toISOString());
    const text = formatKeystore(doc);
    parseKeystore(text); // what is written is what a later run reads
    const path = writeNewKeystore(dir, name, text);
    const derivation = from.kind === 'prompt' ? derivationWords(from) : null;
    ctx.output.result(
      { name, address: doc.publicKey, path, from: from.kind, ...(derivation ? { derivation } : {}) },
      () =>
        [
          `Imported keystore ${name}: wallet ${doc.publicKey}${derivation ? ` (derived at ${derivation})` : ''}`,
          `Saved to ${path} (mode 0600; scrypt N=2^17, AES-256-GCM).`,
          `Use it with --keypair keystore:${name}, or: trader config set keypair keystore:${name}`,
        ].join('\n'),
    );
    if (from.kind === 'file') {
      ctx.output.warn(
        `the keypair file ${from.path} still holds this key in clear; once \`trader --keypair keystore:${name} balance\` shows the wallet, delete it (e.g. shred -u ${from.path})`,
      );
    }
  } finally {
    secretKey.fill(0);
    password?.fill(0);
  }
}
