// The account's recent trades, newest first: this tool's own, from its journal, merged with what
// the API lists (it has no list of trades):
// - buys from positions: each position is opened by one buy, and its `buyTradeId` is the id
//   `trader trades <id>` reads; the buy counts as completed once the position has `openedAt`
//   ("when the buy completed"), else it shows the position's status (pending_deposit, refunded…);
// - sells from the activity ledger's `sell` entries: the ledger gives no sell id (nor does any
//   other list); a sell this tool made is known by its `sell_…` id from the journal, matched to
//   its ledger entry by the transaction the service named for it;
// - the journal's trades the lists do not show (refused, declined, still pending), as recorded.
import type { ActivityEntry, Position } from '../api/types.js';
import type { TradeHistory } from '../journal/trade-history.js';

/** One row of `trader trades`. */
export interface RecentTrade {
  side: 'buy' | 'sell';
  /** What `trader trades <id>` takes: a buy's trade id, a sell's sell_… id from the journal; null for a sell the journal does not know. */
  id: string | null;
  /** The key this tool made it with (from its journal), or null. */
  idempotencyKey: string | null;
  /** In this tool's journal: made (or resumed) by this tool. */
  journal: boolean;
  /** A buy: `completed` once its position opened, else the position's status; a sell: its ledger entry's status. */
  status: string;
  mint: string | null;
  symbol: string | null;
  decimals: number | null;
  /** Raw token units bought or sold; null while a buy has received none. */
  amount: string | null;
  /**
   * A buy: the SOL its swap cost (the position's cost, the deposit less the platform fee; null
   * until it ran), as the activity ledger's solLamports; a sell: the SOL it paid out. In lamports.
   */
  solLamports: string | null;
  /** A buy: the SOL deposited, fee included (the position's principal); null for a sell. */
  depositLamports: string | null;
  /** The swap transaction's signature, once there is one. */
  signature: string | null;
  /** The buy's position. */
  positionId: string | null;
  /** A buy: when it was created; a sell: when it executed. */
  createdAt: string;
}

/** A buy from the position it opened; null when the position names no buy. */
function buyOf(p: Position): RecentTrade | null {
  if (p.buyTradeId === null) return null;
  return {
    side: 'buy',
    id: p.buyTradeId,
    status: p.openedAt !== null ? 'completed' : p.status,
    mint: p.mint,
    symbol: p.token?.symbol ?? null,
    decimals: p.token?.decimals ?? null,
    amount: p.boughtAmount,
    solLamports: p.costLamports,
    depositLamports: p.principalLamports,
    signature: p.buySignature,
    positionId: p.id,
    createdAt: p.createdAt,
    idempotencyKey: null,
    journal: false,
  };
}

function sellOf(e: ActivityEntry): RecentTrade {
  return {
    side: 'sell',
    id: null,
    status: e.status,
    mint: e.mint,
    symbol: e.symbol,
    decimals: e.decimals,
    amount: e.amount,
    solLamports: e.solLamports,
    depositLamports: null,
    signature: e.signature,
    positionId: null,
    createdAt: e.createdAt,
    idempotencyKey: null,
    journal: false,
  };
}

/** A trade of the journal the lists do not show, as recorded (a buy's deposit, a sell's token units). */
function ownOf(t: TradeHistory): RecentTrade {
  const amount = t.request?.amount ?? null;
  return {
    side: t.side,
    id: t.trade,
    status: t.status ?? 'unknown',
    mint: t.request?.mint ?? null,
    symbol: null,
    decimals: null,
    amount: t.side === 'sell' ? amount : null,
    // A buy's SOL column is what its swap cost, which only the service's lists know; its deposit is what was asked.
    solLamports: null,
    depositLamports: t.side === 'buy' ? amount : null,
    signature: null,
    positionId: null,
    createdAt: new Date(t.createdAtMs).toISOString(),
    idempotencyKey: t.idempotencyKey,
    journal: true,
  };
}

/**
 * The newest `limit` trades of the positions' buys, the ledger's sells and this tool's journal
 * (`own`), newest first: a listed trade the journal knows gets its id and key from it.
 */
export function recentTrades(
  positions: readonly Position[],
  activity: readonly ActivityEntry[],
  limit: number,
  own: readonly TradeHistory[] = [],
): RecentTrade[] {
  const mine = new Map(own.map((t) => [t.trade, t]));
  const merged = new Set<TradeHistory>();
  const known = (row: RecentTrade, t: TradeHistory | undefined): RecentTrade => {
    if (!t) return row;
    merged.add(t);
    return { ...row, id: t.trade, idempotencyKey: t.idempotencyKey, journal: true };
  };
  const buys = positions
    .map(buyOf)
    .filter((t): t is RecentTrade => t !== null)
    .map((row) => known(row, mine.get(row.id!)));
  const sells = activity
    .filter((e) => e.type === 'sell')
    .map((e) =>
      known(
        sellOf(e),
        e.signature === null ? undefined : own.find((t) => t.side === 'sell' && t.signatures.includes(e.signature!)),
      ),
    );
  // A dry run signed nothing and leaves nothing to follow: not a trade to list.
  const rest = own.filter((t) => !merged.has(t) && t.status !== 'dry-run').map(ownOf);
  const time = (t: RecentTrade) => Date.parse(t.createdAt);
  // A stable sort: equal times keep buys before sells, each in the order listed.
  return [...buys, ...sells, ...rest].sort((a, b) => time(b) - time(a)).slice(0, limit);
}
