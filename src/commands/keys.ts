// `trader keys import|list|show|export|remove|passwd`: the owner key kept encrypted (scrypt and
// AES-256-GCM, wallet/keystore-format.ts) in `keys/` beside the config file
// (config/keystore-files.ts), used as `--keypair keystore:<name>`. Passwords come from a hidden
// prompt (asked twice when new) or a file, never from a flag's value; list and show need none.
import type { Context } from '../cli/context.js';
import { formatLocalTime } from '../domain/local-time.js';
import { UsageError } from '../domain/errors.js';
import { renderFields } from '../io/table.js';
import { encryptKey, formatKeystore, parseKeystore, passwordBytes } from '../wallet/keystore-format.js';
import {
  derivationWords,
  openKeystore,
  readSecretKey,
  unlockKeystore,
  type SignerDeps,
} from '../wallet/owner-wallet.js';
import { parseKeystoreName, parseSignerSource, type SignerSource } from '../wallet/signer-source.js';
import { defineCommand, parsedOption, type CommandGroup } from '../cli/definition.js';

export interface KeyNameOptions {
  name: string;
}

export interface ImportOptions extends KeyNameOptions {
  source: SignerSource;
}

export interface ExportOptions extends KeyNameOptions {
  /** Write the keypair file here (new, mode 0600) instead of to stdout. */
  output: string | undefined;
}

export interface PasswdOptions extends KeyNameOptions {
  /** The new password's file, for scripts (the current one is --password-file's). */
  newPasswordFile: string | undefined;
}

const NAME_ARGUMENT = { name: '<name>', help: 'the keystore name (letters, digits, . - _)' };
const nameOf = (raw: { args: ReadonlyArray<string | undefined> }) => parseKeystoreName(raw.args[0]!);
/** A short password is allowed (the user's choice) but said to be weak. */
const SHORT_PASSWORD = 8;

const importKey = defineCommand<ImportOptions>({
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

const list = defineCommand<Record<string, never>>({
  examples: ['trader keys list', 'trader keys list --json'],
  parse: () => ({}),
  run: listRun,
});

const show = defineCommand<KeyNameOptions>({
  arguments: [NAME_ARGUMENT],
  examples: ['trader keys show main'],
  parse: (raw) => ({ name: nameOf(raw) }),
  run: showRun,
});

const exportKey = defineCommand<ExportOptions>({
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

const remove = defineCommand<KeyNameOptions>({
  arguments: [NAME_ARGUMENT],
  helpAfter:
    '\nAsks first on a terminal; elsewhere it needs --yes. Without another copy or the seed phrase, the wallet cannot sign again.\n',
  examples: ['trader keys remove old', 'trader keys remove old --yes'],
  parse: (raw) => ({ name: nameOf(raw) }),
  run: removeRun,
});

const passwd = defineCommand<PasswdOptions>({
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

export const keys: CommandGroup = {
  helpAfter: `
Use a keystore as the wallet with --keypair keystore:<name> (TRADER_KEYPAIR, config keypair).
Its address is in clear: reads and --dry-run never ask for the password; a trade asks for it
(or reads --password-file) only when it is about to sign.
`,
  examples: [
    'trader keys import main --from ~/.config/solana/id.json',
    'trader keys list',
    'trader --keypair keystore:main balance',
  ],
  subcommands: [
    {
      name: 'import',
      dangerous: false,
      needsApiKey: false,
      needsKeypair: true,
      summary: 'store a key encrypted (file, stdin: or seed phrase)',
      command: importKey,
    },
    {
      name: 'list',
      dangerous: false,
      needsApiKey: false,
      needsKeypair: false,
      summary: 'the keystores and their addresses (never a secret)',
      command: list,
    },
    {
      name: 'show',
      dangerous: false,
      needsApiKey: false,
      needsKeypair: false,
      summary: "a keystore's address, file and encryption",
      command: show,
    },
    {
      name: 'export',
      dangerous: true,
      needsApiKey: false,
      needsKeypair: true,
      summary: 'the key in clear, as a Solana CLI keypair file',
      command: exportKey,
    },
    {
      name: 'remove',
      dangerous: true,
      needsApiKey: false,
      needsKeypair: false,
      summary: 'delete a keystore (asks first)',
      command: remove,
    },
    {
      name: 'passwd',
      dangerous: false,
      needsApiKey: false,
      needsKeypair: true,
      summary: "change a keystore's password",
      command: passwd,
    },
  ],
};

const files = () => import('../config/keystore-files.js');

/** `trader keys import <name> [--from <source>]`. */
async function importRun(ctx: Context, { name, source }: ImportOptions): Promise<void> {
  const [{ keystoreDir, keystorePath, writeNewKeystore }, { expandHome }, { existsSync }] = await Promise.all([
    files(),
    import('../config/settings.js'),
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

/** `trader keys export <name> [--output <file>]`. */
async function exportRun(ctx: Context, { name, output }: ExportOptions): Promise<void> {
  const { doc } = await openNamed(ctx, name);
  const printing = output === undefined;
  const { expandHome } = await import('../config/settings.js');
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

/** `trader keys passwd <name>`: the current password, then the new one; a new salt and nonce. */
async function passwdRun(ctx: Context, { name, newPasswordFile }: PasswdOptions): Promise<void> {
  const { doc } = await openNamed(ctx, name);
  passwordCanBeHad(ctx, name, newPasswordFile ?? null, '--new-password-file <path>');
  const [{ keystoreDir, replaceKeystore }, { expandHome }] = await Promise.all([
    files(),
    import('../config/settings.js'),
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

/** The named keystore's document and path, after every check of its folder and file. */
async function openNamed(ctx: Context, name: string) {
  const { keystoreDir, keystorePath, readKeystoreText } = await files();
  const dir = keystoreDir(ctx.config.path);
  return {
    doc: await openKeystore(name, { readKeystore: (n) => readKeystoreText(dir, n) }),
    path: keystorePath(dir, name),
  };
}

function secretDeps(ctx: Context): Pick<SignerDeps, 'readStdin' | 'askSecret' | 'warn'> {
  return {
    readStdin: (what) => ctx.readSecretInput(what),
    askSecret: (m) => ctx.askSecret(m),
    warn: (l) => ctx.output.warn(l),
  };
}

/** Refuses now, before a secret is read, when a new password could be neither read nor asked. */
function passwordCanBeHad(ctx: Context, name: string, file: string | null, flag: string): void {
  if (file === null && !ctx.terminal.interactive) {
    throw new UsageError(
      `a new password for keystore ${name} is asked at a terminal, and this run has none: give it in a file with ${flag}`,
      'PASSWORD_REQUIRED',
    );
  }
}

/** A new password: from the file, or typed twice at a hidden prompt. Never empty. */
async function newPassword(ctx: Context, name: string, file: string | null, what: string): Promise<Buffer> {
  let text: string;
  if (file !== null) {
    const { readSecretFile } = await import('../config/secret-files.js');
    const raw = await readSecretFile(file, what, (l) => ctx.output.warn(l));
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
