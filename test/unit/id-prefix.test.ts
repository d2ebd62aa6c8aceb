// Ids typed shortened: a unique prefix of 8+ characters is resolved from the account's lists;
// an ambiguous or unknown one, or one too short, is exit 2 naming the candidates.
import { describe, expect, it } from 'vitest';
import type { ServiceClient } from '../../src/api/client.js';
import type { Position } from '../../src/api/types.js';
import { ApiError, UsageError } from '../../src/domain/errors.js';
import { parseTradeIdArgument, parseUuidOrPrefix } from '../../src/cli/argument-parsers.js';
import {
  pickByPrefix,
  resolveBuyId as resolveBuy,
  resolvePositionId as resolvePosition,
  resolveTradeId as resolveTrade,
} from '../../src/cli/id-prefix.js';
import { position } from './api-helpers.js';

const A = '3f0c2a9e-1b2c-4d5e-8f90-0123456789ab';
const B = '3f0c2a9e-ffff-4d5e-8f90-0123456789ab';
const C = '7a7a7a7a-0000-4000-8000-000000000000';

/** A client whose position list comes in pages of two; it counts the list reads. */
function fakeApi(ids: Array<[positionId: string, buyId: string | null]>, statusAnswer = 404) {
  const positions = ids.map(([id, buyTradeId]) => ({ ...position, id, buyTradeId }) as Position);
  const calls = { list: 0, status: [] as string[] };
  const api = {
    async listPositions({ cursor }: { cursor?: string }) {
      calls.list++;
      const from = cursor ? Number(cursor) : 0;
      const next = from + 2 < positions.length ? String(from + 2) : null;
      return {
        items: positions.slice(from, from + 2),
        pagination: { nextCursor: next, hasMore: next !== null },
        requestId: 'r',
      };
    },
    async getTradeStatus(id: string) {
      calls.status.push(id);
      throw new ApiError(`HTTP ${statusAnswer}`, { status: statusAnswer });
    },
  } as unknown as ServiceClient;
  return { api, calls };
}

// The ids as the commands' definitions parse them.
const resolvePositionId = (api: ServiceClient, typed: string) =>
  resolvePosition(api, parseUuidOrPrefix(typed, 'position id'));
const resolveBuyId = (api: ServiceClient, typed: string) => resolveBuy(api, parseUuidOrPrefix(typed, 'buy id'));
const resolveTradeId = (api: ServiceClient, typed: string) => resolveTrade(api, parseTradeIdArgument(typed));

const usage = async (p: Promise<unknown>) => {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(UsageError);
  return (err as UsageError).message;
};

describe('parseUuidOrPrefix', () => {
  it('a whole uuid, or 8 to 35 characters of its shape (a copied trailing … is dropped)', () => {
    expect(parseUuidOrPrefix(A.toUpperCase(), 'buy id')).toEqual({ kind: 'full', id: A });
    expect(parseUuidOrPrefix('3f0c2a9e', 'buy id')).toEqual({ kind: 'prefix', prefix: '3f0c2a9e' });
    expect(parseUuidOrPrefix('3F0C2A9E-1…', 'buy id')).toEqual({ kind: 'prefix', prefix: '3f0c2a9e-1' });
  });

  it('too short, or not the shape of a uuid: exit 2', () => {
    expect(() => parseUuidOrPrefix('3f0c2a9', 'position id')).toThrow(
      /position id "3f0c2a9" is too short: type at least 8 characters/,
    );
    for (const bad of ['not-a-uuid', '3f0c2a9e1b2c', `${A}x`, 'sell_abc', '../me', '3f0c2a9g']) {
      expect(() => parseUuidOrPrefix(bad, 'buy id')).toThrow(UsageError);
    }
  });
});

describe('pickByPrefix', () => {
  it('the one match; none or several name what was looked for', () => {
    expect(pickByPrefix('3f0c2a9e-1', [A, B, C], 'buy', 'x')).toBe(A);
    expect(() => pickByPrefix('3f0c2a9e', [A, B, C], 'buy', 'x')).toThrow(
      `3f0c2a9e is the start of 2 buys: ${A}, ${B}; type more of the id`,
    );
    expect(() => pickByPrefix('00000000', [A, B], 'position', 'trader positions')).toThrow(
      'no position of this account starts with 00000000 (see `trader positions`)',
    );
  });
});

describe('resolving against the lists', () => {
  it('a whole id needs no list read', async () => {
    const { api, calls } = fakeApi([[A, C]]);
    expect(await resolvePositionId(api, A)).toBe(A);
    expect(await resolveBuyId(api, C)).toBe(C);
    expect(await resolveTradeId(api, C)).toBe(C);
    expect(await resolveTradeId(api, 'sell_abc')).toBe('sell_abc');
    expect(calls).toEqual({ list: 0, status: [] });
  });

  it('a unique prefix is found on any page: positions by id, buys by the positions’ buyTradeId', async () => {
    const { api, calls } = fakeApi([
      ['11111111-0000-4000-8000-000000000001', null],
      ['22222222-0000-4000-8000-000000000002', A],
      [C, B],
    ]);
    expect(await resolvePositionId(api, '7a7a7a7a')).toBe(C);
    expect(calls.list).toBe(2);
    expect(await resolveBuyId(api, '3f0c2a9e-f')).toBe(B);
    expect(await resolveTradeId(api, '3f0c2a9e-1b')).toBe(A);
    // A position's id (its prefix) in `trades` means the buy that opened it: what `positions` lists can be followed.
    expect(await resolveTradeId(api, '22222222')).toBe(A);
    expect(await resolveTradeId(api, '7a7a7a7a')).toBe(B);
  });

  it('ambiguous and unknown prefixes are exit 2; an unknown trade prefix is first tried as a trade id as typed', async () => {
    const { api, calls } = fakeApi([
      ['11111111-0000-4000-8000-000000000001', A],
      ['22222222-0000-4000-8000-000000000002', B],
    ]);
    expect(await usage(resolveBuyId(api, '3f0c2a9e'))).toBe(
      `3f0c2a9e is the start of 2 buys: ${A}, ${B}; type more of the id`,
    );
    expect(await usage(resolvePositionId(api, '33333333'))).toMatch(
      /^no position of this account starts with 33333333/,
    );
    expect(await usage(resolveTradeId(api, 'deadbeef'))).toBe(
      'no buy or position of this account starts with deadbeef (see `trader trades`)',
    );
    expect(await usage(resolveBuyId(api, 'deadbeef'))).toBe(
      'no buy of this account starts with deadbeef (see `trader trades`)',
    );
    expect(calls.status).toEqual(['deadbeef']);
    expect(() => parseTradeIdArgument('dead')).toThrow(/too short/);
  });

  it('a trade prefix tried as typed: 400, 404 and 422 mean no such trade (the prefix error, exit 2); 401, 403 and 429 are said as they are', async () => {
    for (const status of [400, 404, 422]) {
      expect(await usage(resolveTradeId(fakeApi([], status).api, 'deadbeef'))).toMatch(
        /^no buy or position of this account starts with deadbeef/,
      );
    }
    for (const status of [401, 403, 429]) {
      const err = await resolveTradeId(fakeApi([], status).api, 'deadbeef').then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(ApiError);
      expect((err as ApiError).status).toBe(status);
    }
  });
});
