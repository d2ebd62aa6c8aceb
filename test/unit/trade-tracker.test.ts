// What is said when a trade stops, made once by the tracker (trade/trade-tracker.ts tradeRun):
// the right error class (so the exit code), what became of the trade by its phase, the follow
// command only when the trade may go on, the trade's key and id on every error, and the --json
// result a refusal or a decline owes stdout, which the entry writes.
import { describe, expect, it } from 'vitest';
import { stopKindOf } from '../../src/journal/recorder.js';
import { tradeRun, type StopWords, type TradePhase, type TradeTracker } from '../../src/trade/trade-tracker.js';
import {
  ApiError,
  DeclinedError,
  errorReport,
  TradeFailedError,
  ExitCode,
  InterruptedError,
  RefusedToSignError,
  tradeTagOf,
  UsageError,
} from '../../src/domain/errors.js';

const last = { id: 'b1', status: 'cancelled' };
const words: StopWords = {
  unsigned: 'the buy intent expires unused',
  resume: () => 'trader buy M 0.1sol --idempotency-key k1',
  result: (intent, key) => ({ intent, trade: null, idempotencyKey: key }),
};

/** What tradeRun throws for `err` thrown by a flow at `phase` (the trade created as b1 unless `id` is null). */
async function stopAt(
  phase: TradePhase,
  err: unknown,
  opts: { id?: string | null; proven?: string | null; inFlow?: boolean } = {},
): Promise<any> {
  const thrown = await tradeRun('buy', 'k1', async (track: TradeTracker) => {
    const fail = async () => {
      const id = opts.id === undefined ? 'b1' : opts.id;
      if (id !== null) track.created(id, last, false);
      track.phase = phase;
      if (opts.proven !== undefined && err instanceof ApiError) throw track.serviceError(err, opts.proven);
      throw err;
    };
    if (opts.inFlow === false) return fail();
    return track.flow(words, fail);
  }).catch((e: unknown) => e);
  return thrown;
}

describe('tradeRun: a stop said once', () => {
  it('interrupted: at the prompt nothing was signed; before submitting nothing was submitted (with how to resume); after, the trade goes on', async () => {
    const at = (phase: TradePhase) => stopAt(phase, new InterruptedError('SIGINT'));
    expect(await at('prompting')).toBeInstanceOf(InterruptedError);
    expect((await at('prompting')).message).toBe(
      'interrupted (SIGINT); nothing was signed; the buy intent expires unused; to pick it up again: trader buy M 0.1sol --idempotency-key k1',
    );
    expect((await at('checking')).message).toBe(
      'interrupted (SIGINT); nothing was submitted; the buy intent expires unused; to pick it up again: trader buy M 0.1sol --idempotency-key k1',
    );
    expect((await at('submitted')).message).toBe(
      'interrupted (SIGINT); the trade goes on; follow it with: trader trades b1 --watch',
    );
    // The command each ends with is marked, to stand on a line of its own in human mode.
    expect((await at('prompting')).command).toBe('trader buy M 0.1sol --idempotency-key k1');
    expect((await at('submitted')).command).toBe('trader trades b1 --watch');
    expect((await stopAt('submitted', new InterruptedError('SIGTERM'))).exitCode).toBe(ExitCode.sigterm);
  });

  it('a service error: what the state proves, and the follow command only once the trade is in the service’s hands', async () => {
    const error = new ApiError('HTTP 400: no', { status: 400, requestId: 'req_1' });
    const before = (await stopAt('approved', error, { proven: 'nothing was spent' })) as ApiError;
    expect(before.message).toBe('HTTP 400: no; nothing was spent');
    expect(before.requestId).toBe('req_1');
    const after = await stopAt('submitted', error, { proven: null });
    expect(after.message).toBe('HTTP 400: no; the trade may still go on: check it with trader trades b1 --watch');
    expect(after.command).toBe('trader trades b1 --watch');
    expect(before.command).toBeNull();
    expect(error.message).toBe('HTTP 400: no'); // the flow's error is never rewritten
    expect((await stopAt('submitted', error, { id: 'x; rm -rf ~' })).message).toContain(
      "trader trades 'x; rm -rf ~' --watch",
    );
  });

  it('refused and declined: the error as the flow threw it (exit 6 / exit 4), carrying the --json result, only once a trade was seen', async () => {
    const refusal = new RefusedToSignError(['bad'], ['the buy intent was cancelled; nothing was signed']);
    const refused = await stopAt('checking', refusal);
    expect(refused).toBe(refusal);
    expect(refused.exitCode).toBe(ExitCode.refusedToSign);
    expect(tradeTagOf(refused)?.result).toEqual({ intent: last, trade: null, idempotencyKey: 'k1' });
    const declined = await stopAt('prompting', new DeclinedError('Declined; nothing was signed.'));
    expect(declined).toBeInstanceOf(DeclinedError);
    expect(declined.exitCode).toBe(ExitCode.tradeFailed);
    expect(tradeTagOf(declined)?.result).toEqual({ intent: last, trade: null, idempotencyKey: 'k1' });
    // Nothing created yet: no result to print.
    expect(tradeTagOf(await stopAt('creating', new RefusedToSignError(['bad']), { id: null }))?.result).toBeUndefined();
  });

  it('before and after the flow (the command’s checks, its verdicts): the error unchanged, with the key; only a stop in the flow owes a result', async () => {
    const local = new UsageError('over the limit', 'OVER_LIMIT');
    const early = await stopAt('preflight', local, { id: null, inFlow: false });
    expect(early).toBe(local);
    expect(errorReport(early)).toMatchObject({ idempotencyKey: 'k1' });
    expect(errorReport(early).tradeId).toBeUndefined();
    // A dry run's refusal comes after the flow returned, its result already printed: none is owed again.
    const verdict = await tradeRun('buy', 'k1', async (track) => {
      await track.flow(words, async () => track.created('b1', last, false));
      throw new RefusedToSignError(['bad']);
    }).catch((e: unknown) => e);
    expect(tradeTagOf(verdict)).toEqual({ idempotencyKey: 'k1', id: 'b1' });
    // An interrupt in the command's checks is not said as a trade's: nothing was created.
    expect((await stopAt('preflight', new InterruptedError('SIGINT'), { id: null, inFlow: false })).message).toBe(
      'interrupted (SIGINT)',
    );
  });

  it('a local refusal in the flow is its own usage error (exit 2), with the trade’s key and id', async () => {
    const error = new UsageError('cannot pin the treasury', 'TRUST_STORE');
    const thrown = await stopAt('checking', error);
    expect(thrown).toBe(error);
    expect(errorReport(thrown)).toMatchObject({ code: 'TRUST_STORE', idempotencyKey: 'k1', tradeId: 'b1' });
  });

  it('the journal records each stop by its kind, with the code of an error that carries one; a bug is no stop', () => {
    expect(stopKindOf(new RefusedToSignError(['bad']))).toEqual({ outcome: 'refused' });
    expect(stopKindOf(new DeclinedError('Declined.'))).toEqual({ outcome: 'declined' });
    expect(stopKindOf(new InterruptedError('SIGTERM'))).toEqual({ outcome: 'interrupted' });
    expect(stopKindOf(new ApiError('HTTP 500', { status: 500, code: 'INTERNAL' }))).toEqual({
      outcome: 'service-error',
      detail: 'INTERNAL',
    });
    expect(stopKindOf(new UsageError('mine', 'IDEMPOTENCY_MISMATCH'))).toEqual({
      outcome: 'refused',
      detail: 'IDEMPOTENCY_MISMATCH',
    });
    expect(stopKindOf(new TradeFailedError('ended', 'DEPOSIT_EXPIRED'))).toEqual({
      outcome: 'ended',
      detail: 'DEPOSIT_EXPIRED',
    });
    expect(stopKindOf(new TypeError('bug'))).toBeNull();
  });
});
