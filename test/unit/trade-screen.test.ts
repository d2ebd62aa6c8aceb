// What a buy or sell shows while it runs, written once for both sides: the creation note and its
// resume line, the stage on the progress line (stopped however the flow ends), a dry run's verdict
// with what became of the unsigned trade, the pending error. (A stop: trade-tracker.test.ts.)
import { describe, expect, it } from 'vitest';
import { tradeScreen, type TradeWords } from '../../src/views/trade-screen.js';
import type { Context } from '../../src/cli/context.js';
import { DeclinedError, ExitCode, PendingError, RefusedToSignError } from '../../src/domain/errors.js';
import { plainTheme } from '../../src/io/theme.js';

const words = (side: 'buy' | 'sell'): TradeWords => ({
  side,
  created: side === 'buy' ? 'created' : 'quoted',
  made: side === 'buy' ? 'buy intent' : 'sell authorization',
});

function fakeContext(json = false) {
  const seen = {
    notes: [] as string[],
    progress: [] as string[],
    stopped: 0,
    results: [] as Array<{ data: unknown; human: string }>,
  };
  const ctx = {
    settings: { timeoutSeconds: 120 },
    terminal: { columns: 80, rows: 24 },
    output: {
      json,
      theme: plainTheme,
      note: (text: string) => seen.notes.push(text),
      result: (data: unknown, human: (theme: typeof plainTheme) => string) =>
        seen.results.push({ data, human: human(plainTheme) }),
    },
    progress: async () => ({ update: (text: string) => seen.progress.push(text), stop: () => seen.stopped++ }),
  } as unknown as Context;
  return { ctx, seen };
}

describe('tradeScreen', () => {
  it('the creation note waits for the checks: then it names the trade and the command that resumes it (with the key) alone on its line; a dry run says the key; a resumed trade says so at once, and never the note', () => {
    const { ctx, seen } = fakeContext();
    const buy = tradeScreen(ctx, words('buy'), () => 'k1', false);
    buy.created('b1', 'awaiting_deposit', false);
    expect(seen.notes).toEqual([]);
    buy.resumable('trader buy M 1sol --idempotency-key k1');
    buy.resumable('trader buy M 1sol --idempotency-key k1');
    expect(seen.notes).toEqual([
      'Buy b1 created. If interrupted, resume with:\ntrader buy M 1sol --idempotency-key k1',
    ]);
    seen.notes.length = 0;
    const dry = tradeScreen(ctx, words('sell'), () => 'k2', true);
    dry.created('s1', 'awaiting_signature', false);
    dry.resumable('unused');
    expect(seen.notes).toEqual(['Sell s1 quoted. Idempotency key: k2']);
    seen.notes.length = 0;
    // Words that would pass 80 columns with what leads them go on the next line.
    const long = 'x'.repeat(60);
    const wide = tradeScreen(ctx, words('sell'), () => 'k2', true);
    wide.created(long, 'awaiting_signature', false);
    wide.resumable('unused');
    expect(seen.notes).toEqual([`Sell ${long} quoted.\nIdempotency key: k2`]);
    seen.notes.length = 0;
    const resumed = tradeScreen(ctx, words('sell'), () => 'k2', false);
    resumed.created('s1', 'authorized', true);
    resumed.resumable('unused');
    expect(seen.notes).toEqual(['Resuming sell s1 (authorized).']);
  });

  it('notShownWhole: what a yes agrees to and the question counted on the terminal (23 rows asked at 24, 24 not); --yes or no terminal never refused', () => {
    const { ctx } = fakeContext();
    const at = (rows: number, over: object = {}) =>
      ({ ...ctx, ...over, output: { ...ctx.output, noteRows: () => rows } }) as unknown as Context;
    const terminal = { rows: 24, stderrColumns: 80 };
    const ask = (c: Context) =>
      tradeScreen(c, words('buy'), () => 'k1', false).notShownWhole('the review', 'r', 'Sign?', { expired: 'x' });
    expect(ask(at(23, { terminal }))).toBeNull();
    expect(ask(at(24, { terminal }))).toEqual({
      notShown: 'the review and the question take 25 rows at 80 columns and this terminal shows 24: it was not asked',
      rows: 25,
    });
    expect(ask(at(24, { terminal, settings: { yes: true } }))).toBeNull();
    expect(ask(at(24, { terminal: { rows: 24 } }))).toBeNull();
  });

  it('run: the stage in words on the progress line, the result returned, the progress stopped', async () => {
    const { ctx, seen } = fakeContext();
    const screen = tradeScreen(ctx, words('buy'), () => 'k1', false);
    screen.created('b1', 'awaiting_deposit', false);
    const result = await screen.run(async (stage) => {
      stage('confirming_deposit');
      stage('swapping');
      return { kind: 'final' as const, value: 7 };
    });
    expect(result).toEqual({ kind: 'final', value: 7 });
    expect(seen.progress).toEqual(['Buy b1: confirming deposit', 'Buy b1: swapping']);
    expect(seen.stopped).toBe(1);
  });

  it('run: a flow that throws (a stop, or a bug) stops the progress line, prints nothing, and throws the error on unchanged', async () => {
    for (const thrown of [new DeclinedError('Declined.'), new TypeError('bug')]) {
      const { ctx, seen } = fakeContext(true);
      await expect(
        tradeScreen(ctx, words('sell'), () => 'k', false).run(async () => Promise.reject(thrown)),
      ).rejects.toBe(thrown);
      expect(seen.stopped).toBe(1);
      expect(seen.results).toEqual([]);
    }
  });

  it('a dry run that passed: the review, then what became of the trade; the --json result says ok', () => {
    const { ctx, seen } = fakeContext();
    const screen = tradeScreen(ctx, words('buy'), () => 'k', true);
    screen.created('b1', 'awaiting_deposit', false);
    screen.dryRun({ intent: { id: 'b1' } }, [], () => 'REVIEW', 'the buy intent was cancelled');
    expect(seen.results).toEqual([
      {
        data: { dryRun: true, ok: true, problems: [], intent: { id: 'b1' } },
        human:
          'REVIEW\nDry run: every check passed; nothing was signed.\nThe quote created buy intent b1 on the service; the buy intent was cancelled.',
      },
    ]);
  });

  it('a dry run that failed a check: the problems listed, then exit 6 with the fate in the hint (a cancel that failed is said as such)', () => {
    const { ctx, seen } = fakeContext();
    const fate = 'the buy intent could not be cancelled; it expires unused at 2030-01-01T00:05:00.000Z';
    let error: unknown;
    try {
      tradeScreen(ctx, words('buy'), () => 'k', true).dryRun(
        {},
        ['pays a stranger', 'fee too high'],
        () => 'REVIEW',
        fate,
      );
    } catch (e) {
      error = e;
    }
    // The reasons are said once, by the error the entry prints; the result points to it (--json keeps them).
    expect(seen.results[0]!.human).toBe('REVIEW\nDry run: refused; the error below says why.');
    expect((error as RefusedToSignError).message).toBe('refused to sign: pays a stranger; fee too high');
    expect(seen.results[0]!.data).toMatchObject({
      dryRun: true,
      ok: false,
      problems: ['pays a stranger', 'fee too high'],
    });
    expect(error).toBeInstanceOf(RefusedToSignError);
    expect((error as RefusedToSignError).exitCode).toBe(ExitCode.refusedToSign);
    expect((error as RefusedToSignError).hints).toEqual([`dry run: nothing was signed; ${fate}`]);
  });

  it('pending: exit 5, the state, the --timeout, and the follow command in the message itself', () => {
    const { ctx } = fakeContext();
    const error = tradeScreen(ctx, words('sell'), () => 'k', false).pending('sell_1', 'not final');
    expect(error).toBeInstanceOf(PendingError);
    expect(error.exitCode).toBe(ExitCode.pending);
    expect(error.message).toBe(
      'sell sell_1 is not final after 120 s; it may still finish; follow it with: trader trades sell_1 --watch',
    );
  });
});
