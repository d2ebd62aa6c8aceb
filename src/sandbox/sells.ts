// The sell state machine: authorization (create, sign once, expire, pre-execution checks) and the
// sell order group that executes it (swap at the then-current price, never below the signed floor,
// then payout to the main wallet).
import { PublicKey } from '@solana/web3.js';
import bs58 from 'bs58';
import nacl from 'tweetnacl';
import type {
  AuthorizeSellResponse,
  GetSellResponse,
  SellAuthorization,
  SellAuthorizationResponse,
  SellOrder,
} from '../api/types.js';
import { addActivity } from './activity-ledger.js';
import { iso } from './offset-clock.js';
import { HttpError, ownedBy } from './sandbox-error.js';
import { createOnce } from './idempotency.js';
import { newAuthorizationId, newSellGroupId, newSignature } from './ids.js';
import { applySlippage, formatUnits, quoteSell, swapSell } from './market.js';
import { awardPoints, valueOf } from './points-ledger.js';
import { sellablePositions, updatePosition } from './position-book.js';
import type { AuthorizationRecord, SellGroupRecord, TokenRecord } from './state.js';
import { stepAfter, type TimeStep } from './time-step.js';
import { type Body, requireString, requireTradeRequest, type TradeRequest } from './validate.js';
import { credit } from './wallet.js';
import { landedTransaction, OTHER_WALLET, POOL_ADDRESS, recordTransaction, SERVICE_TX_FEE, takeLie } from './ledger.js';
import type { KeyOwner, World } from './world.js';

export const AUTHORIZATION_LIFETIME_MS = 2 * 60 * 1000;

/** The API shape of a sell authorization. */
export function authorizationView(a: AuthorizationRecord): SellAuthorization {
  const authorizedAt = a.authorizedAt === null ? null : iso(a.authorizedAt);
  return {
    id: a.id,
    status: a.status,
    mint: a.mint,
    amount: a.amount.toString(),
    positionId: null,
    expectedOutputLamports: a.expectedOutputLamports.toString(),
    minimumOutputLamports: a.minimumOutputLamports.toString(),
    slippageBps: a.slippageBps,
    message: a.message,
    expiresAt: iso(a.expiresAt),
    authorizedAt,
    signatureVerifiedAt: authorizedAt,
    executionStarted: a.executionStarted,
    failureCode: a.failure?.code ?? null,
    failureReason: a.failure?.reason ?? null,
    createdAt: iso(a.createdAt),
  };
}

/** The API shape of a sell order group (the `sell` object). */
export function sellGroupView(world: World, g: SellGroupRecord): SellOrder {
  return {
    id: g.id,
    status: g.status,
    authorizationId: g.authorizationId,
    mint: g.mint,
    amount: g.amount.toString(),
    expectedOutputLamports: g.expectedOutputLamports.toString(),
    minimumOutputLamports: g.minimumOutputLamports.toString(),
    receivedLamports: g.receivedLamports?.toString() ?? null,
    swapSignature: g.swapSignature,
    payoutSignature: g.payoutSignature,
    payoutWallet: world.identity(g.accountId).walletAddress,
    positionIds: g.allocations.map((a) => a.positionId),
    failureCode: g.failure?.code ?? null,
    failureReason: g.failure?.reason ?? null,
    createdAt: iso(g.createdAt),
    updatedAt: iso(g.updatedAt),
    completedAt: g.completedAt === null ? null : iso(g.completedAt),
  };
}

/** The text the owner signs: token, amount and minimum, each stated two ways. */
export function sellMessage(
  token: TokenRecord,
  a: { id: string; amount: bigint; minimumOutputLamports: bigint; expiresAt: number },
): string {
  return [
    'trader sandbox: authorize a token sale',
    `Token: ${token.symbol} (${token.name})`,
    `Mint: ${token.mint}`,
    `Amount: ${formatUnits(a.amount, token.decimals)} ${token.symbol} (${a.amount} raw units)`,
    `Minimum proceeds: ${formatUnits(a.minimumOutputLamports, 9)} SOL (${a.minimumOutputLamports} lamports)`,
    `Authorization: ${a.id}`,
    `Expires: ${iso(a.expiresAt)}`,
  ].join('\n');
}

function ownAuthorization(world: World, owner: KeyOwner, id: string): AuthorizationRecord {
  const groupAuth = id.startsWith('sg_') ? world.groups.get(id)?.authorizationId : undefined;
  return ownedBy(owner.account.id, world.authorizations.get(groupAuth ?? id), 'sell authorization', id);
}

/** POST /trade/sells. */
export function createSell(
  world: World,
  owner: KeyOwner,
  body: Body,
): { status: number; data: SellAuthorizationResponse } {
  const request = requireTradeRequest(body, 'amount');
  const keys = world.account(owner.account.id).sellKeys;
  const { status, record } = createOnce(
    'sell',
    request,
    keys,
    world.authorizations,
    (a) => a.amount,
    () => openAuthorization(world, owner, request),
  );
  return { status, data: { authorization: authorizationView(record) } };
}

/** A new sell authorization awaiting the owner's signature of its message. */
function openAuthorization(
  world: World,
  owner: KeyOwner,
  { mint, amount, idempotencyKey, slippageBps }: TradeRequest,
): AuthorizationRecord {
  const token = world.token(mint);
  const available = sellablePositions(world, owner.account.id, mint).reduce((s, p) => s + p.free, 0n);
  if (amount > available) {
    throw new HttpError(
      422,
      'INSUFFICIENT_BALANCE',
      `only ${available} raw units of ${token.symbol} are held and free to sell`,
      {
        available: available.toString(),
      },
    );
  }
  const expected = quoteSell(token, amount);
  if (expected <= 0n) throw new HttpError(422, 'AMOUNT_TOO_SMALL', 'the amount sells for less than one lamport');

  const now = world.now();
  const id = newAuthorizationId();
  const minimum = applySlippage(expected, slippageBps);
  const expiresAt = now + AUTHORIZATION_LIFETIME_MS;
  const a: AuthorizationRecord = {
    id,
    accountId: owner.account.id,
    idempotencyKey,
    status: 'awaiting_signature',
    mint,
    amount,
    expectedOutputLamports: expected,
    minimumOutputLamports: minimum,
    slippageBps,
    message: sellMessage(token, { id, amount, minimumOutputLamports: minimum, expiresAt }),
    createdAt: now,
    expiresAt,
    authorizedAt: null,
    executionStarted: false,
    failure: null,
    groupId: null,
  };
  world.state.authorizations.push(a);
  world.authorizations.set(id, a);
  world.activeAuthorizations.add(a);
  return a;
}

/** POST /trade/sells/{id}/authorize. */
export function authorizeSell(
  world: World,
  owner: KeyOwner,
  id: string,
  body: Body,
): AuthorizeSellResponse | GetSellResponse {
  const a = ownAuthorization(world, owner, id);
  requireAwaitingSignature(a);
  requireOwnerSignature(a, owner, body);
  const now = world.now();
  a.authorizedAt = now;
  world.activeAuthorizations.delete(a);
  const token = world.tokens.get(a.mint)!;

  // Pre-execution checks: a failure here sells nothing and locks nothing.
  const quote = quoteSell(token, a.amount);
  const sellable = sellablePositions(world, a.accountId, a.mint);
  const free = sellable.reduce((s, p) => s + p.free, 0n);
  if (quote < a.minimumOutputLamports) {
    a.status = 'failed';
    a.failure = {
      code: 'QUOTE_BELOW_AUTHORIZED_MINIMUM',
      reason: `the current quote of ${quote} lamports is below the signed minimum of ${a.minimumOutputLamports}`,
    };
    return { authorization: authorizationView(a), sell: null };
  }
  if (free < a.amount) {
    a.status = 'failed';
    a.failure = { code: 'INSUFFICIENT_BALANCE', reason: `only ${free} raw units are free to sell` };
    return { authorization: authorizationView(a), sell: null };
  }
  const g = startSellGroup(world, a, allocate(world, a.amount, sellable, now), now);
  a.status = 'authorized';
  a.executionStarted = true;
  a.groupId = g.id;
  return { authorization: authorizationView(a), sell: sellGroupView(world, g) };
}

/** Only an authorization still awaiting its signature can be authorized. */
function requireAwaitingSignature(a: AuthorizationRecord): void {
  if (a.status === 'expired')
    throw new HttpError(410, 'AUTHORIZATION_EXPIRED', 'the authorization expired; create a new sell');
  if (a.status === 'cancelled') throw new HttpError(409, 'AUTHORIZATION_CANCELLED', 'the authorization was cancelled');
  if (a.status !== 'awaiting_signature') {
    throw new HttpError(409, 'AUTHORIZATION_ALREADY_USED', `the authorization was already used (status ${a.status})`);
  }
}

/** The body's signature must be the account wallet's over the authorization's message. */
function requireOwnerSignature(a: AuthorizationRecord, owner: KeyOwner, body: Body): void {
  const text = requireString(body, 'signature', 200);
  let signature: Uint8Array;
  try {
    signature = bs58.decode(text);
  } catch {
    throw new HttpError(400, 'INVALID_SIGNATURE_FORMAT', 'signature must be base58');
  }
  if (signature.length !== 64)
    throw new HttpError(400, 'INVALID_SIGNATURE_FORMAT', 'signature must be 64 bytes (base58)');
  const wallet = new PublicKey(owner.account.walletAddress).toBytes();
  if (!nacl.sign.detached.verify(Buffer.from(a.message, 'utf8'), signature, wallet)) {
    throw new HttpError(
      422,
      'INVALID_SIGNATURE',
      'the signature is not the account wallet signing this authorization message',
    );
  }
}

/** The amount taken from the sellable positions in order; a position emptied by it is closing. */
function allocate(
  world: World,
  amount: bigint,
  sellable: ReturnType<typeof sellablePositions>,
  now: number,
): SellGroupRecord['allocations'] {
  const allocations: SellGroupRecord['allocations'] = [];
  let left = amount;
  for (const { position, free: f } of sellable) {
    if (left === 0n) break;
    const take = f < left ? f : left;
    allocations.push({ positionId: position.id, amount: take });
    left -= take;
    if (take === BigInt(position.remainingAmount ?? '0'))
      updatePosition(world, position.id, { status: 'closing' }, now);
  }
  return allocations;
}

/** The sell group an authorization starts, its swap pending. */
function startSellGroup(
  world: World,
  a: AuthorizationRecord,
  allocations: SellGroupRecord['allocations'],
  now: number,
): SellGroupRecord {
  const g: SellGroupRecord = {
    id: newSellGroupId(),
    accountId: a.accountId,
    authorizationId: a.id,
    status: 'swap_pending',
    mint: a.mint,
    amount: a.amount,
    expectedOutputLamports: a.expectedOutputLamports,
    minimumOutputLamports: a.minimumOutputLamports,
    slippageBps: a.slippageBps,
    allocations,
    receivedLamports: null,
    swapSignature: null,
    payoutSignature: null,
    failure: null,
    createdAt: now,
    updatedAt: now,
    completedAt: null,
  };
  world.state.sellGroups.push(g);
  world.groups.set(g.id, g);
  world.activeGroups.add(g);
  return g;
}

/** GET /trade/sells/{id}. */
export function getSell(world: World, owner: KeyOwner, id: string): GetSellResponse {
  const a = ownAuthorization(world, owner, id);
  const g = a.groupId ? world.groups.get(a.groupId) : undefined;
  return { authorization: authorizationView(a), sell: g ? sellGroupView(world, g) : null };
}

function executeSell(world: World, g: SellGroupRecord, at: number): void {
  const token = world.tokens.get(g.mint)!;
  const out = quoteSell(token, g.amount);
  g.updatedAt = at;
  if (out < g.minimumOutputLamports) {
    // Safety rule 3: never below the signed floor; release the positions untouched.
    g.status = 'failed';
    g.completedAt = null;
    g.failure = {
      code: 'PRICE_MOVED',
      reason: `the price moved: the swap would pay ${out} lamports, below the signed minimum ${g.minimumOutputLamports}`,
    };
    for (const al of g.allocations) {
      const p = world.positions.get(al.positionId)!.position;
      if (p.status === 'closing') updatePosition(world, p.id, { status: 'open' }, at);
    }
    return;
  }
  swapSell(token, g.amount, out);
  g.status = 'payout_pending';
  g.receivedLamports = out;
  g.swapSignature = newSignature();
  const treasury = world.state.identity.treasury;
  recordTransaction(world, {
    signature: g.swapSignature,
    at,
    feePayer: treasury,
    fee: SERVICE_TX_FEE,
    transfers: [{ from: POOL_ADDRESS, to: treasury, lamports: out }],
    reads: [g.mint],
  });
  for (const al of g.allocations) {
    const p = world.positions.get(al.positionId)!.position;
    const remaining = BigInt(p.remainingAmount ?? '0') - al.amount;
    updatePosition(
      world,
      p.id,
      {
        status: remaining === 0n ? 'closed' : 'open',
        soldAmount: (BigInt(p.soldAmount) + al.amount).toString(),
        remainingAmount: remaining.toString(),
      },
      at,
    );
  }
  const v = valueOf(world, out);
  addActivity(
    world,
    g.accountId,
    {
      type: 'sell',
      status: 'completed',
      signature: g.swapSignature,
      mint: g.mint,
      amount: g.amount.toString(),
      solLamports: out.toString(),
      usdValue: v.usdValue,
      points: v.points,
    },
    at,
  );
  awardPoints(world, g.accountId, v.cents, v.points);
}

/** The next time-based step of a sell authorization or group. */
export function sellNextStep(world: World, item: AuthorizationRecord | SellGroupRecord): TimeStep | null {
  const d = world.state.delays;
  if ('message' in item) {
    if (item.status !== 'awaiting_signature') return null;
    return {
      at: item.expiresAt,
      run: () => {
        item.status = 'expired';
      },
    };
  }
  const g = item;
  if (g.status === 'swap_pending') return stepAfter(g.updatedAt, d.swapSeconds, (at) => executeSell(world, g, at));
  if (g.status === 'payout_pending') return stepAfter(g.updatedAt, d.payoutSeconds, (at) => payOut(world, g, at));
  return null;
}

/** The latest payout on chain by `at` of another sell of the same account, if any. */
function latestPayout(world: World, g: SellGroupRecord, at: number): { signature: string; at: number } | null {
  let latest: { signature: string; at: number } | null = null;
  for (const other of world.groups.values()) {
    if (other === g || other.accountId !== g.accountId || other.payoutSignature === null) continue;
    const tx = landedTransaction(world, other.payoutSignature, at);
    if (tx && (latest === null || tx.at >= latest.at)) latest = { signature: tx.signature, at: tx.at };
  }
  return latest;
}

function payOut(world: World, g: SellGroupRecord, at: number): void {
  g.status = 'completed';
  g.payoutSignature = newSignature();
  payOnChain(world, g, at);
  g.completedAt = at;
  g.updatedAt = at;
  addActivity(
    world,
    g.accountId,
    {
      type: 'payout',
      status: 'completed',
      signature: g.payoutSignature,
      mint: g.mint,
      solLamports: g.receivedLamports!.toString(),
    },
    at,
  );
}

/**
 * The payout's transaction: the reported amount to the account's wallet, unless the service was
 * told to lie (no transaction, half the amount and below the signed minimum, or another wallet;
 * or the payout of the account's latest earlier sell named again, nothing paid, and this trade
 * reported created a minute before that payout so that its time proves nothing).
 */
function payOnChain(world: World, g: SellGroupRecord, at: number): void {
  const earlier = latestPayout(world, g, at);
  const lie = takeLie(
    world,
    earlier
      ? ['phantom-payout', 'short-payout', 'payout-elsewhere', 'reused-payout']
      : ['phantom-payout', 'short-payout', 'payout-elsewhere'],
  );
  if (lie === 'phantom-payout') return;
  if (lie === 'reused-payout') {
    g.payoutSignature = earlier!.signature;
    g.createdAt = Math.min(g.createdAt, earlier!.at - 60_000);
    return;
  }
  const treasury = world.state.identity.treasury;
  const wallet = world.identity(g.accountId).walletAddress;
  const reported = g.receivedLamports!;
  const paid = lie === 'short-payout' ? g.minimumOutputLamports / 2n : reported;
  const to = lie === 'payout-elsewhere' ? OTHER_WALLET : wallet;
  if (to === wallet) credit(world, g.accountId, paid);
  recordTransaction(world, {
    signature: g.payoutSignature!,
    at,
    feePayer: treasury,
    fee: SERVICE_TX_FEE,
    transfers: [{ from: treasury, to, lamports: paid }],
  });
}
