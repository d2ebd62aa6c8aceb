// Every way a sell can end, in process with a fake service and fake timers: completed, failed
// (with its code), accepted (--no-wait), dry run, timed out, and each stop (refused at the
// --min-sol and slippage limits, declined, interrupted, a service error after authorize, a local
// refusal); the polling interval of the sell path (never closer than 2 s, for the sell read and
// for the status endpoint), the wording pin (first use pins, a change needs acceptance, --yes
// refuses it and keeps it pending), and the trust store failing before signing.
import nacl from 'tweetnacl';
import bs58 from 'bs58';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ServiceClient } from '../../src/api/client.js';
import type { GetSellResponse, SellAuthorization } from '../../src/api/types.js';
import { systemClock } from '../../src/clock.js';
import { ApiError, InterruptedError, UsageError } from '../../src/errors.js';
import type { TokenMeta } from '../../src/domain/token.js';
import type { TradeStop } from '../../src/domain/trade-stop.js';
import { runSell, SELL_POLL_INTERVAL_MS, type SellHooks, type SellRequest, type SellResult, type SellTrust } from '../../src/trade/sell-flow.js';
import { testSigner } from '../helpers/signer.js';
import { memoryRecorder } from '../helpers/memory-journal.js';

const MINT = 'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263';
const pair = nacl.sign.keyPair();
const signer = testSigner(pair.secretKey);
const WORDING_A = (a: SellAuthorization) => `Sell ${a.amount} raw units of ${a.mint} for at least ${a.minimumOutputLamports} lamports`;
const WORDING_B = (a: SellAuthorization) => `Authorize the sale of ${a.amount} raw units of ${a.mint}; minimum ${a.minimumOutputLamports} lamports`;

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
  opts: { wording?: (a: SellAuthorization) => string; pendingReads?: number; authorizeError?: ApiError; failure?: { code: string; reason: string } } = {},
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
    sell: authorized ? { status: reads.sell.length > (opts.pendingReads ?? 3) ? (opts.failure ? 'failed' : 'completed') : 'swap_pending', groupKey: 'sg_1' } : null,
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
      return { id: 'sg_1', side: 'sell', status: done ? end : 'executing', stage: done ? end : 'executing', terminal: done, signatures: { deposit: null, swaps: [], payouts: [], refund: null }, failure, refund: null, completedAt: null };
    },
    getTrade: async () => null,
  } as unknown as ServiceClient;
  return fake;
}

/** An in-memory trust store. */
function memoryTrust(initial: { text: string; fingerprint: string } | null = null, failing = false) {
  const state = {
    pinned: initial,
    pending: null as { text: string; fingerprint: string; token?: TokenMeta & { mint: string } } | null,
    tokens: new Map<string, TokenMeta & { confirmed?: boolean }>(),
  };
  const trust: SellTrust = {
    pinnedToken: (mint) => state.tokens.get(mint) ?? null,
    pinnedTokens: () => Object.fromEntries(state.tokens),
    pinToken: (mint, facts, confirmed) => {
      if (!state.tokens.has(mint)) state.tokens.set(mint, confirmed ? { ...facts, confirmed } : facts);
      else if (confirmed) state.tokens.set(mint, { ...state.tokens.get(mint)!, confirmed });
    },
    pinned: () => state.pinned,
    pin: (text, fingerprint, replacing) => {
      if (failing) throw new UsageError('cannot pin the sell wording: read-only file system', 'TRUST_STORE');
      if ((state.pinned?.fingerprint ?? null) === replacing) state.pinned = { text, fingerprint };
      return state.pinned!.fingerprint;
    },
    recordPending: (text, fingerprint, token) => {
      state.pending = { text, fingerprint, ...(token ? { token } : {}) };
    },
  };
  return { trust, state };
}

function request(over: Partial<SellRequest> = {}): SellRequest {
  return {
    mint: MINT,
    amount: 1000n,
    idempotencyKey: 'k',
    keyTyped: false,
    minSolLamports: null,
    allowedSlippageBps: 500,
    token: null,
    knownTokens: [],
    treasury: null,
    assumeYes: true,
    wait: true,
    dryRun: false,
    waitLimitMs: 900_000,
    ...over,
  };
}

function hooks(answers: { confirm?: 'yes' | 'no'; accept?: boolean } = {}) {
  const calls = { accept: 0 };
  const h: SellHooks = {
    created: () => {},
    confirm: async () => (answers.confirm ?? 'yes') === 'yes',
    freshQuote: async () => false,
    acceptWording: async () => {
      calls.accept++;
      return answers.accept ?? false;
    },
    newIdempotencyKey: () => 'k2',
    stage: () => {},
  };
  return { h, calls };
}

/** Runs the flow to its end under fake timers, advancing time as it waits. */
async function run(fake: FakeService, trust: SellTrust, req: SellRequest, h: SellHooks, journal = memoryRecorder().recorder): Promise<SellResult> {
  const deps = { api: fake.api, clock: systemClock, signal: new AbortController().signal, signer, trust, journal };
  let result: SellResult | undefined;
  const running = runSell(deps, req, h).then((r) => (result = r));
  for (let i = 0; i < 200 && result === undefined; i++) await vi.advanceTimersByTimeAsync(250);
  return running;
}

/** The stop of a sell that stopped (fails the test otherwise). */
function stopOf(result: SellResult): TradeStop {
  expect(result.kind).toBe('stopped');
  return (result as { stop: TradeStop }).stop;
}

const gaps = (times: number[]) => times.slice(1).map((t, i) => t - times[i]!);

describe('the sell path polls no faster than every 2 s', () => {
  it('the sell read and the status endpoint: each read at least 2,000 ms after the one before', async () => {
    expect(SELL_POLL_INTERVAL_MS).toBeGreaterThanOrEqual(2_000);
    const fake = service({ pendingReads: 4 });
    const { trust } = memoryTrust();
    const result = await run(fake, trust, request(), hooks().h);
    expect(result.kind).toBe('final');
    expect(fake.reads.status.length).toBeGreaterThanOrEqual(4);
    for (const gap of gaps(fake.reads.status)) expect(gap).toBeGreaterThanOrEqual(2_000);
    // The final read of the sell (for its end state) may follow the last poll at once; the polls may not.
    for (const gap of gaps(fake.reads.sell.slice(0, -1))) expect(gap).toBeGreaterThanOrEqual(2_000);
  });
});

describe('the wording pin', () => {
  it('first use pins the wording and signs; the same wording again signs without a question', async () => {
    const { trust, state } = memoryTrust();
    const first = hooks();
    expect((await run(service(), trust, request(), first.h)).kind).toBe('final');
    expect(state.pinned?.text).toBe('Sell {amount.raw} raw units of {mint} for at least {minimum.lamports} lamports');
    const again = hooks();
    const fake = service();
    expect((await run(fake, trust, request(), again.h)).kind).toBe('final');
    expect(fake.authorizes).toBe(1);
    expect(again.calls.accept).toBe(0);
  });

  it('a changed wording under --yes: refused, nothing signed, kept pending with the command that accepts it', async () => {
    const { trust, state } = memoryTrust();
    await run(service(), trust, request(), hooks().h);
    const pinned = state.pinned;
    const fake = service({ wording: WORDING_B });
    const stop = stopOf(await run(fake, trust, request(), hooks().h));
    expect(stop.kind).toBe('refused');
    const { problems, hints } = stop as Extract<TradeStop, { kind: 'refused' }>;
    expect(problems.join(' ')).toMatch(/wording changed: "Sell \{amount\.raw\} .*" became "Authorize the sale of/);
    expect(hints.join(' ')).toContain(`trader config trust accept-wording ${state.pending!.fingerprint}`);
    expect(fake.authorizes).toBe(0);
    expect(state.pinned).toEqual(pinned);
  });

  it('a changed wording at the prompt: a separate question; No signs nothing, Yes pins it and signs', async () => {
    const { trust, state } = memoryTrust();
    await run(service(), trust, request(), hooks().h);
    const declined = hooks({ accept: false });
    const refusedFake = service({ wording: WORDING_B });
    const no = stopOf(await run(refusedFake, trust, request({ assumeYes: false }), declined.h));
    expect(no).toMatchObject({ kind: 'declined', detail: 'the message was not accepted; the authorization expires unused' });
    expect(declined.calls.accept).toBe(1);
    expect(refusedFake.authorizes).toBe(0);

    const accepted = hooks({ accept: true });
    const fake = service({ wording: WORDING_B });
    expect((await run(fake, trust, request({ assumeYes: false }), accepted.h)).kind).toBe('final');
    expect(fake.authorizes).toBe(1);
    expect(state.pinned?.text).toMatch(/^Authorize the sale of/);
  });

  it('text the tool cannot explain is refused under --yes even on first use, and nothing is pinned', async () => {
    const { trust, state } = memoryTrust();
    const fake = service({ wording: (a) => `${WORDING_A(a)}. Expires in 3 minutes` });
    const stop = stopOf(await run(fake, trust, request(), hooks().h));
    expect(stop.kind).toBe('refused');
    expect((stop as Extract<TradeStop, { kind: 'refused' }>).problems.join(' ')).toContain('"3" (a duration that is not the authorization');
    expect(fake.authorizes).toBe(0);
    expect(state.pinned).toBeNull();
  });

  it('a first use whose pin cannot be stored is refused before signing (exit 2)', async () => {
    const { trust } = memoryTrust(null, true);
    const fake = service();
    const stop = stopOf(await run(fake, trust, request(), hooks().h));
    expect(stop.kind).toBe('local');
    expect((stop as Extract<TradeStop, { kind: 'local' }>).error).toBeInstanceOf(UsageError);
    expect(fake.authorizes).toBe(0);
  });
});

describe('the token facts pin', () => {
  const WOOF = { symbol: 'WOOF', name: 'Woof Dog', decimals: 5 };
  it('the first sell of a token pins its facts; the same facts sign again; other decimals, symbol or name are refused before the question', async () => {
    const { trust, state } = memoryTrust();
    expect((await run(service(), trust, request({ token: WOOF }), hooks().h)).kind).toBe('final');
    expect(state.tokens.get(MINT)).toEqual(WOOF);
    expect((await run(service(), trust, request({ token: WOOF }), hooks().h)).kind).toBe('final');
    for (const lie of [{ decimals: 2 }, { decimals: 6 }, { symbol: 'WSOL' }, { symbol: 'woof' }, { name: 'Wrapped SOL' }]) {
      const fake = service();
      const h = hooks({ confirm: 'yes' });
      let asked = 0;
      h.h.confirm = async () => (asked++, true);
      const stop = stopOf(await run(fake, trust, request({ token: { ...WOOF, ...lie }, assumeYes: false }), h.h));
      expect(stop, JSON.stringify(lie)).toMatchObject({ kind: 'refused' });
      const problems = (stop as Extract<TradeStop, { kind: 'refused' }>).problems.join(' ');
      expect(problems).toContain(`the service now gives token ${MINT} ${Object.entries(lie).map(([k, v]) => `${k} ${JSON.stringify(v)}`).join(', ')}`);
      expect(problems).toContain('trader config trust forget tokens');
      expect(fake.authorizes).toBe(0);
      expect(asked).toBe(0);
    }
    expect(state.tokens.get(MINT)).toEqual(WOOF);
  });

  it('facts the service no longer gives are no change; a dry run or a refusal pins nothing', async () => {
    const { trust, state } = memoryTrust();
    await run(service(), trust, request({ token: WOOF, dryRun: true }), hooks().h);
    await run(service(), trust, request({ token: WOOF, minSolLamports: 10n ** 12n }), hooks().h);
    expect(state.tokens.size).toBe(0);
    await run(service(), trust, request({ token: WOOF }), hooks().h);
    expect((await run(service(), trust, request({ token: { symbol: 'WOOF', name: null, decimals: null } }), hooks().h)).kind).toBe('final');
  });
});

describe('a pinned symbol or name on another mint (red team round 2, class A)', () => {
  const OTHER = 'GFmFPooguQpNXADJ6Dd42rWt69m57SA6oFk3QwEcWqCd';
  for (const facts of [
    { symbol: 'WOOF', name: 'Woof Sandbox Dog', decimals: 6 },
    { symbol: 'WOOF', name: 'Sandbox Gold', decimals: 6 },
    { symbol: 'SGLD', name: 'Woof Sandbox Dog', decimals: 6 },
    { symbol: 'woof', name: 'Sandbox Gold', decimals: 6 },
  ]) {
    it(`this mint given ${facts.symbol} (${facts.name}) while WOOF is pinned for ${OTHER}: refused under --yes, nothing signed or pinned`, async () => {
      const { trust, state } = memoryTrust();
      state.tokens.set(OTHER, { symbol: 'WOOF', name: 'Woof Sandbox Dog', decimals: 5 });
      const fake = service();
      const stop = stopOf(await run(fake, trust, request({ token: facts, assumeYes: true }), hooks().h));
      expect(stop).toMatchObject({ kind: 'refused' });
      const problems = (stop as Extract<TradeStop, { kind: 'refused' }>).problems.join(' ');
      expect(problems).toContain(`pinned for token ${OTHER}`);
      expect(problems).toContain(MINT);
      expect(problems).toContain('trader config trust forget tokens');
      expect(fake.authorizes).toBe(0);
      expect(state.tokens.has(MINT)).toBe(false);
    });
  }
  it('the same mint with its own pinned facts, beside another pinned token, signs', async () => {
    const { trust, state } = memoryTrust();
    state.tokens.set(OTHER, { symbol: 'WOOF', name: 'Woof Sandbox Dog', decimals: 5 });
    expect((await run(service(), trust, request({ token: { symbol: 'SGLD', name: 'Sandbox Gold', decimals: 6 } }), hooks().h)).kind).toBe('final');
  });
});

describe('after an authorize error', () => {
  it('reads the sell before saying anything; a sell still awaiting its signature is said to be so, and not submitted', async () => {
    const { trust } = memoryTrust();
    const fake = service({ authorizeError: new ApiError('HTTP 400: bad signature', { status: 400 }) });
    const stop = stopOf(await run(fake, trust, request(), hooks().h));
    expect(stop).toMatchObject({ kind: 'service-error', phase: 'approved' });
    const { error, proven } = stop as Extract<TradeStop, { kind: 'service-error' }>;
    expect(error.message).toBe('HTTP 400: bad signature');
    expect(proven).toMatch(/^the service reports the sell still awaiting its signature \(nothing sold so far\); the signature it holds stays usable until /);
    expect(fake.reads.sell).toHaveLength(1);
  });
});

describe('every other way a sell ends', () => {
  it('answered after the authorization expired: a fresh quote when the user wants one, refused under --yes', async () => {
    const { trust } = memoryTrust();
    // The answer takes three minutes: the 2-minute authorization is dead by then.
    const slow = hooks().h;
    slow.confirm = async () => {
      vi.setSystemTime(Date.now() + 180_000);
      return true;
    };
    let offered = 0;
    slow.freshQuote = async () => (++offered === 1);
    const fake = service();
    const interactive = await run(fake, trust, request({ assumeYes: false }), slow);
    // First quote expired → a fresh one (which also expires) → the user declines the second offer.
    expect(stopOf(interactive)).toMatchObject({ kind: 'declined', detail: 'the authorization expired unused' });
    expect(offered).toBe(2);
    expect(fake.authorizes).toBe(0);
    // Nothing signed, so nothing pinned: the next sell is still a first use.
    expect(trust.pinned()).toBeNull();
    const unattended = stopOf(await run(service(), trust, request(), slow));
    expect(unattended).toMatchObject({ kind: 'refused', problems: ['the authorization expired before it could be signed'] });
  });

  it('completed: signed once, followed to the end; failed: the final outcome carries the code, and PRICE_MOVED after the signature was taken is the service\'s word, not "nothing was sold"', async () => {
    const { trust } = memoryTrust();
    const fine = service();
    expect(await run(fine, trust, request(), hooks().h)).toMatchObject({ kind: 'final', outcome: { state: 'completed' }, idempotencyKey: 'k' });
    expect(fine.authorizes).toBe(1);
    const moved = await run(service({ failure: { code: 'PRICE_MOVED', reason: 'the price moved past the minimum' } }), trust, request(), hooks().h);
    expect(moved).toMatchObject({ kind: 'final', outcome: { state: 'failed', code: 'PRICE_MOVED', reason: 'the price moved past the minimum', sold: 'service-says-not-run' } });
    const other = await run(service({ failure: { code: 'SWAP_FAILED', reason: 'no route' } }), trust, request(), hooks().h);
    expect(other).toMatchObject({ kind: 'final', outcome: { state: 'failed', code: 'SWAP_FAILED', sold: 'unknown' } });
  });

  it('an agent with no person to approve: a first wording is refused and kept for a person to accept, never pinned; once pinned it signs', async () => {
    const { trust, state } = memoryTrust();
    const fake = service();
    const stop = stopOf(await run(fake, trust, request({ mayPinOnFirstUse: false }), hooks().h));
    expect(stop).toMatchObject({ kind: 'refused', problems: ['no sell wording is pinned for this service yet, and no person is here to read this one and pin it'] });
    expect(fake.authorizes).toBe(0);
    expect(state.pinned).toBeNull();
    // A person pins it (a sell at the prompt, or accept-wording): then the agent's sell signs.
    const person = service();
    expect(await run(person, trust, request({ assumeYes: false }), hooks().h)).toMatchObject({ kind: 'final' });
    const agent = service();
    expect(await run(agent, trust, request({ mayPinOnFirstUse: false }), hooks().h)).toMatchObject({ kind: 'final' });
    expect([person.authorizes, agent.authorizes]).toEqual([1, 1]);
  });

  it('--dry-run: the review and its problems, nothing signed and nothing pinned, whether the checks pass or not', async () => {
    const { trust, state } = memoryTrust();
    const fake = service();
    expect(await run(fake, trust, request({ dryRun: true }), hooks().h)).toMatchObject({ kind: 'dry-run', problems: [], review: { wording: { status: 'first-use' } } });
    // The quote's minimum is 49,500,000 lamports: --min-sol one lamport above it is a problem.
    const high = await run(fake, trust, request({ dryRun: true, minSolLamports: 49_500_001n }), hooks().h);
    expect(high.kind).toBe('dry-run');
    expect((high as Extract<SellResult, { kind: 'dry-run' }>).problems.join(' ')).toMatch(/--min-sol/);
    expect(fake.authorizes).toBe(0);
    expect(state.pinned).toBeNull();
  });

  it('refused before the question: a minimum one lamport under --min-sol, or slippage one basis point over what is allowed; at the limit it signs', async () => {
    const { trust } = memoryTrust();
    const under = service();
    const refused = stopOf(await run(under, trust, request({ minSolLamports: 49_500_001n }), hooks().h));
    expect(refused).toMatchObject({ kind: 'refused', hints: ['nothing was signed; the authorization expires unused'] });
    expect(under.authorizes).toBe(0);
    const wide = service();
    expect(stopOf(await run(wide, trust, request({ allowedSlippageBps: 99 }), hooks().h))).toMatchObject({ kind: 'refused' });
    expect(wide.authorizes).toBe(0);
    const atLimits = service();
    expect((await run(atLimits, trust, request({ minSolLamports: 49_500_000n, allowedSlippageBps: 100 }), hooks().h)).kind).toBe('final');
    expect(atLimits.authorizes).toBe(1);
  });

  it('an answer lost on the authorize, then the read failing: a service error in phase submitted (the signature may have been taken)', async () => {
    const { UncertainOutcomeError } = await import('../../src/api/errors.js');
    const { trust } = memoryTrust();
    const fake = service({ authorizeError: new UncertainOutcomeError('connection reset after the request was sent', { status: null }) });
    fake.api.getSell = async () => Promise.reject(new ApiError('HTTP 500', { status: 500 }));
    const stop = stopOf(await run(fake, trust, request(), hooks().h));
    expect(stop).toMatchObject({ kind: 'service-error', phase: 'submitted', proven: 'the sell could not be read afterwards, so whether the signature was taken is unknown' });
  });

  it('--no-wait: accepted once the signature is in; a slow sell past the deadline: timed out', async () => {
    const { trust } = memoryTrust();
    expect((await run(service(), trust, request({ wait: false }), hooks().h)).kind).toBe('accepted');
    expect((await run(service({ pendingReads: 1_000 }), trust, request({ waitLimitMs: 10_000 }), hooks().h)).kind).toBe('timeout');
  });

  it('declined at the first question: nothing signed', async () => {
    const { trust } = memoryTrust();
    const fake = service();
    expect(stopOf(await run(fake, trust, request({ assumeYes: false }), hooks({ confirm: 'no' }).h))).toMatchObject({ kind: 'declined', detail: null });
    expect(fake.authorizes).toBe(0);
  });

  it('interrupted at the prompt (phase prompting) and while waiting (phase submitted)', async () => {
    const { trust } = memoryTrust();
    const atPrompt = hooks().h;
    atPrompt.confirm = () => Promise.reject(new InterruptedError('SIGINT'));
    expect(stopOf(await run(service(), trust, request({ assumeYes: false }), atPrompt))).toMatchObject({ kind: 'interrupted', phase: 'prompting', ref: { side: 'sell' } });

    const abort = new AbortController();
    const waiting = hooks().h;
    waiting.stage = () => abort.abort(new InterruptedError('SIGINT'));
    const fake = service({ pendingReads: 1_000 });
    const deps = { api: fake.api, clock: systemClock, signal: abort.signal, signer, trust, journal: memoryRecorder().recorder };
    let result: SellResult | undefined;
    const running = runSell(deps, request(), waiting).then((r) => (result = r));
    for (let i = 0; i < 50 && result === undefined; i++) await vi.advanceTimersByTimeAsync(250);
    expect(stopOf(await running)).toMatchObject({ kind: 'interrupted', phase: 'submitted' });
    expect(fake.authorizes).toBe(1);
  });
});

// Issue 22: slot shapes in the pin, and token names no one vouched for.
describe('slot shapes and token names in the flow', () => {
  const WITH_ID = (a: SellAuthorization) => `${WORDING_A(a)}\nAuthorization: ${a.id}`;
  const SHAPED = 'Sell {amount.raw} raw units of {mint} for at least {minimum.lamports} lamports\nAuthorization: {id: sell_ + 5 base58}';

  it('an honest wording with a random base58 nonce (letter runs and all) pins on the first sell and trades unattended after (red team round 2)', async () => {
    const nonces = ['cDP51VwocyB8opvRTS4zDi', 'hWqTzkPMbRr7NxJ4fGvcXd', 'GzkqMwxvPRb3TtJhYcNaoE'];
    let i = 0;
    const WITH_NONCE = (a: SellAuthorization) => `${WORDING_A(a)}\nnonce: ${nonces[i++ % nonces.length]}`;
    const { trust, state } = memoryTrust();
    for (let n = 0; n < nonces.length; n++) {
      const fake = service({ wording: WITH_NONCE });
      expect((await run(fake, trust, request(), hooks().h)).kind, nonces[n]).toBe('final');
      expect(fake.authorizes).toBe(1);
    }
    expect(state.pinned?.text).toBe('Sell {amount.raw} raw units of {mint} for at least {minimum.lamports} lamports\nnonce: {nonce: 22 base58}');
  });

  it('a nonce that reads as words under that pin is refused under --yes with the way on: a fresh authorization', async () => {
    const { trust } = memoryTrust({ text: 'Sell {amount.raw} raw units of {mint} for at least {minimum.lamports} lamports\nnonce: {nonce: 22 base58}', fingerprint: 'n' });
    const fake = service({ wording: (a) => `${WORDING_A(a)}\nnonce: NoMinimumFeeAtThisSaLe9` });
    const stop = stopOf(await run(fake, trust, request(), hooks().h));
    expect((stop as Extract<TradeStop, { kind: 'refused' }>).problems.join(' ')).toContain('"NoMinimumFeeAtThisSaLe9" (a nonce that reads as words, not as random data)');
    expect(fake.authorizes).toBe(0);
  });

  it('a pin made before shapes were pinned still matches under --yes, and the signed sell writes the shapes in', async () => {
    const { trust, state } = memoryTrust({ text: SHAPED.replace('{id: sell_ + 5 base58}', '{id}'), fingerprint: 'old' });
    const fake = service({ wording: WITH_ID });
    expect((await run(fake, trust, request(), hooks().h)).kind).toBe('final');
    expect(fake.authorizes).toBe(1);
    expect(state.pinned?.text).toBe(SHAPED);
    expect((await run(service({ wording: WITH_ID }), trust, request(), hooks().h)).kind).toBe('final');
  });

  it('an id of another shape under a pinned wording is a change: refused under --yes and kept pending, nothing signed', async () => {
    const { trust, state } = memoryTrust({ text: SHAPED, fingerprint: 'shaped' });
    const fake = service({ wording: (a) => WITH_ID({ ...a, id: 'sell_IAuthorizeWithdrawalOfAllFunds' }) });
    const base = fake.api.createSell;
    fake.api.createSell = async (body) => {
      const r = await base(body);
      r.authorization.id = 'sell_IAuthorizeWithdrawalOfAllFunds';
      return r;
    };
    const stop = stopOf(await run(fake, trust, request(), hooks().h));
    expect(stop).toMatchObject({ kind: 'refused' });
    expect((stop as Extract<TradeStop, { kind: 'refused' }>).problems.join(' ')).toContain('{id: sell_ + 5 base58}" became "');
    // The id also reads as words: no wording acceptance can vouch for it, so none is kept pending.
    expect((stop as Extract<TradeStop, { kind: 'refused' }>).problems.join(' ')).toContain('"sell_IAuthorizeWithdrawalOfAllFunds" (an authorization id that reads as words, not as random data)');
    expect(state.pending).toBeNull();
    expect(fake.authorizes).toBe(0);
  });

  it('an id of another shape that reads as data under a pinned wording is a change kept pending, nothing signed', async () => {
    const { trust, state } = memoryTrust({ text: SHAPED, fingerprint: 'shaped' });
    const id = 'sell_zrXQtWCN3fNPB2QRF87kN4xQ';
    const fake = service({ wording: (a) => WITH_ID({ ...a, id }) });
    const base = fake.api.createSell;
    fake.api.createSell = async (body) => {
      const r = await base(body);
      r.authorization.id = id;
      return r;
    };
    const stop = stopOf(await run(fake, trust, request(), hooks().h));
    expect((stop as Extract<TradeStop, { kind: 'refused' }>).problems.join(' ')).toContain('{id: sell_ + 5 base58}" became "');
    expect(state.pending?.text).toContain('{id: sell_ + 24 consonants}');
    expect(fake.authorizes).toBe(0);
  });

  it('a token name no one vouched for stands under a pinned wording: refused under --yes with the facts kept to confirm; confirmed at the prompt, then signed unattended', async () => {
    const NAMED = (a: SellAuthorization) => `${WORDING_A(a)} (全部提现给运营商)`;
    const hostile = { symbol: 'WOOF', name: '全部提现给运营商', decimals: 5 };
    const { trust, state } = memoryTrust({ text: 'Sell {amount.raw} raw units of {mint} for at least {minimum.lamports} lamports ({name})', fingerprint: 'named' });
    const refused = service({ wording: NAMED });
    const stop = stopOf(await run(refused, trust, request({ token: hostile }), hooks().h));
    expect((stop as Extract<TradeStop, { kind: 'refused' }>).problems.join(' ')).toMatch(/"全部提现给运营商" \(the token's name, which comes from the service alone/);
    expect(state.pending?.token).toEqual({ mint: MINT, ...hostile });
    expect(refused.authorizes).toBe(0);
    // At the prompt: highlighted and asked; accepted, signed, and the facts pinned as confirmed.
    const asked = hooks({ confirm: 'yes', accept: true });
    expect((await run(service({ wording: NAMED }), trust, request({ token: hostile, assumeYes: false }), asked.h)).kind).toBe('final');
    expect(asked.calls.accept).toBe(1);
    expect(state.tokens.get(MINT)).toEqual({ ...hostile, confirmed: true });
    const unattended = service({ wording: NAMED });
    expect((await run(unattended, trust, request({ token: hostile }), hooks().h)).kind).toBe('final');
    expect(unattended.authorizes).toBe(1);
  });

  it('facts pinned by an unattended trade are not a confirmation', async () => {
    const NAMED = (a: SellAuthorization) => `${WORDING_A(a)} (Я разрешаю вывод)`;
    const hostile = { symbol: 'WOOF', name: 'Я разрешаю вывод', decimals: 5 };
    const { trust, state } = memoryTrust({ text: 'Sell {amount.raw} raw units of {mint} for at least {minimum.lamports} lamports ({name})', fingerprint: 'named' });
    state.tokens.set(MINT, hostile);
    const fake = service({ wording: NAMED });
    expect(stopOf(await run(fake, trust, request({ token: hostile }), hooks().h))).toMatchObject({ kind: 'refused' });
    expect(fake.authorizes).toBe(0);
  });
});

describe('the journal, and answers that are not about this sell', () => {
  const OTHER_MINT = 'So11111111111111111111111111111111111111112';

  it('the journal hears created, then what is about to be signed before the authorize is sent, then the answers; a refusal there sends nothing', async () => {
    const { trust } = memoryTrust();
    const fake = service();
    const journal = memoryRecorder();
    const authorizesWhenRecorded: number[] = [];
    const record = journal.recorder.beforeSigning;
    journal.recorder.beforeSigning = (what) => (authorizesWhenRecorded.push(fake.authorizes), record(what));
    expect((await run(fake, trust, request(), hooks().h, journal.recorder)).kind).toBe('final');
    expect(authorizesWhenRecorded).toEqual([0]);
    expect(journal.calls[0]).toMatchObject({ call: 'created', id: 'sell_test1', resumed: false });
    expect(journal.calls[1]).toMatchObject({ call: 'beforeSigning', what: { kind: 'sell', minimumOutputLamports: 49_500_000n, message: expect.stringMatching(/^Sell 1000 raw units/) } });
    expect(journal.calls[2]).toMatchObject({ call: 'answer', answer: { step: 'authorize', status: 'authorized' } });
    expect(journal.calls.at(-1)).toMatchObject({ call: 'answer', answer: { step: 'read', tradeId: 'sg_1' } });

    const refused = service();
    const over = memoryRecorder({ beforeSigning: 'a sell with a signed minimum of 0.0495 SOL would pass the daily limit; nothing was signed' });
    const stop = stopOf(await run(refused, memoryTrust().trust, request(), hooks().h, over.recorder));
    expect(stop).toMatchObject({ kind: 'local', error: { code: 'JOURNAL_UNWRITABLE' } });
    expect(refused.authorizes).toBe(0);
  });

  it('an answer lost on the authorize, the resend then refused outright, the sell still awaiting: the signature may have been taken, never "nothing sold so far"', async () => {
    const { UncertainOutcomeError } = await import('../../src/api/errors.js');
    const { trust } = memoryTrust();
    const fake = service();
    const answers = [new UncertainOutcomeError('connection reset after the request was sent', { status: null }), new ApiError('HTTP 400: signature already used', { status: 400, code: 'BAD_SIGNATURE' })];
    fake.api.authorizeSell = async () => {
      fake.authorizes++;
      throw answers.shift();
    };
    const journal = memoryRecorder();
    const stop = stopOf(await run(fake, trust, request(), hooks().h, journal.recorder));
    expect(fake.authorizes).toBe(2);
    expect(stop).toMatchObject({ kind: 'service-error', phase: 'submitted', error: { message: 'HTTP 400: signature already used' } });
    const { proven } = stop as Extract<TradeStop, { kind: 'service-error' }>;
    expect(proven).toMatch(/^an answer was lost and the service still shows the sell awaiting its signature, so whether it will be taken is unknown/);
    expect(proven).not.toMatch(/nothing sold/);
    expect(journal.calls.filter((c) => c.call === 'answer').map((c) => (c as { answer: { error?: { uncertain: boolean } } }).answer.error?.uncertain)).toEqual([true, false]);
  });

  it('a fresh key answered with a sell of another token already authorized: the service answering about another trade (exit 3), never reported as this sell', async () => {
    const { trust } = memoryTrust();
    const fake = service();
    const create = fake.api.createSell.bind(fake.api);
    fake.api.createSell = async (body) => {
      const { authorization } = await create(body);
      return { authorization: { ...authorization, status: 'authorized', mint: OTHER_MINT } };
    };
    const stop = stopOf(await run(fake, trust, request(), hooks().h));
    expect(stop).toMatchObject({ kind: 'service-error', error: { code: 'SERVICE_CONTRADICTION' } });
    expect((stop as Extract<TradeStop, { kind: 'service-error' }>).error.message).toMatch(/answered a new idempotency key with sell sell_test1, already authorized, of 1000 units of So111+2: not this sell/);
    expect(fake.reads.sell).toEqual([]);
    // A key the user typed is the user's: the other sell is theirs, and left alone.
    const typed = stopOf(await run(fake, trust, request({ keyTyped: true }), hooks().h));
    expect(typed).toMatchObject({ kind: 'local', error: { code: 'IDEMPOTENCY_MISMATCH' } });
  });

  it('a resumed sell whose read answers for another token: a contradiction naming both, not this sell reported done', async () => {
    const { trust } = memoryTrust();
    const fake = service();
    const create = fake.api.createSell.bind(fake.api);
    fake.api.createSell = async (body) => ({ authorization: { ...(await create(body)).authorization, status: 'authorized' } });
    const read = fake.api.getSell.bind(fake.api);
    fake.api.getSell = async (id) => {
      const view = await read(id);
      return { ...view, authorization: { ...view.authorization, mint: OTHER_MINT } };
    };
    const stop = stopOf(await run(fake, trust, request({ keyTyped: true }), hooks().h));
    expect(stop).toMatchObject({ kind: 'service-error', error: { code: 'SERVICE_CONTRADICTION' } });
    expect((stop as Extract<TradeStop, { kind: 'service-error' }>).error.message).toMatch(
      /answered about another sell in the first read: sell_test1, 1000 units of So111+2, not sell sell_test1 of 1000 units of DezX\w+; it is not reported as this one/,
    );
    expect(fake.authorizes).toBe(0);
  });
});

