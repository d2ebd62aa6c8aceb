// The service's HTTP API: one typed function per endpoint. It never prints and never reads
// process.env; everything (key, clock, proxy variables, abort signal) is passed in.
// One call's attempts: call.ts. Transport and engine choice: transport.ts. Errors: http-errors.ts. Retries: retry.ts.

import { MIN_STATUS_INTERVAL_MS } from '../domain/defaults.js';
import { ApiError, SERVICE_CONTRADICTION, UsageError } from '../domain/errors.js';
import { oneLine } from './http-errors.js';
import * as S from './schemas.js';
import { call, wireFor, type ClientOptions, type Wire } from './call.js';
import type {
  Account,
  ActivityEntry,
  AuthorizeSellRequest,
  AuthorizeSellResponse,
  BuyIntentResponse,
  CreateBuyRequest,
  CreateBuyResponse,
  CreateSellRequest,
  GetSellResponse,
  Holding,
  Pagination,
  PointsSummary,
  Position,
  SellAuthorizationResponse,
  SubmitDepositRequest,
  Trade,
  TradeStatus,
} from './types.js';
import { codePoint } from '../domain/printable.js';

export type { RetryPolicy } from './retry.js';
export { DEFAULT_RETRY_POLICY } from './retry.js';
export { UncertainOutcomeError, isUncertainOutcome } from './http-errors.js';

export type { ClientOptions, RequestLog } from './call.js';

export interface Page<T> {
  items: T[];
  pagination: Pagination;
  requestId: string;
}

export interface ServiceClient {
  me(): Promise<Account>;
  points(): Promise<PointsSummary>;
  listPositions(q: { status?: string; limit?: number; cursor?: string }): Promise<Page<Position>>;
  getPosition(id: string): Promise<Position>;
  listActivity(q: { types?: string[]; limit?: number; cursor?: string }): Promise<Page<ActivityEntry>>;
  holdings(): Promise<Holding[]>;
  getTrade(id: string): Promise<Trade>;
  getTradeStatus(id: string): Promise<TradeStatus>;
  createBuy(req: CreateBuyRequest): Promise<CreateBuyResponse>;
  submitDeposit(id: string, req: SubmitDepositRequest): Promise<BuyIntentResponse>;
  getBuy(id: string): Promise<BuyIntentResponse>;
  cancelBuy(id: string): Promise<BuyIntentResponse>;
  createSell(req: CreateSellRequest): Promise<SellAuthorizationResponse>;
  authorizeSell(id: string, req: AuthorizeSellRequest): Promise<AuthorizeSellResponse>;
  getSell(id: string): Promise<GetSellResponse>;
}

/** One path segment, URL-encoded; empty, "." and ".." are refused (URL parsing would resolve them). */
function segment(id: string): string {
  if (typeof id !== 'string' || id === '' || id === '.' || id === '..') {
    throw new UsageError(`invalid id ${JSON.stringify(oneLine(String(id), 60))}`, 'INVALID_ID');
  }
  return encodeURIComponent(id);
}

function query(params: Record<string, string | number | string[] | undefined>): string {
  const parts: string[] = [];
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) {
      if (value.length) parts.push(`${name}=${value.map(encodeURIComponent).join(',')}`);
    } else if (typeof value === 'number') {
      if (!Number.isSafeInteger(value)) throw new UsageError(`${name} must be an integer`, 'INVALID_ARGUMENT');
      parts.push(`${name}=${value}`);
    } else {
      parts.push(`${name}=${encodeURIComponent(value)}`);
    }
  }
  return parts.length ? `?${parts.join('&')}` : '';
}

/** Creates the client; checks the base URL now (UsageError for a bad or insecure one). */
export function createClient(opts: ClientOptions): ServiceClient {
  const w = wireFor(opts);
  return { ...readEndpoints(w), ...tradeEndpoints(w) };
}

/** A GET of one resource, retried as any read. */
const get = <T>(w: Wire, path: string, check: S.Check) =>
  call<T>(w, { method: 'GET', path, repeatability: 'read', check });
const dataOf = async <T>(p: Promise<{ data: T }>): Promise<T> => (await p).data;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An id a service gave, quoted, every character outside printable ASCII named: ids that differ only there must read apart. */
const shownId = (id: unknown): string =>
  typeof id === 'string'
    ? JSON.stringify(id.length > 100 ? `${id.slice(0, 100)}…` : id).replace(
        /[^\x20-\x7e]/gu,
        (ch) => `<${codePoint(ch)}>`,
      )
    : String(id);

/** The id a trade read by `asked` must carry: its own, or none to compare for a sell's sell_… authorization id (the trade has a group key of its own). */
const tradeId =
  (asked: string) =>
  (trade: { id: unknown; side: unknown }): unknown =>
    asked.startsWith('sell_') && trade.side === 'sell' ? asked : trade.id;

/**
 * A read by id answers about that id: another's is the service contradicting itself (exit 3),
 * never shown or verified as the one asked for. A UUID is the same in either case.
 */
async function about<T>(what: string, asked: string, read: Promise<T>, idOf: (answer: T) => unknown): Promise<T> {
  const answer = await read;
  const id = idOf(answer);
  const same = id === asked || (typeof id === 'string' && UUID.test(asked) && id.toLowerCase() === asked.toLowerCase());
  if (!same)
    throw new ApiError(
      `the service answered the read of ${what} ${shownId(asked)} with ${what} ${shownId(id)}: not the one asked for`,
      { code: SERVICE_CONTRADICTION },
    );
  return answer;
}

/** A GET of one page of a list. */
async function page<T>(w: Wire, path: string, item: S.Check): Promise<Page<T>> {
  const r = await call<T[]>(w, {
    method: 'GET',
    path,
    repeatability: 'read',
    check: S.envelope(S.arrayOf(item), true),
  });
  return {
    items: r.data,
    pagination: r.envelope.pagination as Pagination,
    requestId: r.envelope.requestId as string,
  };
}

/** The account, its positions, activity and holdings, and the trades as read. */
function readEndpoints(w: Wire): Omit<ServiceClient, TradeEndpoint> {
  return {
    // The account names the key (prefix, name): parseSuccess hides any piece of it the service shows.
    me: async () => dataOf(get<Account>(w, '/me', S.envelope(S.account))),
    points: async () => dataOf(get<PointsSummary>(w, '/points', S.envelope(S.pointsSummary))),
    listPositions: async (q) =>
      page<Position>(w, `/positions${query({ status: q.status, limit: q.limit, cursor: q.cursor })}`, S.position),
    getPosition: async (id) =>
      about('position', id, dataOf(get<Position>(w, `/positions/${segment(id)}`, S.envelope(S.position))), (p) => p.id),
    listActivity: async (q) =>
      page<ActivityEntry>(w, `/activity${query({ type: q.types, limit: q.limit, cursor: q.cursor })}`, S.activityEntry),
    holdings: async () => dataOf(get<Holding[]>(w, '/holdings', S.envelope(S.arrayOf(S.holding)))),
    getTrade: async (id) =>
      about('trade', id, dataOf(get<Trade>(w, `/trades/${segment(id)}`, S.envelope(S.trade))), tradeId(id)),
    // The API allows this endpoint to be read every 2 s at most: a retry keeps that pace too.
    getTradeStatus: async (id) =>
      about(
        'trade',
        id,
        dataOf(
          call<TradeStatus>(w, {
            method: 'GET',
            path: `/trades/${segment(id)}/status`,
            repeatability: 'read',
            check: S.envelope(S.tradeStatus),
            minGapMs: MIN_STATUS_INTERVAL_MS,
          }),
        ),
        tradeId(id),
      ),
  };
}

type TradeEndpoint =
  'createBuy' | 'submitDeposit' | 'getBuy' | 'cancelBuy' | 'createSell' | 'authorizeSell' | 'getSell';

/** The buy and sell endpoints: creates, the deposit, the cancel and the authorization. */
function tradeEndpoints(w: Wire): Pick<ServiceClient, TradeEndpoint> {
  return {
    createBuy: async (req) =>
      dataOf(
        call<CreateBuyResponse>(w, {
          method: 'POST',
          path: '/trade/buys',
          body: req,
          repeatability: 'idempotent-create',
          check: S.envelope(S.createBuyResponse),
          creates: 'buy',
        }),
      ),
    submitDeposit: async (id, req) =>
      dataOf(
        call<BuyIntentResponse>(w, {
          method: 'POST',
          path: `/trade/buys/${segment(id)}/deposit`,
          body: req,
          repeatability: 'once',
          check: S.envelope(S.buyIntentResponse),
        }),
      ),
    getBuy: async (id) =>
      about(
        'buy',
        id,
        dataOf(get<BuyIntentResponse>(w, `/trade/buys/${segment(id)}`, S.envelope(S.buyIntentResponse))),
        (r) => r.intent.id,
      ),
    cancelBuy: async (id) =>
      dataOf(
        call<BuyIntentResponse>(w, {
          method: 'POST',
          path: `/trade/buys/${segment(id)}/cancel`,
          body: {},
          repeatability: 'once',
          check: S.envelope(S.buyIntentResponse),
        }),
      ),
    createSell: async (req) =>
      dataOf(
        call<SellAuthorizationResponse>(w, {
          method: 'POST',
          path: '/trade/sells',
          body: req,
          repeatability: 'idempotent-create',
          check: S.envelope(S.sellAuthorizationResponse),
          creates: 'sell',
        }),
      ),
    authorizeSell: async (id, req) =>
      dataOf(
        call<AuthorizeSellResponse>(w, {
          method: 'POST',
          path: `/trade/sells/${segment(id)}/authorize`,
          body: req,
          repeatability: 'once',
          check: S.envelope(S.authorizeSellResponse),
        }),
      ),
    getSell: async (id) =>
      about(
        'sell',
        id,
        dataOf(get<GetSellResponse>(w, `/trade/sells/${segment(id)}`, S.envelope(S.getSellResponse))),
        (r) => r.authorization.id,
      ),
  };
}
