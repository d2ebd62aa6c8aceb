// What is said when a trade stops, from its TradeStop value: one message made once, the right
// error class (so the exit code), the follow command only when the trade may go on, and the
// --json result of a refusal or a decline.
import { describe, expect, it } from 'vitest';
import { presentStop, type StopWords } from '../../src/commands/trade-stop.js';
import type { Context } from '../../src/commands/context.js';
import type { TradeRef, TradeStop } from '../../src/domain/trade-stop.js';
import { ApiError, DeclinedError, ExitCode, InterruptedError, RefusedToSignError, UsageError } from '../../src/domain/errors.js';

const ref: TradeRef = { side: 'buy', id: 'b1', idempotencyKey: 'k1', last: { id: 'b1', status: 'cancelled' } };
const words: StopWords = {
  unsigned: 'the buy intent expires unused',
  resume: 'trader buy M 0.1sol --idempotency-key k1',
  jsonResult: (intent, key) => ({ intent, trade: null, idempotencyKey: key }),
};

function present(stop: TradeStop, json = false) {
  const printed: unknown[] = [];
  const ctx = { output: { json, result: (data: unknown) => printed.push(data) } } as unknown as Context;
  return { error: presentStop(ctx, stop, words), printed };
}

describe('presentStop', () => {
  it('interrupted: at the prompt nothing was signed; before submitting nothing was submitted (with how to resume); after, the trade goes on', () => {
    const at = (phase: 'prompting' | 'checking' | 'submitted') => present({ kind: 'interrupted', ref, signal: 'SIGINT', phase }).error;
    expect(at('prompting')).toBeInstanceOf(InterruptedError);
    expect(at('prompting').message).toBe('interrupted (SIGINT); nothing was signed; the buy intent expires unused; to pick it up again: trader buy M 0.1sol --idempotency-key k1');
    expect(at('checking').message).toBe('interrupted (SIGINT); nothing was submitted; the buy intent expires unused; to pick it up again: trader buy M 0.1sol --idempotency-key k1');
    expect(at('submitted').message).toBe('interrupted (SIGINT); the trade goes on; follow it with: trader trades b1 --watch');
    // The command each ends with is marked, to stand on a line of its own in human mode.
    expect(at('prompting').command).toBe('trader buy M 0.1sol --idempotency-key k1');
    expect(at('submitted').command).toBe('trader trades b1 --watch');
    expect(present({ kind: 'interrupted', ref, signal: 'SIGTERM', phase: 'submitted' }).error.exitCode).toBe(ExitCode.sigterm);
  });

  it('a service error: what the state proves, and the follow command only once the trade is in the service’s hands', () => {
    const error = new ApiError('HTTP 400: no', { status: 400, requestId: 'req_1' });
    const before = present({ kind: 'service-error', ref, error, phase: 'approved', proven: 'nothing was spent' }).error as ApiError;
    expect(before.message).toBe('HTTP 400: no; nothing was spent');
    expect(before.requestId).toBe('req_1');
    const after = present({ kind: 'service-error', ref, error, phase: 'submitted', proven: null }).error;
    expect(after.message).toBe('HTTP 400: no; the trade may still go on: check it with trader trades b1 --watch');
    expect(after.command).toBe('trader trades b1 --watch');
    expect(before.command).toBeNull();
    expect(error.message).toBe('HTTP 400: no'); // the flow's error is never rewritten
    expect(present({ kind: 'service-error', ref: { ...ref, id: 'x; rm -rf ~' }, error, phase: 'submitted', proven: null }).error.message).toContain(
      "trader trades 'x; rm -rf ~' --watch",
    );
  });

  it('refused and declined: the --json result is printed first (only in --json mode), then exit 6 / exit 4', () => {
    const refused = present({ kind: 'refused', ref, problems: ['bad'], hints: ['the buy intent was cancelled; nothing was signed'] }, true);
    expect(refused.error).toBeInstanceOf(RefusedToSignError);
    expect(refused.error.exitCode).toBe(ExitCode.refusedToSign);
    expect(refused.printed).toEqual([{ intent: { id: 'b1', status: 'cancelled' }, trade: null, idempotencyKey: 'k1' }]);
    const declined = present({ kind: 'declined', ref, detail: null }, true);
    expect(declined.error).toBeInstanceOf(DeclinedError);
    expect(declined.error.message).toBe('Declined; nothing was signed.');
    expect(declined.printed).toHaveLength(1);
    expect(present({ kind: 'declined', ref, detail: null }).printed).toEqual([]);
  });

  it('a local refusal is its own usage error (exit 2)', () => {
    const error = new UsageError('cannot pin the treasury', 'TRUST_STORE');
    expect(present({ kind: 'local', ref, error }).error).toBe(error);
  });
});
