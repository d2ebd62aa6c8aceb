// `trader sell <token> <amount>`: what can be typed and what it means; the run checks locally,
// then runs the sell flow and presents it.
import { randomUUID } from 'node:crypto';
import { type SellAmountSpec, resolveSellAmount } from '../domain/amounts.js';
import { parseSellAmount, parseSolToLamports } from '../cli/argument-parsers.js';
import type { Context } from '../cli/context.js';
import { payoutOnChain, renderVerificationLines } from '../views/verification.js';
import { stopIfContradicted, verifyOnChain } from '../trade/chain-verification.js';
import { RefusedToSignError, TradeFailedError, UsageError } from '../domain/errors.js';
import { tradeRun, type TradeTracker } from '../trade/trade-tracker.js';
import { renderSellSummary, sellReviewText } from '../views/sell-screens.js';
import { tokenAmount } from '../views/token-amount.js';
import {
  chooseToken,
  HELD_TOKENS_HINT,
  holdingOf,
  knownTokens,
  metaOf,
  tokenHistory,
  type TokenTie,
} from '../trade/token-lookup.js';
import { sameTokenText } from '../domain/token-text.js';
import type { ServiceClient } from '../api/client.js';
import type { SellReview } from '../trade/sell-review.js';
import { MIN_MINT_PREFIX, type TokenMeta } from '../domain/token-meta.js';
import type { Theme } from '../io/theme.js';
import { defineCommand, parsedOption } from '../cli/definition.js';
import { withCommand } from '../io/command-line.js';
import { followCommand } from '../domain/follow-command.js';
import { personCommand } from '../cli/person-command.js';
import { soldWords } from '../domain/sell-evidence.js';
import { shellQuote } from '../domain/shell-quote.js';
import { parseTradeInput, tradeArguments, tradeOptions, type TradeInput } from '../cli/shared-options.js';
import { startTrade, type TradeStart } from '../trade/preflight.js';
import { tradeRequest } from '../trade/trade-request.js';
import { brakeChecks, checkMint } from '../trade/brake-checks.js';
import { tradeScreen, type TradeScreen } from '../views/trade-screen.js';
import { guarded, refuseUnboundSymbol, sellTrust, symbolTrust, recordChainFacts } from '../trade/trust.js';
import { bindSymbolAtPrompt } from '../trade/trust.js';
import { grantAnnouncer } from '../views/grant-lines.js';
import { bindToken, refuseChangedFacts, type TokenBinding } from '../domain/token-binding.js';
import { symbolWord } from '../views/buy-screens.js';
import { dailyLimitOption } from '../journal/daily-limits.js';
import { namedTransactions } from '../journal/followed.js';
import { runRecorder, type RunRecorder } from '../journal/recorder.js';
import { parseLamportsOption } from '../config/profile-values.js';
import { fingerprint } from '../wallet/sell-template/template.js';
import { templateText } from '../views/wording.js';
import type { TrustStore } from '../config/trust-store.js';
import { nextStep, sellSteps, type SellRequest, type SellResult } from '../trade/sell-flow.js';
import { driveTrade } from '../trade/driver.js';
import { promptSeat, type Question } from '../views/trade-seat.js';
import { AUTHORIZATION_EXPIRES_UNUSED, NOTHING_SIGNED } from '../domain/outcome-words.js';

/** `amount`: raw units, whole tokens, all, or a percentage, turned into raw units once the holding is read. */
export interface SellOptions extends TradeInput<SellAmountSpec> {
  /** --min-sol in lamports: a signed minimum below it is refused; null when not typed. */
  minSolLamports: bigint | null;
  /** --max-daily-sell-lamports: a lower daily limit for this run; undefined: the profile's. */
  maxDailySellLamports: bigint | undefined;
}

export const sell = defineCommand<SellOptions>({
  arguments: tradeArguments('held', '1.5sgld (whole), 1500000 (raw units), all, 50%'),
  options: tradeOptions({
    trades: 'sells',
    own: [{ flags: '--min-sol <sol>', help: 'refuse to sign a minimum below this many SOL' }, dailyLimitOption('sell')],
    accepted: 'authorization is accepted',
    dryRun: 'creates a sell authorization, left unsigned',
  }),
  examples: ['trader sell SGLD 50% --dry-run', 'trader sell <mint> all --min-sol 0.2 --yes --json'],
  parse: (raw) => ({
    ...parseTradeInput(raw, 'you hold', (text) => parseSellAmount(text, symbolTyped(raw.args[0]))),
    minSolLamports: parsedOption(raw, 'minSol', parseSolToLamports) ?? null,
    maxDailySellLamports: parsedOption(raw, 'maxDailySellLamports', (t) =>
      parseLamportsOption(t, '--max-daily-sell-lamports'),
    ),
  }),
  run,
});

/** The token as typed when it can only be a symbol (shorter than a mint prefix), for the amount error's example. */
function symbolTyped(token: string | undefined): string | undefined {
  const symbol = token?.replace(/^\$/, '');
  return symbol && symbol.length < MIN_MINT_PREFIX && /^[A-Za-z][A-Za-z0-9]*$/.test(symbol) ? symbol : undefined;
}

/**
 * A raw amount below one whole token is often whole tokens typed without their unit (`sell SGLD
 * 10` sells 0.00001 SGLD): the review says so, without refusing, as raw units stay what a script means.
 */
function rawBelowOneToken(units: bigint, token: TokenMeta | null): string | null {
  const decimals = token?.decimals ?? null;
  if (decimals === null || decimals === 0 || units >= 10n ** BigInt(decimals)) return null;
  const unit = token?.symbol ?? 'tokens';
  return `Note: ${units} is raw units, ${tokenAmount(units, token)}: less than one whole token; for ${units} ${unit} write ${units}${unit.toLowerCase()}.`;
}

/** Runs a sell; every error carries its current key (and id), with which a retry resumes this same sell. */
async function run(ctx: Context, opts: SellOptions): Promise<void> {
  return tradeRun('sell', opts.idempotencyKey ?? randomUUID(), (track) => runWithKey(ctx, opts, track));
}

/** A sell as this run knows it once its checks passed: what the steps, the seat and the presentation use. */
interface SellRun {
  readonly opts: SellOptions;
  readonly start: TradeStart;
  readonly mint: string;
  readonly tie: TokenTie;
  readonly binder: Awaited<ReturnType<typeof tokenBinder>>;
  /** What the review and the summary show of the token: its bound facts, never the service's alone. */
  readonly shown: TokenMeta;
  /** A symbol only the holdings tie to this mint, which a yes binds. */
  readonly serviceSymbol: string | null;
  readonly amount: bigint;
  /** The note of a raw amount below one whole token, if any. */
  readonly dust: string | null;
  /** What a share (`50%`, `all`) was taken of: the holding as read, if the amount was one. */
  readonly share: string | null;
  readonly otherSymbols: Array<string | null>;
  /** A dry run, or one made only for --min-sol's quote. */
  readonly dryRun: boolean;
  readonly screen: TradeScreen;
  readonly journal: RunRecorder;
  idempotencyKey: string;
}

/** Runs a sell; everything typed was checked by its definition before any request. */
async function runWithKey(ctx: Context, opts: SellOptions, track: TradeTracker): Promise<void> {
  const run = await checkedSell(ctx, opts, track);
  const { api, trust, signer } = run.start;
  const steps = sellSteps(
    {
      api,
      clock: ctx.clock,
      signal: ctx.signal,
      owner: signer.publicKey,
      trust: sellTrust(trust, grantAnnouncer(ctx, trust.service)),
      bindToken: async () => run.binder.bind(),
    },
    sellRequest(ctx, run),
  );
  const result = await driveTrade(steps, sellSeat(ctx, run, track));
  // Signed by a person at the prompt: the chain's facts of the token are recorded, so no other mint can pass for it later.
  // Never unattended: a record names a mint for a symbol, trust only a person grants.
  if (result.kind !== 'dry-run' && ctx.presence(opts.dryRun).mayGrantTrust)
    recordChainFacts(ctx, trust, run.binder.chainFacts, run.tie === 'mint', grantAnnouncer(ctx, trust.service));
  await presentSell(ctx, run, result);
}

/** The checks before anything is created: the session, the token held and its facts, the mint lists, its symbol and the amount. */
async function checkedSell(ctx: Context, opts: SellOptions, track: TradeTracker): Promise<SellRun> {
  const { token: typedToken, amount: amountSpec } = opts;
  // --min-sol is a limit only the quote can show: where no person can confirm, the quote is made and
  // checked (as a dry run) before the confirmation is demanded, so a sell it refuses is never a question.
  const start = await startTrade(ctx, {
    side: 'sell',
    dryRun: opts.dryRun,
    slippageBps: opts.slippageBps,
    dailyLimitLamports: opts.maxDailySellLamports,
    quoteLimits: opts.minSolLamports !== null,
  });
  const dryRun = opts.dryRun || start.confirmationNeeded !== null;
  const { api, trust } = start;
  const holdings = await api.holdings();
  // A symbol you bound names its mint; any other is looked up among the holdings (the service's word).
  const { mint, tie } =
    typedToken.kind === 'mint'
      ? { mint: typedToken.mint, tie: 'mint' as const }
      : await held(api, typedToken.text, () =>
          chooseToken(typedToken.text, knownTokens({ holdings }), 'you hold', HELD_TOKENS_HINT, symbolTrust(trust)),
        );
  await checkMint(ctx, mint, opts.dryRun);
  const holding = holdingOf(holdings, mint);
  const meta = metaOf(holding);
  // Resuming by key a sell of raw units: the first run may already have sold them, so what is
  // held now is not the measure (the service replays the original for that key).
  const resuming = opts.idempotencyKey !== undefined && amountSpec.kind === 'raw';
  if (!holding && !resuming) {
    const token = typedToken.kind === 'mint' ? typedToken.mint : typedToken.text;
    throw new UsageError(
      `you hold no ${token === mint ? mint : `${token} (${mint})`}; see \`trader holdings\``,
      'NO_HOLDING',
    );
  }
  const binder = await tokenBinder(ctx, trust, mint, meta);
  // Facts bound to the mint that the chain now states otherwise: refused before the amount is
  // counted in them and before anything is created.
  refuseChangedFacts(binder.bind().changed);
  const shown = binder.bind().token;
  // A symbol only the holdings tie to this mint: a person binds it at the prompt, or nothing is created.
  const serviceSymbol = tie === 'service' && typedToken.kind !== 'mint' ? typedToken.text : null;
  if (serviceSymbol && binder.bind().problems.length === 0)
    refuseUnboundSymbol(trust, ctx.presence(opts.dryRun), serviceSymbol, mint, binder.bind());
  // Whole tokens are counted by the bound decimals; by the service's only where nobody vouches for
  // any (the guard then asks a person to confirm them before anything is signed).
  const counted = shown.decimals !== null ? shown : meta;
  const amount =
    resuming && amountSpec.kind === 'raw'
      ? amountSpec.units
      : resolveSellAmount(amountSpec, BigInt(holding!.amount), (units) => tokenAmount(units, counted), counted);
  const run: SellRun = {
    opts,
    start,
    mint,
    tie,
    binder,
    shown,
    serviceSymbol,
    amount,
    dust: amountSpec.kind === 'raw' ? rawBelowOneToken(amount, shown) : null,
    share: resuming ? null : shareOf(amountSpec, () => tokenAmount(BigInt(holding!.amount), counted)),
    otherSymbols: holdings.filter((h) => h.mint !== mint).map((h) => h.symbol),
    dryRun,
    screen: tradeScreen(
      ctx,
      { side: 'sell', created: 'quoted', made: 'sell authorization' },
      () => run.idempotencyKey,
      dryRun,
    ),
    journal: runRecorder(ctx, start.journal, 'sell', start.dailyCap, brakeChecks(ctx)),
    idempotencyKey: track.ref.idempotencyKey,
  };
  return run;
}

/** The sell as its steps run it. */
function sellRequest(ctx: Context, run: SellRun): SellRequest {
  const { opts, start } = run;
  return {
    ...tradeRequest(ctx, start, opts, { idempotencyKey: run.idempotencyKey, dryRun: run.dryRun }),
    mint: run.mint,
    amount: run.amount,
    minSolLamports: opts.minSolLamports,
    otherSymbols: run.otherSymbols,
  };
}

/** Where the sell runs: the prompt, the screen, and the sell's words for its questions and stops. */
function sellSeat(ctx: Context, run: SellRun, track: TradeTracker) {
  const { trust } = run.start;
  return promptSeat<SellReview>(ctx, run, track, {
    stop: {
      unsigned: AUTHORIZATION_EXPIRES_UNUSED,
      resume: () => null,
      // A refused or declined sell still answers --json with the authorization as received and the key.
      result: (authorization, key) => ({ authorization, sell: null, trade: null, idempotencyKey: key }),
    },
    question: (asked) => sellQuestion(ctx, run, asked.ask, asked.review),
    answered(asked, yes) {
      // Confirming token facts is no yes to the sell; the yes that signs binds the symbol.
      const factsOnly = asked.ask === 'grant' && personCode(asked.review) === 'TOKEN_FACTS_UNCONFIRMED';
      if (yes && run.serviceSymbol && !factsOnly)
        bindSymbolAtPrompt(trust, run.serviceSymbol!, run.mint, grantAnnouncer(ctx, trust.service));
      return yes;
    },
    resume: () => `trader sell ${run.mint} ${run.amount} --idempotency-key ${run.idempotencyKey}`,
    note: () =>
      ctx.output.note(
        `The quote expired before your yes, so ${NOTHING_SIGNED}. A fresh quote follows: its own figures, its own question.`,
      ),
  });
}

const personCode = (review: SellReview) => (review.verdict.kind === 'person' ? review.verdict.code : null);

/** The sell's two questions: `confirm` signs; `grant` gives trust only a person gives (and signs, unless it confirms token facts). */
function sellQuestion(ctx: Context, run: SellRun, ask: string, review: SellReview): Question {
  const countdown = answerBy(review);
  if (ask === 'confirm') {
    // The terms and the message a yes signs stand whole on the screen with the question, or it is not asked.
    const text = reviewText(ctx, run, review, ctx.output.theme);
    return {
      question: 'Sign this message and sell?',
      context: run.share ?? undefined,
      text,
      whole: 'the review, its message',
      countdown,
      approves: true,
    };
  }
  const { lead, shown } = reviewParts(ctx, run, review, ctx.output.theme);
  const code = personCode(review);
  const question =
    code === 'TOKEN_FACTS_UNCONFIRMED'
      ? 'Confirm these token facts for this service?'
      : code === 'VALUE_READS_AS_TEXT'
        ? 'Sign this message, with that value, this once?'
        : `Approve ${code === 'WORDING_CHANGED' ? 'the new' : 'this'} wording and sign this sell?`;
  // The sell's figures and what a yes grants stand whole on the screen with the question, or it is not asked.
  return {
    question,
    context: run.share ?? undefined,
    text: `${lead}\n${shown}`,
    whole: "the sell's figures, its message",
    countdown,
  };
}

/** On a terminal the message is laid out to its width (every row behind the gutter); piped, a line stays a line. */
function reviewParts(ctx: Context, run: SellRun, review: SellReview, theme: Theme) {
  const { lead, shown } = sellReviewText(review, ctx.clock.now(), theme, {
    columns: ctx.terminal.stderrColumns,
    signer: run.start.signerWords,
  });
  const said = run.serviceSymbol ? [theme.pending(`Symbol: ${symbolWord(run.serviceSymbol)}.`)] : [];
  return { lead: [...(run.dust ? [theme.pending(run.dust)] : []), lead, ...said].join('\n'), shown };
}

/** `50% of the 5,242,161.23508 WOOF held.`: what a share of the holding was taken of (the review shows the amount alone). */
function shareOf(spec: SellAmountSpec, held: () => string): string | null {
  if (spec.kind === 'percent') return `${spec.percent}% of the ${held()} held.`;
  if (spec.kind === 'all') return `All of the ${held()} held.`;
  return null;
}

const reviewText = (ctx: Context, run: SellRun, review: SellReview, theme: Theme) =>
  Object.values(reviewParts(ctx, run, review, theme)).join('\n');

/** The review as a dry run or --yes prints it: what a share was taken of, first. */
const printedReview = (ctx: Context, run: SellRun, review: SellReview, theme: Theme) =>
  [run.share, reviewText(ctx, run, review, theme)].filter(Boolean).join('\n');

/** Says how the sell ended: a dry run's verdict, an authorization accepted, a sell still going, or its end. */
async function presentSell(ctx: Context, run: SellRun, result: SellResult): Promise<void> {
  switch (result.kind) {
    case 'dry-run':
      return presentDryRun(ctx, run, result);
    case 'accepted':
      ctx.output.result({ ...result.view, trade: null, idempotencyKey: result.idempotencyKey }, () =>
        withCommand(
          `Sell ${result.view.authorization.id} authorized. Follow it with:`,
          personCommand(ctx, followCommand(result.view.authorization.id)),
          ctx.terminal.columns,
          ctx.terminal.stdoutIsTTY,
        ),
      );
      return;
    case 'timeout':
    case 'final':
      return presentEnd(ctx, run, result);
  }
}

/** A dry run's verdict; or, where it ran only for --min-sol's quote, the refusal or the confirmation demanded. */
function presentDryRun(ctx: Context, run: SellRun, result: Extract<SellResult, { kind: 'dry-run' }>): void {
  const { review, problems } = result;
  const v = review.verdict;
  const { confirmationNeeded } = run.start;
  if (confirmationNeeded !== null) {
    // Only --min-sol's quote was wanted: a sell the guard refuses, or that needs trust only a
    // person grants, is refused as the sell itself would be; else the confirmation is demanded.
    if (problems.length > 0)
      throw new RefusedToSignError(
        problems,
        [result.trust ? nextStep(result.trust) : `${NOTHING_SIGNED}; ${AUTHORIZATION_EXPIRES_UNUSED}`],
        result.trust,
      );
    const minSol = ctx.facts.agent ? 'minSol' : '--min-sol';
    throw new UsageError(
      `${confirmationNeeded}; ${minSol} was checked against a quote first (sell ${review.authorization.id}, left to expire unsigned); ${NOTHING_SIGNED}`,
      'CONFIRMATION_REQUIRED',
    );
  }
  const template = v.kind === 'refused' ? null : v.template;
  const verdict = {
    kind: v.kind,
    ...(v.kind === 'person' ? { code: v.code } : {}),
    reasons: v.kind === 'sign' ? [] : v.reasons,
  };
  const wording = template ? { fingerprint: fingerprint(template), text: templateText(template) } : null;
  run.screen.dryRun(
    { verdict, wording, authorization: review.authorization, idempotencyKey: result.idempotencyKey },
    problems,
    (theme) => printedReview(ctx, run, review, theme),
    AUTHORIZATION_EXPIRES_UNUSED,
    result.trust,
  );
}

/** The sell's end (or where it stood when the wait ran out), with what the chain shows of it. */
async function presentEnd(
  ctx: Context,
  run: SellRun,
  result: Extract<SellResult, { kind: 'final' | 'timeout' }>,
): Promise<void> {
  const { view, outcome, trade } = result;
  // Bounded by when this tool created the sell; each transaction claimed for it alone.
  const id = view.authorization.id;
  // The minimum is the one the journal says was signed: a later read of the sell is the
  // service's word, and a lowered minimum would let a short payout pass.
  const serviceMinimumLamports = BigInt(view.authorization.minimumOutputLamports);
  const { journal, signer, treasury } = run.start;
  const verification = await verifyOnChain(
    ctx,
    { journal, id, owner: signer.publicKey, treasury, serviceMinimumLamports },
    trade,
  );
  // Its transactions kept once checked: a contradicted answer (another trade's) is not this sell's.
  if (trade && verification?.verdict !== 'contradicted')
    run.journal.answer({ step: 'read', status: trade.stage, transactions: namedTransactions(trade) });
  // `verification` stands beside the API's objects, which pass through unchanged.
  ctx.output.result(
    {
      authorization: view.authorization,
      sell: view.sell,
      trade,
      idempotencyKey: result.idempotencyKey,
      ...(verification ? { verification } : {}),
    },
    (theme) =>
      [
        renderSellSummary(view, outcome, trade, run.shown, theme, payoutOnChain(verification)),
        ...(verification ? [renderVerificationLines(verification, theme)] : []),
      ].join('\n'),
  );
  await stopIfContradicted(verification, id);
  if (result.kind === 'timeout') throw run.screen.pending(id, 'not final');
  if (outcome?.state === 'failed')
    throw new TradeFailedError(
      `sell ${id} failed${outcome.code ? `: ${outcome.code}` : ''}${outcome.reason ? ` (${outcome.reason})` : ''}; ${soldWords(outcome.sold, `trader trades ${shellQuote(id)}`)}`,
      outcome.code ?? 'SELL_FAILED',
    );
}

/**
 * Binds a token's facts for the sell's guard and its review (domain/token-binding.ts): the
 * chain's, read once through --rpc-url, or a person's from the trust store, against the
 * service's; bound again after a person confirms some. A chain that cannot be read leaves the
 * service's facts unconfirmed (a person confirms them once), and says so.
 */
async function tokenBinder(ctx: Context, store: TrustStore, mint: string, service: TokenMeta | null) {
  const { readTokenFactsForTrade } = await import('../chain/chain-token-facts.js');
  const read = await readTokenFactsForTrade(() => ctx.chain(), mint);
  if (read.unread !== null) ctx.output.warn(`the token's facts were not read on chain: ${read.unread}`);
  const bind = (): TokenBinding => {
    const pinned = guarded('read the pinned token facts', () => store.read().tokens ?? {});
    return bindToken(mint, service, read.facts, pinned[mint] ?? null, pinned);
  };
  return { bind, chainFacts: read.facts === 'unreadable' ? null : read.facts };
}

/** `choose()`'s token; a symbol of no holding that the account's history knows is said to be known but not held now. */
async function held<T>(api: ServiceClient, typed: string, choose: () => T): Promise<T> {
  try {
    return choose();
  } catch (err) {
    if (!(err instanceof UsageError) || err.code !== 'UNKNOWN_TOKEN') throw err;
    const traded = [...(await tokenHistory(api))].filter(([, meta]) =>
      sameTokenText(meta.symbol, typed.replace(/^\$/, '')),
    );
    if (traded.length === 0) throw err;
    const mints = traded.map(([mint]) => mint).join(', ');
    throw new UsageError(`you hold no ${typed} now (${mints}, a token you have traded); see \`trader holdings\``);
  }
}

/** The question about a sell counts down to its authorization's expiry; a yes after it gets a fresh quote (asked about in turn). */
function answerBy(review: SellReview) {
  return { atMs: Date.parse(review.authorization.expiresAt), expired: 'a yes gets a fresh quote' };
}
