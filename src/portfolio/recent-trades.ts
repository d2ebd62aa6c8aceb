// The account's recent trades, newest first, from what the API lists (it has no list of trades):
// - buys from positions: each position is opened by one buy, and its `buyTradeId` is the id
//   `trader trades <id>` reads; the buy counts as completed once the position has `openedAt`
//   ("when the buy completed"), else it shows the position's status (pending_deposit, refunded…);
// - sells from the activity ledger's `sell` entries: the ledger gives no sell id (nor does any
//   other list), so a sell row has none; `trader sell` prints its `sell_…` id when it is made.
import type { ActivityEntry, Position } from '../api/types.js';

/** One row of `trader trades`. */
export interface RecentTrade {
  side: 'buy' | 'sell';
  /** What `trader trades <id>` takes: a buy's trade id; null for a sell (no list gives one). */
  id: string | null;
  /** A buy: `completed` once its position opened, else the position's status; a sell: its ledger entry's status. */
  status: string;
  mint: string | null;
  symbol: string | null;
  decimals: number | null;
  /** Raw token units bought or sold; null while a buy has received none. */
  amount: string | null;
  /** A buy: the SOL deposited (principal); a sell: the SOL it paid out. In lamports. */
  solLamports: string | null;
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
    solLamports: p.principalLamports,
    signature: p.buySignature,
    positionId: p.id,
    createdAt: p.createdAt,
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
    signature: e.signature,
    positionId: null,
    createdAt: e.createdAt,
  };
}

/** The newest `limit` trades of the positions' buys and the ledger's sells, newest first. */
export function recentTrades(positions: readonly Position[], activity: readonly ActivityEntry[], limit: number): RecentTrade[] {
  const buys = positions.map(buyOf).filter((t): t is RecentTrade => t !== null);
  const sells = activity.filter((e) => e.type === 'sell').map(sellOf);
  const time = (t: RecentTrade) => Date.parse(t.createdAt);
  // A stable sort: equal times keep buys before sells, each in the order listed.
  return [...buys, ...sells].sort((a, b) => time(b) - time(a)).slice(0, limit);
}
