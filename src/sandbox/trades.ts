// GET /trades/{id} and /status: a read-only view of buys and sell groups with a normalised stage.
import type { Trade, TradeStage, TradeStatus } from '../api/types.js';
import { iso } from './clock.js';
import { HttpError, notFound } from './errors.js';
import { SOL_MINT } from './market.js';
import type { AuthorizationRecord, BuyRecord, SellGroupRecord } from './state.js';
import type { KeyOwner, World } from './world.js';

/** Stage and terminal flag of a buy (the table in docs/sandbox.md). */
export function buyStage(b: BuyRecord): { stage: TradeStage; terminal: boolean } {
  switch (b.status) {
    case 'awaiting_deposit':
      return { stage: 'awaiting_deposit', terminal: false };
    case 'deposit_submitted':
      return { stage: 'confirming_deposit', terminal: false };
    case 'deposit_confirmed':
      return { stage: 'funding', terminal: false };
    case 'swap_submitted':
      return { stage: 'executing', terminal: false };
    case 'completed':
      return { stage: 'completed', terminal: true };
    case 'expired':
      return { stage: 'expired', terminal: true };
    case 'cancelled':
      return { stage: 'cancelled', terminal: true };
    case 'refunded':
      return { stage: 'refunded', terminal: true };
    case 'failed':
      return b.refundState && b.refundState !== 'complete'
        ? { stage: 'refunding', terminal: false }
        : { stage: 'failed', terminal: true };
  }
}

/** Stage and terminal flag of a sell order group. */
export function sellStage(g: SellGroupRecord): { stage: TradeStage; terminal: boolean } {
  switch (g.status) {
    case 'swap_pending':
      return { stage: 'executing', terminal: false };
    case 'payout_pending':
      return { stage: 'settling', terminal: false };
    case 'completed':
      return { stage: 'completed', terminal: true };
    case 'failed':
      return { stage: 'failed', terminal: true };
  }
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
    refund: b.refundState ? { state: b.refundState, amountLamports: b.amountLamports.toString() } : null,
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
      throw new HttpError(404, 'NOT_FOUND', `sell ${id} has not been authorized yet, so no trade exists; read it with GET /trade/sells/${id}`);
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
