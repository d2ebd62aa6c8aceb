// Every way a buy can end, in process against a fake service with fake timers: completed,
// accepted (--no-wait), dry run, timed out, and each stop — refused (with a cancel that worked
// or failed), declined, interrupted at the prompt and while waiting, a service error after
// signing (nothing spent, or the deposit taken), a local refusal (a key of another buy, a pin
// that cannot be stored), a treasury pinned by another process meanwhile.
import bs58 from 'bs58';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { presence } from '../../src/domain/presence.js';
import type { ServiceClient } from '../../src/api/client.js';
import type { BuyIntent, Trade } from '../../src/api/types.js';
import { systemClock } from '../../src/domain/clock.js';
import { runFlow, type FlowStop } from '../helpers/flow-stop.js';
import { ApiError, InterruptedError, UsageError } from '../../src/domain/errors.js';
import { buySteps, type BuyDeps, type BuyOutcome, type BuyRequest } from '../../src/trade/buy-flow.js';
import type { BuyReview } from '../../src/trade/buy-review.js';
import type { SignedDeposit } from '../../src/chain/deposit-absence.js';
import type { NotShown } from '../../src/domain/screen-fit.js';
import type { PriorDeposit, TradeRecorder } from '../../src/journal/recorder.js';
import type { TradeTracker } from '../../src/trade/trade-tracker.js';
import type { Signer } from '../../src/wallet/owner-wallet.js';
import { driveSteps } from '../helpers/drive-steps.js';
import { formatLocalTime } from '../../src/domain/local-time.js';
import { VersionedTransaction } from '@solana/web3.js';
import {
  AMOUNT,
  MINT,
  budget,
  build,
  goodDeposit,
  intent as intentOf,
  owner,
  stranger,
  transfer,
  treasury,
} from './tx-fixtures.js';
import { testSigner } from '../helpers/signer.js';
import { memoryRecorder } from '../helpers/memory-journal.js';

const signer = testSigner(owner.secretKey);

beforeEach(() => {
  vi.useFakeTimers({ now: Date.parse('2029-12-31T23:55:00.000Z') });
});
afterEach(() => {
  vi.useRealTimers();
});

interface ServiceOptions {
  transaction?: string;
  /** Statuses the buy reads return after the deposit, in order (the last repeats). */
  after?: string[];
  deposit?: 'ok' | ApiError;
  cancel?: 'ok' | ApiError;
  /** The trade's deposit signature once the deposit is in. */
  depositSignature?: string | null;
  intentOverrides?: Partial<BuyIntent>;
}

function service(opts: ServiceOptions = {}) {
  const calls = { deposits: 0, cancels: 0, reads: 0 };
  let current = intentOf(opts.intentOverrides);
  let deposited = false;
  const after = opts.after ?? ['completed'];
  const trade = (): Trade =>
    ({
      id: current.id,
      side: 'buy',
      status: current.status,
      stage: current.status,
      terminal: false,
      inputMint: 'So11111111111111111111111111111111111111112',
      outputMint: current.outputMint,
      inputAmount: current.amountLamports,
      expectedOutputAmount: '124703',
      minimumOutputAmount: current.minimumOutputAmount,
      receivedOutputAmount: null,
      slippageBps: 100,
      platformFeeLamports: '1000000',
      signatures: {
        deposit: deposited && opts.depositSignature !== null ? (opts.depositSignature ?? 'sig') : null,
        swaps: [],
        payouts: [],
        refund: null,
      },
      refund: null,
      failure: null,
      createdAt: '2029-12-31T23:55:00.000Z',
      expiresAt: current.depositExpiresAt,
      completedAt: null,
    }) as Trade;
  const api = {
    createBuy: async () => ({
      intent: current,
      deposit: { transaction: opts.transaction ?? goodDeposit(), lastValidBlockHeight: 99 },
    }),
    getTrade: async () => trade(),
    submitDeposit: async () => {
      calls.deposits++;
      deposited = true;
      if (opts.deposit && opts.deposit !== 'ok') throw opts.deposit;
      current = { ...current, status: 'deposit_submitted' };
      return { intent: current };
    },
    getBuy: async () => {
      calls.reads++;
      if (deposited && current.status !== 'cancelled')
        current = { ...current, status: after[Math.min(calls.reads - 1, after.length - 1)]! };
      return { intent: current };
    },
    cancelBuy: async () => {
      calls.cancels++;
      if (opts.cancel && opts.cancel !== 'ok') throw opts.cancel;
      current = { ...current, status: 'cancelled' };
      return { intent: current };
    },
  } as unknown as ServiceClient;
  return { api, calls };
}

const PERSON = presence({ yes: false, dryRun: false, json: false, interactive: true, agent: false });

function request(over: Partial<BuyRequest> = {}): BuyRequest {
  return {
    mint: MINT,
    amountLamports: AMOUNT,
    tokenProblems: [],
    idempotencyKey: 'key-1',
    keyTyped: false,
    maxFeeLamports: 100_000n,
    treasury: treasury.toBase58(),
    allowedSlippageBps: 500,
    assumeYes: true,
    presence: PERSON,
    wait: true,
    dryRun: false,
    waitLimitMs: 900_000,
    ...over,
  };
}

/** The person, the screen and the trust store as a buy's needs reach them. */
interface BuyHooks {
  created(): void;
  /** How to resume is shown (once the deposit passed its checks). */
  resumable?(): void;
  confirm(review: BuyReview): Promise<boolean | NotShown>;
  pinTreasury(address: string): string;
  stage(stage: string): void;
  signed?(deposit: SignedDeposit): void;
  freshDeposit?(): Promise<boolean>;
  newIdempotencyKey?(): string;
  resending?(deposit: PriorDeposit): void;
}

/** What the test gives the flow, with the signer and the journal the driver signs and records through. */
type TestDeps = Omit<BuyDeps, 'owner'> & { signer: Signer; journal: TradeRecorder };

/** The buy's steps driven by the one driver, with `h` as the person, the screen and the trust store. */
function runBuy(deps: TestDeps, req: BuyRequest, h: BuyHooks, track: TradeTracker): Promise<BuyOutcome> {
  const { signer: wallet, journal, ...rest } = deps;
  const missing = (what: string) => () => {
    throw new Error(`the test gave no ${what}`);
  };
  return driveSteps(
    buySteps({ ...rest, owner: wallet.publicKey }, req),
    { signer: wallet, journal, track },
    {
      ask: (asked) =>
        asked.ask === 'fresh-deposit' ? (h.freshDeposit ?? missing('freshDeposit'))() : h.confirm(asked.review),
      show: (shown) =>
        shown.show === 'created' ? h.created() : shown.show === 'resumable' ? h.resumable?.() : h.stage(shown.stage),
      note: (noted) =>
        noted.note === 'signed' ? h.signed?.(noted.facts as SignedDeposit) : h.resending?.(noted.facts as PriorDeposit),
      pin: (pinned) => h.pinTreasury(pinned.value),
      newKey: () => (h.newIdempotencyKey ?? missing('newIdempotencyKey'))(),
    },
  );
}

function hooks(over: Partial<BuyHooks> = {}): BuyHooks {
  return { created: () => {}, confirm: async () => true, pinTreasury: (a) => a, stage: () => {}, ...over };
}

type Ended = BuyOutcome | { kind: 'stopped'; stop: FlowStop };

async function run(
  api: ServiceClient,
  req: BuyRequest,
  h: BuyHooks,
  signal = new AbortController().signal,
  extra: Partial<TestDeps> = {},
): Promise<Ended> {
  let outcome: Ended | undefined;
  const running = runFlow('buy', (track) =>
    runBuy({ api, clock: systemClock, signal, signer, journal: memoryRecorder().recorder, ...extra }, req, h, track),
  ).then((o) => (outcome = o));
  for (let i = 0; i < 2_000 && outcome === undefined; i++) await vi.advanceTimersByTimeAsync(500);
  return running;
}

function stopOf(outcome: Ended): FlowStop {
  expect(outcome.kind).toBe('stopped');
  return (outcome as { stop: FlowStop }).stop;
}

const ID = intentOf().id;

describe('a buy that goes through', () => {
  it('completed: the deposit signed once, the buy followed to its end', async () => {
    const s = service({ after: ['deposit_confirmed', 'swap_submitted', 'completed'] });
    const outcome = await run(s.api, request(), hooks());
    expect(outcome).toMatchObject({ kind: 'final', intent: { status: 'completed' } });
    expect(s.calls).toMatchObject({ deposits: 1, cancels: 0 });
  });

  it('how to resume is shown once the deposit passed its checks, before the question; a refused deposit, cancelled, has none', async () => {
    const events: string[] = [];
    const h = hooks({
      created: () => events.push('created'),
      resumable: () => events.push('resumable'),
      confirm: async () => (events.push('asked'), true),
    });
    await run(service().api, request(), h);
    expect(events).toEqual(['created', 'resumable', 'asked']);
    events.length = 0;
    const paysStranger = build([...budget(), transfer(AMOUNT, stranger.publicKey)]);
    stopOf(await run(service({ transaction: paysStranger }).api, request(), h));
    expect(events).toEqual(['created']);
  });

  it('--no-wait: accepted once the deposit is in', async () => {
    const s = service();
    expect(await run(s.api, request({ wait: false }), hooks())).toMatchObject({
      kind: 'accepted',
      intent: { status: 'deposit_submitted' },
    });
  });

  it('--dry-run: the review, the intent cancelled, nothing signed', async () => {
    const s = service();
    const outcome = await run(s.api, request({ dryRun: true }), hooks());
    expect(outcome).toMatchObject({
      kind: 'dry-run',
      intent: { status: 'cancelled' },
      problems: [],
      fate: 'the buy intent was cancelled',
    });
    expect(s.calls.deposits).toBe(0);
  });

  it('--dry-run whose cancel fails: the outcome says the intent was not cancelled, and when it expires', async () => {
    const s = service({ cancel: new ApiError('HTTP 503', { status: 503 }) });
    const outcome = await run(s.api, request({ dryRun: true }), hooks());
    expect(outcome).toMatchObject({ kind: 'dry-run', intent: { status: 'awaiting_deposit' }, problems: [] });
    expect((outcome as { fate: string }).fate).toMatch(
      /^the buy intent could not be cancelled; it expires unused at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/,
    );
    expect(s.calls.deposits).toBe(0);
  });

  it('timed out: the deposit in, the buy not final by the deadline', async () => {
    const s = service({ after: ['deposit_submitted'] });
    expect(await run(s.api, request({ waitLimitMs: 10_000 }), hooks())).toMatchObject({
      kind: 'timeout',
      intent: { status: 'deposit_submitted' },
    });
  });
});

describe('a buy that stops', () => {
  const payingStranger = () => build([...budget(), transfer(AMOUNT, stranger.publicKey)]);

  it('refused: the intent cancelled, nothing signed, the cancelled intent kept for --json', async () => {
    const s = service({ transaction: payingStranger() });
    const stop = stopOf(await run(s.api, request(), hooks()));
    expect(stop).toMatchObject({
      kind: 'refused',
      hints: ['the buy intent was cancelled; nothing was signed'],
      ref: { side: 'buy', id: ID, last: { status: 'cancelled' } },
    });
    expect(s.calls.deposits).toBe(0);
  });

  it('refused with a cancel that failed: says so', async () => {
    const s = service({ transaction: payingStranger(), cancel: new ApiError('HTTP 503', { status: 503 }) });
    const stop = stopOf(await run(s.api, request(), hooks()));
    expect(stop).toMatchObject({
      kind: 'refused',
      hints: [
        `the buy intent could not be cancelled; it expires unused at ${formatLocalTime(intentOf().depositExpiresAt)}; nothing was signed`,
      ],
    });
  });

  it('declined: nothing signed; the cancel (or the cancel that failed) is the detail', async () => {
    const no = hooks({ confirm: async () => false });
    expect(stopOf(await run(service().api, request(), no))).toMatchObject({
      kind: 'declined',
      detail: 'the buy intent was cancelled',
    });
    const failing = service({ cancel: new ApiError('HTTP 409', { status: 409 }) });
    expect(stopOf(await run(failing.api, request(), no))).toMatchObject({
      kind: 'declined',
      detail: expect.stringMatching(/could not be cancelled/),
    });
  });

  it('a terminal too small for the review and its question: not asked, the intent cancelled, nothing signed, exit 2 TERMINAL_TOO_SMALL', async () => {
    const s = service();
    const small = hooks({
      confirm: async () => ({
        notShown: 'the review and the question take 25 rows at 60 columns and this terminal shows 16: it was not asked',
        rows: 25,
      }),
    });
    const stop = stopOf(await run(s.api, request({ assumeYes: false }), small));
    expect(stop).toMatchObject({ kind: 'local', error: { code: 'TERMINAL_TOO_SMALL', exitCode: 2 } });
    expect((stop as { error: Error }).error.message).toBe(
      'the review and the question take 25 rows at 60 columns and this terminal shows 16: it was not asked; the buy intent was cancelled; nothing was signed',
    );
    expect(s.calls).toMatchObject({ deposits: 0, cancels: 1 });
  });

  it('interrupted at the prompt: phase prompting (nothing signed)', async () => {
    const s = service();
    const stop = stopOf(
      await run(s.api, request(), hooks({ confirm: async () => Promise.reject(new InterruptedError('SIGINT')) })),
    );
    expect(stop).toMatchObject({ kind: 'interrupted', signal: 'SIGINT', phase: 'prompting', ref: { id: ID } });
    expect(s.calls.deposits).toBe(0);
  });

  it('interrupted while waiting: phase submitted (the trade goes on)', async () => {
    const s = service({ after: ['deposit_submitted'] });
    const abort = new AbortController();
    const stage = () => abort.abort(new InterruptedError('SIGTERM'));
    const stop = stopOf(await run(s.api, request(), hooks({ stage }), abort.signal));
    expect(stop).toMatchObject({ kind: 'interrupted', signal: 'SIGTERM', phase: 'submitted' });
  });

  it('a deposit answered with an error, the intent then cancelled with no deposit recorded: never "nothing was spent" (the signed deposit lives until its block height)', async () => {
    const s = service({ deposit: new ApiError('HTTP 400: broadcast failed', { status: 400 }), depositSignature: null });
    // The fake records the deposit as taken only when it succeeds: make the read show it still awaiting.
    const api = { ...s.api, getBuy: async () => ({ intent: intentOf() }) } as ServiceClient;
    const stop = stopOf(await run(api, request(), hooks()));
    expect(stop).toMatchObject({ kind: 'service-error', phase: 'submitted' });
    const { error, proven } = stop;
    expect(error.message).toBe('HTTP 400: broadcast failed');
    expect(proven).toBe(
      `buy ${ID} is cancelled and the service records no deposit signature; what is not known: the signed deposit stays valid until block height 99 (about 90 s) and could still land until then, so do not buy again before it has expired`,
    );
    expect(proven).not.toMatch(/nothing was spent/);
  });

  it("a refused deposit asks the chain about the signed message's own blockhash, and whether the funds check found the chain knew it before signing", async () => {
    const transaction = goodDeposit();
    const blockhash = VersionedTransaction.deserialize(Buffer.from(transaction, 'base64')).message.recentBlockhash;
    const funds = (blockhashKnown: boolean | null) => async () =>
      blockhashKnown === null
        ? { checked: false as const, reason: 'down' }
        : {
            checked: true as const,
            balanceLamports: 10n ** 12n,
            depositLamports: AMOUNT,
            networkFeeLamports: 10_000n,
            keepLamports: 890_880n,
            blockhashKnown,
          };
    for (const [known, recorded] of [
      [true, true],
      [false, false],
      [null, false],
    ] as const) {
      const s = service({
        transaction,
        deposit: new ApiError('HTTP 400: broadcast failed', { status: 400 }),
        depositSignature: null,
      });
      const api = { ...s.api, getBuy: async () => ({ intent: intentOf() }) } as ServiceClient;
      const asked: SignedDeposit[] = [];
      const signed: SignedDeposit[] = [];
      const depositEvidence = async (d: SignedDeposit) => {
        asked.push(d);
        return d.blockhashKnownBeforeSigning
          ? { provesAbsent: true, unchecked: null }
          : {
              provesAbsent: null,
              unchecked: "not proven: the RPC did not know the deposit's blockhash before signing",
            };
      };
      const stop = stopOf(
        await run(api, request(), hooks({ signed: (d) => void signed.push(d) }), undefined, {
          funds: funds(known),
          depositEvidence,
        }),
      );
      expect(asked).toEqual([
        { signature: expect.any(String), blockhash, lastValidBlockHeight: 99, blockhashKnownBeforeSigning: recorded },
      ]);
      expect(signed).toEqual(asked);
      if (recorded) {
        // Proven dead by the chain: the buy is over (exit 4), and no word says it may still go on.
        expect(stop).toMatchObject({ kind: 'ended', error: { code: 'DEPOSIT_EXPIRED', exitCode: 4 } });
        const { error } = stop;
        expect(error.message).toMatch(
          /^HTTP 400: broadcast failed; buy \S+ is cancelled, and the chain shows the signed deposit expired unused \(after block height 99\): nothing was spent; you may buy again$/,
        );
        continue;
      }
      const { proven } = stop;
      {
        expect(proven).not.toMatch(/nothing was spent/);
        expect(proven).toMatch(
          /so do not buy again before it has expired \(not proven: the RPC did not know the deposit's blockhash before signing\); check with: trader trades \S+ --verify$/,
        );
      }
    }
  });

  it('a deposit answered with an error that the service took: never "nothing was spent", phase submitted', async () => {
    const s = service({ deposit: new ApiError('HTTP 400: broadcast failed', { status: 400 }) });
    const api = {
      ...s.api,
      getBuy: async () => ({ intent: intentOf({ status: 'deposit_submitted' }) }),
    } as ServiceClient;
    const stop = stopOf(await run(api, request(), hooks()));
    expect(stop).toMatchObject({ kind: 'service-error', phase: 'submitted' });
    expect(stop.proven).toBe(
      `buy ${ID} is deposit_submitted and a deposit signature is recorded: the SOL may have been spent; do not buy again until it has settled`,
    );
  });

  it('a deposit answered with an error, then Ctrl-C while the buy is read: interrupted in phase submitted (the signed deposit is out), never "nothing was submitted"', async () => {
    const s = service({ deposit: new ApiError('HTTP 400: broadcast failed', { status: 400 }) });
    const api = { ...s.api, getBuy: async () => Promise.reject(new InterruptedError('SIGINT')) } as ServiceClient;
    const stop = stopOf(await run(api, request(), hooks()));
    expect(stop).toMatchObject({ kind: 'interrupted', phase: 'submitted', signal: 'SIGINT' });
    expect(s.calls).toMatchObject({ deposits: 1, cancels: 0 });
  });

  it('an answer lost on the deposit, then the read failing: uncertain (phase submitted), never cancelled, never "nothing was spent"', async () => {
    const { UncertainOutcomeError } = await import('../../src/api/http-errors.js');
    const s = service({
      deposit: new UncertainOutcomeError('connection reset after the request was sent', { status: null }),
    });
    const api = {
      ...s.api,
      getBuy: async () => Promise.reject(new ApiError('HTTP 500', { status: 500 })),
    } as ServiceClient;
    const stop = stopOf(await run(api, request(), hooks()));
    expect(stop).toMatchObject({ kind: 'service-error', phase: 'submitted', proven: null });
    expect(stop.error.message).toBe('connection reset after the request was sent');
    expect(s.calls.cancels).toBe(0);
  });

  it('the quote cannot be read: refused under --yes (its slippage cannot be checked), shown as unknown at the prompt', async () => {
    const s = service();
    const api = {
      ...s.api,
      getTrade: async () => Promise.reject(new ApiError('HTTP 503', { status: 503 })),
    } as ServiceClient;
    const stop = stopOf(await run(api, request(), hooks()));
    expect(stop).toMatchObject({
      kind: 'refused',
      problems: [expect.stringMatching(/^the quote's slippage cannot be checked: the trade could not be read/)],
    });
    let shown: unknown;
    const fresh = service();
    const unreadable = {
      ...fresh.api,
      getTrade: async () => Promise.reject(new ApiError('HTTP 503', { status: 503 })),
    } as ServiceClient;
    const interactive = await run(
      unreadable,
      request({ assumeYes: false }),
      hooks({ confirm: async (review) => ((shown = review.quote), true) }),
    );
    expect(interactive.kind).toBe('final');
    expect(shown).toMatchObject({ trade: null });
  });

  it('a typed key of another buy: a local refusal, nothing cancelled or signed', async () => {
    const s = service({ intentOverrides: { amountLamports: '5' } });
    const stop = stopOf(await run(s.api, request({ keyTyped: true }), hooks()));
    expect(stop.kind).toBe('local');
    expect(stop.error.code).toBe('IDEMPOTENCY_MISMATCH');
    expect(s.calls).toMatchObject({ deposits: 0, cancels: 0 });
  });

  it('first use whose pin cannot be stored: a local refusal before signing, the intent cancelled', async () => {
    const s = service();
    const pinTreasury = () => {
      throw new UsageError('cannot pin the treasury: read-only file system', 'TRUST_STORE');
    };
    const stop = stopOf(await run(s.api, request({ treasury: null }), hooks({ pinTreasury })));
    expect(stop.kind).toBe('local');
    expect(s.calls).toMatchObject({ deposits: 0, cancels: 1 });
  });

  it.each([
    ['--yes', { yes: true }],
    ['--dry-run', { dryRun: true }],
    ['an agent (trader mcp), whatever its client answers', { agent: true }],
    ['--json', { json: true }],
  ] as const)(
    'an unpinned recipient under %s: TREASURY_NOT_PINNED before anything is asked or signed, nothing pinned, the intent cancelled',
    async (_name, over) => {
      const s = service();
      let pinned = 0;
      let asked = false;
      const nobody = presence({ yes: false, dryRun: false, json: false, interactive: true, agent: false, ...over });
      const result = await run(
        s.api,
        request({ treasury: null, presence: nobody, dryRun: 'dryRun' in over }),
        hooks({ pinTreasury: (a) => (pinned++, a), confirm: async () => (asked = true) }),
      );
      const command = `trader config trust accept-treasury ${treasury.toBase58()}`;
      if ('dryRun' in over)
        expect(result).toMatchObject({ kind: 'dry-run', trust: { code: 'TREASURY_NOT_PINNED', command } });
      else
        expect(stopOf(result)).toMatchObject({
          kind: 'refused',
          trust: { code: 'TREASURY_NOT_PINNED', command },
          problems: [expect.stringContaining(`here ${nobody.why}`)],
        });
      expect([pinned, asked]).toEqual([0, false]);
      expect(s.calls).toMatchObject({ deposits: 0, cancels: 1 });
    },
  );

  it('a person at the prompt pins the recipient, then signs; a pinned treasury signs with no one present', async () => {
    const s = service();
    const pins: string[] = [];
    expect(
      (await run(s.api, request({ treasury: null }), hooks({ pinTreasury: (a) => (pins.push(a), a) }))).kind,
    ).not.toBe('stopped');
    expect(pins).toEqual([treasury.toBase58()]);
    const known = service();
    expect(
      (
        await run(
          known.api,
          request({ presence: presence({ yes: true, dryRun: false, json: false, interactive: false, agent: true }) }),
          hooks(),
        )
      ).kind,
    ).not.toBe('stopped');
    expect(known.calls.deposits).toBe(1);
  });

  it('first use when another process pinned another treasury meanwhile: refused, nothing signed', async () => {
    const s = service();
    const other = bs58.encode(new Uint8Array(32).fill(7));
    const stop = stopOf(await run(s.api, request({ treasury: null }), hooks({ pinTreasury: () => other })));
    expect(stop).toMatchObject({
      kind: 'refused',
      problems: [expect.stringContaining(`not ${other}, which another trader process pinned`)],
    });
    expect(s.calls.deposits).toBe(0);
  });

  it('a quote wider than the slippage allowed: refused before the prompt', async () => {
    const s = service();
    let asked = false;
    const stop = stopOf(
      await run(s.api, request({ allowedSlippageBps: 50 }), hooks({ confirm: async () => (asked = true) })),
    );
    expect(stop).toMatchObject({
      kind: 'refused',
      problems: ["the quote's slippage 100 bps is more than the 50 bps allowed"],
    });
    expect(asked).toBe(false);
  });

  it("the token's facts refuse it (an impostor, the service contradicting the chain): before the prompt, the intent cancelled, nothing signed; --dry-run lists them", async () => {
    const s = service();
    let asked = false;
    const impostor =
      'the chain gives token X the symbol "WOOF", which is pinned for token Y: it would pass for that token';
    const stop = stopOf(
      await run(s.api, request({ tokenProblems: [impostor] }), hooks({ confirm: async () => (asked = true) })),
    );
    expect(stop).toMatchObject({
      kind: 'refused',
      problems: [impostor],
      hints: ['the buy intent was cancelled; nothing was signed'],
    });
    expect(asked).toBe(false);
    expect(s.calls).toMatchObject({ deposits: 0, cancels: 1 });
    const dry = service();
    expect(await run(dry.api, request({ dryRun: true, tokenProblems: [impostor] }), hooks())).toMatchObject({
      kind: 'dry-run',
      problems: [impostor],
      intent: { status: 'cancelled' },
    });
  });

  it('the journal hears each step in order: created, what is about to be signed (before the deposit is sent), the answers', async () => {
    const s = service({ after: ['deposit_confirmed', 'deposit_confirmed', 'completed'] });
    let sent = '';
    const submit = s.api.submitDeposit.bind(s.api);
    s.api.submitDeposit = (id, body) => ((sent = body.signedTransaction), submit(id, body));
    let sentWhenRecorded = -1;
    const journal = memoryRecorder(
      {},
      {},
      { onAppend: (r) => r.type === 'before-signing' && (sentWhenRecorded = s.calls.deposits) },
    );
    const outcome = await run(s.api, request(), hooks(), undefined, { journal: journal.recorder });
    expect(outcome.kind).toBe('final');
    expect(sentWhenRecorded).toBe(0);
    expect(journal.calls.map((c) => c.call)).toEqual([
      'created',
      'beforeSigning',
      'signed',
      'answer',
      'answer',
      'answer',
      'answer',
    ]);
    const signing = journal.calls[1] as Extract<(typeof journal.calls)[number], { call: 'beforeSigning' }>;
    expect(signing.record).toMatchObject({
      type: 'before-signing',
      side: 'buy',
      amountLamports: AMOUNT.toString(),
      lastValidBlockHeight: 99,
      blockhashKnownBeforeSigning: false,
      messageSha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    // The signature recorded after it is the one of the transaction sent, and the transaction is the one sent.
    const signedRecord = journal.calls[2] as Extract<(typeof journal.calls)[number], { call: 'signed' }>;
    expect(signedRecord.record.signature).toBe(
      bs58.encode(VersionedTransaction.deserialize(Buffer.from(sent, 'base64')).signatures[0]!),
    );
    expect(signedRecord.record.transaction).toBe(sent);
    expect(signedRecord.record.messageSha256).toBe(signing.record.messageSha256);
    expect(
      journal.calls.slice(3).map((c) => (c.call === 'answer' ? `${c.answer.step}:${c.answer.status}` : c.call)),
    ).toEqual(['deposit:deposit_submitted', 'read:deposit_confirmed', 'read:deposit_confirmed', 'read:completed']);
  });

  it('a journal that cannot record the buy refuses it before anything is signed: at created, or before signing (nothing sent, the intent cancelled)', async () => {
    const atCreate = service();
    const created = memoryRecorder({ created: 'cannot write the journal: ENOSPC; nothing was signed' });
    const stop1 = stopOf(await run(atCreate.api, request(), hooks(), undefined, { journal: created.recorder }));
    expect(stop1).toMatchObject({ kind: 'local', error: { code: 'JOURNAL_UNWRITABLE' } });
    expect(atCreate.calls).toMatchObject({ deposits: 0, cancels: 1 });
    expect(created.calls.map((c) => c.call)).toEqual(['created']);
    const atSigning = service();
    const signing = memoryRecorder({
      beforeSigning: 'a buy of 0.1 SOL would go over the daily limit; nothing was signed',
    });
    let asked = 0;
    const stop2 = stopOf(
      await run(atSigning.api, request(), hooks({ confirm: async () => (asked++, true) }), undefined, {
        journal: signing.recorder,
      }),
    );
    expect(stop2).toMatchObject({
      kind: 'local',
      error: {
        message: 'a buy of 0.1 SOL would go over the daily limit; nothing was signed; the buy intent was cancelled',
      },
    });
    expect(atSigning.calls).toMatchObject({ deposits: 0, cancels: 1 });
    expect(asked).toBe(1);
  });

  it("a fresh key answered with a buy of something else, already past its deposit: the service answering about another trade (exit 3), not this buy and not the user's key", async () => {
    const s = service({ intentOverrides: { status: 'completed', amountLamports: '5' } });
    const stop = stopOf(await run(s.api, request(), hooks()));
    expect(stop).toMatchObject({ kind: 'service-error', error: { code: 'SERVICE_CONTRADICTION' } });
    expect(stop.error.message).toMatch(
      /answered a new idempotency key with buy \S+, already completed, of 5 lamports of \w+: not this buy/,
    );
    expect(s.calls).toMatchObject({ deposits: 0, cancels: 0 });
  });
});

describe("the time to answer is the deposit blockhash's", () => {
  /** A chain whose height the test sets; `null` reads as unreadable. */
  function chain(height: number | null) {
    const c = { height, reads: 0 };
    return {
      c,
      blockHeight: async () => (c.reads++, c.height === null ? { unreadable: 'down' } : { height: c.height }),
    };
  }

  it("the review carries the blocks left, read from the chain (an estimate at 400 ms a block); the intent's deadline only when the chain cannot be read", async () => {
    const reviews: Array<import('../../src/trade/buy-review.js').BuyReview> = [];
    const confirm = async (r: (typeof reviews)[number]) => (reviews.push(r), false);
    const up = chain(49);
    await run(service().api, request({ assumeYes: false }), hooks({ confirm }), undefined, {
      blockHeight: up.blockHeight,
    });
    expect(reviews[0]!.answerBy).toEqual({
      source: 'chain',
      lastValidBlockHeight: 99,
      blocksLeft: 50,
      readAtMs: Date.parse('2029-12-31T23:55:00.000Z'),
      atMs: Date.parse('2029-12-31T23:55:20.000Z'),
    });
    const down = chain(null);
    await run(service().api, request({ assumeYes: false }), hooks({ confirm }), undefined, {
      blockHeight: down.blockHeight,
    });
    expect(reviews[1]!.answerBy).toMatchObject({ source: 'service', reason: 'the chain could not be read' });
  });

  it('a yes after the blockhash expired (the chain read again): the dead intent cancelled, nothing signed, a fresh deposit on a new key, reviewed again, then signed', async () => {
    // A fresh key is a fresh intent: the second create (and what follows it) is another fake's.
    const [s, s2] = [service(), service()];
    const keys: string[] = [];
    let live = s;
    const api = new Proxy({} as ServiceClient, {
      get: (_t, name: keyof ServiceClient) =>
        name === 'createBuy'
          ? async (b: { idempotencyKey: string }) => {
              keys.push(b.idempotencyKey);
              if (keys.length === 2) live = s2;
              return live.api.createBuy(b as never);
            }
          : (...args: unknown[]) => (live.api[name] as (...a: unknown[]) => unknown)(...args),
    });
    const height = chain(49);
    let asked = 0;
    const outcome = await run(
      api,
      request({ assumeYes: false }),
      hooks({
        confirm: async () => {
          // The first answer comes when the chain is one block past the deposit's last valid one.
          if (++asked === 1) height.c.height = 100;
          else height.c.height = 60;
          return true;
        },
        freshDeposit: async () => true,
        newIdempotencyKey: () => 'key-2',
      }),
      undefined,
      { blockHeight: height.blockHeight },
    );
    expect(keys).toEqual(['key-1', 'key-2']);
    expect(asked).toBe(2);
    expect([s.calls.cancels, s.calls.deposits]).toEqual([1, 0]);
    expect([s2.calls.cancels, s2.calls.deposits]).toEqual([0, 1]);
    expect(outcome.kind).toBe('final');
  });

  it('at the last valid block a yes still signs; one past it does not', async () => {
    for (const [at, signs] of [
      [99, true],
      [100, false],
    ] as const) {
      const s = service();
      const height = chain(49);
      const outcome = await run(
        s.api,
        request({ assumeYes: false }),
        hooks({
          confirm: async () => ((height.c.height = at), true),
          freshDeposit: async () => false,
          newIdempotencyKey: () => 'k',
        }),
        undefined,
        { blockHeight: height.blockHeight },
      );
      expect(s.calls.deposits, `height ${at}`).toBe(signs ? 1 : 0);
      if (!signs)
        expect(stopOf(outcome)).toMatchObject({
          kind: 'declined',
          detail: 'the deposit expired unsigned; the buy intent was cancelled',
        });
    }
  });

  it("under --yes (an agent's person answering late): refused, the intent cancelled, nothing signed", async () => {
    const s = service();
    const height = chain(49);
    const stop = stopOf(
      await run(
        s.api,
        request({ assumeYes: true }),
        hooks({ confirm: async () => ((height.c.height = 150), true) }),
        undefined,
        { blockHeight: height.blockHeight },
      ),
    );
    expect(stop).toMatchObject({
      kind: 'refused',
      problems: ["the deposit's blockhash expired before it could be signed"],
    });
    expect(s.calls.deposits).toBe(0);
    expect(s.calls.cancels).toBe(1);
  });

  it("the chain unreadable: the intent's deadline decides", async () => {
    const s = service({ intentOverrides: { depositExpiresAt: '2029-12-31T23:55:30.000Z' } });
    const stop = stopOf(
      await run(
        s.api,
        request({ assumeYes: false }),
        hooks({
          confirm: async () => (vi.setSystemTime(Date.parse('2029-12-31T23:56:00.000Z')), true),
          freshDeposit: async () => false,
          newIdempotencyKey: () => 'k',
        }),
        undefined,
        {
          blockHeight: chain(null).blockHeight,
        },
      ),
    );
    expect(stop).toMatchObject({ kind: 'declined' });
    expect(s.calls.deposits).toBe(0);
  });
});

describe('what the journal knew of the buy before this run', () => {
  const priorDeposit = (over: Partial<{ transaction: string | null; signature: string }> = {}) => ({
    signature: 'first-sig',
    blockhash: 'GHtXQBsoZHVnNFa9YevAzFr17DJjgHXk3ycTKD5xD3Zi',
    lastValidBlockHeight: 90,
    blockhashKnownBeforeSigning: true,
    at: '2029-12-31T23:54:00.000Z',
    transaction: 'SIGNED-BEFORE',
    ...over,
  });
  /** A service that records what was handed to it. */
  function recording() {
    const s = service();
    const sent: string[] = [];
    const submit = s.api.submitDeposit.bind(s.api);
    (s.api as any).submitDeposit = async (id: string, body: { signedTransaction: string }) => {
      sent.push(body.signedTransaction);
      return submit(id, body);
    };
    return { ...s, sent };
  }
  const signs = () => {
    const counted = { n: 0 };
    return { counted, signer: { ...signer, unlock: async () => (counted.n++, signer.unlock()) } };
  };

  it('a deposit signed before that may still land (or landed) is sent again as it is: nothing signed, nothing recorded before signing', async () => {
    for (const provesAbsent of [null, false]) {
      const s = recording();
      const journal = memoryRecorder({}, { deposits: [priorDeposit()] });
      const { counted, signer: counting } = signs();
      const resent: string[] = [];
      const outcome = await run(s.api, request(), hooks({ resending: (d) => resent.push(d.signature) }), undefined, {
        journal: journal.recorder,
        signer: counting,
        depositEvidence: async () => ({ provesAbsent, unchecked: null }),
      });
      expect(outcome).toMatchObject({ kind: 'final', intent: { status: 'completed' } });
      expect(s.sent).toEqual(['SIGNED-BEFORE']);
      expect(resent).toEqual(['first-sig']);
      expect(counted.n).toBe(0);
      expect(journal.calls.filter((c) => c.call === 'beforeSigning')).toEqual([]);
    }
  });

  it('one the journal did not keep: DEPOSIT_MAY_LAND (exit 3), nothing signed or sent; a dry run: exit 2', async () => {
    const s = recording();
    const stop = stopOf(
      await run(s.api, request(), hooks(), undefined, {
        journal: memoryRecorder({}, { deposits: [priorDeposit({ transaction: null })] }).recorder,
        depositEvidence: async () => ({ provesAbsent: null, unchecked: null }),
      }),
    );
    expect(stop).toMatchObject({
      kind: 'service-error',
      error: {
        code: 'DEPOSIT_MAY_LAND',
        message: expect.stringContaining(
          '(first-sig) may still land until block height 90, and this journal did not keep it to send again; a second deposit is never signed beside it; nothing was signed; do not buy again before it has expired',
        ),
      },
    });
    expect(s.sent).toEqual([]);
    const dry = stopOf(
      await run(s.api, request({ dryRun: true }), hooks(), undefined, {
        journal: memoryRecorder({}, { deposits: [priorDeposit()] }).recorder,
      }),
    );
    expect(dry).toMatchObject({
      kind: 'local',
      error: { message: 'buy ' + ID + ' has a deposit signed already (first-sig); nothing to dry-run' },
    });
    expect(s.calls.cancels).toBe(0);
  });

  it('every earlier deposit proven never to land: a new one is signed and sent', async () => {
    const s = recording();
    const { counted, signer: counting } = signs();
    const outcome = await run(s.api, request(), hooks(), undefined, {
      journal: memoryRecorder({}, { deposits: [priorDeposit(), priorDeposit({ signature: 'second-sig' })] }).recorder,
      signer: counting,
      depositEvidence: async () => ({ provesAbsent: true, unchecked: null }),
    });
    expect(outcome).toMatchObject({ kind: 'final' });
    expect(counted.n).toBe(1);
    expect(s.sent).toHaveLength(1);
    expect(s.sent[0]).not.toBe('SIGNED-BEFORE');
  });

  it('the key names another buy in the journal: SERVICE_CONTRADICTION, nothing signed, the new intent cancelled (or said to expire when the cancel fails)', async () => {
    const keyTrade = { id: 'the-keys-buy', signed: true, at: '2029-12-31T23:50:00.000Z' };
    const s = recording();
    const stop = stopOf(
      await run(s.api, request(), hooks(), undefined, { journal: memoryRecorder({}, { keyTrade }).recorder }),
    );
    expect(stop).toMatchObject({ kind: 'service-error', error: { code: 'SERVICE_CONTRADICTION' } });
    expect((stop as any).error.message).toBe(
      `the service answered idempotency key key-1 with buy ${ID}, but this tool's journal records that key as buy the-keys-buy (made ${formatLocalTime('2029-12-31T23:50:00.000Z')}, its deposit signed); a repeated key returns its original trade, so ${ID} is not that buy: nothing was signed; the buy intent was cancelled (${ID}); follow the key's buy with: trader trades the-keys-buy`,
    );
    expect(s.sent).toEqual([]);
    expect(s.calls.cancels).toBe(1);
    const failing = service({ cancel: new ApiError('HTTP 503', { status: 503 }) });
    const left = stopOf(
      await run(failing.api, request(), hooks(), undefined, {
        journal: memoryRecorder({}, { keyTrade: { ...keyTrade, signed: false } }).recorder,
      }),
    );
    expect((left as any).error.message).toMatch(/\(made [^)]+\); .*; the buy intent expires unused \([^,]+, at \d{4}-/);
  });
});
