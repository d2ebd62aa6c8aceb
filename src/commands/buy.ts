// `trader buy <token> <amount>`: what can be typed and what it means; the run checks locally,
// then runs the buy flow and presents it.
import type { SignedDeposit } from '../chain/deposit-absence.js';
import type { ServiceClient } from '../api/client.js';
import type { BuyIntent, Trade } from '../api/types.js';
import type { Verification } from '../chain/verify-trade.js';
import { renderVerificationLines } from '../views/verification.js';
import { stopIfContradicted, verifyOnChain } from '../trade/chain-verification.js';
import { parseBuyAmount, type TokenArgument } from '../cli/argument-parsers.js';
import type { TrustStore } from '../config/trust-store.js';
import type { Context } from '../cli/context.js';
import type { BuyReview, BuyToken } from '../trade/buy-review.js';
import type { TokenMeta, ChainTokenFacts } from '../domain/token-meta.js';
import { bindToken, refuseChangedFacts } from '../domain/token-binding.js';
import { DEFAULT_MAX_FEE_LAMPORTS } from '../domain/defaults.js';
import { randomUUID } from 'node:crypto';
import { formatInteger, formatSol } from '../domain/amounts.js';
import { ServiceRejectedError, TradeFailedError, UsageError } from '../domain/errors.js';
import { tradeRun, type TradeTracker } from '../trade/trade-tracker.js';
import type { BuyDeps, BuyOutcome, BuyRequest } from '../trade/buy-flow.js';
import { promptSeat, type Question } from '../views/trade-seat.js';
import { renderBuyReview, renderBuySummary } from '../views/buy-screens.js';
import { buyQuote } from '../trade/buy-quote.js';
import { chooseToken, NEW_TOKEN_HINT, tokenHistory, tokenMetaQuietly, type TokenTie } from '../trade/token-lookup.js';
import { defineCommand, parsedOption } from '../cli/definition.js';
import { withCommand } from '../io/command-line.js';
import { followCommand } from '../domain/follow-command.js';
import { personCommand } from '../cli/person-command.js';
import { parseTradeInput, tradeArguments, tradeOptions, type TradeInput } from '../cli/shared-options.js';
import { startTrade, type TradeStart } from '../trade/preflight.js';
import { tradeRequest } from '../trade/trade-request.js';
import { brakeChecks, checkMint } from '../trade/brake-checks.js';
import { tradeScreen, type TradeScreen } from '../views/trade-screen.js';
import { guarded, refuseUnboundSymbol, symbolTrust, recordChainFacts } from '../trade/trust.js';
import { bindSymbolAtPrompt } from '../trade/trust.js';
import { grantAnnouncer } from '../views/grant-lines.js';
import { dailyLimitOption } from '../journal/daily-limits.js';
import { namedTransactions } from '../journal/followed.js';
import { runRecorder, type PriorDeposit, type RunRecorder } from '../journal/recorder.js';
import { holdToSignedDeposits } from '../trade/signed-deposits.js';
import { acceptRisksAtPrompt, buyRisks, refuseUnacceptedRisks } from '../trade/risk-acceptance.js';
import { INTENT_EXPIRES_UNUSED } from '../domain/outcome-words.js';
import { parseLamportsOption } from '../config/profile-values.js';
import { formatLocalTime } from '../domain/local-time.js';
import { counted } from '../domain/units.js';

/** `amount`: the SOL to spend, in lamports. */
export interface BuyOptions extends TradeInput<bigint> {
  /** Undefined: the profile's maxFeeLamports, else DEFAULT_MAX_FEE_LAMPORTS. */
  maxFeeLamports: bigint | undefined;
  /** --max-daily-buy-lamports: a lower daily limit for this run; undefined: the profile's. */
  maxDailyBuyLamports: bigint | undefined;
}

export const buy = defineCommand<BuyOptions>({
  arguments: tradeArguments('traded', 'SOL to spend: lamports (100000000) or 0.1sol'),
  options: tradeOptions({
    trades: 'buys',
    own: [
      {
        flags: '--max-fee-lamports <n>',
        help: 'the most network fee to sign, in lamports',
        short: `most network fee to sign (default ${DEFAULT_MAX_FEE_LAMPORTS})`,
        configKey: 'maxFeeLamports',
        default: DEFAULT_MAX_FEE_LAMPORTS,
      },
      dailyLimitOption('buy'),
    ],
    accepted: 'deposit is accepted',
    dryRun: 'creates a buy intent, checks it, cancels it',
  }),
  examples: [
    'trader buy <mint> 0.5sol --dry-run',
    'trader buy SGLD 250000000 --slippage-bps 50 --yes --json   # traded before',
  ],
  parse: (raw) => ({
    ...parseTradeInput(raw, 'you have held or traded', parseBuyAmount),
    maxFeeLamports: parsedOption(raw, 'maxFeeLamports', parseLamportsOption),
    maxDailyBuyLamports: parsedOption(raw, 'maxDailyBuyLamports', (t) =>
      parseLamportsOption(t, '--max-daily-buy-lamports'),
    ),
  }),
  run,
});

/** Runs a buy; every error carries its key (and id), with which a retry resumes this same buy. */
async function run(ctx: Context, opts: BuyOptions): Promise<void> {
  return tradeRun('buy', opts.idempotencyKey ?? randomUUID(), (track) => runWithKey(ctx, opts, track)).catch(
    (err: unknown) => {
      // A bare number is lamports: say so where the service refused the amount (`buy WOOF 1` is 1 lamport).
      if (err instanceof ServiceRejectedError && /^[0-9,]+$/.test(opts.amountText)) {
        err.hints.unshift(
          `a bare number is lamports: ${opts.amountText} = ${counted(opts.amount, 'lamport', formatInteger(opts.amount))} (${formatSol(opts.amount)} SOL); for SOL write ${opts.amountText}sol`,
        );
      }
      throw err;
    },
  );
}

/** What one buy run carries from its checks to its end; the key, treasury and deposit change as it goes. */
interface BuyRun {
  readonly opts: BuyOptions;
  readonly start: TradeStart;
  readonly mint: string;
  readonly tie: TokenTie;
  readonly token: BuyToken;
  readonly chainFacts: ChainTokenFacts | null;
  /** A symbol only the service's lists tie to this mint, which a yes binds. */
  readonly serviceSymbol: string | null;
  /** The facts the review and the summary show: bound to the mint by the chain or a person. */
  readonly shown: TokenMeta;
  readonly screen: TradeScreen;
  readonly journal: RunRecorder;
  idempotencyKey: string;
  /** For the chain checks after progress: the treasury trusted, and the deposit this run signed. */
  treasury: string | null;
  signedDeposit: SignedDeposit | null;
}

/** Runs a buy; everything typed was checked by its definition before any request. */
async function runWithKey(ctx: Context, opts: BuyOptions, track: TradeTracker): Promise<void> {
  const buy = await checkedBuy(ctx, opts, track);
  const [{ buySteps }, { driveTrade }] = await Promise.all([
    import('../trade/buy-flow.js'),
    import('../trade/driver.js'),
  ]);
  const outcome = await driveTrade(buySteps(buyDeps(ctx, buy), buyRequest(ctx, buy)), buySeat(ctx, buy, track));
  await presentBuy(ctx, buy, outcome);
}

/** The checks before anything is created: the session, the token and its facts, the mint lists, its symbol and risks. */
async function checkedBuy(ctx: Context, opts: BuyOptions, track: TradeTracker): Promise<BuyRun> {
  const { token: typedToken, amount: amountLamports, amountText: rawAmount, slippageBps: typedSlippage } = opts;
  const dryRun = opts.dryRun;
  const start = await startTrade(ctx, {
    side: 'buy',
    dryRun,
    slippageBps: typedSlippage,
    buyLamports: amountLamports,
    dailyLimitLamports: opts.maxDailyBuyLamports,
    idempotencyKey: opts.idempotencyKey,
    amountText: rawAmount,
  });
  const { api, trust } = start;
  const { mint, token: listed, tie } = await whichToken(api, typedToken, trust);
  await checkMint(ctx, mint, dryRun);
  const { token, chainFacts } = await bindBuyToken(ctx, trust, mint, listed);
  // Facts bound to the mint that the chain now states otherwise: refused before anything is created.
  refuseChangedFacts(token.binding.changed);
  // A symbol only the service's lists tie to this mint: a person binds it at the prompt, or nothing is created.
  const serviceSymbol = tie === 'service' && typedToken.kind !== 'mint' ? typedToken.text : null;
  if (serviceSymbol && token.binding.problems.length === 0)
    refuseUnboundSymbol(trust, ctx.presence(dryRun), serviceSymbol, mint, token.binding);
  // A mint whose risks a person must accept: asked at the prompt, refused before anything is created otherwise.
  if (token.binding.problems.length === 0)
    refuseUnacceptedRisks(ctx, ctx.presence(dryRun), mint, token.risks, token.chainUnread);
  const { symbol, name, decimals } = token.binding.token;
  const buy: BuyRun = {
    opts,
    start,
    mint,
    tie,
    token,
    chainFacts,
    serviceSymbol,
    shown: { symbol, name, decimals },
    screen: tradeScreen(ctx, { side: 'buy', created: 'created', made: 'buy intent' }, () => buy.idempotencyKey, dryRun),
    journal: runRecorder(ctx, start.journal, 'buy', start.dailyCap, brakeChecks(ctx)),
    idempotencyKey: track.ref.idempotencyKey,
    treasury: start.treasury,
    signedDeposit: null,
  };
  return buy;
}

/** The command that resumes this buy with its current key. */
function resumeCommand(buy: BuyRun): string {
  return `trader buy ${buy.mint} ${buy.opts.amountText} --idempotency-key ${buy.idempotencyKey}`;
}

/** The quote a review shows. */
function quoteOf(buy: BuyRun, review: BuyReview) {
  return buyQuote(review.intent, review.facts.networkFeeLamports, review.quote, buy.token, buy.start.slippageBps);
}

/** What the buy flow reads and signs through. */
function buyDeps(ctx: Context, buy: BuyRun): BuyDeps {
  const { api, signer } = buy.start;
  return {
    api,
    clock: ctx.clock,
    signal: ctx.signal,
    owner: signer.publicKey,
    funds: chainFunds(ctx, signer.publicKey),
    async depositEvidence(deposit) {
      const { depositEvidence, chainProvesAbsent } = await import('../chain/deposit-absence.js');
      return chainProvesAbsent(await depositEvidence(() => ctx.chain(), deposit));
    },
    blockHeight: () => chainHeight(ctx),
  };
}

/** The buy as the flow runs it. */
function buyRequest(ctx: Context, buy: BuyRun): BuyRequest {
  const { opts, start } = buy;
  return {
    ...tradeRequest(ctx, start, opts, { idempotencyKey: buy.idempotencyKey, dryRun: opts.dryRun }),
    mint: buy.mint,
    amountLamports: opts.amount,
    tokenProblems: buy.token.binding.problems,
    maxFeeLamports: opts.maxFeeLamports ?? ctx.settings.maxFeeLamports ?? DEFAULT_MAX_FEE_LAMPORTS,
  };
}

/** Where the buy runs: the prompt, the screen, and the buy's words for its questions, notes, pin and stops. */
function buySeat(ctx: Context, buy: BuyRun, track: TradeTracker) {
  const { trust } = buy.start;
  return promptSeat<BuyReview>(ctx, buy, track, {
    stop: {
      unsigned: INTENT_EXPIRES_UNUSED,
      // The key a fresh deposit gets is the one to resume with.
      resume: () => resumeCommand(buy),
      // A refused or declined buy still answers --json with the (cancelled) intent and the key.
      result: (intent, key) => ({ intent, trade: null, idempotencyKey: key }),
    },
    question: (asked) =>
      asked.ask === 'fresh-deposit'
        ? {
            text: "The deposit's blockhash expired while you were deciding: it could no longer land, so it was not signed.",
            question: 'Get a fresh deposit?',
            defaultYes: true,
          }
        : buyQuestion(ctx, buy, asked.review),
    answered: (asked, yes) => (asked.ask === 'confirm' ? confirmed(ctx, buy, yes) : yes),
    resume: () => resumeCommand(buy),
    note(noted) {
      if (noted.note === 'resending') {
        const deposit = noted.facts as PriorDeposit;
        ctx.output.note(
          `Buy ${track.ref.id}: sending again the deposit you signed for it at ${formatLocalTime(deposit.at)} (${deposit.signature}); nothing new is signed.`,
        );
      } else if (noted.note === 'signed') {
        buy.signedDeposit = noted.facts as SignedDeposit;
        if (buy.chainFacts && ctx.presence(buy.opts.dryRun).mayGrantTrust)
          recordChainFacts(ctx, trust, buy.chainFacts, buy.tie === 'mint', grantAnnouncer(ctx, trust.service));
      }
    },
    pin(pinned) {
      const address = pinned.value;
      const now = guarded('pin the treasury', () => trust.pinTreasury(address, 'prompt'));
      buy.treasury = now;
      if (now === address) grantAnnouncer(ctx, trust.service)({ what: 'treasury', address });
      return now;
    },
  });
}

/** The review and its question: what a yes pays and to whom stands whole on the screen with the question, or it is not asked. */
function buyQuestion(ctx: Context, buy: BuyRun, review: BuyReview): Question {
  const { serviceSymbol, token } = buy;
  const text = renderBuyReview(
    review,
    quoteOf(buy, review),
    ctx.clock.now(),
    ctx.output.theme,
    serviceSymbol,
    buy.start.signerWords,
  );
  // Risks that could not be read, or that a yes accepts (the review's Accept row), are a person's
  // to take on in the question itself: a review that says "refuse" is not followed by a bare yes/no.
  const question =
    token.risks.risks === null
      ? 'Sign and send this deposit, buying with its risks unknown?'
      : token.risks.askAccept
        ? 'Accept its risks, and sign and send this deposit?'
        : 'Sign and send this deposit?';
  const countdown = { atMs: review.answerBy.atMs, expired: 'a yes gets a fresh deposit' };
  return { question, text, whole: 'the review', countdown, approves: true };
}

/** A yes to the review binds a service-only symbol and accepts the mint's risks as read. */
function confirmed(ctx: Context, buy: BuyRun, yes: boolean): boolean {
  const { serviceSymbol, mint, token } = buy;
  const { trust } = buy.start;
  // The review said the symbol was only the service's word and that a yes binds it.
  if (yes && serviceSymbol) bindSymbolAtPrompt(trust, serviceSymbol, mint, grantAnnouncer(ctx, trust.service));
  // The review said a yes accepts the mint's risks as read.
  if (yes && ctx.presence(buy.opts.dryRun).mayGrantTrust)
    acceptRisksAtPrompt(trust, mint, token.risks, grantAnnouncer(ctx, trust.service));
  return yes;
}

/** What the chain shows, bounded by when this tool created the buy; each transaction claimed for it alone. */
async function verifyBuy(ctx: Context, buy: BuyRun, trade: Trade | null): Promise<Verification | null> {
  const verification = await verifyOnChain(
    ctx,
    {
      journal: buy.start.journal,
      id: buy.journal.trade ?? trade?.id ?? '',
      owner: buy.start.signer.publicKey,
      treasury: buy.treasury,
      signedDeposit: buy.signedDeposit,
    },
    trade,
  );
  // The transactions the service names for it are kept, so that no other trade can claim them:
  // once checked (a contradicted answer, another trade's, is not this one's).
  if (trade && verification?.verdict !== 'contradicted')
    buy.journal.answer({ step: 'read', status: trade.stage, transactions: namedTransactions(trade) });
  return verification;
}

/** Says how the buy ended: a dry run's verdict, a deposit accepted, a buy still going, or its end. */
async function presentBuy(ctx: Context, buy: BuyRun, outcome: BuyOutcome): Promise<void> {
  const { idempotencyKey, shown } = buy;
  switch (outcome.kind) {
    case 'dry-run': {
      const { review, problems } = outcome;
      const quote = quoteOf(buy, review);
      buy.screen.dryRun(
        { intent: outcome.intent, deposit: review.facts, quote, trade: review.quote.trade, idempotencyKey },
        problems,
        (theme) => renderBuyReview(review, quote, ctx.clock.now(), theme, null, buy.start.signerWords),
        outcome.fate,
        outcome.trust,
      );
      return;
    }
    case 'accepted':
      ctx.output.result({ intent: outcome.intent, trade: null, idempotencyKey }, () =>
        withCommand(
          `Deposit accepted for buy ${outcome.intent.id}. Follow it with:`,
          personCommand(ctx, followCommand(outcome.intent.id)),
          ctx.terminal.columns,
          ctx.terminal.stdoutIsTTY,
        ),
      );
      return;
    case 'timeout': {
      const verification = await verifyBuy(ctx, buy, outcome.trade);
      printResult(ctx, outcome.intent, outcome.trade, shown, idempotencyKey, verification);
      await stopIfContradicted(verification, outcome.intent.id);
      throw buy.screen.pending(outcome.intent.id, `still ${outcome.intent.status}`);
    }
    case 'final':
      return endBuy(ctx, buy, outcome);
  }
}

/** A buy at its end: the result, the chain's word on it, and the error of a buy that did not complete. */
async function endBuy(ctx: Context, buy: BuyRun, outcome: Extract<BuyOutcome, { kind: 'final' }>): Promise<void> {
  const { intent, trade } = outcome;
  const verification = await verifyBuy(ctx, buy, trade);
  printResult(ctx, intent, trade, buy.shown, buy.idempotencyKey, verification);
  // Reported cancelled or expired, though a deposit was signed for it (a resumed buy): the chain decides.
  await holdToSignedDeposits(ctx, buy.start.api, intent.id, intent.status, renderVerificationLines, verification);
  await stopIfContradicted(verification, intent.id);
  if (intent.status === 'completed') return;
  const failure = trade?.failure;
  const refunding = trade?.refund && trade.refund.state !== 'complete' ? trade.refund.state : null;
  const follow = followCommand(intent.id);
  throw new TradeFailedError(
    `buy ${intent.id} ended ${intent.status}${failure?.code ? `: ${failure.code}` : ''}${failure?.reason ? ` (${failure.reason})` : ''}${refunding ? `; refund ${refunding}; follow it with: ${follow}` : ''}`,
    failure?.code ?? intent.status.toUpperCase(),
  ).endingWith(refunding ? follow : null);
}

/** The chain's block height for the time left to answer, or why it cannot be read (then the intent's deadline is said). */
async function chainHeight(ctx: Context): Promise<{ height: number } | { unreadable: string }> {
  try {
    return { height: await (await ctx.chain()).blockHeight() };
  } catch (err) {
    const { ChainUnavailableError } = await import('../chain/chain-reader.js');
    if (err instanceof ChainUnavailableError || err instanceof UsageError) return { unreadable: err.message };
    throw err;
  }
}

/** The funds check's chain read; a chain that cannot be read is a warning, and the buy goes on. */
function chainFunds(ctx: Context, owner: string) {
  return async (intent: BuyIntent, facts: { networkFeeLamports: bigint; recentBlockhash: string }) => {
    const { readFunds } = await import('../chain/funds-check.js');
    const funds = await readFunds(
      () => ctx.chain(),
      owner,
      BigInt(intent.amountLamports),
      facts.networkFeeLamports,
      facts.recentBlockhash,
    );
    // In human mode the review's Wallet line says it; a warning would say it twice.
    if (!funds.checked && ctx.output.json) ctx.output.warn(`not checked on chain: ${funds.reason}`);
    return funds;
  };
}

/**
 * The mint a typed token means, how it is tied to it, and what the account's lists say of it
 * (the service's claims, which bindBuyToken holds against the chain). A symbol you bound names its
 * mint; any other symbol or mint prefix is looked up among the tokens the account has held or
 * traded; for a mint, a list the service cannot give costs only the claims.
 */
async function whichToken(
  api: ServiceClient,
  typed: TokenArgument,
  trust: TrustStore,
): Promise<{ mint: string; token: TokenMeta | null; tie: TokenTie }> {
  if (typed.kind === 'mint') return { mint: typed.mint, token: await tokenMetaQuietly(api, typed.mint), tie: 'mint' };
  const known = await tokenHistory(api);
  // A symbol pinned for another mint is refused (exit 2) before anything is created.
  const { mint, tie } = chooseToken(typed.text, known, 'you have held or traded', NEW_TOKEN_HINT, symbolTrust(trust));
  return { mint, token: known.get(mint) ?? null, tie };
}

/**
 * The token's facts bound for this buy: the account's lists say what the service claims, the
 * chain (through --rpc-url) and the user's confirmations what is so (token-binding.ts). A chain
 * that cannot be read leaves them unconfirmed; the deposit's own checks do not need them.
 */
async function bindBuyToken(
  ctx: Context,
  trust: TrustStore,
  mint: string,
  listed: TokenMeta | null,
): Promise<{ token: BuyToken; chainFacts: ChainTokenFacts | null }> {
  const { readTokenFactsForTrade } = await import('../chain/chain-token-facts.js');
  const read = await readTokenFactsForTrade(() => ctx.chain(), mint);
  const pinned = guarded('read the pinned token facts', () => trust.read().tokens ?? {});
  const binding = bindToken(mint, listed, read.facts, pinned[mint] ?? null, pinned);
  const risks = buyRisks(ctx, trust, read.mint);
  return {
    token: { binding, seenBefore: listed !== null, chainUnread: read.unread, risks },
    chainFacts: read.facts === 'unreadable' ? null : read.facts,
  };
}

/** What the chain shows a buy's swaps delivered (raw units), 'unshown' where the swap shows no token balances, null where it was not checked. */
function receivedOnChain(v: Verification | null): string | 'unshown' | null {
  if (v?.received?.tokens !== undefined) return v.received.tokens;
  return v?.checks.some((c) => c.role === 'swap' && c.mark === 'attributed') ? 'unshown' : null;
}

function printResult(
  ctx: Context,
  intent: BuyIntent,
  trade: Parameters<typeof renderBuySummary>[1],
  token: TokenMeta,
  idempotencyKey: string,
  verification: Verification | null,
): void {
  // `verification` stands beside the API's objects, which pass through unchanged.
  ctx.output.result({ intent, trade, idempotencyKey, ...(verification ? { verification } : {}) }, (theme) =>
    [
      renderBuySummary(
        intent,
        trade,
        token,
        theme,
        verification?.received?.refundLamports ?? null,
        receivedOnChain(verification),
      ),
      ...(verification ? [renderVerificationLines(verification, theme)] : []),
    ].join('\n'),
  );
}
