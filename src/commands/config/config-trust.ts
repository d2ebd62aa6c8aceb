// `trader config trust [show|accept-wording|accept-token|accept-risks|accept-treasury|forget]`: what is trusted
// for the configured service and by which act, and a person's ways to grant trust without a
// terminal (each prints what it pins), as a host key is added to known_hosts.
import { parseChoice } from '../../cli/argument-parsers.js';
import type { Context } from '../../cli/context.js';
import { UsageError } from '../../domain/errors.js';
import { withCommand } from '../../io/command-line.js';
import { oneLine } from '../../io/terminal-text.js';
import { renderFields } from '../../io/table.js';
import { isTemplate } from '../../wallet/sell-template/template.js';
import { addressSizeWarning, templateText, wordingRows } from '../../views/wording.js';
import type { PinnedTemplate, PinnedToken } from '../../config/trust-store.js';
import { acceptTokenCommand, tokenFactsFingerprint, type TokenPinSource } from '../../domain/token-binding.js';
import { defineCommand, type NoOptions } from '../../cli/definition.js';
import { guarded, openTrust } from '../../trade/trust.js';
import { personCommand } from '../../cli/person-command.js';
import { formatLocalTime } from '../../domain/local-time.js';
import { parseAddress, parseText } from '../../config/profile-values.js';

const FORGETTABLE = ['treasury', 'wording', 'tokens'] as const;

const showTrust = defineCommand<NoOptions>({ lenient: true, parse: () => ({}), run: show });

const acceptWording = defineCommand<{ fingerprint: string }>({
  arguments: [{ name: '<fingerprint>', help: 'the wording fingerprint a refused sell named' }],
  lenient: true,
  parse: (raw) => ({ fingerprint: parseText(raw.args[0]!.trim(), 'the wording fingerprint') }),
  run: acceptPendingWording,
});

const acceptToken = defineCommand<{ mint: string; fingerprint: string }>({
  arguments: [
    { name: '<mint>', help: 'the mint whose facts a refused trade named' },
    {
      name: '<fingerprint>',
      help: 'the fingerprint of the facts you read (the refusal and `trader config trust` show it)',
    },
  ],
  lenient: true,
  parse: (raw) => ({
    mint: parseAddress(raw.args[0]!, 'mint'),
    fingerprint: parseText(raw.args[1]!.trim(), 'the token facts fingerprint'),
  }),
  run: acceptPendingToken,
});

const acceptRisks = defineCommand<{ mint: string; fingerprint: string }>({
  arguments: [
    { name: '<mint>', help: 'the mint whose risks you read (`trader token <mint>`, or a refused buy)' },
    { name: '<fingerprint>', help: 'the fingerprint of the risks you read' },
  ],
  lenient: true,
  parse: (raw) => ({
    mint: parseAddress(raw.args[0]!, 'mint'),
    fingerprint: parseText(raw.args[1]!.trim(), 'the token risks fingerprint'),
  }),
  run: acceptMintRisks,
});

const acceptTreasury = defineCommand<{ address: string }>({
  arguments: [{ name: '<address>', help: "the service's deposit address, as its operator publishes it" }],
  lenient: true,
  parse: (raw) => ({ address: parseAddress(raw.args[0]!, 'treasury address') }),
  run: pinTreasury,
});

const forget = defineCommand<{ what: (typeof FORGETTABLE)[number] }>({
  arguments: [{ name: '<what>', help: 'treasury, wording, or tokens (every token fact)', values: FORGETTABLE }],
  lenient: true,
  parse: (raw) => ({ what: parseChoice(raw.args[0]!, FORGETTABLE, 'what to forget') }),
  run: forgetPin,
});

export const trust = defineCommand<NoOptions>({
  ...showTrust,
  examples: [
    'trader config trust',
    'trader config trust accept-wording 3f9a1c0d2b7e4a51',
    'trader config trust accept-treasury <address>',
  ],
  subcommands: [
    {
      name: 'show',
      dangerous: false,
      needsApiKey: false,
      needsKeypair: false,
      summary: 'what is trusted, by which act, and what waits for a person',
      command: showTrust,
    },
    {
      name: 'accept-wording',
      dangerous: true,
      needsApiKey: false,
      needsKeypair: false,
      summary: 'approve the sell wording a refused sell kept (printed, then pinned as the template)',
      command: acceptWording,
    },
    {
      name: 'accept-token',
      dangerous: true,
      needsApiKey: false,
      needsKeypair: false,
      summary: 'confirm the token facts a refused trade kept, and bind its symbol to the mint',
      command: acceptToken,
    },
    {
      name: 'accept-risks',
      dangerous: true,
      needsApiKey: false,
      needsKeypair: false,
      summary: "accept a mint's risks as read on chain",
      command: acceptRisks,
    },
    {
      name: 'accept-treasury',
      dangerous: true,
      needsApiKey: false,
      needsKeypair: false,
      summary: 'pin the deposit address (treasury)',
      command: acceptTreasury,
    },
    {
      name: 'forget',
      dangerous: true,
      needsApiKey: false,
      needsKeypair: false,
      summary:
        'forget the treasury, the sell wording, or the token facts and bound symbols: a person grants them again',
      command: forget,
    },
  ],
});

const byWhat: Record<TokenPinSource, string> = {
  prompt: 'at the prompt',
  'accept-command': 'by an accept command',
  setting: 'by a setting',
  chain: 'read on chain',
};
const how = (pin: { at: string; by?: TokenPinSource }, verb: string) =>
  pin.by
    ? `${pin.by === 'chain' ? 'read on chain' : `${verb} ${byWhat[pin.by]}`} ${formatLocalTime(pin.at)}`
    : `pinned on first use ${formatLocalTime(pin.at)} by an earlier version`;
const factsLine = (t: Omit<PinnedToken, 'at' | 'by'>) =>
  `${oneLine(t.symbol ?? '?')} (${oneLine(t.name ?? 'no name')}), ${t.decimals ?? '?'} decimals`;
const tokenLine = (mint: string, t: Omit<PinnedToken, 'at' | 'by'>) => `${mint}: ${factsLine(t)}`;
/** What a person approving the wording is told of its 32-byte random values, each slot named as its text shows it. */
const addressWarning = (pinned: PinnedTemplate) =>
  isTemplate(pinned.template) ? addressSizeWarning(pinned.template.parts) : [];
const wordingText = (pinned: PinnedTemplate) =>
  isTemplate(pinned.template) ? templateText(pinned.template) : '(not a template this version reads)';

/** `trader config trust`: what is trusted for the configured service and by which act. */
async function show(ctx: Context): Promise<void> {
  const store = await openTrust(ctx);
  const trust = guarded('read', () => store.read());
  const setting = ctx.settings.treasury;
  const json = {
    service: store.service,
    path: store.path,
    ...trust,
    ...(setting ? { treasurySetting: setting } : {}),
    ...(trust.sellTemplate ? { sellTemplate: { ...trust.sellTemplate, text: wordingText(trust.sellTemplate) } } : {}),
    ...(trust.pendingSellTemplate
      ? { pendingSellTemplate: { ...trust.pendingSellTemplate, text: wordingText(trust.pendingSellTemplate) } }
      : {}),
    ...(trust.pendingTokens
      ? {
          pendingTokens: Object.fromEntries(
            Object.entries(trust.pendingTokens).map(([mint, facts]) => [
              mint,
              { ...facts, fingerprint: tokenFactsFingerprint(mint, facts) },
            ]),
          ),
        }
      : {}),
  };
  ctx.output.result(json, (theme) => {
    const treasury = setting
      ? `${setting} (set by --treasury, TRADER_TREASURY or the profile's treasury)`
      : trust.treasury
        ? `${trust.treasury.address} (${how(trust.treasury, 'pinned')})`
        : 'none: a person pins it at a buy’s prompt, or with `trader config trust accept-treasury <address>`';
    const lines = [
      `Trust store ${store.path}, service ${store.service}`,
      renderFields(
        [
          ['Treasury', treasury],
          [
            'Sell wording',
            trust.sellTemplate
              ? `${trust.sellTemplate.fingerprint} (${how(trust.sellTemplate, 'approved')})`
              : 'none approved: a person approves the first sell’s wording at the prompt, or with accept-wording',
          ],
          ...Object.entries(trust.tokens ?? {}).map(([mint, t]): [string, string] => [
            'Token',
            `${tokenLine(mint, t)} (${how(t, 'confirmed')})`,
          ]),
          ...Object.entries(trust.acceptedRisks ?? {}).map(([mint, a]): [string, string] => [
            'Risks',
            `${mint}: accepted as read (fingerprint ${a.fingerprint}) ${byWhat[a.by]} ${formatLocalTime(a.at)}`,
          ]),
          ...Object.entries(trust.symbols ?? {}).map(([symbol, b]): [string, string] => [
            'Symbol',
            `${oneLine(symbol)} names ${b.mint} (${b.by === 'trade' ? 'bound by a trade of that mint as you typed it' : `bound ${byWhat[b.by]}`} ${formatLocalTime(b.at)})`,
          ]),
        ],
        theme,
      ),
    ];
    if (trust.sellTemplate) lines.push(...quoted(ctx, wordingText(trust.sellTemplate)));
    if (trust.sellWording)
      lines.push(
        theme.dim(
          `A wording pinned by an earlier version (${trust.sellWording.fingerprint}) is masked text, not a template: it is not used; the next sell asks a person once.`,
        ),
      );
    const pending = trust.pendingSellTemplate;
    if (pending) {
      lines.push(
        theme.pending(
          `A sell wording ${pending.fingerprint} was refused at ${formatLocalTime(pending.at)} for want of a person; each ⟦…⟧ is a slot the tool fills with that sell's facts:`,
        ),
      );
      lines.push(...quoted(ctx, wordingText(pending)), ...addressWarning(pending).map((l) => theme.pending(l)));
      lines.push(
        withCommand(
          'If it is what you expect, approve it with:',
          personCommand(ctx, `trader config trust accept-wording ${pending.fingerprint}`),
          ctx.terminal.columns,
          ctx.terminal.stdoutIsTTY,
        ),
      );
    }
    for (const [mint, facts] of Object.entries(trust.pendingTokens ?? {})) {
      const fingerprint = tokenFactsFingerprint(mint, facts);
      lines.push(
        theme.pending(
          `Token facts ${fingerprint} refused at ${formatLocalTime(facts.at)} (the service's, which neither the chain nor you confirmed): ${tokenLine(mint, facts)}`,
        ),
      );
      lines.push(
        withCommand(
          'If they are right, confirm them with:',
          personCommand(ctx, acceptTokenCommand(mint, fingerprint)),
          ctx.terminal.columns,
          ctx.terminal.stdoutIsTTY,
        ),
      );
    }
    return lines.join('\n');
  });
}

/** `trader config trust accept-wording <fingerprint>`: prints the pending template, then pins it. */
async function acceptPendingWording(ctx: Context, { fingerprint }: { fingerprint: string }): Promise<void> {
  const store = await openTrust(ctx);
  const accepted = guarded('approve the wording', () => store.acceptPendingTemplate(fingerprint));
  if (!accepted)
    throw new UsageError(
      `no refused sell wording ${fingerprint} is waiting for ${store.service}; see \`trader config trust\``,
      'NO_SUCH_WORDING',
    );
  const text = wordingText(accepted);
  const warning = addressWarning(accepted);
  ctx.output.result(
    {
      service: store.service,
      sellTemplate: { ...accepted, text },
      ...(warning.length ? { warning: warning.join(' ') } : {}),
    },
    (theme) =>
      [
        `Approved sell wording ${accepted.fingerprint} for ${store.service}; a sell is now signed unattended only when its message is this, each ⟦…⟧ written with its own facts:`,
        ...quoted(ctx, text),
        ...warning.map((l) => theme.pending(l)),
      ].join('\n'),
  );
}

/** `trader config trust accept-token <mint> <fingerprint>`: confirms the token facts a refused trade kept, if they are the ones read. */
async function acceptPendingToken(
  ctx: Context,
  { mint, fingerprint }: { mint: string; fingerprint: string },
): Promise<void> {
  const store = await openTrust(ctx);
  const accepted = guarded('confirm the token facts', () => store.acceptPendingToken(mint, fingerprint));
  if (!accepted)
    throw new UsageError(
      `no refused token facts of ${mint} are waiting for ${store.service}; see \`trader config trust\``,
      'NO_SUCH_TOKEN_FACTS',
    );
  // Facts a later refusal kept in place of the ones read: a person reads these before confirming them.
  if ('pending' in accepted) {
    const now = tokenFactsFingerprint(mint, accepted.pending);
    throw new UsageError(
      `the token facts of ${mint} waiting for ${store.service} are not the ones with fingerprint ${fingerprint} (a later refusal keeps its own): they are now ${factsLine(accepted.pending)} (fingerprint ${now}, kept ${formatLocalTime(accepted.pending.at)}); nothing was confirmed`,
      'TOKEN_FACTS_CHANGED',
      [`read them; only if they are right: ${acceptTokenCommand(mint, now)}`],
    );
  }
  const pinned = accepted.pinned;
  ctx.output.result(
    { service: store.service, mint, fingerprint, token: pinned },
    () =>
      `Confirmed for ${store.service}: token ${tokenLine(mint, pinned)}${pinned.symbol ? `; ${oneLine(pinned.symbol)} now names this mint` : ''}.`,
  );
}

/**
 * `trader config trust accept-risks <mint> <fingerprint>`: reads the mint on chain again and
 * accepts its risks only if their fingerprint is the one the person read; otherwise says what
 * they are now (exit 2), for the person to read first.
 */
async function acceptMintRisks(
  ctx: Context,
  { mint, fingerprint }: { mint: string; fingerprint: string },
): Promise<void> {
  const store = await openTrust(ctx);
  const [{ readMint }, { ChainUnavailableError }, { ChainUnreachableError }, risks, { riskLine }] = await Promise.all([
    import('../../chain/chain-token-facts.js'),
    import('../../chain/chain-reader.js'),
    import('../../chain/chain-errors.js'),
    import('../../domain/token-risks.js'),
    import('../../views/token.js'),
  ]);
  let read;
  try {
    read = await readMint(await ctx.chain(), mint);
  } catch (err) {
    if (err instanceof ChainUnavailableError)
      throw new ChainUnreachableError(
        `could not read token ${mint} from the chain: ${err.message}; nothing was accepted`,
        ['check --rpc-url (TRADER_RPC_URL, config rpcUrl)'],
      );
    throw err;
  }
  if (!read) throw new UsageError(`the chain has no token mint at ${mint}; nothing was accepted`, 'NOT_A_MINT');
  const now = risks.tokenRisksFingerprint(read.facts);
  const list = risks.tokenRisks(read.facts, ctx.settings.maxTransferFeeBps ?? risks.DEFAULT_MAX_TRANSFER_FEE_BPS);
  if (now !== fingerprint) {
    throw new UsageError(
      `the risks of token ${mint} on chain are not the ones with fingerprint ${fingerprint}: the mint's facts changed since they were read (fingerprint now ${now}); nothing was accepted`,
      'TOKEN_RISKS_CHANGED',
      [`read them with \`trader token ${mint}\`; only if you accept them: ${risks.acceptRisksCommand(mint, now)}`],
    );
  }
  const accepted = guarded('accept the token risks', () => store.acceptRisks(mint, fingerprint, 'accept-command'));
  ctx.output.result({ service: store.service, mint, fingerprint, risks: list, accepted }, (theme) =>
    [
      `Accepted for ${store.service}: the risks of token ${mint} as read on chain (fingerprint ${fingerprint}); a change of them asks again:`,
      ...list.map((r) => `  ${riskLine(r, theme)}`),
    ].join('\n'),
  );
}

/** `trader config trust accept-treasury <address>`: pins the treasury a person typed. */
async function pinTreasury(ctx: Context, { address }: { address: string }): Promise<void> {
  const store = await openTrust(ctx);
  const before = guarded('read the treasury', () => store.read().treasury?.address ?? null);
  guarded('pin the treasury', () => store.pinTreasury(address, 'accept-command', true));
  const replaced = before !== null && before !== address ? before : null;
  ctx.output.result(
    { service: store.service, treasury: address, replaced },
    () =>
      `Pinned treasury ${address} for ${store.service}${replaced ? ` (it was ${replaced})` : ''}; a deposit to any other address is refused.`,
  );
}

/** `trader config trust forget treasury|wording|tokens`: a person grants it again. */
async function forgetPin(ctx: Context, { what }: { what: (typeof FORGETTABLE)[number] }): Promise<void> {
  const store = await openTrust(ctx);
  const had = guarded('forget the pin', () => store.forget(what));
  const name = what === 'tokens' ? 'token facts' : what;
  ctx.output.result({ service: store.service, forgot: what, hadPin: had }, () =>
    had
      ? `Forgot the ${name} of ${store.service}; a person grants ${what === 'tokens' ? 'them' : 'it'} again.`
      : `No ${name} ${what === 'tokens' ? 'were' : 'was'} pinned for ${store.service}.`,
  );
}

/** A wording behind the gutter, laid out to the terminal as the sell's prompt lays out a message (piped: a line stays a line). */
const quoted = (ctx: Context, text: string): string[] =>
  wordingRows(text, ctx.terminal.stdoutIsTTY ? ctx.terminal.columns : Infinity);
