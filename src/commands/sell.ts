// `trader sell <token> <amount>`: what can be typed and what it means; the run checks locally,
// then runs the sell flow and presents it.
import { randomUUID } from 'node:crypto';
import { type SellAmountSpec, resolveSellAmount } from '../amounts.js';
import { parseSellAmount, parseSolToLamports } from '../argument-parsers.js';
import type { Context } from '../context.js';
import { renderVerificationLines } from '../io/views/verification.js';
import { stopIfContradicted, verifyOnChain } from './chain-verification.js';
import { TradeFailedError, UsageError } from '../errors.js';
import { renderSellReview, renderSellSummary } from '../io/views/sell.js';
import { tokenAmount } from '../io/views/token-amount.js';
import { holdingOf, metaOf, mintForSymbol } from '../trade/token-lookup.js';
import { defineCommand, parsedOption } from './definition.js';
import { followCommand } from './follow-command.js';
import { parseTradeInput, tradeArguments, tradeOptions, type TradeInput } from './shared-options.js';
import { startTrade } from './trade-preflight.js';
import { tradeScreen } from './trade-screen.js';
import { sellTrust } from './trust.js';

/** `amount`: raw units, all, or a percentage, turned into units once the holding is read. */
export interface SellOptions extends TradeInput<SellAmountSpec> {
  /** --min-sol in lamports: a signed minimum below it is refused; null when not typed. */
  minSolLamports: bigint | null;
}

export const sell = defineCommand<SellOptions>({
  arguments: tradeArguments('a current holding', 'raw token units, "all", or a percentage of the holding ("50%")'),
  options: tradeOptions({
    trades: 'sells',
    own: [{ flags: '--min-sol <sol>', help: 'refuse to sign a minimum below this many SOL' }],
    accepted: 'authorization is accepted',
    dryRun: 'show the message',
  }),
  examples: ['trader sell BONK 50%', 'trader sell <mint> all --min-sol 0.2 --yes --json', 'trader sell <mint> 1000000 --dry-run'],
  parse: (raw) => ({
    ...parseTradeInput(raw, 'you hold', parseSellAmount),
    minSolLamports: parsedOption(raw, 'minSol', parseSolToLamports) ?? null,
  }),
  run,
});

/** Runs a sell; everything typed was checked by its definition before any request. */
async function run(ctx: Context, opts: SellOptions): Promise<void> {
  const { token: typedToken, amount: amountSpec, slippageBps: typedSlippage, minSolLamports } = opts;
  const token = typedToken.kind === 'mint' ? typedToken.mint : typedToken.text;
  let idempotencyKey = opts.idempotencyKey ?? randomUUID();
  const dryRun = opts.dryRun;
  const start = await startTrade(ctx, { dryRun, slippageBps: typedSlippage });
  const { api, keypair, trust } = start;
  const holdings = await api.holdings();
  const mint = typedToken.kind === 'mint' ? typedToken.mint : mintForSymbol(holdings, typedToken.text);
  const holding = holdingOf(holdings, mint);
  const meta = metaOf(holding);
  // Resuming by key a sell of raw units: the first run may already have sold them, so what is
  // held now is not the measure (the service replays the original for that key).
  const resuming = opts.idempotencyKey !== undefined && amountSpec.kind === 'raw';
  if (!holding && !resuming) throw new UsageError(`you hold no ${token === mint ? mint : `${token} (${mint})`}; see \`trader holdings\``, 'NO_HOLDING');
  const amount =
    resuming && amountSpec.kind === 'raw' ? amountSpec.units : resolveSellAmount(amountSpec, BigInt(holding!.amount), (units) => tokenAmount(units, meta));

  const resume = () => `trader sell ${mint} ${amount} --idempotency-key ${idempotencyKey}`;
  const screen = tradeScreen(
    ctx,
    // A refused or declined sell still answers --json with the authorization as received and the key.
    {
      side: 'sell',
      created: 'quoted',
      unsigned: 'the authorization expires unused',
      resume: null,
      jsonResult: (authorization, key) => ({ authorization, sell: null, trade: null, idempotencyKey: key }),
    },
    () => idempotencyKey,
    dryRun,
  );
  const ask = (question: string, defaultYes: boolean) => ctx.prompter.confirm(question, defaultYes);
  const { runSell } = await import('../trade/sell-flow.js');
  const result = await screen.run((stage) =>
    runSell(
      { api, clock: ctx.clock, signal: ctx.signal, keypair, trust: sellTrust(trust) },
      {
        mint,
        amount,
        slippageBps: start.slippageBps,
        allowedSlippageBps: start.allowedSlippageBps,
        idempotencyKey,
        keyTyped: opts.idempotencyKey !== undefined,
        minSolLamports,
        token: meta,
        knownTokens: holdings.map((h) => ({ mint: h.mint, symbol: h.symbol, name: h.name })),
        // The one address besides the mint and the wallet a message may name: the treasury the user trusts.
        treasury: start.treasury,
        assumeYes: ctx.settings.yes,
        wait: opts.wait !== false,
        dryRun,
        waitLimitMs: start.waitLimitMs,
      },
      {
        created: (authorization, resumed) => screen.created(authorization.id, authorization.status, resumed, resume()),
        async confirm(review) {
          ctx.output.note(renderSellReview(review, meta, ctx.clock.now(), ctx.output.theme));
          if (ctx.settings.yes) return true;
          return ask('Sign this message and sell?', false);
        },
        async freshQuote() {
          ctx.output.note('The quote expired while you were deciding; signing it now would be refused.');
          return ask('Get a fresh quote?', true);
        },
        async acceptWording(review) {
          const what = [
            ...(review.wording.status === 'changed' ? ["the service's changed message wording"] : []),
            ...(review.findings.length > 0 ? ['the highlighted text the tool cannot explain'] : []),
          ].join(' and ');
          return ask(`Accept ${what} (shown above) for this service, and sign?`, false);
        },
        newIdempotencyKey() {
          idempotencyKey = randomUUID();
          return idempotencyKey;
        },
        stage,
      },
    ),
  );

  switch (result.kind) {
    case 'dry-run': {
      const { review, problems } = result;
      const { authorization } = review;
      const wording = { status: review.wording.status, fingerprint: review.wording.fingerprint, text: review.wording.text };
      screen.dryRun(
        { findings: review.findings, wording, authorization, idempotencyKey: result.idempotencyKey },
        problems,
        (theme) => renderSellReview(review, meta, ctx.clock.now(), theme),
        'the authorization expires unused',
      );
      return;
    }
    case 'accepted':
      ctx.output.result({ ...result.view, trade: null, idempotencyKey: result.idempotencyKey }, () => `Sell ${result.view.authorization.id} authorized. Follow it with: ${followCommand(result.view.authorization.id)}`);
      return;
    case 'timeout':
    case 'final': {
      const { view, outcome, trade } = result;
      const verification = await verifyOnChain(ctx, trade, {
        owner: keypair.publicKey,
        treasury: start.treasury,
        signedMinimumLamports: BigInt(view.authorization.minimumOutputLamports),
      });
      // `verification` stands beside the API's objects, which pass through unchanged.
      ctx.output.result({ authorization: view.authorization, sell: view.sell, trade, idempotencyKey: result.idempotencyKey, ...(verification ? { verification } : {}) }, (theme) =>
        [renderSellSummary(view, outcome, trade, meta, theme), ...(verification ? [renderVerificationLines(verification, theme)] : [])].join('\n'),
      );
      await stopIfContradicted(verification, view.authorization.id);
      if (result.kind === 'timeout') {
        throw screen.pending(view.authorization.id, 'not final');
      }
      if (outcome?.state === 'failed') {
        throw new TradeFailedError(
          `sell ${view.authorization.id} failed${outcome.code ? `: ${outcome.code}` : ''}${outcome.reason ? ` (${outcome.reason})` : ''}${outcome.nothingSold ? '; nothing was sold' : ''}`,
          outcome.code ?? 'SELL_FAILED',
        );
      }
      return;
    }
  }
}
