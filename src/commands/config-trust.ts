// `trader config trust [show|accept-wording|forget]`: what is pinned for the configured service
// (its treasury, its sell-message wording, the facts of each token sold), what can be typed, and
// the runs that show, accept and forget pins.
import { parseChoice, parseText } from '../argument-parsers.js';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { withCommand } from '../io/command-line.js';
import { renderFields, renderQuoted } from '../io/table.js';
import { defineCommand, type NoOptions } from './definition.js';
import { guarded, openTrust } from './trust.js';

export interface AcceptWordingOptions {
  fingerprint: string;
}

export interface ForgetOptions {
  what: (typeof FORGETTABLE)[number];
}

const showTrust = defineCommand<NoOptions>({
  lenient: true,
  parse: () => ({}),
  run: show,
});

const acceptWording = defineCommand<AcceptWordingOptions>({
  arguments: [{ name: '<fingerprint>', help: 'the wording fingerprint the refusal named' }],
  lenient: true,
  parse: (raw) => ({ fingerprint: parseText(raw.args[0]!.trim(), 'the wording fingerprint') }),
  run: acceptPendingWording,
});

const FORGETTABLE = ['treasury', 'wording', 'tokens'] as const;

const forget = defineCommand<ForgetOptions>({
  arguments: [{ name: '<what>', help: 'treasury, wording, or tokens (the facts pinned for every token)', values: FORGETTABLE }],
  lenient: true,
  parse: (raw) => ({ what: parseChoice(raw.args[0]!, FORGETTABLE, 'what to forget') }),
  run: forgetPin,
});

export const trust = defineCommand<NoOptions>({
  ...showTrust,
  examples: ['trader config trust', 'trader config trust accept-wording 3f9a1c0d2b7e4a51', 'trader config trust forget treasury'],
  subcommands: [
    { name: 'show', dangerous: false, needsApiKey: false, needsKeypair: false, summary: 'show the pins of the configured service, and a changed sell wording waiting to be accepted', command: showTrust },
    { name: 'accept-wording', dangerous: true, needsApiKey: false, needsKeypair: false, summary: 'pin the changed sell wording a refused sell kept, once you have read it (`trader config trust`)', command: acceptWording },
    { name: 'forget', dangerous: true, needsApiKey: false, needsKeypair: false, summary: 'forget the pinned treasury, sell wording or token facts, so the next trade pins them again', command: forget },
  ],
});

/** `trader config trust`: what is pinned for the configured service. */
async function show(ctx: Context): Promise<void> {
  const store = await openTrust(ctx);
  const trust = guarded('read', () => store.read());
  ctx.output.result({ service: store.service, path: store.path, ...trust }, (theme) => {
    const lines = [
      `Trust store ${store.path}, service ${store.service}`,
      renderFields([
        ['Treasury', trust.treasury ? `${trust.treasury.address} (pinned ${trust.treasury.at})` : 'not pinned (the first confirmed deposit pins it)'],
        ['Sell wording', trust.sellWording ? `${trust.sellWording.fingerprint} (pinned ${trust.sellWording.at})` : 'not pinned (the first sell pins it)'],
        ...Object.entries(trust.tokens ?? {}).map(([mint, t]): [string, string] => [
          'Token',
          `${mint}: ${t.symbol ?? '?'} (${t.name ?? 'no name'}), ${t.decimals ?? '?'} decimals (${t.by === 'chain' ? 'read on chain' : 'pinned'} ${t.at}${t.by && t.by !== 'chain' ? ` by ${t.by}` : ''})`,
        ]),
      ]),
    ];
    if (trust.sellWording) lines.push(renderQuoted(trust.sellWording.text));
    if (trust.pendingSellWording) {
      const pending = trust.pendingSellWording;
      lines.push(theme.pending(`A changed sell wording ${pending.fingerprint} was refused at ${pending.at}:`), renderQuoted(pending.text));
      if (pending.token) lines.push(`Accepting it also confirms token ${pending.token.mint} as symbol ${JSON.stringify(pending.token.symbol)}, name ${JSON.stringify(pending.token.name)}.`);
      lines.push(withCommand('If it is what you expect, accept it with:', `trader config trust accept-wording ${pending.fingerprint}`, ctx.terminal.columns, ctx.terminal.stdoutIsTTY));
    }
    return lines.join('\n');
  });
}

/** `trader config trust accept-wording <fingerprint>`: pins the wording the user has read. */
async function acceptPendingWording(ctx: Context, { fingerprint }: AcceptWordingOptions): Promise<void> {
  const store = await openTrust(ctx);
  const accepted = guarded('accept the wording', () => store.acceptPendingWording(fingerprint));
  if (!accepted) {
    throw new UsageError(`no refused sell wording ${fingerprint} is waiting for ${store.service}; see \`trader config trust\``, 'NO_SUCH_WORDING');
  }
  ctx.output.result({ service: store.service, sellWording: accepted }, () => `Pinned sell wording ${accepted.fingerprint} for ${store.service}.`);
}

/** `trader config trust forget treasury|wording|tokens`: the next trade is a first use again. */
async function forgetPin(ctx: Context, { what }: ForgetOptions): Promise<void> {
  const store = await openTrust(ctx);
  const had = guarded('forget the pin', () => store.forget(what));
  ctx.output.result({ service: store.service, forgot: what, hadPin: had }, () =>
    had
      ? `Forgot the pinned ${what === 'tokens' ? 'token facts' : what} of ${store.service}; the next trade pins ${what === 'tokens' ? 'them' : 'it'} again.`
      : `No ${what === 'tokens' ? 'token facts were' : `${what} was`} pinned for ${store.service}.`,
  );
}
