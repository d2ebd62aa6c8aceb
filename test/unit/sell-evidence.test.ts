// The sell's evidence rules: what the service said, in order, and what may be said of the tokens.
import { describe, expect, it } from 'vitest';
import {
  committed,
  contradiction,
  describeHistory,
  soldEvidence,
  soldWords,
  type SellSeen,
} from '../../src/domain/sell-evidence.js';
import { journalSeen } from '../../src/journal/trade-history.js';

const seen = (from: string, over: Partial<SellSeen> = {}): SellSeen => ({
  from,
  authorization: 'awaiting_signature',
  executionStarted: false,
  sell: null,
  failure: null,
  ...over,
});
const answer = seen('the authorize answer', {
  authorization: 'authorized',
  executionStarted: true,
  sell: 'swap_pending',
});

describe('contradiction', () => {
  it.each([
    [
      'authorized → expired',
      [
        seen('the authorize answer', { authorization: 'authorized', executionStarted: false }),
        seen('read 1', { authorization: 'expired' }),
      ],
      /read 1 reports the authorization expired after the authorize answer reported the signature taken/,
    ],
    [
      'authorized → awaiting its signature again',
      [answer, seen('read 1')],
      /awaiting_signature after the authorize answer reported the signature taken/,
    ],
    [
      'a sell order alone → expired',
      [
        seen('the authorize answer', {
          authorization: 'awaiting_signature',
          executionStarted: null,
          sell: 'swap_pending',
        }),
        seen('read 1', { authorization: 'expired', executionStarted: null }),
      ],
      /expired after the authorize answer/,
    ],
    [
      'execution started → cancelled',
      [answer, seen('read 1', { authorization: 'cancelled', executionStarted: true, sell: 'swap_pending' })],
      /cancelled after the authorize answer reported execution started/,
    ],
    [
      'execution started → failed before execution',
      [
        answer,
        seen('read 1', {
          authorization: 'failed',
          executionStarted: false,
          failure: 'QUOTE_BELOW_AUTHORIZED_MINIMUM',
          sell: 'swap_pending',
        }),
      ],
      /failed with execution not started after the authorize answer reported execution started/,
    ],
    [
      'a sell completed with a failure code',
      [
        answer,
        seen('read 1', {
          authorization: 'authorized',
          executionStarted: true,
          sell: 'completed',
          failure: 'SWAP_FAILED',
        }),
      ],
      /read 1 reports the sell completed and failed at once/,
    ],
    [
      'a sell completed with the authorization failed',
      [seen('read 1', { authorization: 'failed', sell: 'completed' })],
      /completed and failed at once/,
    ],
    [
      'a sell order that vanishes',
      [answer, seen('read 1', { authorization: 'authorized', executionStarted: true, sell: null })],
      /read 1 reports no sell order after the authorize answer reported one/,
    ],
    [
      'completed → failed',
      [
        answer,
        seen('read 1', { authorization: 'authorized', executionStarted: true, sell: 'completed' }),
        seen('the final read', {
          authorization: 'authorized',
          executionStarted: true,
          sell: 'failed',
          failure: 'PRICE_MOVED',
        }),
      ],
      /the final read reports the sell failed \(PRICE_MOVED\) after read 1 reported it completed/,
    ],
    [
      'failed → authorized',
      [seen('read 1', { authorization: 'failed', failure: 'X' }), seen('read 2', { authorization: 'authorized' })],
      /read 2 reports the authorization authorized after read 1 reported it failed/,
    ],
  ])('%s', (_name, history, says) => {
    expect(contradiction(history)).toMatch(says);
  });

  it.each([
    [
      'the honest path',
      [
        answer,
        seen('read 1', { authorization: 'authorized', executionStarted: true, sell: 'swap_pending' }),
        seen('read 2', { authorization: 'authorized', executionStarted: true, sell: 'completed' }),
      ],
    ],
    [
      'authorized, then failed before execution (execution never reported started)',
      [
        seen('the authorize answer', { authorization: 'authorized', executionStarted: false }),
        seen('read 1', { authorization: 'failed', executionStarted: false, failure: 'QUOTE_BELOW_AUTHORIZED_MINIMUM' }),
      ],
    ],
    [
      'PRICE_MOVED on the sell order after it started',
      [
        answer,
        seen('read 1', { authorization: 'authorized', executionStarted: true, sell: 'failed', failure: 'PRICE_MOVED' }),
      ],
    ],
    [
      'failed at the authorize answer, read failed again',
      [
        seen('the authorize answer', { authorization: 'failed', failure: 'Q' }),
        seen('read 1', { authorization: 'failed', failure: 'Q' }),
      ],
    ],
    ['nothing seen', []],
  ])('fits: %s', (_name, history) => {
    expect(contradiction(history)).toBeNull();
  });

  it('describes the history in order', () => {
    expect(describeHistory([answer, seen('read 1', { authorization: 'expired', executionStarted: null })])).toBe(
      'the authorize answer: authorization authorized, executionStarted true, sell swap_pending; then read 1: authorization expired, no sell order',
    );
  });
});

describe('what may be said of the tokens', () => {
  it('the signature was handed over: a sell the service never reported taking and reports failed before execution is its word, never a bare "nothing was sold" (attack-1 §4)', () => {
    const failedAtAnswer = [
      seen('the authorize answer', { authorization: 'failed', failure: 'QUOTE_BELOW_AUTHORIZED_MINIMUM' }),
    ];
    expect(committed(failedAtAnswer)).toBe(false);
    expect(soldEvidence(failedAtAnswer, true, 'QUOTE_BELOW_AUTHORIZED_MINIMUM')).toBe('service-says-nothing');
    // An authorize answered with an error, then a read: the authorization failed, execution not started.
    const readAfterError = [
      seen('read 1', { authorization: 'failed', executionStarted: false, failure: 'QUOTE_BELOW_AUTHORIZED_MINIMUM' }),
    ];
    expect(soldEvidence(readAfterError, true, 'QUOTE_BELOW_AUTHORIZED_MINIMUM')).toBe('service-says-nothing');
    expect(soldWords('service-says-nothing', 'trader trades sell_1')).toBe(
      'the service reports the sell failed before execution and that nothing was sold; the chain cannot prove it: check the holding (trader holdings) and trader trades sell_1 before selling again',
    );
    // Failed with a code by which the API does not say it did not run: unknown.
    expect(
      soldEvidence(
        [seen('read 1', { authorization: 'authorized', executionStarted: null, sell: null })].slice(0, 0),
        false,
        'SWAP_FAILED',
      ),
    ).toBe('unknown');
    for (const e of ['service-says-nothing', 'service-says-not-run', 'unknown'] as const)
      expect(soldWords(e, 'x')).not.toMatch(/^nothing was sold/);
  });

  it('once the signature was taken: the service\'s word for PRICE_MOVED or a pre-execution failure, unknown otherwise; never "nothing was sold"', () => {
    const moved = [
      answer,
      seen('read 1', { authorization: 'authorized', executionStarted: true, sell: 'failed', failure: 'PRICE_MOVED' }),
    ];
    expect(committed(moved)).toBe(true);
    expect(soldEvidence(moved, false, 'PRICE_MOVED')).toBe('service-says-not-run');
    expect(soldEvidence(moved, false, 'SWAP_FAILED')).toBe('unknown');
    const preExecution = [
      seen('the authorize answer', { authorization: 'authorized', executionStarted: false }),
      seen('read 1', { authorization: 'failed', executionStarted: false, failure: 'INSUFFICIENT_BALANCE' }),
    ];
    expect(soldEvidence(preExecution, true, 'INSUFFICIENT_BALANCE')).toBe('service-says-not-run');
    for (const e of ['service-says-not-run', 'unknown'] as const) {
      expect(soldWords(e, 'trader trades sell_1')).not.toMatch(/nothing (was )?sold/);
      expect(soldWords(e, 'trader trades sell_1')).toContain('trader trades sell_1');
    }
  });
});

describe("the journal's reports of a sell come first", () => {
  const none = { authorized: false, completed: false, evidence: [] };
  it('taken, completed, paid: each is a report; nothing recorded, none', () => {
    expect(journalSeen(none)).toEqual([]);
    expect(journalSeen({ ...none, authorized: true })).toEqual([
      {
        from: "this tool's journal (the authorize answer)",
        authorization: 'authorized',
        executionStarted: null,
        sell: null,
        failure: null,
      },
    ]);
    expect(journalSeen({ ...none, completed: true })).toEqual([
      {
        from: "this tool's journal (an earlier run saw the sell completed)",
        authorization: 'authorized',
        executionStarted: true,
        sell: 'completed',
        failure: null,
      },
    ]);
    expect(journalSeen({ ...none, evidence: [{ signature: 'R1', role: 'refund' }] })).toEqual([]);
    expect(journalSeen({ ...none, completed: true, evidence: [{ signature: 'P1', role: 'payout' }] })[0]!.from).toBe(
      "this tool's journal (payout P1 for this sell, verified on chain)",
    );
  });

  it("a paid sell now reported failed before execution is a contradiction naming the payout; reported completed again, none; only authorized, the failure is the service's word after it took the signature", () => {
    const failed = seen('read 1', {
      authorization: 'failed',
      executionStarted: false,
      failure: 'QUOTE_BELOW_AUTHORIZED_MINIMUM',
    });
    expect(
      contradiction([
        ...journalSeen({ ...none, authorized: true, evidence: [{ signature: 'P1', role: 'payout' }] }),
        failed,
      ]),
    ).toMatch(
      /read 1 reports the authorization failed with execution not started after this tool's journal \(payout P1 for this sell, verified on chain\) reported execution started/,
    );
    expect(
      contradiction([
        ...journalSeen({ ...none, completed: true }),
        seen('read 1', { authorization: 'authorized', executionStarted: true, sell: 'completed' }),
      ]),
    ).toBeNull();
    const authorizedOnly = [...journalSeen({ ...none, authorized: true }), failed];
    expect(contradiction(authorizedOnly)).toBeNull();
    expect(soldEvidence(authorizedOnly, true, 'QUOTE_BELOW_AUTHORIZED_MINIMUM')).toBe('service-says-not-run');
  });
});
