// GET /trades/{id} and /status: a read-only view of buys and sell groups with a normalised stage.
import type { BuyStatus, Trade, TradeStage, TradeStatus } from '../api/types.js';
import { iso } from './offset-clock.js';
import { HttpError, notFound } from './sandbox-error.js';
import { SOL_MINT } from './market.js';
import type { AuthorizationRecord, BuyRecord, SellGroupRecord, SellGroupStatus } from './state.js';
import type { KeyOwner, World } from './world.js';

/** Stages after which a trade never changes again. */
const TERMINAL_STAGES: ReadonlySet<TradeStage> = new Set(['completed', 'failed', 'refunded', 'expired', 'cancelled']);

/** The stage of each buy status but failed, which shows as refunding until the refund is complete. */
const BUY_STAGES: Record<Exclude<BuyStatus, 'failed'>, TradeStage> = {
  awaiting_deposit: 'awaiting_deposit',
  deposit_submitted: 'confirming_deposit',
  deposit_confirmed: 'funding',
  swap_submitted: 'executing',
  completed: 'completed',
  expired: 'expired',
  cancelled: 'cancelled',
  refunded: 'refunded',
};

const SELL_STAGES: Record<SellGroupStatus, TradeStage> = {
  swap_pending: 'executing',
  payout_pending: 'settling',
  completed: 'completed',
  failed: 'failed',
};

function staged(stage: TradeStage): { stage: TradeStage; terminal: boolean } {
  return { stage, terminal: TERMINAL_STAGES.has(stage) };
}

/** Stage and terminal flag of a buy (the table in docs/sandbox.md). */
export function buyStage(b: BuyRecord): { stage: TradeStage; terminal: boolean } {
  if (b.status !== 'failed') return staged(BUY_STAGES[b.status]);
  return staged(b.refundState && b.refundState !== 'complete' ? 'refunding' : 'failed');
}

/** Stage and terminal flag of a sell order group. */
export function sellStage(g: SellGroupRecord): { stage: TradeStage; terminal: boolean } {
  return staged(SELL_STAGES[g.status]);
}

function buyTrade(b: BuyRecord): Trade {
  return {
    id: b.id,
    side: 'buy',
    status: b.status,
    ...buyStage(b),
    inputMint: SOL_MINT,
    outputMint: b.mint,
    inputAmount: b.amountLamports.toString(),
    expectedOutputAmount: b.expectedOutput.toString(),
    minimumOutputAmount: b.minimumOutput.toString(),
    receivedOutputAmount: b.receivedOutput?.toString() ?? null,
    slippageBps: b.slippageBps,
    platformFeeLamports: b.feeLamports.toString(),
    signatures: {
      deposit: b.depositSignature,
      swaps: b.swapSignature ? [b.swapSignature] : [],
      payouts: [],
      refund: b.refundSignature,
    },
    refund: b.refundState
      ? { state: b.refundState, amountLamports: (b.refundLamports ?? b.amountLamports).toString() }
      : null,
    failure: b.failure ? { ...b.failure } : null,
    createdAt: iso(b.createdAt),
    expiresAt: iso(b.depositExpiresAt),
    completedAt: b.completedAt === null ? null : iso(b.completedAt),
  };
}

function sellTrade(g: SellGroupRecord): Trade {
  return {
    id: g.id,
    side: 'sell',
    status: g.status,
    ...sellStage(g),
    inputMint: g.mint,
    outputMint: SOL_MINT,
    inputAmount: g.amount.toString(),
    expectedOutputAmount: g.expectedOutputLamports.toString(),
    minimumOutputAmount: g.minimumOutputLamports.toString(),
    receivedOutputAmount: g.receivedLamports?.toString() ?? null,
    slippageBps: g.slippageBps,
    platformFeeLamports: null,
    signatures: {
      deposit: null,
      swaps: g.swapSignature ? [g.swapSignature] : [],
      payouts: g.payoutSignature ? [g.payoutSignature] : [],
      refund: null,
    },
    refund: null,
    failure: g.failure ? { ...g.failure } : null,
    createdAt: iso(g.createdAt),
    expiresAt: null,
    completedAt: g.completedAt === null ? null : iso(g.completedAt),
  };
}

/** A sell authorization that never became an order (failed pre-checks, expired): a terminal trade. */
function authorizationTrade(a: AuthorizationRecord): Trade {
  const stage: TradeStage = a.status === 'expired' ? 'expired' : a.status === 'cancelled' ? 'cancelled' : 'failed';
  return {
    id: a.id,
    side: 'sell',
    status: a.status,
    stage,
    terminal: true,
    inputMint: a.mint,
    outputMint: SOL_MINT,
    inputAmount: a.amount.toString(),
    expectedOutputAmount: a.expectedOutputLamports.toString(),
    minimumOutputAmount: a.minimumOutputLamports.toString(),
    receivedOutputAmount: null,
    slippageBps: a.slippageBps,
    platformFeeLamports: null,
    signatures: { deposit: null, swaps: [], payouts: [], refund: null },
    refund: null,
    failure: a.failure ? { ...a.failure } : null,
    createdAt: iso(a.createdAt),
    expiresAt: iso(a.expiresAt),
    completedAt: null,
  };
}

/** GET /trades/{id}: buy UUID, sell group key (`sg_…`) or sell authorization id (`sell_…`). */
export function getTrade(world: World, owner: KeyOwner, id: string): Trade {
  const mine = (r: { accountId: string } | undefined) => r !== undefined && r.accountId === owner.account.id;
  const b = world.buys.get(id);
  if (mine(b)) return buyTrade(b!);
  const g = world.groups.get(id);
  if (mine(g)) return sellTrade(g!);
  const a = world.authorizations.get(id);
  if (mine(a)) {
    if (a!.groupId) return sellTrade(world.groups.get(a!.groupId)!);
    if (a!.status === 'awaiting_signature') {
      throw new HttpError(
        404,
        'NOT_FOUND',
        `sell ${id} has not been authorized yet, so no trade exists; read it with GET /trade/sells/${id}`,
      );
    }
    return authorizationTrade(a!);
  }
  throw notFound('trade', id);
}

/** GET /trades/{id}/status: the compact form. */
export function getTradeStatus(world: World, owner: KeyOwner, id: string): TradeStatus {
  const t = getTrade(world, owner, id);
  return {
    id: t.id,
    side: t.side,
    status: t.status,
    stage: t.stage,
    terminal: t.terminal,
    signatures: t.signatures,
    failure: t.failure,
    refund: t.refund,
    completedAt: t.completedAt,
  };
}
