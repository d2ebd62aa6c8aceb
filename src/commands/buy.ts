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
import type { TokenMeta, ChainTokenFacts } from '../domain/token.js';
import { bindToken, factsToConfirm, refuseChangedFacts } from '../domain/token-binding.js';
import { DEFAULT_MAX_FEE_LAMPORTS } from '../domain/defaults.js';
import { randomUUID } from 'node:crypto';
import { formatInteger, formatSol } from '../domain/amounts.js';
import { ServiceRejectedError, TradeFailedError, UsageError } from '../domain/errors.js';
import { tradeRun, type StopWords, type TradeTracker } from '../trade/trade-tracker.js';
import { renderBuyReview, renderBuySummary } from '../views/buy.js';
import { buyQuote } from '../trade/buy-quote.js';
import { chooseToken, NEW_TOKEN_HINT, tokenHistory, tokenMetaQuietly, type TokenTie } from '../trade/token-lookup.js';
import { defineCommand, parsedOption } from '../cli/definition.js';
import { withCommand } from '../io/command-line.js';
import { followCommand } from '../domain/follow-command.js';
import { personCommand } from '../cli/person-command.js';
import { parseTradeInput, tradeArguments, tradeOptions, type TradeInput } from '../cli/shared-options.js';
import { startTrade } from '../trade/preflight.js';
import { brakeChecks, checkMint } from '../trade/brake-checks.js';
import { tradeScreen } from '../views/trade-screen.js';
import { guarded, refuseUnboundSymbol, symbolTrust, recordChainFacts } from '../trade/trust.js';
import { dailyLimitOption } from '../journal/daily-limits.js';
import { namedTransactions } from '../journal/followed.js';
import { runRecorder } from '../journal/recorder.js';
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

/** Runs a buy; everything typed was checked by its definition before any request. */
async function runWithKey(ctx: Context, opts: BuyOptions, track: TradeTracker): Promise<void> {
  const { token: typedToken, amount: amountLamports, amountText: rawAmount, slippageBps: typedSlippage } = opts;
  let idempotencyKey = track.ref.idempotencyKey;
  const maxFeeLamports = opts.maxFeeLamports ?? ctx.settings.maxFeeLamports ?? DEFAULT_MAX_FEE_LAMPORTS;
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
  const { api, signer, trust } = start;
  const { mint, token: listed, tie } = await whichToken(api, typedToken, trust);
  await checkMint(ctx, mint, dryRun);
  const { token, chainFacts } = await bindBuyToken(ctx, trust, mint, listed);
  // Facts bound to the mint that the chain now states otherwise: refused before anything is created.
  refuseChangedFacts(token.binding.changed);
  // A symbol only the service's lists tie to this mint: a person binds it at the prompt, or nothing is created.
  const serviceSymbol = tie === 'service' && typedToken.kind !== 'mint' ? typedToken.text : null;
  if (serviceSymbol && token.binding.problems.length === 0)
    refuseUnboundSymbol(trust, ctx.presence(dryRun), serviceSymbol, mint, factsToConfirm(token.binding));
  // A mint whose risks a person must accept: asked at the prompt, refused before anything is created otherwise.
  if (token.binding.problems.length === 0)
    refuseUnacceptedRisks(ctx, ctx.presence(dryRun), mint, token.risks, token.chainUnread);
  // The facts the review and the summary show: bound to the mint by the chain or a person.
  const shown: TokenMeta = {
    symbol: token.binding.token.symbol,
    name: token.binding.token.name,
    decimals: token.binding.token.decimals,
  };

  const resume = () => `trader buy ${mint} ${rawAmount} --idempotency-key ${idempotencyKey}`;
  const quoteOf = (review: BuyReview) =>
    buyQuote(review.intent, review.facts.networkFeeLamports, review.quote, token, start.slippageBps);
  const screen = tradeScreen(
    ctx,
    { side: 'buy', created: 'created', made: 'buy intent' },
    () => idempotencyKey,
    dryRun,
  );
  const stopWords: StopWords = {
    unsigned: INTENT_EXPIRES_UNUSED,
    // The key a fresh deposit gets is the one to resume with.
    resume,
    // A refused or declined buy still answers --json with the (cancelled) intent and the key.
    result: (intent, key) => ({ intent, trade: null, idempotencyKey: key }),
  };
  // For the chain checks after progress: the deposit this run signed, and the treasury trusted.
  let signedDeposit: SignedDeposit | null = null;
  let treasury = start.treasury;
  const { runBuy } = await import('../trade/buy-flow.js');
  const journal = runRecorder(ctx, start.journal, 'buy', start.dailyCap, brakeChecks(ctx));
  const outcome = await screen.run((stage) =>
    track.flow(stopWords, () =>
      runBuy(
        {
          api,
          clock: ctx.clock,
          signal: ctx.signal,
          signer,
          journal,
          funds: chainFunds(ctx, signer.publicKey),
          async depositEvidence(deposit) {
            const { depositEvidence, chainProvesAbsent } = await import('../chain/deposit-absence.js');
            return chainProvesAbsent(await depositEvidence(() => ctx.chain(), deposit));
          },
          blockHeight: () => chainHeight(ctx),
        },
        {
          mint,
          amountLamports,
          tokenProblems: token.binding.problems,
          slippageBps: start.slippageBps,
          allowedSlippageBps: start.allowedSlippageBps,
          assumeYes: ctx.settings.yes,
          presence: ctx.presence(dryRun),
          idempotencyKey,
          keyTyped: opts.idempotencyKey !== undefined,
          maxFeeLamports,
          treasury: start.treasury,
          wait: opts.wait !== false,
          dryRun,
          waitLimitMs: start.waitLimitMs,
        },
        {
          created: (intent, resumed) => screen.created(intent.id, intent.status, resumed, resume()),
          async confirm(review) {
            const text = renderBuyReview(
              review,
              quoteOf(review),
              ctx.clock.now(),
              ctx.output.theme,
              serviceSymbol,
              start.signerWords,
            );
            // Risks that could not be read are a person's to take on, in the question itself.
            const question =
              token.risks.risks === null
                ? 'Sign and send this deposit, buying with its risks unknown?'
                : 'Sign and send this deposit?';
            const countdown = { atMs: review.answerBy.atMs, expired: 'a yes gets a fresh deposit' };
            // What a yes pays and to whom stands whole on the screen with the question, or it is not asked.
            const needed = screen.notShownWhole('the review', text, question, countdown);
            if (needed) return needed;
            ctx.output.note(text);
            const yes = await ctx.approveTrade(text, question, countdown);
            // The review said the symbol was only the service's word and that a yes binds it.
            if (yes && serviceSymbol) guarded('bind the symbol', () => trust.bindSymbol(serviceSymbol, mint, 'prompt'));
            // The review said a yes accepts the mint's risks as read.
            if (yes && ctx.presence(dryRun).mayGrantTrust) acceptRisksAtPrompt(trust, mint, token.risks);
            return yes;
          },
          async freshDeposit() {
            ctx.output.note(
              "The deposit's blockhash expired while you were deciding: it could no longer land, so it was not signed.",
            );
            return ctx.prompter.confirm('Get a fresh deposit?', true);
          },
          newIdempotencyKey() {
            idempotencyKey = randomUUID();
            // A fresh deposit is a new intent: its key is the one a retry resumes.
            Object.assign(track.ref, { idempotencyKey, id: null });
            return idempotencyKey;
          },
          pinTreasury(address) {
            const pinned = guarded('pin the treasury', () => trust.pinTreasury(address, 'prompt'));
            treasury = pinned;
            if (pinned === address) {
              ctx.output.note(
                `Pinned treasury ${address} for ${trust.service}, as you confirmed; a different deposit address will now be refused.`,
              );
            }
            return pinned;
          },
          stage,
          resending(deposit) {
            ctx.output.note(
              `Buy ${track.ref.id}: sending again the deposit you signed for it at ${formatLocalTime(deposit.at)} (${deposit.signature}); nothing new is signed.`,
            );
          },
          signed: (deposit) => {
            signedDeposit = deposit;
            if (chainFacts && ctx.presence(dryRun).mayGrantTrust)
              recordChainFacts(ctx, trust, chainFacts, tie === 'mint');
          },
        },
        track,
      ).then(
        (result) => journal.outcome(result),
        (err: unknown) => Promise.reject(journal.stopped(err, track.ref.id)),
      ),
    ),
  );
  // What the chain shows, bounded by when this tool created the buy; each transaction claimed for it alone.
  const verify = (trade: Trade | null) => {
    // The transactions the service names for it are kept, so that no other trade can claim them.
    if (trade) journal.answer({ step: 'read', status: trade.stage, transactions: namedTransactions(trade) });
    return verifyOnChain(
      ctx,
      {
        journal: start.journal,
        id: journal.trade ?? trade?.id ?? '',
        owner: signer.publicKey,
        treasury,
        signedDeposit,
      },
      trade,
    );
  };

  switch (outcome.kind) {
    case 'dry-run': {
      const { review, problems } = outcome;
      const quote = quoteOf(review);
      screen.dryRun(
        { intent: outcome.intent, deposit: review.facts, quote, trade: review.quote.trade, idempotencyKey },
        problems,
        (theme) => renderBuyReview(review, quote, ctx.clock.now(), theme, null, start.signerWords),
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
      const verification = await verify(outcome.trade);
      printResult(ctx, outcome.intent, outcome.trade, shown, idempotencyKey, verification);
      await stopIfContradicted(verification, outcome.intent.id);
      throw screen.pending(outcome.intent.id, `still ${outcome.intent.status}`);
    }
    case 'final': {
      const verification = await verify(outcome.trade);
      printResult(ctx, outcome.intent, outcome.trade, shown, idempotencyKey, verification);
      // Reported cancelled or expired, though a deposit was signed for it (a resumed buy): the chain decides.
      await holdToSignedDeposits(
        ctx,
        api,
        outcome.intent.id,
        outcome.intent.status,
        renderVerificationLines,
        verification,
      );
      await stopIfContradicted(verification, outcome.intent.id);
      if (outcome.intent.status === 'completed') return;
      const failure = outcome.trade?.failure;
      const refunding =
        outcome.trade?.refund && outcome.trade.refund.state !== 'complete' ? outcome.trade.refund.state : null;
      const follow = followCommand(outcome.intent.id);
      throw new TradeFailedError(
        `buy ${outcome.intent.id} ended ${outcome.intent.status}${failure?.code ? `: ${failure.code}` : ''}${failure?.reason ? ` (${failure.reason})` : ''}${refunding ? `; refund ${refunding}; follow it with: ${follow}` : ''}`,
        failure?.code ?? outcome.intent.status.toUpperCase(),
      ).endingWith(refunding ? follow : null);
    }
  }
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
