// The one table that routes errors: each error class and code → category, retryable and exit code,
// as `--json` error lines and MCP tool errors carry them (docs/scripting.md's exit-code table says the same).
import { describe, expect, it } from 'vitest';
import { CommanderError } from 'commander';
import {
  ApiError,
  DeclinedError,
  ERROR_CATEGORIES,
  errorReport,
  errorTail,
  exitCodeOf,
  InterruptedError,
  keyedRetry,
  tagTrade,
  PendingError,
  RefusedToSignError,
  ServiceRejectedError,
  TradeFailedError,
  UsageError,
} from '../../src/domain/errors.js';
import { UncertainOutcomeError } from '../../src/api/http-errors.js';
import { ChainContradictionError, ChainUnreachableError, ChainUnverifiedError } from '../../src/chain/chain-errors.js';

const api = (status: number | null, code?: string) => new ApiError('x', { status, code });

const TABLE: Array<[string, unknown, string, boolean, number]> = [
  ['usage error', new UsageError('bad amount', 'INVALID_ARGUMENT'), 'usage', false, 2],
  ['over a limit', new UsageError('over', 'OVER_LIMIT'), 'usage', false, 2],
  ['not configured', new UsageError('no url', 'NOT_CONFIGURED'), 'usage', false, 2],
  ['confirmation needed', new UsageError('needs --yes', 'CONFIRMATION_REQUIRED'), 'usage', false, 2],
  ['401', api(401, 'UNAUTHORIZED'), 'auth', false, 3],
  ['403', api(403, 'FORBIDDEN'), 'auth', false, 3],
  ['429', api(429, 'RATE_LIMITED'), 'rate_limit', true, 3],
  ['a 4xx with a 429 code', api(400, 'RATE_LIMITED'), 'rate_limit', true, 3],
  ['no connection', api(null, 'NETWORK_ERROR'), 'network', true, 3],
  [
    'a lost answer (uncertain)',
    new UncertainOutcomeError('lost', { status: null, code: 'NETWORK_ERROR' }),
    'network',
    true,
    3,
  ],
  ['a request timeout', api(null, 'REQUEST_TIMEOUT'), 'network', true, 3],
  ['a body that stopped coming', api(200, 'REQUEST_TIMEOUT'), 'network', true, 3],
  ['500', api(500, 'SERVER_ERROR'), 'service', true, 3],
  ['502', api(502, 'BAD_GATEWAY'), 'service', true, 3],
  ['503', api(503, 'SERVICE_UNAVAILABLE'), 'service', true, 3],
  ['504', api(504, 'GATEWAY_TIMEOUT'), 'service', true, 3],
  ['499 (last 4xx)', api(499), 'service', false, 3],
  ['400', api(400, 'BAD_REQUEST'), 'service', false, 3],
  ['404', api(404, 'NOT_FOUND'), 'service', false, 3],
  ['409', api(409, 'CONFLICT'), 'service', false, 3],
  ['422 insufficient balance', api(422, 'INSUFFICIENT_BALANCE'), 'service', false, 3],
  [
    'a create refused as invalid (400, 422)',
    new ServiceRejectedError('the service refused this buy: HTTP 422: …', {
      code: 'UNKNOWN_TOKEN',
      status: 422,
      requestId: 'req_1',
    }),
    'usage',
    false,
    2,
  ],
  ['a malformed answer', api(200, 'UNEXPECTED_RESPONSE'), 'service', false, 3],
  ['not cancellable', api(409, 'NOT_CANCELLABLE'), 'service', false, 3],
  ['a failed trade', new TradeFailedError('failed', 'PRICE_MOVED'), 'trade_failed', false, 4],
  ['declined at the prompt', new DeclinedError('Declined; nothing was signed.'), 'trade_failed', false, 4],
  ['gave up waiting', new PendingError('still pending'), 'timeout', true, 5],
  ['refused to sign', new RefusedToSignError(['the fee payer is not your wallet']), 'refused_to_sign', false, 6],
  ['SIGINT', new InterruptedError('SIGINT'), 'interrupted', true, 130],
  ['SIGTERM', new InterruptedError('SIGTERM'), 'interrupted', true, 143],
  ['the RPC unreachable', new ChainUnreachableError('could not read the balance'), 'network', true, 3],
  ['the chain contradicts the service', new ChainContradictionError('the payout pays less'), 'service', false, 3],
  ['a verification not completed', new ChainUnverifiedError('the deposit is not on chain'), 'service', false, 3],
  ['a bug', new TypeError('x is undefined'), 'internal', false, 1],
  ['a thrown string', 'boom', 'internal', false, 1],
];

describe('error category, retryable and exit code', () => {
  it.each(TABLE)('%s', (_name, err, category, retryable, exit) => {
    const report = errorReport(err);
    expect(report.category).toBe(category);
    expect(report.retryable).toBe(retryable);
    expect(exitCodeOf(err)).toBe(exit);
    expect(Object.keys(report).sort()).toEqual(['category', 'code', 'message', 'requestId', 'retryable', 'status']);
    if (err instanceof ServiceRejectedError) expect([report.status, report.requestId]).toEqual([422, 'req_1']);
  });

  it('every category is reached by the table', () => {
    const reached = new Set(TABLE.map((row) => row[2]));
    expect([...reached].sort()).toEqual([...ERROR_CATEGORIES].sort());
  });

  it('carries status and request id of a service error, and hints in the message', () => {
    const report = errorReport(
      new ApiError('HTTP 503: busy', {
        status: 503,
        code: 'SERVICE_UNAVAILABLE',
        requestId: 'req-1',
        hints: ['try later'],
      }),
    );
    expect(report).toEqual({
      code: 'SERVICE_UNAVAILABLE',
      message: 'HTTP 503: busy; try later',
      status: 503,
      requestId: 'req-1',
      category: 'service',
      retryable: true,
    });
  });

  it('names an unexpected error internal, without a stack', () => {
    expect(errorReport(new Error('oops'))).toEqual({
      code: 'INTERNAL',
      message: 'internal error: oops',
      status: null,
      requestId: null,
      category: 'internal',
      retryable: false,
    });
  });

  it('a commander error is not a TraderError (run.ts wraps it as a usage error first)', () => {
    expect(errorReport(new CommanderError(1, 'commander.unknownOption', 'x')).category).toBe('internal');
  });
});

describe("a trade's errors carry its key", () => {
  it('a tagged error gives the idempotency key and, once known, the trade id; the contract fields stay', () => {
    const err = tagTrade(api(503, 'SERVICE_UNAVAILABLE'), { idempotencyKey: 'k-1', id: 'buy-1' });
    expect(errorReport(err)).toMatchObject({
      category: 'service',
      retryable: true,
      status: 503,
      idempotencyKey: 'k-1',
      tradeId: 'buy-1',
    });
    const early = errorReport(tagTrade(api(503), { idempotencyKey: 'k-2', id: null }));
    expect(early.idempotencyKey).toBe('k-2');
    expect('tradeId' in early).toBe(false);
  });

  it('the first tag stays: an error passed up through two handlers keeps its own trade', () => {
    const err = tagTrade(new PendingError('still'), { idempotencyKey: 'first', id: null });
    tagTrade(err, { idempotencyKey: 'second', id: null });
    expect(errorReport(err).idempotencyKey).toBe('first');
  });

  it('a trade error is retryable only with a key to retry with', () => {
    expect(keyedRetry(errorReport(api(503))).retryable).toBe(false);
    expect(keyedRetry(errorReport(tagTrade(api(503), { idempotencyKey: 'k', id: null }))).retryable).toBe(true);
    expect(
      keyedRetry(errorReport(tagTrade(new RefusedToSignError(['x']), { idempotencyKey: 'k', id: null }))).retryable,
    ).toBe(false);
  });
});

describe('an error said once', () => {
  it('a clause the message repeats, and a hint the message already holds, are said once; the rest keep their order', () => {
    const err = new ApiError('buy b1 is cancelled; the trade may still go on; the trade may still go on', {
      status: 422,
      hints: ['the trade may still go on', 'look again', 'look again'],
    });
    expect(errorTail(err)).toEqual({ message: 'buy b1 is cancelled; the trade may still go on', hint: 'look again' });
    expect(errorReport(err).message).toBe('buy b1 is cancelled; the trade may still go on; look again');
  });
});
