// The buy state machine: create, deposit, cancel, confirmation on read, and the time-based
// steps after confirmation (swap, completion, or failure and refund).
import type { BuyIntent, CreateBuyResponse } from '../api/types.js';
import { addActivity } from './activity-ledger.js';
import { blockHeight, issueBlockhash } from './chain.js';
import { iso } from './offset-clock.js';
import { buildDepositTransaction, verifyDeposit } from './deposit-tx.js';
import { HttpError, ownedBy } from './sandbox-error.js';
import { createOnce } from './idempotency.js';
import { newSignature, newUuid } from './ids.js';
import { applySlippage, buyFee, quoteBuy, swapBuy } from './market.js';
import { awardPoints, valueOf } from './points-ledger.js';
import { createPosition, updatePosition } from './position-book.js';
import type { BuyRecord, LedgerTokenMove } from './state.js';
import { stepAfter, type TimeStep } from './time-step.js';
import { type Body, requireString, requireTradeRequest, type TradeRequest } from './validate.js';
import { credit, payDeposit } from './wallet.js';
import { landBy, POOL_ADDRESS, recordTransaction, SERVICE_TX_FEE, takeLie } from './ledger.js';
import { deriveAddress } from './market.js';
import { TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from './token-accounts.js';
import type { KeyOwner, World } from './world.js';

export const MIN_BUY_LAMPORTS = 100_000n;
export const DEPOSIT_WINDOW_MS = 10 * 60 * 1000;

/** The API shape of a buy intent. */
export function intentView(b: BuyRecord): BuyIntent {
  return {
    id: b.id,
    status: b.status,
    outputMint: b.mint,
    amountLamports: b.amountLamports.toString(),
    minimumOutputAmount: b.minimumOutput.toString(),
    depositExpiresAt: iso(b.depositExpiresAt),
  };
}

/** The buy of `id` if it belongs to the caller's account, else 404. */
export function ownBuy(world: World, owner: KeyOwner, id: string): BuyRecord {
  return ownedBy(owner.account.id, world.buys.get(id), 'buy intent', id);
}

/** POST /trade/buys. */
export function createBuy(world: World, owner: KeyOwner, body: Body): { status: number; data: CreateBuyResponse } {
  const request = requireTradeRequest(body, 'amountLamports');
  const keys = world.account(owner.account.id).buyKeys;
  const { status, record } = createOnce(
    'buy',
    request,
    keys,
    world.buys,
    (b) => b.amountLamports,
    () => openBuyIntent(world, owner, request),
  );
  return {
    status,
    data: {
      intent: intentView(record),
      deposit: { transaction: record.transaction, lastValidBlockHeight: record.lastValidBlockHeight },
    },
  };
}

/** A new buy intent awaiting its deposit, with its pending position. */
function openBuyIntent(
  world: World,
  owner: KeyOwner,
  { mint, amount, idempotencyKey, slippageBps }: TradeRequest,
): BuyRecord {
  const token = world.token(mint);
  if (amount < MIN_BUY_LAMPORTS) {
    throw new HttpError(400, 'AMOUNT_TOO_SMALL', `amountLamports must be at least ${MIN_BUY_LAMPORTS}`, {
      field: 'amountLamports',
    });
  }
  const fee = buyFee(amount);
  const expected = quoteBuy(token, amount - fee);
  if (expected <= 0n)
    throw new HttpError(422, 'AMOUNT_TOO_SMALL', 'the amount buys less than one raw unit of the token');

  const now = world.now();
  const { blockhash, lastValidBlockHeight } = issueBlockhash(world.state, now);
  const id = newUuid();
  const position = createPosition(
    world,
    owner.account.id,
    { mint, status: 'pending_deposit', principalLamports: amount.toString(), buyTradeId: id },
    now,
  );
  const b: BuyRecord = {
    id,
    accountId: owner.account.id,
    idempotencyKey,
    status: 'awaiting_deposit',
    mint,
    amountLamports: amount,
    feeLamports: fee,
    slippageBps,
    expectedOutput: expected,
    minimumOutput: applySlippage(expected, slippageBps),
    createdAt: now,
    updatedAt: now,
    depositExpiresAt: now + DEPOSIT_WINDOW_MS,
    // A memo naming the intent, when the sandbox was started so (a service may tag its deposits).
    transaction: buildDepositTransaction(
      owner.account.walletAddress,
      world.state.identity.treasury,
      amount,
      blockhash,
      world.depositMemo ? `trader-sandbox:${id}` : null,
    ),
    blockhash,
    lastValidBlockHeight,
    depositSignature: null,
    depositSubmittedAt: null,
    confirmedAt: null,
    swapSignature: null,
    receivedOutput: null,
    completedAt: null,
    swapWillFail: false,
    failure: null,
    refundState: null,
    refundSignature: null,
    positionId: position.id,
  };
  world.state.buys.push(b);
  world.buys.set(id, b);
  world.activeBuys.add(b);
  return b;
}

/** POST /trade/buys/{id}/deposit. */
export function submitDeposit(world: World, owner: KeyOwner, id: string, body: Body): { intent: BuyIntent } {
  const b = ownBuy(world, owner, id);
  if (b.status === 'cancelled') throw new HttpError(409, 'INTENT_CANCELLED', 'the buy intent was cancelled');
  if (b.status === 'expired')
    throw new HttpError(410, 'INTENT_EXPIRED', 'the buy intent expired before its deposit confirmed');
  if (b.status !== 'awaiting_deposit') {
    throw new HttpError(
      409,
      'DEPOSIT_ALREADY_ACCEPTED',
      `a deposit was already accepted for this intent (status ${b.status})`,
    );
  }
  const signed = requireString(body, 'signedTransaction', 20_000);
  const now = world.now();
  const { signature, feeLamports } = verifyDeposit(signed, {
    owner: owner.account.walletAddress,
    treasury: world.state.identity.treasury,
    amountLamports: b.amountLamports,
    blockhashValidUntil: (h) => world.state.chain.blockhashes[h],
    currentHeight: blockHeight(world.state, now),
  });
  if (world.depositSignatures.has(signature)) {
    throw new HttpError(409, 'DEPOSIT_ALREADY_USED', 'this signed transaction was already accepted for another intent');
  }
  payDeposit(world, b.accountId, b.amountLamports, feeLamports);
  // On chain from when it lands (the confirmation delay), whoever reads it.
  recordTransaction(world, {
    signature,
    at: now + world.state.delays.confirmSeconds * 1000,
    feePayer: owner.account.walletAddress,
    fee: feeLamports,
    transfers: [{ from: owner.account.walletAddress, to: world.state.identity.treasury, lamports: b.amountLamports }],
    // The bytes that were signed: the chain answers with them, not with a transaction rebuilt from the ledger.
    wire: signed,
  });
  world.depositSignatures.add(signature);
  b.status = 'deposit_submitted';
  b.depositSignature = signature;
  b.depositSubmittedAt = now;
  b.updatedAt = now;
  updatePosition(world, b.positionId, { status: 'pending_funding' }, now);
  return { intent: intentView(b) };
}

/** POST /trade/buys/{id}/cancel: only from awaiting_deposit. */
export function cancelBuy(world: World, owner: KeyOwner, id: string): { intent: BuyIntent } {
  const b = ownBuy(world, owner, id);
  if (b.status !== 'awaiting_deposit') {
    throw new HttpError(
      409,
      'INVALID_STATE',
      `only an intent awaiting its deposit can be cancelled (status ${b.status})`,
    );
  }
  const now = world.now();
  b.status = 'cancelled';
  b.updatedAt = now;
  world.activeBuys.delete(b);
  updatePosition(world, b.positionId, { status: 'cancelled' }, now);
  return { intent: intentView(b) };
}

/** GET /trade/buys/{id} notices a confirmed deposit (the only read that does). */
export function confirmOnRead(world: World, b: BuyRecord): void {
  if (b.status !== 'deposit_submitted' || b.depositSubmittedAt === null) return;
  const landedAt = b.depositSubmittedAt + world.state.delays.confirmSeconds * 1000;
  const now = world.now();
  // A deposit that landed before the deadline counts even if nobody looked until later.
  if (now >= landedAt && landedAt <= b.depositExpiresAt) confirm(world, b, now);
}

function confirm(world: World, b: BuyRecord, at: number): void {
  if (b.depositSignature) landBy(world, b.depositSignature, at);
  b.status = 'deposit_confirmed';
  b.confirmedAt = at;
  b.updatedAt = at;
  if (world.state.failNextSwaps > 0) {
    world.state.failNextSwaps -= 1;
    b.swapWillFail = true;
  }
  updatePosition(world, b.positionId, { status: 'funded' }, at);
  addWholeAmountActivity(world, b, { type: 'deposit', status: 'confirmed', signature: b.depositSignature }, at);
}

/** The ledger entry of the buy's whole amount of SOL moving: paid in (deposit) or paid back (refund). */
function addWholeAmountActivity(
  world: World,
  b: BuyRecord,
  entry: { type: 'deposit' | 'refund'; status: string; signature: string | null },
  at: number,
): void {
  addActivity(world, b.accountId, { ...entry, mint: b.mint, solLamports: b.amountLamports.toString() }, at);
}

function expire(world: World, b: BuyRecord, at: number): void {
  b.status = 'expired';
  b.updatedAt = at;
  updatePosition(world, b.positionId, { status: 'cancelled' }, at);
}

function executeSwap(world: World, b: BuyRecord, at: number): void {
  const token = world.tokens.get(b.mint)!;
  const solIn = b.amountLamports - b.feeLamports;
  const out = quoteBuy(token, solIn);
  const treasury = world.state.identity.treasury;
  if (b.swapWillFail) {
    if (b.swapSignature)
      recordTransaction(world, {
        signature: b.swapSignature,
        at,
        feePayer: treasury,
        fee: SERVICE_TX_FEE,
        transfers: [],
        failed: true,
        reads: [b.mint],
      });
    return failSwap(world, b, at, 'SWAP_FAILED', 'the swap transaction failed on chain (injected by the sandbox)');
  }
  if (out < b.minimumOutput) {
    return failSwap(
      world,
      b,
      at,
      'SLIPPAGE_EXCEEDED',
      `the swap would return ${out} raw units, below the minimum ${b.minimumOutput}`,
    );
  }
  const reserve = token.tokenReserve;
  swapBuy(token, solIn, out);
  if (b.swapSignature) {
    // The tokens leave the pool's token account for the account's trading wallet (the service holds them, not the owner's wallet).
    const tokens = swapTokenMoves(world, b, reserve, out);
    recordTransaction(world, {
      signature: b.swapSignature,
      at,
      feePayer: treasury,
      fee: SERVICE_TX_FEE,
      transfers: [{ from: treasury, to: POOL_ADDRESS, lamports: solIn }],
      tokens,
    });
  }
  b.status = 'completed';
  b.receivedOutput = out;
  b.completedAt = at;
  b.updatedAt = at;
  updatePosition(
    world,
    b.positionId,
    {
      status: 'open',
      costLamports: solIn.toString(),
      boughtAmount: out.toString(),
      remainingAmount: out.toString(),
      buySignature: b.swapSignature,
      openedAt: iso(at),
    },
    at,
  );
  const v = valueOf(world, solIn);
  addActivity(
    world,
    b.accountId,
    {
      type: 'buy',
      status: 'completed',
      signature: b.swapSignature,
      mint: b.mint,
      amount: out.toString(),
      solLamports: solIn.toString(),
      usdValue: v.usdValue,
      points: v.points,
    },
    at,
  );
  awardPoints(world, b.accountId, v.cents, v.points);
}

function failSwap(world: World, b: BuyRecord, at: number, code: string, reason: string): void {
  b.status = 'failed';
  b.failure = { code, reason };
  b.refundState = 'recovering';
  b.updatedAt = at;
  updatePosition(world, b.positionId, { status: 'refund_pending' }, at);
}

function submitSwap(b: BuyRecord, at: number): void {
  b.status = 'swap_submitted';
  b.swapSignature = newSignature();
  b.updatedAt = at;
}

/** A buy swap's token balances: the pool's token account gives `out`, the account's trading wallet's receives it (tracked per account and mint). */
function swapTokenMoves(world: World, b: BuyRecord, reserve: bigint, out: bigint): LedgerTokenMove[] {
  const token = world.tokens.get(b.mint)!;
  const programId = token.program === 'token-2022' ? TOKEN_2022_PROGRAM_ID : TOKEN_PROGRAM_ID;
  const held = (world.state.chain.tradingTokens ??= {});
  const wallet = deriveAddress(`trader-sandbox-trading-wallet:${b.accountId}`);
  const account = deriveAddress(`trader-sandbox-trading-tokens:${b.accountId}:${b.mint}`);
  const before = held[account] ?? 0n;
  held[account] = before + out;
  const common = { mint: b.mint, decimals: token.decimals, programId };
  return [
    {
      ...common,
      account: deriveAddress(`trader-sandbox-pool-tokens:${b.mint}`),
      owner: POOL_ADDRESS,
      pre: reserve,
      post: reserve - out,
    },
    { ...common, account, owner: wallet, pre: before, post: before + out },
  ];
}

function startRefund(b: BuyRecord, at: number): void {
  b.refundState = 'in_progress';
  b.refundSignature = newSignature();
  b.updatedAt = at;
}

function completeRefund(world: World, b: BuyRecord, at: number): void {
  b.refundState = 'complete';
  b.status = 'refunded';
  // The lies: a refund reported paid that never reached the chain; one of 8% of the deposit, the
  // platform fee raised after the fact to swallow the rest (the refund reported is what was paid).
  const lie = takeLie(world, ['phantom-refund', 'short-refund']);
  if (lie !== 'phantom-refund') {
    const paid = lie === 'short-refund' ? (b.amountLamports * 8n) / 100n : b.amountLamports;
    if (lie === 'short-refund') [b.feeLamports, b.refundLamports] = [b.amountLamports - paid, paid];
    credit(world, b.accountId, paid);
    const treasury = world.state.identity.treasury;
    const wallet = world.identity(b.accountId).walletAddress;
    recordTransaction(world, {
      signature: b.refundSignature!,
      at,
      feePayer: treasury,
      fee: SERVICE_TX_FEE,
      transfers: [{ from: treasury, to: wallet, lamports: paid }],
    });
  }
  b.completedAt = at;
  b.updatedAt = at;
  updatePosition(world, b.positionId, { status: 'refunded' }, at);
  addWholeAmountActivity(world, b, { type: 'refund', status: 'completed', signature: b.refundSignature }, at);
}

/** The next time-based step of a buy, if one is due by time alone. */
export function buyNextStep(world: World, b: BuyRecord): TimeStep | null {
  const d = world.state.delays;
  switch (b.status) {
    case 'awaiting_deposit':
      return { at: b.depositExpiresAt, run: (at) => expire(world, b, at) };
    case 'deposit_submitted': {
      // Confirmation waits for a read; expiry is certain once the deposit cannot land in time.
      const landedAt = (b.depositSubmittedAt ?? b.createdAt) + d.confirmSeconds * 1000;
      return landedAt > b.depositExpiresAt ? { at: b.depositExpiresAt, run: (at) => expire(world, b, at) } : null;
    }
    case 'deposit_confirmed':
      return stepAfter(b.updatedAt, d.swapSeconds, (at) => submitSwap(b, at));
    case 'swap_submitted':
      return stepAfter(b.updatedAt, d.swapSeconds, (at) => executeSwap(world, b, at));
    case 'failed':
      if (b.refundState === 'recovering') return stepAfter(b.updatedAt, d.refundSeconds, (at) => startRefund(b, at));
      if (b.refundState === 'in_progress')
        return stepAfter(b.updatedAt, d.refundSeconds, (at) => completeRefund(world, b, at));
      return null;
    default:
      return null;
  }
}

/** True once a buy can never change again. */
export function buySettled(b: BuyRecord): boolean {
  return b.status === 'completed' || b.status === 'expired' || b.status === 'cancelled' || b.status === 'refunded';
}
