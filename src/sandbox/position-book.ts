// Positions: creation, status changes (keeping the holdings index right), listing and holdings.
import type { Holding, Position, PositionStatus } from '../api/types.js';
import { POSITION_STATUSES } from '../api/types.js';
import { iso } from './offset-clock.js';
import { HttpError, notFound } from './sandbox-error.js';
import { newUuid } from './ids.js';
import { formatUnits, usdPerToken } from './market.js';
import { pageNewestFirst, parseLimit } from './pagination.js';
import type { TokenRecord } from './state.js';
import type { World } from './world.js';

const HOLDS_TOKENS: ReadonlySet<PositionStatus> = new Set(['open', 'closing']);

/** Create a position for an account and index it. */
export function createPosition(
  world: World,
  accountId: string,
  fields: Partial<Position> & { mint: string },
  at: number,
): Position {
  const token = world.tokens.get(fields.mint);
  const position: Position = {
    id: newUuid(),
    status: 'pending_deposit',
    token: token ? { symbol: token.symbol, name: token.name, decimals: token.decimals } : null,
    principalLamports: '0',
    costLamports: null,
    boughtAmount: null,
    soldAmount: '0',
    remainingAmount: null,
    buyTradeId: null,
    buySignature: null,
    openedAt: null,
    createdAt: iso(at),
    updatedAt: iso(at),
    ...fields,
  };
  world.account(accountId).positions.push(position);
  world.positions.set(position.id, { accountId, position });
  if (HOLDS_TOKENS.has(position.status)) holdingSet(world, accountId).add(position.id);
  return position;
}

function holdingSet(world: World, accountId: string): Set<string> {
  let set = world.holding.get(accountId);
  if (!set) world.holding.set(accountId, (set = new Set()));
  return set;
}

/** Change a position's fields (and status), stamping updatedAt. */
export function updatePosition(world: World, positionId: string, changes: Partial<Position>, at: number): Position {
  const entry = world.positions.get(positionId);
  if (!entry) throw new Error(`unknown position ${positionId}`);
  Object.assign(entry.position, changes, { updatedAt: iso(at) });
  const set = holdingSet(world, entry.accountId);
  if (HOLDS_TOKENS.has(entry.position.status)) set.add(positionId);
  else set.delete(positionId);
  return entry.position;
}

/** GET /positions: newest first, optional status filter. */
export function listPositions(world: World, accountId: string, query: URLSearchParams) {
  const status = query.get('status');
  if (status !== null && !(POSITION_STATUSES as readonly string[]).includes(status)) {
    throw new HttpError(400, 'VALIDATION_ERROR', `status must be one of ${POSITION_STATUSES.join(', ')}`, {
      field: 'status',
    });
  }
  const limit = parseLimit(query.get('limit'));
  const page = pageNewestFirst(world.account(accountId).positions, 'positions', {
    limit,
    cursor: query.get('cursor'),
    keep: status === null ? () => true : (p) => p.status === status,
  });
  return { data: page.data.map((p) => ({ ...p })), pagination: page.pagination };
}

/** GET /positions/{id}: 404 for an unknown id or another account's. */
export function getPosition(world: World, accountId: string, id: string): Position {
  const entry = world.positions.get(id);
  if (!entry || entry.accountId !== accountId) throw notFound('position', id);
  return { ...entry.position };
}

/** Open positions of a mint that can still be sold from, oldest first, with what is free in each. */
export function sellablePositions(
  world: World,
  accountId: string,
  mint: string,
): Array<{ position: Position; free: bigint }> {
  const reserved = new Map<string, bigint>();
  for (const g of world.activeGroups) {
    if (g.accountId !== accountId || g.status !== 'swap_pending') continue;
    for (const a of g.allocations) reserved.set(a.positionId, (reserved.get(a.positionId) ?? 0n) + a.amount);
  }
  const out: Array<{ position: Position; free: bigint }> = [];
  const ids = [...(world.holding.get(accountId) ?? [])];
  for (const id of ids) {
    const p = world.positions.get(id)!.position;
    if (p.mint !== mint || p.status !== 'open') continue;
    const free = BigInt(p.remainingAmount ?? '0') - (reserved.get(p.id) ?? 0n);
    if (free > 0n) out.push({ position: p, free });
  }
  // Oldest first: createdAt, then id for a stable order.
  out.sort(
    (a, b) => a.position.createdAt.localeCompare(b.position.createdAt) || a.position.id.localeCompare(b.position.id),
  );
  return out;
}

/** GET /holdings: open (and closing) positions aggregated per mint, largest USD value first. */
export function listHoldings(world: World, accountId: string): Holding[] {
  const byMint = new Map<string, { amount: bigint; ids: string[] }>();
  for (const id of world.holding.get(accountId) ?? []) {
    const p = world.positions.get(id)!.position;
    if (!p.mint) continue;
    const h = byMint.get(p.mint) ?? { amount: 0n, ids: [] };
    h.amount += BigInt(p.remainingAmount ?? '0');
    h.ids.push(p.id);
    byMint.set(p.mint, h);
  }
  const selling = new Set<string>();
  for (const g of world.activeGroups) if (g.accountId === accountId && g.status === 'swap_pending') selling.add(g.mint);
  const holdings: Holding[] = [];
  for (const [mint, h] of byMint) {
    if (h.amount === 0n) continue;
    const token: TokenRecord | undefined = world.tokens.get(mint);
    const usdPrice = token ? usdPerToken(token, world.state.solUsd) : null;
    const usdValue =
      token && usdPrice !== null ? Math.round((Number(h.amount) / 10 ** token.decimals) * usdPrice * 100) / 100 : null;
    holdings.push({
      mint,
      name: token?.name ?? null,
      symbol: token?.symbol ?? null,
      decimals: token?.decimals ?? null,
      amount: h.amount.toString(),
      balance: token ? formatUnits(h.amount, token.decimals) : null,
      usdPrice,
      usdValue,
      imageUrl: token?.imageUrl ?? 'https://example.com/trader-sandbox/tokens/unknown.png',
      positionIds: h.ids,
      sellInProgress: selling.has(mint),
    });
  }
  holdings.sort((a, b) => (b.usdValue ?? 0) - (a.usdValue ?? 0) || (a.symbol ?? '').localeCompare(b.symbol ?? ''));
  return holdings;
}
