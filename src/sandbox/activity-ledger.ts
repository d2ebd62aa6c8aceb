// The activity ledger: append-only per account, listed newest first.
import type { ActivityEntry, ActivityType } from '../api/types.js';
import { ACTIVITY_TYPES } from '../api/types.js';
import { iso } from './offset-clock.js';
import { HttpError } from './sandbox-error.js';
import { newUuid } from './ids.js';
import { pageNewestFirst, parseLimit } from './pagination.js';
import type { World } from './world.js';

/** Append an entry to an account's ledger. */
export function addActivity(
  world: World,
  accountId: string,
  fields: Partial<ActivityEntry> & { type: ActivityType; status: string },
  at: number,
): ActivityEntry {
  const token = fields.mint ? world.tokens.get(fields.mint) : undefined;
  const entry: ActivityEntry = {
    id: newUuid(),
    signature: null,
    mint: null,
    symbol: token?.symbol ?? null,
    decimals: token?.decimals ?? null,
    amount: null,
    solLamports: null,
    usdValue: null,
    points: 0,
    createdAt: iso(at),
    ...fields,
  };
  world.account(accountId).activity.push(entry);
  return entry;
}

/** Parse the comma-separated `type` filter; each value must be a known type. */
export function parseTypeFilter(raw: string | null): Set<string> | null {
  if (raw === null) return null;
  const values = raw.split(',').map((v) => v.trim());
  for (const v of values) {
    if (!(ACTIVITY_TYPES as readonly string[]).includes(v)) {
      throw new HttpError(
        400,
        'VALIDATION_ERROR',
        `type must be a comma-separated list of ${ACTIVITY_TYPES.join(', ')}; got "${v}"`,
        {
          field: 'type',
        },
      );
    }
  }
  return new Set(values);
}

/** GET /activity: newest first, optional type filter. */
export function listActivity(world: World, accountId: string, query: URLSearchParams) {
  const types = parseTypeFilter(query.get('type'));
  const limit = parseLimit(query.get('limit'));
  const page = pageNewestFirst(world.account(accountId).activity, 'activity', {
    limit,
    cursor: query.get('cursor'),
    keep: types === null ? () => true : (e) => types.has(e.type),
  });
  return { data: page.data.map((e) => ({ ...e })), pagination: page.pagination };
}
