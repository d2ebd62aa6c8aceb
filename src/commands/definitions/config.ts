// `trader config …` and `trader config trust …`: what can be typed, and what it means. They run
// with a lenient context: a profile holding a value they would refuse can still be fixed.
import { parseChoice, parseProfileKey, parseProfileValue, parseText } from '../../argument-parsers.js';
import { PROFILE_KEYS, type ProfileKey } from '../../config/config-file.js';
import { defineCommand, type CommandGroup, type NoOptions } from '../definition.js';

const KEY_HELP = PROFILE_KEYS.join(', ');

export interface ConfigKeyOptions {
  key: ProfileKey;
}

export interface ConfigSetOptions extends ConfigKeyOptions {
  /** What is stored, checked by the parser that reads it back; undefined removes the key (`""`). */
  value: string | number | undefined;
}

const init = defineCommand<NoOptions>({
  examples: ['trader config init', 'trader --profile staging config init'],
  lenient: true,
  parse: () => ({}),
  load: () => import('../config.js').then((m) => ({ run: m.init })),
});

const get = defineCommand<ConfigKeyOptions>({
  arguments: [{ name: '<key>', help: KEY_HELP, values: PROFILE_KEYS }],
  examples: ['trader config get baseUrl'],
  lenient: true,
  parse: (raw) => ({ key: parseProfileKey(raw.args[0]!) }),
  load: () => import('../config.js').then((m) => ({ run: m.get })),
});

const set = defineCommand<ConfigSetOptions>({
  arguments: [
    { name: '<key>', help: KEY_HELP, values: PROFILE_KEYS },
    { name: '<value>', help: 'the value ("" to remove)' },
  ],
  examples: ['trader config set maxBuyLamports 500000000', 'trader config set treasury <address>'],
  lenient: true,
  parse(raw) {
    const key = parseProfileKey(raw.args[0]!);
    const value = raw.args[1]!;
    return { key, value: value === '' ? undefined : parseProfileValue(key, value, { insecure: raw.globals.insecure }) };
  },
  load: () => import('../config.js').then((m) => ({ run: m.set })),
});

const list = defineCommand<NoOptions>({
  lenient: true,
  parse: () => ({}),
  load: () => import('../config.js').then((m) => ({ run: m.list })),
});

const path = defineCommand<NoOptions>({
  lenient: true,
  parse: () => ({}),
  load: () => import('../config.js').then((m) => ({ run: m.path })),
});

export interface AcceptWordingOptions {
  fingerprint: string;
}

export interface ForgetOptions {
  what: (typeof FORGETTABLE)[number];
}

const showTrust = defineCommand<NoOptions>({
  lenient: true,
  parse: () => ({}),
  load: () => import('../trust.js').then((m) => ({ run: m.show })),
});

const acceptWording = defineCommand<AcceptWordingOptions>({
  arguments: [{ name: '<fingerprint>', help: 'the wording fingerprint the refusal named' }],
  lenient: true,
  parse: (raw) => ({ fingerprint: parseText(raw.args[0]!.trim(), 'the wording fingerprint') }),
  load: () => import('../trust.js').then((m) => ({ run: m.acceptWording })),
});

const FORGETTABLE = ['treasury', 'wording'] as const;

const forget = defineCommand<ForgetOptions>({
  arguments: [{ name: '<what>', help: FORGETTABLE.join(' or '), values: FORGETTABLE }],
  lenient: true,
  parse: (raw) => ({ what: parseChoice(raw.args[0]!, FORGETTABLE, 'what to forget') }),
  load: () => import('../trust.js').then((m) => ({ run: m.forget })),
});

const trust = defineCommand<NoOptions>({
  ...showTrust,
  examples: ['trader config trust', 'trader config trust accept-wording 3f9a1c0d2b7e4a51', 'trader config trust forget treasury'],
  subcommands: [
    { name: 'show', summary: 'show the pins of the configured service, and a changed sell wording waiting to be accepted', command: showTrust },
    { name: 'accept-wording', summary: 'pin the changed sell wording a refused sell kept, once you have read it (`trader config trust`)', command: acceptWording },
    { name: 'forget', summary: 'forget the pinned treasury or sell wording, so the next trade pins it again', command: forget },
  ],
});

export const config: CommandGroup = {
  examples: ['trader config init', 'trader config set maxBuyLamports 500000000', 'trader --profile staging config list'],
  subcommands: [
    { name: 'init', summary: 'ask for URL, API key and keypair, check the key with the service, save (mode 0600)', command: init },
    { name: 'get', summary: 'print one setting of the profile (the API key masked)', command: get },
    { name: 'set', summary: 'set one setting of the profile', command: set },
    { name: 'list', summary: 'print every setting of the profile (the API key masked)', command: list },
    { name: 'path', summary: 'print where the config file is', command: path },
    {
      name: 'trust',
      summary: 'what is pinned for the configured service: its treasury and its sell-message wording (trust.json beside the config)',
      command: trust,
    },
  ],
};
