// `trader trades [id] [--watch]`: list recent trades, show one, or follow one until it is final.
import type { Theme } from '../../io/theme.js';
import { MIN_PREFIX_LENGTH, parseLimit, parseTradeIdArgument, type TypedTradeId } from '../../cli/argument-parsers.js';
import type { ServiceClient } from '../../api/client.js';
import type { Context } from '../../cli/context.js';
import {
  DEFAULT_WATCH_INTERVAL_SECONDS,
  MIN_WATCH_INTERVAL_SECONDS,
  SERVICE_PAGE_LIMIT,
} from '../../domain/defaults.js';
import {
  ApiError,
  SERVICE_CONTRADICTION,
  InterruptedError,
  PendingError,
  TradeFailedError,
  UsageError,
} from '../../domain/errors.js';
import { stageWords } from '../../views/stage.js';
import { renderSell, renderTrade } from '../../views/trade.js';
import { readTradeOrNull } from '../../trade/read-trade.js';
import { sellGroupKey } from '../../trade/sell-answers.js';
import { tokenMetaQuietly } from '../../trade/token-lookup.js';
import type { TokenMeta } from '../../domain/token-meta.js';
import { noteSell, watchSell, watchTrade } from '../../trade/watch.js';
import { soldWords, type SellSeen } from '../../domain/sell-evidence.js';
import { journalSeen } from '../../journal/trade-history.js';
import { shellQuote } from '../../domain/shell-quote.js';
import { defineCommand, optionFlag, parsedOption } from '../../cli/definition.js';
import { followCommand } from '../../domain/follow-command.js';
import { buyOfPosition, resolveTradeId } from '../../cli/id-prefix.js';
import type { Trade } from '../../api/types.js';
import { renderVerificationLines } from '../../views/verification.js';
import { sideAsJournaled, stopIfContradicted, verifyOnChain } from '../../trade/chain-verification.js';
import type { Verification } from '../../chain/verify-trade.js';
import { holdToSignedDeposits } from '../../trade/signed-deposits.js';
import { openTrust, pinnedTreasury } from '../../trade/trust.js';
import { deadline } from '../../cli/trade-options.js';
import { listRecentTrades } from './trades-list.js';
import { boundDecimals } from '../../cli/bound-decimals.js';
import { CSV_OPTION, parseCsv, WIDE_OPTION } from '../../cli/shared-options.js';
import { GOES_ON } from '../../domain/outcome-words.js';
import { parseSeconds } from '../../config/profile-values.js';
import { secondsText } from '../../domain/units.js';

export interface TradesOptions {
  /** The trade to show; null lists recent trades. */
  id: TypedTradeId | null;
  watch: boolean;
  /** Only the compact status (`GET /trades/{id}/status`). */
  statusOnly: boolean;
  /** Check every signature the trade names against the chain. */
  verify: boolean;
  /** Between status reads while watching. */
  intervalSeconds: number;
  /** How many recent trades the list shows. */
  limit: number;
  wide: boolean;
  /** The list as CSV. */
  csv: boolean;
}

export const trades = defineCommand<TradesOptions>({
  arguments: [
    {
      name: '[id]',
      help: `a buy or position id (or its first ${MIN_PREFIX_LENGTH}+ characters), a sell_… id, or a trade id; none: the list`,
    },
  ],
  options: [
    { flags: '--watch', help: 'follow the trade until it is final' },
    { flags: '--status', help: 'only its compact status (not for sell_… ids)' },
    { flags: '--verify', help: 'check every signature it names against the chain' },
    {
      flags: '--interval <seconds>',
      help: `seconds between reads while watching, at least ${MIN_WATCH_INTERVAL_SECONDS}`,
      default: DEFAULT_WATCH_INTERVAL_SECONDS,
    },
    { flags: '--limit <n>', help: 'the list: how many trades, 1-100', default: SERVICE_PAGE_LIMIT },
    { ...CSV_OPTION, help: 'the list as RFC 4180 CSV (not with --json)' },
    WIDE_OPTION,
  ],
  examples: [
    'trader trades --limit 5 --csv > trades.csv',
    'trader trades <buyId> --verify',
    'trader trades sell_abc123 --watch --timeout 600',
  ],
  parse(raw) {
    const interval = (text: string) => parseSeconds(text, { option: '--interval', min: MIN_WATCH_INTERVAL_SECONDS });
    const typed = raw.args[0];
    const opts = {
      id: typed === undefined ? null : parseTradeIdArgument(typed),
      watch: optionFlag(raw, 'watch'),
      statusOnly: optionFlag(raw, 'status'),
      verify: optionFlag(raw, 'verify'),
      intervalSeconds: parsedOption(raw, 'interval', interval) ?? DEFAULT_WATCH_INTERVAL_SECONDS,
      limit: parsedOption(raw, 'limit', parseLimit) ?? SERVICE_PAGE_LIMIT,
      wide: optionFlag(raw, 'wide'),
      csv: parseCsv(raw),
    };
    if (opts.csv && opts.id !== null) throw new UsageError('--csv is for the list: give no id, or drop --csv');
    if (opts.id === null && opts.watch)
      throw new UsageError('--watch follows one trade: give its id (`trader trades` lists them)');
    if (opts.id !== null && raw.options.limit !== undefined)
      throw new UsageError('--limit is for the list: give no id, or drop --limit');
    if (opts.verify && opts.id === null)
      throw new UsageError('--verify checks one trade: give its id (`trader trades` lists them)');
    if (opts.verify && opts.watch)
      throw new UsageError('--verify and --watch cannot be combined: watch first, then verify');
    if (opts.verify && opts.statusOnly)
      throw new UsageError('--verify and --status cannot be combined: --verify reads the whole trade');
    if (opts.statusOnly && opts.id === null)
      throw new UsageError('--status reads one trade: give its id (`trader trades` lists them)');
    if (opts.statusOnly && opts.watch)
      throw new UsageError('--status and --watch do not go together: --watch shows the status as it changes');
    if (opts.statusOnly && opts.id?.kind === 'full' && opts.id.id.startsWith('sell_')) {
      throw new UsageError(
        '--status reads a trade id or buy id; a sell_… id has no compact status: leave out --status',
      );
    }
    return opts;
  },
  run,
});

/** Lists recent trades, shows one, or follows one to its end with --watch. */
async function run(ctx: Context, opts: TradesOptions): Promise<void> {
  if (opts.id === null) return listRecentTrades(ctx, { limit: opts.limit, wide: opts.wide, csv: opts.csv });
  const api = await ctx.api();
  const resolved = await resolveTradeId(api, opts.id);
  // A sell's id as the list shows it (shortened) is this tool's own: its journal knows it whole.
  const id = resolved.startsWith('sell_')
    ? await (await import('../../journal/opened-journal.js')).expandSellId(ctx, resolved)
    : resolved;
  try {
    await one(ctx, opts, id);
  } catch (err) {
    // A position's id (what `trader positions` lists) where the service knows no trade: its buy.
    const whole = opts.id.kind === 'full' && !id.startsWith('sell_');
    const buy = whole && err instanceof ApiError && err.status === 404 ? await buyOfPosition(api, id) : null;
    if (buy === null) throw err;
    ctx.output.note(`${id} is a position, opened by buy ${buy}: showing that buy`);
    await one(ctx, opts, buy);
  }
}

/** `--status`: the compact status, held to the side the journal knows. */
async function showStatus(ctx: Context, api: ServiceClient, id: string): Promise<void> {
  const status = await api.getTradeStatus(id);
  sideAsJournaled(await journaled(ctx, id), status, id);
  // The service's object under `trade`, as everywhere: its top level is the tool's own (attack-3 F15).
  ctx.output.result({ trade: status }, () => `${status.id}: ${status.stage}${status.terminal ? ' (final)' : ''}`);
}

/** Shows, verifies or follows trade `id` (resolved). */
async function one(ctx: Context, opts: TradesOptions, id: string): Promise<void> {
  const intervalMs = opts.intervalSeconds * 1000;
  const api = await ctx.api();
  const isSell = id.startsWith('sell_');
  const follow = followCommand(id);
  if (opts.statusOnly) return showStatus(ctx, api, id);
  if (opts.verify) {
    const { verifyTradeCommand } = await import('./trades-verify.js');
    return verifyTradeCommand(ctx, api, id, opts.wide);
  }

  if (opts.watch) {
    const progress = await ctx.progress();
    const deadlineMs = deadline(ctx);
    const watchOpts = {
      intervalMs,
      deadlineMs,
      onStage: (stage: string) => progress.update(`${id}: ${stageWords(stage)}`),
    };
    const deps = { api, clock: ctx.clock, signal: ctx.signal };
    let done: boolean;
    let sellResult: string | undefined;
    let sellState: string | undefined;
    try {
      if (isSell) {
        // What the journal recorded of it (taken, completed, its payout) comes before the service's reads.
        const watched = await watchSell(deps, id, { ...watchOpts, history: await journaledSell(ctx, id) });
        done = watched.done;
        const o = watched.outcome;
        sellState = o?.state;
        sellResult =
          o?.state === 'failed'
            ? `failed (${o.code ?? 'no code'}); ${soldWords(o.sold, `trader trades ${shellQuote(id)}`)}`
            : o?.state;
      } else {
        done = (await watchTrade(deps, id, watchOpts)).done;
      }
    } catch (err) {
      if (err instanceof InterruptedError)
        throw new InterruptedError(err.signal, [], `${GOES_ON}; follow it with: ${follow}`).endingWith(follow);
      // The service said two things that cannot both be true: name them and how to look again.
      if (err instanceof ApiError && err.code === SERVICE_CONTRADICTION)
        throw err.withNote(`follow it with: ${follow}`);
      throw err;
    } finally {
      progress.stop();
    }
    const shown = await show(ctx, id, isSell, opts.wide);
    const verification = done ? await onChainLines(ctx, id, shown) : null;
    // A buy the service says took no deposit, though this tool signed one: the chain decides.
    if (done && !isSell) await holdToSignedDeposits(ctx, api, id, shown.stage, renderVerificationLines, verification);
    await stopIfContradicted(verification, id);
    const outcome = sellResult ?? shown.stage;
    const { tradeHistory, journalFor } = await import('../../journal/opened-journal.js');
    const { recordFollowed, recordLearnt } = await import('../../journal/followed.js');
    recordFollowed(ctx, id, sellState ?? shown.stage);
    // Followed to its end: the transactions named for it, which no other trade may claim (and a
    // sell's trade id, by which the lists show it as this one).
    if (done) {
      const key = isSell ? sellGroupKey((await api.getSell(id)).sell) : null;
      const trade = isSell ? (key ? await readTradeOrNull(api, key) : null) : shown.trade;
      const history = trade ? tradeHistory(ctx, await journalFor(ctx, ''), id) : null;
      if (trade && history) recordLearnt(ctx, history, trade);
    }
    if (!done)
      throw new PendingError(
        `still not final after ${secondsText(ctx.settings.timeoutSeconds * 1000)}; follow it with: ${follow}`,
      ).endingWith(follow);
    if (outcome !== 'completed') throw new TradeFailedError(`the trade ended ${outcome}`, 'TRADE_NOT_COMPLETED');
    return;
  }
  const shown = await show(ctx, id, isSell, opts.wide);
  if (!isSell && shown.trade?.side === 'buy')
    await holdToSignedDeposits(ctx, api, id, shown.stage, renderVerificationLines);
}

/** The theme with no value shortened, for --wide (a terminal shortens a value wider than it). */
const whole = (theme: Theme, wide: boolean): Theme => (wide ? { ...theme, shorten: false } : theme);

/** Prints the trade as it is now (`wide`: every value whole, at a terminal too); returns its stage (a sell's comes from watching). */
async function show(
  ctx: Context,
  id: string,
  isSell: boolean,
  wide: boolean,
): Promise<{ stage: string; trade: Trade | null; signedMinimumLamports: bigint | null }> {
  const api = await ctx.api();
  if (isSell) {
    const view = await api.getSell(id);
    // A report that contradicts what the journal recorded of this sell is not shown as its state.
    noteSell(await journaledSell(ctx, id), id, view, 'the service now');
    const tokens = await tokenFacts(ctx, view.authorization.mint);
    // The SOL received and the payout are on the sell's trade, read through its group key (human output only: --json is the sell as read).
    const key = ctx.output.json ? null : sellGroupKey(view.sell);
    const trade = key ? await readTradeOrNull(api, key) : null;
    // The sell's two objects, as `sell --json` prints them: nothing else of the service's reaches the top level.
    ctx.output.result({ authorization: view.authorization, sell: view.sell }, (theme) =>
      renderSell(view, trade, whole(theme, wide), tokens(view.authorization.mint)),
    );
    return {
      stage: view.authorization.status,
      trade,
      signedMinimumLamports: BigInt(view.authorization.minimumOutputLamports),
    };
  }
  const trade = await api.getTrade(id);
  sideAsJournaled(await journaled(ctx, id), trade, id);
  const tokens = await tokenFacts(ctx, trade.side === 'buy' ? trade.outputMint : trade.inputMint);
  ctx.output.result({ trade }, (theme) => renderTrade(trade, whole(theme, wide), tokens));
  return { stage: trade.stage, trade, signedMinimumLamports: null };
}

/**
 * A watched trade ends as a buy or sell does: the chain's word on every signature it names (and
 * every deposit the journal shows signed), held to the journal as --verify holds it (what was
 * signed, and no transaction that proved another trade), its evidence recorded, under its summary
 * (human output; --json stays the trade as read), returned for the exit code. A keypair or chain
 * that cannot be read only warns.
 */
async function onChainLines(
  ctx: Context,
  id: string,
  shown: { trade: Trade | null; signedMinimumLamports: bigint | null },
): Promise<Verification | null> {
  if (ctx.output.json || shown.trade === null) return null;
  let owner: string;
  try {
    owner = (await ctx.signer()).publicKey;
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    ctx.output.warn(`not checked on chain: ${err.message}`);
    return null;
  }
  const treasury = ctx.settings.treasury ?? pinnedTreasury(await openTrust(ctx));
  const { journalFor } = await import('../../journal/opened-journal.js');
  const journal = await journalFor(ctx, owner);
  const verification = await verifyOnChain(
    ctx,
    { journal, id, owner, treasury, serviceMinimumLamports: shown.signedMinimumLamports },
    shown.trade,
  );
  if (verification !== null) ctx.output.result(null, (theme) => renderVerificationLines(verification, theme));
  return verification;
}

/** What this tool's journal recorded of sell `id` in earlier runs, as the first reports of its history. */
async function journaledSell(ctx: Context, id: string): Promise<SellSeen[]> {
  const history = await journaled(ctx, id);
  return history?.side === 'sell' ? journalSeen(history) : [];
}

/** What this tool's journal recorded of trade `id` (any wallet of this service), or null. */
async function journaled(ctx: Context, id: string) {
  const { journalFor, tradeHistory } = await import('../../journal/opened-journal.js');
  return tradeHistory(ctx, await journalFor(ctx, ''), id);
}

/**
 * Symbol and decimals of the trade's token for human output, from the account's lists
 * (holdings, then positions, then activity: the API has no token endpoint), the decimals bound
 * to the mint where the trust store binds them. Not read in --json
 * mode, and a failure only costs the nicer formatting.
 */
async function tokenFacts(ctx: Context, mint: string): Promise<(mint: string) => TokenMeta | null> {
  if (ctx.output.json) return () => null;
  const [found, bound] = await Promise.all([tokenMetaQuietly(await ctx.api(), mint), boundDecimals(ctx)]);
  const decimals = bound.of(mint, found?.decimals ?? null);
  const meta = found ? { ...found, decimals } : decimals === null ? null : { symbol: null, name: null, decimals };
  return (asked) => (asked === mint ? meta : null);
}
