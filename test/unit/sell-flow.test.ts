// Every way a sell can end, in process with a fake service and fake timers: completed, failed
// (with its code), accepted (--no-wait), dry run, timed out, and each stop (refused at the
// --min-sol and slippage limits, declined, interrupted, a service error after authorize, a local
// refusal); the polling interval of the sell path (never closer than 2 s); and the guard's one
// verdict: what needs a person is granted only where one is present (domain/presence.ts), else
// refused with its code and command and kept for the accept commands.
import { createHash } from 'node:crypto';
import nacl from 'tweetnacl';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ServiceClient } from '../../src/api/client.js';
import type { GetSellResponse, SellAuthorization } from '../../src/api/types.js';
import { systemClock } from '../../src/domain/clock.js';
import { ApiError, InterruptedError, UsageError } from '../../src/domain/errors.js';
import type { TokenMeta } from '../../src/domain/token-meta.js';
import { presence } from '../../src/domain/presence.js';
import { tokenFactsFingerprint } from '../../src/domain/token-binding.js';
import type { Template } from '../../src/wallet/sell-template/template.js';
import { runFlow, type FlowStop } from '../helpers/flow-stop.js';
import {
  sellSteps,
  SELL_POLL_INTERVAL_MS,
  type BoundFacts,
  type SellRequest,
  type SellResult,
  type SellTrust,
} from '../../src/trade/sell-flow.js';
import type { SellReview } from '../../src/trade/sell-review.js';
import type { NotShown } from '../../src/domain/screen-fit.js';
import type { TradeRecorder } from '../../src/journal/recorder.js';
import type { TradeTracker } from '../../src/trade/trade-tracker.js';
import { driveSteps } from '../helpers/drive-steps.js';
import { testSigner } from '../helpers/signer.js';
import type { JournalRecord } from '../../src/journal/records.js';
import { memoryRecorder } from '../helpers/memory-journal.js';

const MINT = 'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263';
const pair = nacl.sign.keyPair();
const signer = testSigner(pair.secretKey);
const WORDING_A = (a: SellAuthorization) =>
  `Sell ${a.amount} raw units of ${a.mint} for at least ${a.minimumOutputLamports} lamports`;
const WORDING_B = (a: SellAuthorization) =>
  `Authorize the sale of ${a.amount} raw units of ${a.mint}; minimum ${a.minimumOutputLamports} lamports`;

beforeEach(() => {
  vi.useFakeTimers({ now: Date.parse('2030-01-01T00:00:00.000Z') });
});
afterEach(() => {
  vi.useRealTimers();
});

interface FakeService {
  api: ServiceClient;
  reads: { sell: number[]; status: number[] };
  authorizes: number;
}

/** A service whose sell stays pending for `pendingReads` reads, then completes. */
function service(
  opts: {
    wording?: (a: SellAuthorization) => string;
    pendingReads?: number;
    authorizeError?: ApiError;
    failure?: { code: string; reason: string };
  } = {},
): FakeService {
  const reads = { sell: [] as number[], status: [] as number[] };
  let authorized = false;
  let n = 0;
  const fake: FakeService = { api: {} as ServiceClient, reads, authorizes: 0 };
  const authorization = (): SellAuthorization => {
    const now = Date.now();
    const a: SellAuthorization = {
      id: `sell_test${++n}`,
      status: authorized ? 'authorized' : 'awaiting_signature',
      mint: MINT,
      amount: '1000',
      positionId: null,
      expectedOutputLamports: '50000000',
      minimumOutputLamports: '49500000',
      slippageBps: 100,
      message: '',
      expiresAt: new Date(now + 120_000).toISOString(),
      authorizedAt: null,
      signatureVerifiedAt: null,
      executionStarted: authorized,
      failureCode: null,
      failureReason: null,
      createdAt: new Date(now).toISOString(),
    };
    a.message = (opts.wording ?? WORDING_A)(a);
    return a;
  };
  let current: SellAuthorization;
  const view = (): GetSellResponse => ({
    authorization: { ...current, status: authorized ? 'authorized' : 'awaiting_signature' },
    sell: authorized
      ? {
          status:
            reads.sell.length > (opts.pendingReads ?? 3) ? (opts.failure ? 'failed' : 'completed') : 'swap_pending',
          groupKey: 'sg_1',
        }
      : null,
  });
  fake.api = {
    createSell: async () => ({ authorization: (current = authorization()) }),
    authorizeSell: async () => {
      fake.authorizes++;
      if (opts.authorizeError) throw opts.authorizeError;
      authorized = true;
      return { authorization: view().authorization, sell: { status: 'swap_pending', groupKey: 'sg_1' } };
    },
    getSell: async () => {
      reads.sell.push(Date.now());
      return view();
    },
    getTradeStatus: async () => {
      reads.status.push(Date.now());
      const done = reads.sell.length > (opts.pendingReads ?? 3);
      const end = opts.failure ? 'failed' : 'completed';
      const failure = done && opts.failure ? opts.failure : null;
      return {
        id: 'sg_1',
        side: 'sell',
        status: done ? end : 'executing',
        stage: done ? end : 'executing',
        terminal: done,
        signatures: { deposit: null, swaps: [], payouts: [], refund: null },
        failure,
        refund: null,
        completedAt: null,
      };
    },
    getTrade: async () => null,
  } as unknown as ServiceClient;
  return fake;
}

/** An in-memory trust store, and the token's binding: the chain states `chain`; what a person pinned binds the rest. */
function memoryTrust(opts: { failing?: boolean; chain?: TokenMeta; service?: TokenMeta; earlier?: boolean } = {}) {
  const state = {
    approved: null as { template: Template; fingerprint: string } | null,
    pending: null as { template: Template; fingerprint: string } | null,
    tokens: new Map<string, TokenMeta>(),
    pendingTokens: new Map<string, TokenMeta>(),
  };
  const trust: SellTrust = {
    approved: () => state.approved ?? (opts.earlier ? 'earlier-version' : null),
    pinTemplate: (template, fingerprint, replacing) => {
      if (opts.failing) throw new UsageError('cannot pin the sell template: read-only file system', 'TRUST_STORE');
      if ((state.approved?.fingerprint ?? null) === replacing) state.approved = { template, fingerprint };
      return state.approved!.fingerprint;
    },
    recordPendingTemplate: (template, fingerprint) => void (state.pending = { template, fingerprint }),
    pinToken: (mint, facts) => void state.tokens.set(mint, facts),
    recordPendingToken: (mint, facts) => void state.pendingTokens.set(mint, facts),
  };
  const chain = opts.chain ?? { symbol: null, name: null, decimals: 0 };
  const bindToken = async (mint: string): Promise<BoundFacts> => {
    const person = state.tokens.get(mint);
    const token = {
      symbol: chain.symbol ?? person?.symbol ?? null,
      name: chain.name ?? person?.name ?? null,
      decimals: chain.decimals ?? person?.decimals ?? null,
    };
    const unbound = (['symbol', 'name'] as const)
      .filter((f) => opts.service?.[f] && token[f] === null)
      .map((fact) => ({ fact, value: opts.service![fact]! }));
    // A person's pin binds the symbol (domain/token-binding.ts); the chain's word alone does not.
    const symbolBound = person?.symbol != null && person.symbol === token.symbol;
    return { token, problems: [], unbound, symbolBound };
  };
  return { trust, state, bindToken };
}

const UNATTENDED = presence({ yes: true, dryRun: false, json: false, interactive: true, agent: false });
const PERSON = presence({ yes: false, dryRun: false, json: false, interactive: true, agent: false });

function request(over: Partial<SellRequest> = {}): SellRequest {
  return {
    mint: MINT,
    amount: 1000n,
    idempotencyKey: 'k',
    keyTyped: false,
    minSolLamports: null,
    allowedSlippageBps: 500,
    otherSymbols: [],
    presence: UNATTENDED,
    assumeYes: true,
    wait: true,
    dryRun: false,
    waitLimitMs: 900_000,
    ...over,
  };
}

/** At the prompt: a person present, nothing assumed. */
const atPrompt = (over: Partial<SellRequest> = {}) => request({ presence: PERSON, assumeYes: false, ...over });

/** The person and the screen as a sell's needs reach them. */
interface SellHooks {
  created(): void;
  resumable(): void;
  confirm(review: SellReview): Promise<boolean | NotShown>;
  grant(review: SellReview): Promise<boolean | NotShown>;
  quoteExpired(): void;
  newIdempotencyKey(): string;
  stage(stage: string): void;
}

type SellDepsHere = Omit<Parameters<typeof sellSteps>[0], 'owner'> & {
  signer: typeof signer;
  journal: TradeRecorder;
};

/** The sell's steps driven by the one driver, with `h` as the person and the screen. */
function runSell(deps: SellDepsHere, req: SellRequest, h: SellHooks, track: TradeTracker): Promise<SellResult> {
  const { signer: owner, journal, ...rest } = deps;
  return driveSteps(
    sellSteps({ ...rest, owner: owner.publicKey }, req),
    { signer: owner, journal, track },
    {
      ask: (asked) => (asked.ask === 'grant' ? h.grant(asked.review) : h.confirm(asked.review)),
      show: (shown) =>
        shown.show === 'created' ? h.created() : shown.show === 'resumable' ? h.resumable() : h.stage(shown.stage),
      note: () => h.quoteExpired(),
      pin: () => {
        throw new Error('a sell pins nothing through the driver');
      },
      newKey: () => h.newIdempotencyKey(),
    },
  );
}

function hooks(answers: { confirm?: 'yes' | 'no' | 'not shown'; grant?: boolean } = {}) {
  const calls = { confirm: 0, grant: [] as string[], expired: 0, said: [] as string[] };
  const h: SellHooks = {
    created: () => {},
    resumable: () => void calls.said.push('resumable'),
    confirm: async () => {
      calls.confirm++;
      calls.said.push('confirm');
      if (answers.confirm === 'not shown')
        return {
          notShown:
            'the review, its message and the question take 30 rows at 80 columns and this terminal shows 24: it was not asked',
          rows: 30,
        };
      return (answers.confirm ?? 'yes') === 'yes';
    },
    grant: async (review) => {
      calls.grant.push(review.verdict.kind === 'person' ? review.verdict.code : review.verdict.kind);
      return answers.grant ?? false;
    },
    quoteExpired: () => {
      calls.expired++;
    },
    newIdempotencyKey: () => 'k2',
    stage: () => {},
  };
  return { h, calls };
}

type Memory = ReturnType<typeof memoryTrust>;

/** Runs the flow to its end under fake timers, advancing time as it waits. */
type Ended = SellResult | { kind: 'stopped'; stop: FlowStop };

async function run(
  fake: FakeService,
  memory: Memory,
  req: SellRequest,
  h: SellHooks,
  journal = memoryRecorder().recorder,
): Promise<Ended> {
  const deps = {
    api: fake.api,
    clock: systemClock,
    signal: new AbortController().signal,
    signer,
    trust: memory.trust,
    bindToken: memory.bindToken,
    journal,
  };
  let result: Ended | undefined;
  const running = runFlow('sell', (track) => runSell(deps, req, h, track)).then((r) => (result = r));
  for (let i = 0; i < 200 && result === undefined; i++) await vi.advanceTimersByTimeAsync(250);
  return running;
}

/** The stop of a sell that stopped (fails the test otherwise). */
function stopOf(result: Ended): FlowStop {
  expect(result.kind).toBe('stopped');
  return (result as { stop: FlowStop }).stop;
}

/** A memory with wording A approved by a person (a first sell at the prompt). */
async function approvedA(opts: Parameters<typeof memoryTrust>[0] = {}): Promise<Memory> {
  const memory = memoryTrust(opts);
  expect((await run(service(), memory, atPrompt(), hooks({ grant: true }).h)).kind).toBe('final');
  return memory;
}

const gaps = (times: number[]) => times.slice(1).map((t, i) => t - times[i]!);

describe('the sell path polls no faster than every 2 s', () => {
  it('the sell read and the status endpoint: each read at least 2,000 ms after the one before', async () => {
    expect(SELL_POLL_INTERVAL_MS).toBeGreaterThanOrEqual(2_000);
    const fake = service({ pendingReads: 4 });
    const result = await run(fake, await approvedA(), request(), hooks().h);
    expect(result.kind).toBe('final');
    expect(fake.reads.status.length).toBeGreaterThanOrEqual(4);
    for (const gap of gaps(fake.reads.status)) expect(gap).toBeGreaterThanOrEqual(2_000);
    // The final read of the sell (for its end state) may follow the last poll at once; the polls may not.
    for (const gap of gaps(fake.reads.sell.slice(0, -1))) expect(gap).toBeGreaterThanOrEqual(2_000);
  });
});

describe('the wording: approved by a person, once', () => {
  it('a first sell with nobody present: refused with WORDING_NOT_APPROVED, its fingerprint and command, kept pending; nothing signed or pinned', async () => {
    for (const why of [
      UNATTENDED,
      presence({ yes: false, dryRun: false, json: false, interactive: true, agent: true }),
      presence({ yes: false, dryRun: false, json: true, interactive: false, agent: false }),
    ]) {
      const memory = memoryTrust();
      const fake = service();
      const { h, calls } = hooks({ grant: true });
      const stop = stopOf(await run(fake, memory, request({ presence: why }), h));
      expect(stop).toMatchObject({
        kind: 'refused',
        trust: { code: 'WORDING_NOT_APPROVED', fingerprint: memory.state.pending!.fingerprint },
      });
      const { trust, problems } = stop;
      expect(trust!.command).toBe(`trader config trust accept-wording ${memory.state.pending!.fingerprint}`);
      expect(problems[0]).toContain(why.why!);
      expect(calls.grant).toEqual([]);
      expect(fake.authorizes).toBe(0);
      expect(memory.state.approved).toBeNull();
      // Refused: nothing to resume is offered.
      expect(calls.said).toEqual([]);
    }
  });

  it('at the prompt: No declines and pins nothing; Yes pins it and signs without asking again; then it signs unattended', async () => {
    const memory = memoryTrust();
    const no = hooks({ grant: false });
    const declined = service();
    expect(stopOf(await run(declined, memory, atPrompt(), no.h))).toMatchObject({ kind: 'declined' });
    expect([no.calls.grant, declined.authorizes, memory.state.approved]).toEqual([['WORDING_NOT_APPROVED'], 0, null]);
    const yes = hooks({ grant: true });
    const signed = service();
    expect((await run(signed, memory, atPrompt(), yes.h)).kind).toBe('final');
    expect([yes.calls.grant, yes.calls.confirm, signed.authorizes]).toEqual([['WORDING_NOT_APPROVED'], 0, 1]);
    expect(memory.state.approved?.fingerprint).toMatch(/^[0-9a-f]{16}$/);
    const later = hooks();
    const unattended = service();
    expect((await run(unattended, memory, request(), later.h)).kind).toBe('final');
    expect([later.calls.grant, later.calls.confirm, unattended.authorizes]).toEqual([[], 1, 1]);
    // How to resume is said once the message passed the guard: after the grant, before the question.
    expect([yes.calls.said, later.calls.said]).toEqual([['resumable'], ['resumable', 'confirm']]);
  });

  it('an approved wording on a terminal too small for the review and its question: not asked, nothing signed, exit 2 TERMINAL_TOO_SMALL with the rows it needs', async () => {
    const memory = await approvedA();
    const small = hooks({ confirm: 'not shown' });
    const fake = service();
    const stop = stopOf(await run(fake, memory, atPrompt(), small.h));
    expect(stop).toMatchObject({ kind: 'local', error: { code: 'TERMINAL_TOO_SMALL', exitCode: 2 } });
    const error = (stop as { error: Error & { hints: string[] } }).error;
    expect(error.message).toMatch(
      /^the review, its message and the question take 30 rows .*: it was not asked; nothing was signed; /,
    );
    expect(error.hints).toEqual([
      expect.stringMatching(
        /^run the command again in a terminal of at least 30 rows, or read it with --dry-run and run it with --yes/,
      ),
    ]);
    expect([small.calls.confirm, fake.authorizes]).toEqual([1, 0]);
  });

  it('a changed wording: refused unattended (WORDING_CHANGED, kept pending); at the prompt Yes re-pins it', async () => {
    const memory = await approvedA();
    const before = memory.state.approved!.fingerprint;
    const fake = service({ wording: WORDING_B });
    expect(stopOf(await run(fake, memory, request(), hooks().h))).toMatchObject({
      kind: 'refused',
      trust: { code: 'WORDING_CHANGED' },
    });
    expect([fake.authorizes, memory.state.approved!.fingerprint]).toEqual([0, before]);
    expect(memory.state.pending!.fingerprint).not.toBe(before);
    const person = hooks({ grant: true });
    expect((await run(service({ wording: WORDING_B }), memory, atPrompt(), person.h)).kind).toBe('final');
    expect(person.calls.grant).toEqual(['WORDING_CHANGED']);
    expect(memory.state.approved!.fingerprint).toBe(memory.state.pending!.fingerprint);
  });

  it('approved at the prompt after the authorization expired: the wording stays approved; a fresh quote follows, said once, and its one question signs it', async () => {
    const memory = memoryTrust();
    const { h, calls } = hooks({ grant: true });
    h.grant = async () => {
      vi.setSystemTime(Date.now() + 180_000);
      return true;
    };
    const fake = service();
    expect((await run(fake, memory, atPrompt(), h)).kind).toBe('final');
    // No "get a fresh quote?" between: the late yes was that; the fresh quote's own figures are asked once.
    expect([calls.expired, calls.confirm, fake.authorizes]).toEqual([1, 1, 1]);
    expect(memory.state.approved).not.toBeNull();
  });

  it('a wording pinned by an earlier version is asked once, saying why', async () => {
    const memory = memoryTrust({ earlier: true });
    const stop = stopOf(await run(service(), memory, request(), hooks().h));
    expect(stop.problems[0]).toMatch(/the wording pinned by an earlier version cannot be rendered from/);
    expect((await run(service(), memory, atPrompt(), hooks({ grant: true }).h)).kind).toBe('final');
    expect((await run(service(), memory, request(), hooks().h)).kind).toBe('final');
  });

  it('a pin that cannot be stored is refused before signing (exit 2)', async () => {
    const memory = memoryTrust({ failing: true });
    const fake = service();
    expect(stopOf(await run(fake, memory, atPrompt(), hooks({ grant: true }).h))).toMatchObject({
      kind: 'local',
      error: { code: 'TRUST_STORE' },
    });
    expect(fake.authorizes).toBe(0);
  });
});

describe('token facts nobody vouches for', () => {
  const service_ = { symbol: 'SENDALL', name: 'Send All Funds', decimals: 0 };
  it('unattended: TOKEN_FACTS_UNCONFIRMED with accept-token, kept pending; at the prompt confirmed, then the wording, then signed', async () => {
    const memory = memoryTrust({ service: service_ });
    const fake = service();
    const stop = stopOf(await run(fake, memory, request(), hooks().h));
    // The command names the facts kept by their fingerprint, so it confirms only what the refusal showed.
    const fingerprint = tokenFactsFingerprint(MINT, { symbol: 'SENDALL', name: 'Send All Funds', decimals: 0 });
    expect(stop).toMatchObject({
      kind: 'refused',
      trust: {
        code: 'TOKEN_FACTS_UNCONFIRMED',
        command: `trader config trust accept-token ${MINT} ${fingerprint}`,
        fingerprint,
        facts: 'symbol "SENDALL", name "Send All Funds", 0 decimals',
      },
    });
    expect(memory.state.pendingTokens.get(MINT)).toMatchObject({ symbol: 'SENDALL', name: 'Send All Funds' });
    expect(memory.state.pending).toBeNull();
    const person = hooks({ grant: true });
    const signed = service();
    expect((await run(signed, memory, atPrompt(), person.h)).kind).toBe('final');
    // Confirming the facts is not a yes to sign: the wording's question (which is) comes next.
    expect(person.calls.grant).toEqual(['TOKEN_FACTS_UNCONFIRMED', 'WORDING_NOT_APPROVED']);
    expect(memory.state.tokens.get(MINT)).toMatchObject({ symbol: 'SENDALL' });
    expect(signed.authorizes).toBe(1);
  });

  it('confirming token facts is not a yes to sign: the trade is still confirmed (No declines, nothing signed)', async () => {
    const memory = memoryTrust({ service: service_ });
    memory.state.approved = (await approvedA()).state.approved;
    const person = hooks({ grant: true, confirm: 'no' });
    const fake = service();
    expect(stopOf(await run(fake, memory, atPrompt(), person.h))).toMatchObject({ kind: 'declined' });
    expect([person.calls.grant, person.calls.confirm, fake.authorizes]).toEqual([['TOKEN_FACTS_UNCONFIRMED'], 1, 0]);
  });
});

describe('--dry-run', () => {
  it('the verdict and what a person must grant, nothing signed or pinned (the template kept for accept-wording)', async () => {
    const memory = memoryTrust();
    const fake = service();
    const first = await run(
      fake,
      memory,
      request({
        dryRun: true,
        presence: presence({ yes: false, dryRun: true, json: false, interactive: true, agent: false }),
      }),
      hooks({ grant: true }).h,
    );
    expect(first).toMatchObject({ kind: 'dry-run', trust: { code: 'WORDING_NOT_APPROVED' } });
    expect(memory.state.approved).toBeNull();
    expect(memory.state.pending).not.toBeNull();
    const approved = await approvedA();
    expect(await run(fake, approved, request({ dryRun: true }), hooks().h)).toMatchObject({
      kind: 'dry-run',
      problems: [],
      trust: null,
    });
    // The quote's minimum is 49,500,000 lamports: --min-sol one lamport above it is a problem.
    const high = await run(fake, approved, request({ dryRun: true, minSolLamports: 49_500_001n }), hooks().h);
    expect((high as Extract<SellResult, { kind: 'dry-run' }>).problems.join(' ')).toMatch(/--min-sol/);
    expect(fake.authorizes).toBe(0);
  });
});

describe('after an authorize error', () => {
  it('reads the sell before saying anything; a sell still awaiting its signature is said to be so, and not submitted', async () => {
    const fake = service({ authorizeError: new ApiError('HTTP 400: bad signature', { status: 400 }) });
    const stop = stopOf(await run(fake, await approvedA(), request(), hooks().h));
    expect(stop).toMatchObject({ kind: 'service-error', phase: 'approved' });
    const { error, proven } = stop;
    expect(error.message).toBe('HTTP 400: bad signature');
    expect(proven).toMatch(
      /^the service reports the sell still awaiting its signature \(nothing sold so far\); the signature it holds stays usable until /,
    );
    expect(fake.reads.sell).toHaveLength(1);
  });
});

describe('every other way a sell ends', () => {
  it('answered after the authorization expired: nothing signed, a fresh quote follows with its own question (a no ends it), refused under --yes', async () => {
    const trust = await approvedA();
    // The first answer takes three minutes: the 2-minute authorization is dead by then; the second is a no.
    const { h: slow, calls } = hooks();
    const answers = [true, false];
    slow.confirm = async () => {
      calls.confirm++;
      if (calls.confirm === 1) vi.setSystemTime(Date.now() + 180_000);
      return answers[calls.confirm - 1]!;
    };
    const fake = service();
    const interactive = await run(fake, trust, request({ assumeYes: false }), slow);
    expect(stopOf(interactive)).toMatchObject({ kind: 'declined' });
    expect([calls.expired, calls.confirm, fake.authorizes]).toEqual([1, 2, 0]);
    const late = hooks().h;
    late.confirm = async () => {
      vi.setSystemTime(Date.now() + 180_000);
      return true;
    };
    const unattended = stopOf(await run(service(), trust, request(), late));
    expect(unattended).toMatchObject({
      kind: 'refused',
      problems: ['the authorization expired before it could be signed'],
    });
  });

  it('completed: signed once, followed to the end; failed: the final outcome carries the code, and PRICE_MOVED after the signature was taken is the service\'s word, not "nothing was sold"', async () => {
    const trust = await approvedA();
    const fine = service();
    expect(await run(fine, trust, request(), hooks().h)).toMatchObject({
      kind: 'final',
      outcome: { state: 'completed' },
      idempotencyKey: 'k',
    });
    expect(fine.authorizes).toBe(1);
    const moved = await run(
      service({ failure: { code: 'PRICE_MOVED', reason: 'the price moved past the minimum' } }),
      trust,
      request(),
      hooks().h,
    );
    expect(moved).toMatchObject({
      kind: 'final',
      outcome: {
        state: 'failed',
        code: 'PRICE_MOVED',
        reason: 'the price moved past the minimum',
        sold: 'service-says-not-run',
      },
    });
    const other = await run(
      service({ failure: { code: 'SWAP_FAILED', reason: 'no route' } }),
      trust,
      request(),
      hooks().h,
    );
    expect(other).toMatchObject({ kind: 'final', outcome: { state: 'failed', code: 'SWAP_FAILED', sold: 'unknown' } });
  });

  it('refused before the question: a minimum one lamport under --min-sol, or slippage one basis point over what is allowed; at the limit it signs', async () => {
    const trust = await approvedA();
    const under = service();
    const refused = stopOf(await run(under, trust, request({ minSolLamports: 49_500_001n }), hooks().h));
    expect(refused).toMatchObject({ kind: 'refused', hints: ['nothing was signed; the authorization expires unused'] });
    expect(under.authorizes).toBe(0);
    const wide = service();
    expect(stopOf(await run(wide, trust, request({ allowedSlippageBps: 99 }), hooks().h))).toMatchObject({
      kind: 'refused',
    });
    expect(wide.authorizes).toBe(0);
    const atLimits = service();
    expect(
      (await run(atLimits, trust, request({ minSolLamports: 49_500_000n, allowedSlippageBps: 100 }), hooks().h)).kind,
    ).toBe('final');
    expect(atLimits.authorizes).toBe(1);
  });

  it('an answer lost on the authorize, then the read failing: a service error in phase submitted (the signature may have been taken)', async () => {
    const { UncertainOutcomeError } = await import('../../src/api/http-errors.js');
    const trust = await approvedA();
    const fake = service({
      authorizeError: new UncertainOutcomeError('connection reset after the request was sent', { status: null }),
    });
    fake.api.getSell = async () => Promise.reject(new ApiError('HTTP 500', { status: 500 }));
    const stop = stopOf(await run(fake, trust, request(), hooks().h));
    expect(stop).toMatchObject({
      kind: 'service-error',
      phase: 'submitted',
      proven: 'the sell could not be read afterwards, so whether the signature was taken is unknown',
    });
  });

  it('--no-wait: accepted once the signature is in; a slow sell past the deadline: timed out', async () => {
    const trust = await approvedA();
    expect((await run(service(), trust, request({ wait: false }), hooks().h)).kind).toBe('accepted');
    expect((await run(service({ pendingReads: 1_000 }), trust, request({ waitLimitMs: 10_000 }), hooks().h)).kind).toBe(
      'timeout',
    );
  });

  it('declined at the first question: nothing signed', async () => {
    const trust = await approvedA();
    const fake = service();
    expect(stopOf(await run(fake, trust, request({ assumeYes: false }), hooks({ confirm: 'no' }).h))).toMatchObject({
      kind: 'declined',
      detail: null,
    });
    expect(fake.authorizes).toBe(0);
  });

  it('interrupted at the prompt (phase prompting) and while waiting (phase submitted)', async () => {
    const trust = await approvedA();
    const atPrompt = hooks().h;
    atPrompt.confirm = () => Promise.reject(new InterruptedError('SIGINT'));
    expect(stopOf(await run(service(), trust, request({ assumeYes: false }), atPrompt))).toMatchObject({
      kind: 'interrupted',
      phase: 'prompting',
      ref: { side: 'sell' },
    });

    const abort = new AbortController();
    const waiting = hooks().h;
    waiting.stage = () => abort.abort(new InterruptedError('SIGINT'));
    const fake = service({ pendingReads: 1_000 });
    const deps = {
      api: fake.api,
      clock: systemClock,
      signal: abort.signal,
      signer,
      trust: trust.trust,
      bindToken: trust.bindToken,
      journal: memoryRecorder().recorder,
    };
    let result: Ended | undefined;
    const running = runFlow('sell', (track) => runSell(deps, request(), waiting, track)).then((r) => (result = r));
    for (let i = 0; i < 50 && result === undefined; i++) await vi.advanceTimersByTimeAsync(250);
    expect(stopOf(await running)).toMatchObject({ kind: 'interrupted', phase: 'submitted' });
    expect(fake.authorizes).toBe(1);
  });
});

describe('the journal, and answers that are not about this sell', () => {
  const OTHER_MINT = 'So11111111111111111111111111111111111111112';

  it('the journal hears created, then what is about to be signed before the authorize is sent, then the answers; a refusal there sends nothing', async () => {
    const trust = await approvedA();
    const fake = service();
    const authorizesWhenRecorded: number[] = [];
    const journal = memoryRecorder(
      {},
      {},
      { onAppend: (r) => r.type === 'before-signing' && authorizesWhenRecorded.push(fake.authorizes) },
    );
    expect((await run(fake, trust, request(), hooks().h, journal.recorder)).kind).toBe('final');
    expect(authorizesWhenRecorded).toEqual([0]);
    expect(journal.calls[0]).toMatchObject({ call: 'created', id: 'sell_test1', resumed: false });
    expect(journal.calls[1]).toMatchObject({
      call: 'beforeSigning',
      record: {
        side: 'sell',
        minimumOutputLamports: '49500000',
        messageSha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      },
    });
    expect(journal.calls[2]).toMatchObject({ call: 'signed', record: { side: 'sell', signature: expect.any(String) } });
    expect(journal.calls[3]).toMatchObject({ call: 'answer', answer: { step: 'authorize', status: 'authorized' } });
    expect(journal.calls.at(-1)).toMatchObject({ call: 'answer', answer: { step: 'read', tradeId: 'sg_1' } });

    const refused = service();
    const over = memoryRecorder({
      beforeSigning: 'a sell with a signed minimum of 0.0495 SOL would go over the daily limit; nothing was signed',
    });
    const stop = stopOf(await run(refused, await approvedA(), request(), hooks().h, over.recorder));
    expect(stop).toMatchObject({ kind: 'local', error: { code: 'JOURNAL_UNWRITABLE' } });
    expect(refused.authorizes).toBe(0);
  });

  it('an answer lost on the authorize, the resend then refused outright, the sell still awaiting: the signature may have been taken, never "nothing sold so far"', async () => {
    const { UncertainOutcomeError } = await import('../../src/api/http-errors.js');
    const trust = await approvedA();
    const fake = service();
    const answers = [
      new UncertainOutcomeError('connection reset after the request was sent', { status: null }),
      new ApiError('HTTP 400: signature already used', { status: 400, code: 'BAD_SIGNATURE' }),
    ];
    fake.api.authorizeSell = async () => {
      fake.authorizes++;
      throw answers.shift();
    };
    const journal = memoryRecorder();
    const stop = stopOf(await run(fake, trust, request(), hooks().h, journal.recorder));
    expect(fake.authorizes).toBe(2);
    expect(stop).toMatchObject({
      kind: 'service-error',
      phase: 'submitted',
      error: { message: 'HTTP 400: signature already used' },
    });
    const { proven } = stop;
    expect(proven).toMatch(
      /^an answer was lost and the service still shows the sell awaiting its signature, so whether it will be taken is unknown/,
    );
    expect(proven).not.toMatch(/nothing sold/);
    expect(
      journal.calls
        .filter((c) => c.call === 'answer')
        .map((c) => (c as { answer: { error?: { uncertain: boolean } } }).answer.error?.uncertain),
    ).toEqual([true, false]);
  });

  it('a fresh key answered with a sell of another token already authorized: the service answering about another trade (exit 3), never reported as this sell', async () => {
    const trust = await approvedA();
    const fake = service();
    const create = fake.api.createSell.bind(fake.api);
    fake.api.createSell = async (body) => {
      const { authorization } = await create(body);
      return { authorization: { ...authorization, status: 'authorized', mint: OTHER_MINT } };
    };
    const stop = stopOf(await run(fake, trust, request(), hooks().h));
    expect(stop).toMatchObject({ kind: 'service-error', error: { code: 'SERVICE_CONTRADICTION' } });
    expect(stop.error.message).toMatch(
      /answered a new idempotency key with sell sell_test1, already authorized, of 1000 raw units of So111+2: not this sell/,
    );
    expect(fake.reads.sell).toEqual([]);
    // A key the user typed is the user's: the other sell is theirs, and left alone.
    const typed = stopOf(await run(fake, trust, request({ keyTyped: true }), hooks().h));
    expect(typed).toMatchObject({ kind: 'local', error: { code: 'IDEMPOTENCY_MISMATCH' } });
  });

  it('a resumed sell whose read answers for another token: a contradiction naming both, not this sell reported done', async () => {
    const trust = await approvedA();
    const fake = service();
    const create = fake.api.createSell.bind(fake.api);
    fake.api.createSell = async (body) => ({
      authorization: { ...(await create(body)).authorization, status: 'authorized' },
    });
    const read = fake.api.getSell.bind(fake.api);
    fake.api.getSell = async (id) => {
      const view = await read(id);
      return { ...view, authorization: { ...view.authorization, mint: OTHER_MINT } };
    };
    const stop = stopOf(await run(fake, trust, request({ keyTyped: true }), hooks().h));
    expect(stop).toMatchObject({ kind: 'service-error', error: { code: 'SERVICE_CONTRADICTION' } });
    expect(stop.error.message).toMatch(
      /answered about another sell in the first read: sell_test1, 1000 raw units of So111+2, not sell sell_test1 of 1000 raw units of DezX\w+; it is not reported as this one/,
    );
    expect(fake.authorizes).toBe(0);
  });
});

describe('what the journal knew of the sell before this run', () => {
  const sha = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
  /** The message the fake service gives its first authorization. */
  const firstMessage = () =>
    WORDING_A({ amount: '1000', mint: MINT, minimumOutputLamports: '49500000' } as SellAuthorization);

  /** A journal on which another run signed `message` for sell_test1 (its before-signing and signed records). */
  const signedBefore = (message: string): JournalRecord[] => {
    const base = {
      v: 1 as const,
      at: '2029-12-31T23:59:00.000Z',
      service: 'memory',
      wallet: 'memory',
      side: 'sell' as const,
      trade: 'sell_test1',
    };
    return [
      { ...base, type: 'before-signing', messageSha256: sha(message), minimumOutputLamports: '49500000' },
      { ...base, type: 'signed', messageSha256: sha(message), signature: 'SIG-BEFORE' },
    ];
  };

  it('the authorization was signed before for another message: refused before anyone is asked, nothing signed, no authorize; for the same message the same signature, nothing new recorded', async () => {
    const fake = service();
    const asking = hooks();
    const other = memoryRecorder({}, {}, { records: signedBefore('another message') });
    const stop = stopOf(await run(fake, await approvedA(), request(), asking.h, other.recorder));
    expect(stop).toMatchObject({
      kind: 'service-error',
      error: {
        code: 'SERVICE_CONTRADICTION',
        message: expect.stringMatching(
          /^the service gives sell sell_test1 another message than the one signed for it at .+; one authorization is signed once, so this one is not: nothing was signed; the signature given then may still be used, so the sell may still go on$/,
        ),
      },
    });
    expect(fake.authorizes).toBe(0);
    expect(asking.calls.confirm).toBe(0);
    expect(other.calls.filter((c) => c.call !== 'created')).toEqual([]);
    const same = service();
    const again = memoryRecorder({}, {}, { records: signedBefore(firstMessage()) });
    expect((await run(same, await approvedA(), request(), asking.h, again.recorder)).kind).toBe('final');
    expect(same.authorizes).toBe(1);
    expect(asking.calls.confirm).toBe(0);
    expect(again.calls.filter((c) => c.call === 'beforeSigning' || c.call === 'signed')).toEqual([]);
  });

  it('the key names another sell in the journal: SERVICE_CONTRADICTION, no authorize, the authorization left to expire', async () => {
    const fake = service();
    const stop = stopOf(
      await run(
        fake,
        await approvedA(),
        request(),
        hooks().h,
        memoryRecorder({}, { keyTrade: { id: 'sell_earlier', signed: true, at: new Date().toISOString() } }).recorder,
      ),
    );
    expect(stop).toMatchObject({
      kind: 'service-error',
      error: {
        code: 'SERVICE_CONTRADICTION',
        message: expect.stringMatching(
          /^the service answered idempotency key \S+ with sell sell_test1, but this tool's journal records that key as sell sell_earlier \(made .+, its message signed\); .*nothing was signed; the authorization expires unused \(sell_test1\); follow the key's sell with: trader trades sell_earlier$/,
        ),
      },
    });
    expect(fake.authorizes).toBe(0);
  });
});
