import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ServiceClient } from '../../src/api/client.js';
import type { GetSellResponse, TradeStatus } from '../../src/api/types.js';
import { systemClock } from '../../src/domain/clock.js';
import { pollUntil } from '../../src/trade/poll.js';
import { watchSell, watchTrade } from '../../src/trade/watch.js';

const START = 5_000_000;

// Fake timers stand in for time, so the gaps between reads are exact.
beforeEach(() => {
  vi.useFakeTimers({ now: START });
});
afterEach(() => {
  vi.useRealTimers();
});

const signal = new AbortController().signal;

async function settle<T>(p: Promise<T>): Promise<T> {
  p.catch(() => {});
  await vi.runAllTimersAsync();
  return p;
}

const pending: TradeStatus = {
  id: 'T1',
  side: 'sell',
  status: 'swap_pending',
  stage: 'swap_pending',
  terminal: false,
  signatures: {},
  failure: null,
  refund: null,
  completedAt: null,
} as unknown as TradeStatus;

/** A service whose trade never ends, recording when (ms after START) its status was read. */
function slowService() {
  const statusReads: number[] = [];
  const api = {
    getTradeStatus: async () => {
      statusReads.push(Date.now() - START);
      return pending;
    },
    getBuy: async () => {
      throw new Error('not a buy');
    },
    getSell: async (): Promise<GetSellResponse> =>
      ({
        authorization: { id: 'sell_1', status: 'authorized' },
        sell: { status: 'swap_pending', groupKey: 'T1' },
      }) as unknown as GetSellResponse,
  } as unknown as ServiceClient;
  return { api, statusReads };
}

describe('trades <id> --watch: the status endpoint is never read closer than 2 s, deadline or not', () => {
  it('a deadline that leaves exactly 2.000 s after the last read allows that read', async () => {
    const { api, statusReads } = slowService();
    const r = await settle(
      watchTrade({ api, clock: systemClock, signal }, 'T1', { intervalMs: 3000, deadlineMs: START + 5000 }),
    );
    expect(r.done).toBe(false);
    expect(statusReads).toEqual([0, 3000, 5000]);
  });

  it('a deadline that would force a read 1.999 s after the last one stops without reading', async () => {
    const { api, statusReads } = slowService();
    let endedAt = 0;
    const r = await settle(
      watchTrade({ api, clock: systemClock, signal }, 'T1', { intervalMs: 3000, deadlineMs: START + 4999 }).finally(
        () => (endedAt = Date.now()),
      ),
    );
    expect(r.done).toBe(false);
    expect(statusReads).toEqual([0, 3000]);
    expect(endedAt - START).toBe(3000); // stopped at once, not at the deadline
  });

  it('the reported case: --interval 2 with the deadline 0.87 s after a read stops there', async () => {
    const { api, statusReads } = slowService();
    await settle(watchTrade({ api, clock: systemClock, signal }, 'T1', { intervalMs: 2000, deadlineMs: START + 4870 }));
    expect(statusReads).toEqual([0, 2000, 4000]);
  });

  it('a sell_… watch that reads the group status keeps the same floor at its deadline', async () => {
    for (const [deadline, reads] of [
      [4000, [0, 2000, 4000]],
      [3999, [0, 2000]],
    ] as const) {
      vi.setSystemTime(START);
      const { api, statusReads } = slowService();
      const r = await settle(
        watchSell({ api, clock: systemClock, signal }, 'sell_1', { intervalMs: 2000, deadlineMs: START + deadline }),
      );
      expect(r.done).toBe(false);
      expect(statusReads).toEqual(reads);
    }
  });
});

describe('pollUntil minGapMs', () => {
  it('without a floor the deadline cuts the pause; with one it stops instead (both sides of the floor)', async () => {
    const times = (minGapMs: number | undefined, deadline: number) => {
      vi.setSystemTime(START);
      const reads: number[] = [];
      return settle(
        pollUntil({
          clock: systemClock,
          signal,
          intervalMs: 3000,
          deadlineMs: START + deadline,
          ...(minGapMs === undefined ? {} : { minGapMs }),
          read: async () => reads.push(Date.now() - START),
          isDone: () => false,
        }),
      ).then(() => reads);
    };
    expect(await times(undefined, 4999)).toEqual([0, 3000, 4999]);
    expect(await times(2000, 4999)).toEqual([0, 3000]);
    expect(await times(2000, 5000)).toEqual([0, 3000, 5000]);
    expect(await times(2001, 5000)).toEqual([0, 3000]);
  });
});

describe('the client keeps the 2 s floor on retries of /trades/{id}/status', () => {
  it('a 503 on a status read is retried no sooner than 2 s (or the Retry-After, if longer); other reads keep their short backoff', async () => {
    vi.useRealTimers(); // a real local server; the client's clock is the fake one of api-helpers
    const { startServer, sendJson, ok, tradeStatus, intent, client } = await import('./api-helpers.js');
    const server = await startServer((_q, res, n) => {
      if (n < 2) sendJson(res, 503, { error: { code: 'BUSY', message: 'try later' } });
      else if (n === 2) sendJson(res, 200, ok(tradeStatus));
      else if (n < 5)
        sendJson(res, 503, { error: { code: 'BUSY', message: 'try later' } }, n === 4 ? { 'retry-after': '5' } : {});
      else if (n === 5) sendJson(res, 200, ok(tradeStatus));
      else if (n < 8) sendJson(res, 503, { error: { code: 'BUSY', message: 'try later' } });
      else sendJson(res, 200, ok({ intent }));
    });
    try {
      const { c, clock } = client(server);
      await c.getTradeStatus(tradeStatus.id);
      expect(clock.delays).toEqual([2000, 2000]); // the backoff alone would be 125 and 250
      clock.delays.length = 0;
      await c.getTradeStatus(tradeStatus.id);
      expect(clock.delays).toEqual([2000, 5000]);
      clock.delays.length = 0;
      await c.getBuy(intent.id);
      expect(clock.delays).toEqual([125, 250]);
    } finally {
      await server.close();
    }
  });
});
