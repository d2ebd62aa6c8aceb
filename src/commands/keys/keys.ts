// `trader keys import|list|show|export|remove|passwd`: the owner key kept encrypted (scrypt and
// AES-256-GCM, wallet/keystore-format.ts) in `keys/` beside the config file
// (config/keystore-files.ts), used as `--keypair keystore:<name>`. Passwords come from a hidden
// prompt (asked twice when new) or a file, never from a flag's value; list and show need none.
import type { CommandGroup } from '../../cli/definition.js';
import { exportKey } from './keys-export.js';
import { importKey } from './keys-import.js';
import { list } from './keys-list.js';
import { passwd } from './keys-passwd.js';
import { remove } from './keys-remove.js';
import { show } from './keys-show.js';

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
