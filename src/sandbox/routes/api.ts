// The /api/v1 route table: method, path pattern, required scope, handler.
import type { Pagination, Scope } from '../../api/types.js';
import { meView } from '../accounts.js';
import { listActivity } from '../activity-ledger.js';
import { cancelBuy, confirmOnRead, createBuy, intentView, ownBuy, submitDeposit } from '../buys.js';
import { pointsSummary } from '../points-ledger.js';
import { getPosition, listHoldings, listPositions } from '../position-book.js';
import { advance } from '../scheduler.js';
import { authorizeSell, createSell, getSell } from '../sells.js';
import { getTrade, getTradeStatus } from '../trade-reads.js';
import type { Body } from '../validate.js';
import type { KeyOwner, World } from '../world.js';

export interface ApiContext {
  world: World;
  owner: KeyOwner;
  params: string[];
  query: URLSearchParams;
  body: Body;
}

export interface ApiResult {
  status?: number;
  data: unknown;
  pagination?: Pagination;
}

export interface ApiRoute {
  method: 'GET' | 'POST';
  pattern: RegExp;
  /** Scope the key must carry; null = any valid key. */
  scope: Scope | null;
  handle(ctx: ApiContext): ApiResult;
}

const ID = '([^/]+)';
const route = (
  method: ApiRoute['method'],
  path: string,
  scope: Scope | null,
  handle: ApiRoute['handle'],
): ApiRoute => ({
  method,
  pattern: new RegExp(`^${path.replaceAll('{id}', ID)}$`),
  scope,
  handle,
});
const TRADE: Scope = 'trade:intents';

export const API_ROUTES: ApiRoute[] = [
  route('POST', '/trade/buys', TRADE, ({ world, owner, body }) => createBuy(world, owner, body)),
  route('POST', '/trade/buys/{id}/deposit', TRADE, ({ world, owner, params, body }) => ({
    data: submitDeposit(world, owner, params[0]!, body),
  })),
  route('GET', '/trade/buys/{id}', TRADE, ({ world, owner, params }) => {
    const b = ownBuy(world, owner, params[0]!);
    confirmOnRead(world, b);
    advance(world); // steps due at once after confirmation (zero delays) show in this same read
    return { data: { intent: intentView(b) } };
  }),
  route('POST', '/trade/buys/{id}/cancel', TRADE, ({ world, owner, params }) => ({
    data: cancelBuy(world, owner, params[0]!),
  })),
  route('POST', '/trade/sells', TRADE, ({ world, owner, body }) => createSell(world, owner, body)),
  route('POST', '/trade/sells/{id}/authorize', TRADE, ({ world, owner, params, body }) => ({
    data: authorizeSell(world, owner, params[0]!, body),
  })),
  route('GET', '/trade/sells/{id}', TRADE, ({ world, owner, params }) => ({ data: getSell(world, owner, params[0]!) })),
  route('GET', '/positions', null, ({ world, owner, query }) => listPositions(world, owner.account.id, query)),
  route('GET', '/positions/{id}', null, ({ world, owner, params }) => ({
    data: getPosition(world, owner.account.id, params[0]!),
  })),
  route('GET', '/trades/{id}', null, ({ world, owner, params }) => ({ data: getTrade(world, owner, params[0]!) })),
  route('GET', '/trades/{id}/status', null, ({ world, owner, params }) => ({
    data: getTradeStatus(world, owner, params[0]!),
  })),
  route('GET', '/activity', null, ({ world, owner, query }) => listActivity(world, owner.account.id, query)),
  route('GET', '/holdings', null, ({ world, owner }) => ({ data: listHoldings(world, owner.account.id) })),
  route('GET', '/me', null, ({ owner }) => ({ data: meView(owner) })),
  route('GET', '/points', null, ({ world, owner }) => ({ data: pointsSummary(world, owner.account.id) })),
];

/** Find the route for a path below /api/v1: the route, or the methods the path allows (for 405). */
export function matchApiRoute(
  method: string,
  path: string,
): { route: ApiRoute; params: string[] } | { allowed: string[] } {
  const allowed: string[] = [];
  for (const r of API_ROUTES) {
    const m = r.pattern.exec(path);
    if (!m) continue;
    if (r.method === method) {
      let params: string[];
      try {
        params = m.slice(1).map((p) => decodeURIComponent(p));
      } catch {
        params = m.slice(1);
      }
      return { route: r, params };
    }
    allowed.push(r.method);
  }
  return { allowed };
}
