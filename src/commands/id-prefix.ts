// Ids that tables shorten can be typed shortened: a unique prefix of at least 8 characters of a
// uuid is resolved from what the account's lists return (positions, and their buyTradeId for
// buys). A whole id goes straight to the service with no list read.
import type { ServiceClient } from '../api/client.js';
import type { Position } from '../api/types.js';
import { ApiError, UsageError } from '../errors.js';
import { parseTradeId, parseUuid, printable } from './arguments.js';

/** Fewest characters of an id that may be typed for it. */
export const MIN_PREFIX_LENGTH = 8;
const UUID_SHAPE = 'xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx';

export type TypedId = { kind: 'full'; id: string } | { kind: 'prefix'; prefix: string };

/** True when `value` could be the start of a uuid (hex digits, dashes where a uuid has them). */
function uuidShaped(value: string): boolean {
  if (value.length === 0 || value.length > UUID_SHAPE.length) return false;
  return Array.from(value).every((c, i) => (UUID_SHAPE[i] === '-' ? c === '-' : /[0-9a-f]/i.test(c)));
}

/**
 * A typed uuid or uuid prefix (a trailing `…` copied from a table is dropped). Exit 2 for what
 * can be neither, and for a prefix shorter than 8 characters.
 */
export function parseUuidOrPrefix(value: string, what: string): TypedId {
  const typed = value.replace(/(…|\.\.\.)$/, '');
  if (typed.length === UUID_SHAPE.length) return { kind: 'full', id: parseUuid(typed, what) };
  if (!uuidShaped(typed)) {
    throw new UsageError(`${what} must be a uuid like 3f0c2a9e-…, or its first ${MIN_PREFIX_LENGTH} or more characters; got "${printable(value)}"`);
  }
  if (typed.length < MIN_PREFIX_LENGTH) {
    throw new UsageError(`${what} "${printable(value)}" is too short: type at least ${MIN_PREFIX_LENGTH} characters of it, or the whole id`);
  }
  return { kind: 'prefix', prefix: typed.toLowerCase() };
}

/** The one candidate starting with `prefix`; exit 2 naming them when there are none or several. */
export function pickByPrefix(prefix: string, candidates: Iterable<string>, what: string, whereListed: string): string {
  const matches = [...new Set([...candidates].filter((id) => id.toLowerCase().startsWith(prefix)))];
  if (matches.length === 1) return matches[0]!;
  if (matches.length === 0) throw new UsageError(`no ${what} of this account starts with ${prefix} (see \`${whereListed}\`)`, 'UNKNOWN_ID');
  const shown = matches.slice(0, 5).join(', ') + (matches.length > 5 ? `, and ${matches.length - 5} more` : '');
  throw new UsageError(`${prefix} is the start of ${matches.length} ${what}s: ${shown}; type more of the id`, 'AMBIGUOUS_ID');
}

/** Every position of the account, all pages (a service that repeats a cursor is an error). */
async function allPositions(api: ServiceClient): Promise<Position[]> {
  const all: Position[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (;;) {
    const page = await api.listPositions({ limit: 100, cursor });
    all.push(...page.items);
    const next = page.pagination.hasMore ? page.pagination.nextCursor : null;
    if (!next) return all;
    if (seen.has(next)) throw new ApiError('unexpected response from the service: pagination returned a cursor twice', { code: 'UNEXPECTED_RESPONSE', requestId: page.requestId });
    seen.add(next);
    cursor = next;
  }
}

/** `positions <id>`: a position id or a unique prefix of one. */
export async function resolvePositionId(api: ServiceClient, value: string): Promise<string> {
  const typed = parseUuidOrPrefix(value, 'position id');
  if (typed.kind === 'full') return typed.id;
  return pickByPrefix(typed.prefix, (await allPositions(api)).map((p) => p.id), 'position', 'trader positions --all');
}

const buyIdsOf = (positions: Position[]) => positions.map((p) => p.buyTradeId).filter((id): id is string => id !== null);

/** `cancel <buyId>`: a buy id or a unique prefix of one (buys are found through their positions). */
export async function resolveBuyId(api: ServiceClient, value: string): Promise<string> {
  const typed = parseUuidOrPrefix(value, 'buy id');
  if (typed.kind === 'full') return typed.id;
  return pickByPrefix(typed.prefix, buyIdsOf(await allPositions(api)), 'buy', 'trader positions --all');
}

/**
 * `trades <id>`: a `sell_…` id, a sell group key or a buy id as typed; what has the shape of the
 * start of a uuid is resolved as a buy id prefix (and, when no buy has it, read as typed: a
 * group key's format is not shown, so it might be one).
 */
export async function resolveTradeId(api: ServiceClient, value: string): Promise<string> {
  const typed = value.replace(/(…|\.\.\.)$/, '');
  if (typed.startsWith('sell_') || typed.length === UUID_SHAPE.length || !uuidShaped(typed)) return parseTradeId(value);
  const prefix = parseUuidOrPrefix(typed, 'trade id');
  if (prefix.kind === 'full') return prefix.id;
  const buys = buyIdsOf(await allPositions(api));
  if (!buys.some((id) => id.toLowerCase().startsWith(prefix.prefix))) {
    const asTyped = await api.getTradeStatus(typed).then(
      () => true,
      (err: unknown) => {
        // Any 4xx: the service does not know it as a trade id (some answer 400 for a malformed one).
        if (err instanceof ApiError && err.status !== null && err.status >= 400 && err.status < 500) return false;
        throw err;
      },
    );
    if (asTyped) return typed;
  }
  return pickByPrefix(prefix.prefix, buys, 'buy', 'trader positions --all');
}
