// `trader trades <id> [--watch]`: show one trade, or follow it until it is final.
import { MIN_PREFIX_LENGTH, parseSeconds, parseTradeIdArgument, type TypedTradeId } from '../argument-parsers.js';
import type { Context } from '../context.js';
import { DEFAULT_WATCH_INTERVAL_SECONDS, MIN_WATCH_INTERVAL_SECONDS } from '../defaults.js';
import { InterruptedError, PendingError, TradeFailedError, UsageError } from '../errors.js';
import { stageWords } from '../io/views/stage.js';
import { renderSell, renderTrade } from '../io/views/trade.js';
import { tokenMetaQuietly } from '../trade/token-lookup.js';
import type { TokenMeta } from '../domain/token.js';
import { watchSell, watchTrade } from '../trade/watch.js';
import { defineCommand, optionFlag, parsedOption } from './definition.js';
import { followCommand } from './follow-command.js';
import { resolveTradeId } from './id-prefix.js';
import { deadline } from './trade-options.js';

export interface TradesOptions {
  id: TypedTradeId;
  watch: boolean;
  /** Check every signature the trade names against the chain. */
  verify: boolean;
  /** Between status reads while watching. */
  intervalSeconds: number;
}

export const trades = defineCommand<TradesOptions>({
  arguments: [{ name: '<id>', help: `buy intent id (or its first ${MIN_PREFIX_LENGTH}+ characters), sell authorization id (sell_…) or trade id` }],
  options: [
    { flags: '--watch', help: 'follow the trade until it is final' },
    { flags: '--verify', help: 'check every signature the trade names against the chain (exit 3 when it contradicts the service or cannot be read)' },
    {
      flags: '--interval <seconds>',
      help: `seconds between status reads while watching, at least ${MIN_WATCH_INTERVAL_SECONDS}`,
      default: DEFAULT_WATCH_INTERVAL_SECONDS,
    },
  ],
  examples: ['trader trades <buyId>', 'trader trades <buyId> --verify', 'trader trades sell_abc123 --watch', 'trader trades <id> --watch --json --timeout 600'],
  parse(raw) {
    const interval = (text: string) => parseSeconds(text, { option: '--interval', min: MIN_WATCH_INTERVAL_SECONDS });
    if (optionFlag(raw, 'verify') && optionFlag(raw, 'watch')) throw new UsageError('--verify and --watch cannot be combined: watch first, then verify');
    return {
      id: parseTradeIdArgument(raw.args[0]!),
      watch: optionFlag(raw, 'watch'),
      verify: optionFlag(raw, 'verify'),
      intervalSeconds: parsedOption(raw, 'interval', interval) ?? DEFAULT_WATCH_INTERVAL_SECONDS,
    };
  },
  run,
});

/** Shows the trade, or follows it to its end with --watch. */
async function run(ctx: Context, opts: TradesOptions): Promise<void> {
  const intervalMs = opts.intervalSeconds * 1000;
  const api = await ctx.api();
  const id = await resolveTradeId(api, opts.id);
  const isSell = id.startsWith('sell_');
  const follow = followCommand(id);
  if (opts.verify) {
    const { verifyTradeCommand } = await import('./trades-verify.js');
    return verifyTradeCommand(ctx, api, id);
  }

  if (opts.watch) {
    const progress = await ctx.progress();
    const deadlineMs = deadline(ctx);
    const watchOpts = { intervalMs, deadlineMs, onStage: (stage: string) => progress.update(`${id}: ${stageWords(stage)}`) };
    const deps = { api, clock: ctx.clock, signal: ctx.signal };
    let done: boolean;
    let sellResult: string | undefined;
    try {
      if (isSell) {
        const watched = await watchSell(deps, id, watchOpts);
        done = watched.done;
        const o = watched.outcome;
        sellResult = o?.state === 'failed' ? `failed (${o.code ?? 'no code'}${o.nothingSold ? ', nothing sold' : ''})` : o?.state;
      } else {
        done = (await watchTrade(deps, id, watchOpts)).done;
      }
    } catch (err) {
      if (err instanceof InterruptedError) throw new InterruptedError(err.signal, [`the trade goes on; follow it with: ${follow}`]);
      throw err;
    } finally {
      progress.stop();
    }
    const stage = await show(ctx, id, isSell);
    const outcome = sellResult ?? stage;
    if (!done) throw new PendingError(`still not final after ${ctx.settings.timeoutSeconds} s`, [`follow it with: ${follow}`]);
    if (outcome !== 'completed') throw new TradeFailedError(`the trade ended ${outcome}`, 'TRADE_NOT_COMPLETED');
    return;
  }
  await show(ctx, id, isSell);
}

/** Prints the trade as it is now; returns its stage (a sell's comes from watching). */
async function show(ctx: Context, id: string, isSell: boolean): Promise<string> {
  const api = await ctx.api();
  if (isSell) {
    const view = await api.getSell(id);
    const tokens = await tokenFacts(ctx, view.authorization.mint);
    ctx.output.result(view, (theme) => renderSell(view, theme, tokens(view.authorization.mint)));
    return view.authorization.status;
  }
  const trade = await api.getTrade(id);
  const tokens = await tokenFacts(ctx, trade.side === 'buy' ? trade.outputMint : trade.inputMint);
  ctx.output.result(trade, (theme) => renderTrade(trade, theme, tokens));
  return trade.stage;
}

/**
 * Symbol and decimals of the trade's token for human output, from the account's lists
 * (holdings, then positions, then activity: the API has no token endpoint). Not read in --json
 * mode, and a failure only costs the nicer formatting.
 */
async function tokenFacts(ctx: Context, mint: string): Promise<(mint: string) => TokenMeta | null> {
  if (ctx.output.json) return () => null;
  const meta = await tokenMetaQuietly(await ctx.api(), mint);
  return (asked) => (asked === mint ? meta : null);
}
