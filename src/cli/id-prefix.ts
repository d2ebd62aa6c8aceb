// Ids that tables shorten can be typed shortened: a unique prefix of at least 8 characters of a
// uuid (parsed by argument-parsers.ts) is resolved from what the account's lists return
// (positions, and their buyTradeId for buys). A whole id goes straight to the service with no
// list read.
import { allItems } from '../api/all-pages.js';
import type { ServiceClient } from '../api/client.js';
import type { Position } from '../api/types.js';
import type { TypedId, TypedTradeId } from './argument-parsers.js';
import { ApiError, UsageError } from '../domain/errors.js';

/** The one candidate starting with `prefix`; exit 2 naming them when there are none or several. */
export function pickByPrefix(prefix: string, candidates: Iterable<string>, what: string, whereListed: string): string {
  const matches = [...new Set([...candidates].filter((id) => id.toLowerCase().startsWith(prefix)))];
  if (matches.length === 1) return matches[0]!;
  if (matches.length === 0)
    throw new UsageError(`no ${what} of this account starts with ${prefix} (see \`${whereListed}\`)`, 'UNKNOWN_ID');
  const shown = matches.slice(0, 5).join(', ') + (matches.length > 5 ? `, and ${matches.length - 5} more` : '');
  throw new UsageError(
    `${prefix} is the start of ${matches.length} ${what}s: ${shown}; type more of the id`,
    'AMBIGUOUS_ID',
  );
}

/** Every position of the account, all pages. */
function allPositions(api: ServiceClient): Promise<Position[]> {
  return allItems((cursor) => api.listPositions({ limit: 100, cursor }));
}

/** `positions <id>`: a position id, or the one whose id starts with the typed prefix. */
export async function resolvePositionId(api: ServiceClient, typed: TypedId): Promise<string> {
  if (typed.kind === 'full') return typed.id;
  return pickByPrefix(
    typed.prefix,
    (await allPositions(api)).map((p) => p.id),
    'position',
    'trader positions',
  );
}

const buyIdsOf = (positions: Position[]) =>
  positions.map((p) => p.buyTradeId).filter((id): id is string => id !== null);

/** `cancel <buyId>`: a buy id, or the one whose id starts with the typed prefix (buys are found through their positions). */
export async function resolveBuyId(api: ServiceClient, typed: TypedId): Promise<string> {
  if (typed.kind === 'full') return typed.id;
  return pickByPrefix(typed.prefix, buyIdsOf(await allPositions(api)), 'buy', 'trader trades');
}

/** The answers that mean an id typed for `trades` is no trade id the service knows. */
const NOT_A_TRADE_ID = [400, 404, 422];

/**
 * `trades <id>`: a whole id as typed; a prefix is the buy whose id (or whose position's id: the
 * position's buy) starts with it, and when none has it, it is read as typed (a group key's format
 * is not shown, so it might be one).
 */
export async function resolveTradeId(api: ServiceClient, typed: TypedTradeId): Promise<string> {
  if (typed.kind === 'full') return typed.id;
  const positions = await allPositions(api);
  const buyOfPosition = new Map(positions.filter((p) => p.buyTradeId !== null).map((p) => [p.id, p.buyTradeId!]));
  const buys = [...buyIdsOf(positions), ...buyOfPosition.keys()];
  if (!buys.some((id) => id.toLowerCase().startsWith(typed.prefix))) {
    const asTyped = await api.getTradeStatus(typed.typed).then(
      () => true,
      (err: unknown) => {
        // Not found, or refused as malformed (400, 422): the service does not know it as a trade
        // id. Any other failure (a key refused, a rate limit) is about the request: it is said.
        if (err instanceof ApiError && err.status !== null && NOT_A_TRADE_ID.includes(err.status)) return false;
        throw err;
      },
    );
    if (asTyped) return typed.typed;
  }
  const picked = pickByPrefix(typed.prefix, buys, 'buy or position', 'trader trades');
  return buyOfPosition.get(picked) ?? picked;
}

/**
 * The buy that opened position `id`, for `trades <id>` given a position's id (whole) where the
 * service knows no trade by it; null when it is no position of this account, or has no buy.
 */
export async function buyOfPosition(api: ServiceClient, id: string): Promise<string | null> {
  try {
    return (await api.getPosition(id)).buyTradeId;
  } catch (err) {
    if (err instanceof ApiError && err.status !== null && NOT_A_TRADE_ID.includes(err.status)) return null;
    throw err;
  }
}
