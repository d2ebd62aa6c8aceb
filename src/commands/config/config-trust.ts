// `trader config trust [show|accept-wording|accept-token|accept-risks|accept-treasury|forget]`: what is trusted
// for the configured service and by which act, and a person's ways to grant trust without a
// terminal (each says in one line what it granted and how to undo it), as a host key is added to
// known_hosts.
import { parseChoice } from '../../cli/argument-parsers.js';
import type { Context } from '../../cli/context.js';
import { UsageError } from '../../domain/errors.js';
import { withCommand } from '../../io/command-line.js';
import { oneLine } from '../../io/terminal-text.js';
import { renderFields } from '../../io/table.js';
import { isTemplate } from '../../wallet/sell-template/template.js';
import { addressSizeWarning, templateText, wordingRows } from '../../views/wording.js';
import type { PinnedTemplate, PinnedToken, ServiceTrust, TrustStore } from '../../config/trust-store.js';
import { factsSourcePhrase, sourceOf } from '../../domain/facts-source.js';
import type { Grant } from '../../domain/trust-grants.js';
import { grantJson, grantLine, tokenFactsText } from '../../views/grant-lines.js';
import type { Theme } from '../../io/theme.js';
import { acceptTokenCommand, tokenFactsFingerprint, type TokenPinSource } from '../../domain/token-binding.js';
import { defineCommand, type NoOptions } from '../../cli/definition.js';
import { guarded, openTrust } from '../../trade/trust.js';
import { personCommand } from '../../cli/person-command.js';
import { formatLocalTime } from '../../domain/local-time.js';
import { parseAddress, parseText } from '../../config/profile-values.js';

const FORGETTABLE = ['treasury', 'wording', 'tokens', 'token'] as const;
type Forget = { what: Exclude<(typeof FORGETTABLE)[number], 'token'> } | { what: 'token'; mint: string };

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

const forget = defineCommand<Forget>({
  arguments: [
    {
      name: '<what>',
      help: 'treasury, wording, token (one mint: its facts, bound symbols and accepted risks), or tokens (every one)',
      values: FORGETTABLE,
    },
    { name: '[mint]', help: 'with token: the mint to forget' },
  ],
  lenient: true,
  parse: parseForget,
  run: forgetPin,
});

/** `forget <what> [mint]`: a mint with `token` and only with it. */
export function parseForget(raw: { args: ReadonlyArray<string | undefined> }): Forget {
  const what = parseChoice(raw.args[0]!, FORGETTABLE, 'what to forget');
  const mint = raw.args[1];
  if (what === 'token') {
    if (mint === undefined)
      throw new UsageError('forget token needs the mint: trader config trust forget token <mint>');
    return { what, mint: parseAddress(mint, 'mint') };
  }
  if (mint !== undefined) throw new UsageError(`forget ${what} takes no mint; to forget one mint: forget token <mint>`);
  return { what };
}

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
        'forget the treasury, the sell wording, one token (token <mint>) or every token: a person grants them again',
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
const tokenLine = (mint: string, t: Omit<PinnedToken, 'at' | 'by'>) => `${mint}: ${tokenFactsText(t)}`;
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
  ctx.output.result(trustJson(store, trust, setting), (theme) =>
    [
      `Trust store ${store.path}, service ${store.service}`,
      renderFields(trustFields(trust, setting), theme),
      ...pinnedWordingLines(ctx, trust, theme),
      ...pendingWordingLines(ctx, trust.pendingSellTemplate, theme),
      ...pendingTokenLines(ctx, trust, theme),
    ].join('\n'),
  );
}

/** The store as --json shows it: each template with its text, each kept token's facts with their fingerprint and source. */
function trustJson(store: TrustStore, trust: ServiceTrust, setting: string | null | undefined) {
  const withText = (pinned: PinnedTemplate) => ({ ...pinned, text: wordingText(pinned) });
  const pendingTokens = Object.entries(trust.pendingTokens ?? {}).map(([mint, facts]) => [
    mint,
    { ...facts, source: sourceOf(facts), fingerprint: tokenFactsFingerprint(mint, facts) },
  ]);
  return {
    service: store.service,
    path: store.path,
    ...trust,
    ...(setting ? { treasurySetting: setting } : {}),
    ...(trust.sellTemplate ? { sellTemplate: withText(trust.sellTemplate) } : {}),
    ...(trust.pendingSellTemplate ? { pendingSellTemplate: withText(trust.pendingSellTemplate) } : {}),
    ...(trust.pendingTokens ? { pendingTokens: Object.fromEntries(pendingTokens) } : {}),
  };
}

/** The fields of what is trusted: the treasury, the wording, then each token, accepted risks and bound symbol. */
function trustFields(trust: ServiceTrust, setting: string | null | undefined): Array<[string, string]> {
  const treasury = setting
    ? `${setting} (set by --treasury, TRADER_TREASURY or the profile's treasury)`
    : trust.treasury
      ? `${trust.treasury.address} (${how(trust.treasury, 'pinned')})`
      : 'none: a person pins it at a buy’s prompt, or with `trader config trust accept-treasury <address>`';
  const wording = trust.sellTemplate
    ? `${trust.sellTemplate.fingerprint} (${how(trust.sellTemplate, 'approved')})`
    : 'none approved: a person approves the first sell’s wording at the prompt, or with accept-wording';
  const field =
    (label: string) =>
    (value: string): [string, string] => [label, value];
  return [
    ['Treasury', treasury],
    ['Sell wording', wording],
    ...Object.entries(trust.tokens ?? {})
      .map(([mint, t]) => `${tokenLine(mint, t)} (${how(t, 'confirmed')})`)
      .map(field('Token')),
    ...Object.entries(trust.acceptedRisks ?? {})
      .map(
        ([mint, a]) =>
          `${mint}: accepted as read (fingerprint ${a.fingerprint}) ${byWhat[a.by]} ${formatLocalTime(a.at)}`,
      )
      .map(field('Risks')),
    ...Object.entries(trust.symbols ?? {})
      .map(([key, b]) => {
        const bound = b.by === 'trade' ? 'bound by a trade of that mint as you typed it' : `bound ${byWhat[b.by]}`;
        // In the case it was bound; an earlier version's binding keeps only the symbol as compared.
        return `${oneLine(b.symbol ?? key)} names ${b.mint} (${bound} ${formatLocalTime(b.at)})`;
      })
      .map(field('Symbol')),
  ];
}

/** The approved template, quoted, and a note on an earlier version's wording, which is not used. */
function pinnedWordingLines(ctx: Context, trust: ServiceTrust, theme: Theme): string[] {
  const lines = trust.sellTemplate ? quoted(ctx, wordingText(trust.sellTemplate)) : [];
  if (trust.sellWording)
    lines.push(
      theme.dim(
        `A wording pinned by an earlier version (${trust.sellWording.fingerprint}) is masked text, not a template: it is not used; the next sell asks a person once.`,
      ),
    );
  return lines;
}

/** A refused sell's wording, its slots marked, and the command that approves it. */
function pendingWordingLines(ctx: Context, pending: PinnedTemplate | undefined, theme: Theme): string[] {
  if (!pending) return [];
  return [
    theme.pending(
      `A sell wording ${pending.fingerprint} was refused at ${formatLocalTime(pending.at)} because no person was there to approve it; each ⟦…⟧ is a slot the tool fills with that sell's facts:`,
    ),
    ...quoted(ctx, wordingText(pending)),
    ...addressWarning(pending).map((l) => theme.pending(l)),
    withCommand(
      'If it is what you expect, approve it with:',
      personCommand(ctx, `trader config trust accept-wording ${pending.fingerprint}`),
      ctx.terminal.columns,
      ctx.terminal.stdoutIsTTY,
    ),
  ];
}

/** Each token's facts a refused trade kept, who named them (as the refusal said), and the command that confirms them. */
function pendingTokenLines(ctx: Context, trust: ServiceTrust, theme: Theme): string[] {
  return Object.entries(trust.pendingTokens ?? {}).flatMap(([mint, facts]) => {
    const fingerprint = tokenFactsFingerprint(mint, facts);
    return [
      theme.pending(
        `Token facts ${fingerprint} refused at ${formatLocalTime(facts.at)} (${factsSourcePhrase(sourceOf(facts))}): ${tokenLine(mint, facts)}`,
      ),
      withCommand(
        'If they are right, confirm them with:',
        personCommand(ctx, acceptTokenCommand(mint, fingerprint)),
        ctx.terminal.columns,
        ctx.terminal.stdoutIsTTY,
      ),
    ];
  });
}

/** An accept command's result: the grant in one line (and as `granted` in --json), then what else it shows. */
function grantResult(ctx: Context, store: TrustStore, grant: Grant, json: object, more: (theme: Theme) => string[]) {
  ctx.output.result({ service: store.service, ...json, granted: grantJson(grant, store.service) }, (theme) =>
    [grantLine(grant, store.service), ...more(theme)].join('\n'),
  );
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
  const json = { sellTemplate: { ...accepted, text }, ...(warning.length ? { warning: warning.join(' ') } : {}) };
  grantResult(ctx, store, { what: 'wording', fingerprint: accepted.fingerprint }, json, (theme) => [
    'Its message, each ⟦…⟧ written with the sell’s own facts:',
    ...quoted(ctx, text),
    ...warning.map((l) => theme.pending(l)),
  ]);
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
      `the token facts of ${mint} waiting for ${store.service} are not the ones with fingerprint ${fingerprint} (a later refusal keeps its own): they are now ${tokenFactsText(accepted.pending)} (fingerprint ${now}, kept ${formatLocalTime(accepted.pending.at)}); nothing was confirmed`,
      'TOKEN_FACTS_CHANGED',
      [`read them; only if they are right: ${acceptTokenCommand(mint, now)}`],
    );
  }
  const { symbol, name, decimals } = accepted.pinned;
  const grant: Grant = { what: 'token-facts', mint, symbol, name, decimals };
  grantResult(ctx, store, grant, { mint, fingerprint, token: accepted.pinned }, () => []);
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
    import('../../views/token-report.js'),
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
  const json = { mint, fingerprint, risks: list, accepted };
  grantResult(ctx, store, { what: 'risks', mint, fingerprint }, json, (theme) => [
    'The risks as read:',
    ...list.map((r) => `  ${riskLine(r, theme)}`),
  ]);
}

/** `trader config trust accept-treasury <address>`: pins the treasury a person typed. */
async function pinTreasury(ctx: Context, { address }: { address: string }): Promise<void> {
  const store = await openTrust(ctx);
  const before = guarded('read the treasury', () => store.read().treasury?.address ?? null);
  guarded('pin the treasury', () => store.pinTreasury(address, 'accept-command', true));
  const replaced = before !== null && before !== address ? before : null;
  grantResult(ctx, store, { what: 'treasury', address }, { treasury: address, replaced }, () =>
    replaced ? [`It replaces ${replaced}.`] : [],
  );
}

/** `trader config trust forget treasury|wording|tokens`, or `forget token <mint>`: a person grants it again. */
async function forgetPin(ctx: Context, options: Forget): Promise<void> {
  const store = await openTrust(ctx);
  if (options.what === 'token') return forgetMint(ctx, store, options.mint);
  const { what } = options;
  const had = guarded('forget the pin', () => store.forget(what));
  const name = what === 'tokens' ? 'token facts' : what;
  ctx.output.result({ service: store.service, forgot: what, hadPin: had }, () =>
    had
      ? `Forgot the ${name} of ${store.service}; a person grants ${what === 'tokens' ? 'them' : 'it'} again.`
      : `No ${name} ${what === 'tokens' ? 'were' : 'was'} pinned for ${store.service}.`,
  );
}

/** `forget token <mint>`: that mint's facts, bound symbols and accepted risks; a mint the store does not hold is exit 2, nothing changed. */
async function forgetMint(ctx: Context, store: TrustStore, mint: string): Promise<void> {
  const had = guarded('forget the token', () => store.forgetToken(mint));
  if (!had)
    throw new UsageError(
      `token ${mint} is not in the trust store of ${store.service}; nothing was changed; see \`trader config trust\``,
      'NO_SUCH_TOKEN',
    );
  ctx.output.result(
    { service: store.service, forgot: 'token', mint, hadPin: true },
    () =>
      `Forgot token ${mint} for ${store.service}: its facts, bound symbols and accepted risks; a person grants them again.`,
  );
}

/** A wording behind the gutter, laid out to the terminal as the sell's prompt lays out a message (piped: a line stays a line). */
const quoted = (ctx: Context, text: string): string[] =>
  wordingRows(text, ctx.terminal.stdoutIsTTY ? ctx.terminal.columns : Infinity);
