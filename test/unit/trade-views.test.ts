// One trade's human view: a failure and a refund are shown on both sides; every amount has a unit.
import { describe, expect, it } from 'vitest';
import type { GetSellResponse, Trade } from '../../src/api/types.js';
import { plainTheme } from '../../src/io/theme.js';
import { renderSell, renderTrade } from '../../src/views/trade.js';
import { renderSellSummary } from '../../src/views/sell-screens.js';
import { payoutOnChain, renderVerificationLines, renderVerificationTable } from '../../src/views/verification.js';
import { displayWidth } from '../../src/io/display-width.js';
import type { Verification } from '../../src/chain/verify-trade.js';
import { tokenAmount } from '../../src/views/token-amount.js';
import { authorization, trade } from './api-helpers.js';

const SOL = 'So11111111111111111111111111111111111111112';
const meta = { symbol: 'X', name: 'Ex', decimals: 6 };
const buy = { ...trade, failure: null, refund: null } as unknown as Trade;
const sell = {
  ...buy,
  side: 'sell',
  inputMint: 'MintX',
  outputMint: SOL,
  inputAmount: '2500000',
  expectedOutputAmount: '5000',
  minimumOutputAmount: '4900',
  receivedOutputAmount: '4950',
  signatures: { deposit: null, swaps: ['sw'], payouts: ['p1', 'p2'], refund: null },
} as Trade;

describe('renderTrade', () => {
  it('a buy: tokens received with the symbol, deposit and swap signatures, no failure line when there is none', () => {
    const out = renderTrade(buy, plainTheme, () => meta);
    expect(out).toMatch(/^Received\s+0\.001 X$/m);
    expect(out).toMatch(/^Deposit sig\s+d$/m);
    expect(out).toMatch(/^Swap sig\s+s$/m);
    expect(out).not.toMatch(/Failure|Refund/);
  });

  it('a failed buy with a refund: the failure, the refund and its signature; nothing received reads "none"', () => {
    const failed = {
      ...buy,
      stage: 'refunded',
      receivedOutputAmount: null,
      failure: { code: 'SWAP_FAILED', reason: 'pool moved' },
      refund: { state: 'complete', amountLamports: '99000000' },
      signatures: { ...buy.signatures, refund: 'r1' },
    } as Trade;
    const out = renderTrade(failed, plainTheme, () => meta);
    expect(out).toMatch(/^Received\s+none$/m);
    expect(out).toMatch(/^Failure\s+SWAP_FAILED: pool moved$/m);
    expect(out).toMatch(/^Refund\s+complete, 0\.099 SOL$/m);
    expect(out).toMatch(/^Refund sig\s+r1$/m);
  });

  it('a buy still going: received "— (not yet)"', () => {
    expect(
      renderTrade({ ...buy, terminal: false, stage: 'executing', receivedOutputAmount: null }, plainTheme),
    ).toMatch(/^Received\s+— \(not yet\)$/m);
  });

  it('a sell: tokens sold with their unit, SOL received, every payout signature; a failure when there is one', () => {
    const out = renderTrade(sell, plainTheme, () => meta);
    expect(out).toMatch(/^Sold\s+2\.5 X$/m);
    expect(out).toMatch(/^SOL received\s+0\.00000495 SOL$/m);
    expect(out.match(/^Payout sig\s+(p\d)$/gm)?.map((l) => l.slice(-2))).toEqual(['p1', 'p2']);
    const failed = renderTrade(
      { ...sell, stage: 'failed', receivedOutputAmount: null, failure: { code: 'PRICE_MOVED', reason: null } },
      plainTheme,
      () => meta,
    );
    expect(failed).toMatch(/^Failure\s+PRICE_MOVED: no reason given$/m);
    // Sold only once the sale happened: a failed or unfinished sell shows the amount it offered.
    expect(failed).toMatch(/^Amount\s+2\.5 X$/m);
    expect(failed).not.toMatch(/^Sold/m);
    expect(
      renderTrade({ ...sell, stage: 'executing', terminal: false, receivedOutputAmount: null }, plainTheme, () => meta),
    ).toMatch(/^Amount\s+2\.5 X$/m);
  });
});

describe('renderSell (sell_… ids)', () => {
  const view = {
    authorization: { ...authorization, status: 'authorized', amount: '2500000' },
    sell: { status: 'completed', groupKey: 'g1' },
  } as unknown as GetSellResponse;
  it('with its trade: SOL received, the trade id, swap and payout signatures', () => {
    const out = renderSell(view, { ...sell, id: 'g1' }, plainTheme, meta);
    // trades sell_… (and its --watch) says Sold once the sale happened, as the sell's summary does.
    expect(out).toMatch(/^Sold\s+2\.5 X$/m);
    expect(out).toMatch(/^SOL received\s+0\.00000495 SOL$/m);
    expect(out).toMatch(/^Trade\s+g1$/m);
    expect(out).toMatch(/^Payout sig\s+p1$/m);
  });
  it('authorized but no trade given: SOL received is said to be unknown, never a figure', () => {
    expect(renderSell(view, null, plainTheme, meta)).toMatch(
      /^SOL received\s+unknown \(the service gave no trade for this sell\)$/m,
    );
    expect(renderSell(view, null, plainTheme, meta)).toMatch(/^Amount\s+2\.5 X$/m);
  });
  it('a failed authorization: its failure', () => {
    const failed = {
      authorization: {
        ...authorization,
        status: 'failed',
        failureCode: 'QUOTE_BELOW_AUTHORIZED_MINIMUM',
        failureReason: 'price fell',
      },
      sell: null,
    } as unknown as GetSellResponse;
    expect(renderSell(failed, null, plainTheme, meta)).toMatch(
      /^Failure\s+QUOTE_BELOW_AUTHORIZED_MINIMUM: price fell$/m,
    );
    expect(renderSell(failed, null, plainTheme, meta)).toMatch(/^Offered\s+/m);
  });
});

describe('tokenAmount: always a unit', () => {
  it('symbol, `tokens` when only the decimals are known, raw units otherwise', () => {
    expect(tokenAmount('1500000', meta)).toBe('1.5 X');
    expect(tokenAmount('1500000', { symbol: null, name: null, decimals: 6 })).toBe('1.5 tokens');
    expect(tokenAmount('1500000', null)).toBe('1,500,000 raw units');
  });
});

describe('renderBuyReview: amounts with their unit', () => {
  it('a token known by its decimals but without a symbol: expected and minimum out in whole `tokens`', async () => {
    const { renderBuyReview } = await import('../../src/views/buy-screens.js');
    const { intent } = await import('./api-helpers.js');
    const answerBy = { source: 'chain', lastValidBlockHeight: 1, blocksLeft: 150, readAtMs: 0, atMs: 60_000 };
    const review = {
      intent,
      facts: { recipient: 'T', treasuryCheck: 'pinned' },
      lastValidBlockHeight: 1,
      quote: { trade: null, problem: 'x' },
      answerBy,
    } as never;
    const quote = {
      token: {
        mint: 'MintOut111',
        symbol: null,
        name: null,
        decimals: 6,
        seenBefore: true,
        source: { decimals: 'chain', symbol: null, name: null },
        unbound: [],
        chainUnread: null,
        risks: { risks: [], fingerprint: null, accepted: false, askAccept: false },
      },
      depositLamports: '100000000',
      platformFeeLamports: '1000000',
      networkFeeMaxLamports: '5000',
      totalMaxLamports: '100005000',
      expectedOutputAmount: '2500000',
      minimumOutputAmount: '2000000',
      expectedOutput: '2.5',
      minimumOutput: '2',
      slippageBps: 100,
      slippageBpsAsked: null,
      pricePerTokenSol: '0.04',
      unknown: null,
    };
    const out = renderBuyReview(review, quote, Date.parse('2026-01-01T00:00:00Z'), plainTheme);
    expect(out).toMatch(/^Expected out\s+2\.5 tokens$/m);
    expect(out).toMatch(/^Minimum out\s+2 tokens$/m);
    expect(out).toMatch(/^Buy\s+MintOut111$/m);
    expect(out).toMatch(/^Token facts\s+decimals from the chain$/m);
  });

  it('the token facts line: who vouches for each fact, and what the service says that nothing confirms', async () => {
    const { renderBuyReview } = await import('../../src/views/buy-screens.js');
    const { intent } = await import('./api-helpers.js');
    const answerBy = { source: 'chain', lastValidBlockHeight: 1, blocksLeft: 150, readAtMs: 0, atMs: 60_000 };
    const review = {
      intent,
      facts: { recipient: 'T', treasuryCheck: 'pinned' },
      lastValidBlockHeight: 1,
      quote: { trade: null, problem: 'x' },
      answerBy,
    } as never;
    const base = {
      depositLamports: '1',
      platformFeeLamports: null,
      networkFeeMaxLamports: '5000',
      totalMaxLamports: '5001',
      expectedOutputAmount: null,
      minimumOutputAmount: '2000000',
      expectedOutput: null,
      slippageBps: null,
      slippageBpsAsked: null,
      pricePerTokenSol: null,
      unknown: null,
    };
    const token = {
      mint: 'MintOut111',
      symbol: 'MOON',
      name: 'Moon Sandbox',
      decimals: 8,
      seenBefore: false,
      source: { decimals: 'chain', symbol: 'chain', name: 'chain' },
      unbound: [],
      chainUnread: null,
      risks: { risks: [], fingerprint: null, accepted: false, askAccept: false },
    } as const;
    const chain = renderBuyReview(review, { ...base, minimumOutput: '0.02', token }, 0, plainTheme);
    expect(chain).toMatch(/^Buy\s+MOON \(Moon Sandbox\) MintOut111$/m);
    expect(chain).toMatch(/^Token facts\s+new to this account; decimals, symbol and name from the chain$/m);
    expect(chain).toMatch(/^Minimum out\s+0\.02 MOON$/m);
    const person = {
      ...token,
      seenBefore: true,
      source: { decimals: 'chain', symbol: 'person', name: 'person' },
    } as const;
    expect(renderBuyReview(review, { ...base, minimumOutput: '0.02', token: person }, 0, plainTheme)).toMatch(
      /^Token facts\s+decimals from the chain; symbol and name as you confirmed$/m,
    );
    const unread = {
      mint: 'MintOut111',
      symbol: null,
      name: null,
      decimals: null,
      seenBefore: true,
      source: { decimals: null, symbol: null, name: null },
      chainUnread: 'reading account from rpc.example.com failed: connection refused',
      unbound: [
        { fact: 'decimals', value: '5' },
        { fact: 'symbol', value: 'WOOF' },
      ],
      risks: { risks: null, fingerprint: null, accepted: false, askAccept: false },
    } as const;
    // Laid out to 80 columns: a value's lines joined to read it whole.
    const out = renderBuyReview(review, { ...base, minimumOutput: null, token: unread }, 0, plainTheme).replace(
      /\n {14}(?=\S)/g,
      ' ',
    );
    expect(out).toMatch(/^Buy\s+MintOut111$/m);
    expect(out).toContain(
      'unconfirmed: the chain could not be read; nothing is pinned from the service alone; the service says decimals "5", symbol "WOOF", which nothing confirms',
    );
    expect(out).toMatch(/^Minimum out\s+2,000,000 raw units$/m);
  });
});

describe("the sell summary: the chain's figure first, the service's beside it (attack-3 F5)", () => {
  const view = {
    authorization: { ...authorization, status: 'authorized', amount: '2500000' },
    sell: { status: 'completed', groupKey: 'g1' },
  } as unknown as GetSellResponse;
  const said = (received: string | null) => ({ ...sell, receivedOutputAmount: received }) as Trade;
  const summary = (
    onChain: Parameters<typeof renderSellSummary>[5],
    received: string | null = '900000000',
    state: 'completed' | 'pending' = 'completed',
  ) =>
    renderSellSummary(
      view,
      state === 'completed' ? { state } : { state, stage: 'executing' },
      said(received),
      meta,
      plainTheme,
      onChain,
    );

  it("a payout the chain shows: Sold, its figure, the service's beside it only where it differs", () => {
    expect(summary({ paid: '900000000' })).toMatch(/^Sold\s+2\.5 X\nSOL received\s+0\.9 SOL$/m);
    expect(summary({ paid: '300000000' })).toMatch(/^SOL received\s+0\.3 SOL \(the service says 0\.9 SOL\)$/m);
  });

  it('no payout on chain: "none on chain (the service says 0.9 SOL)", and never Sold', () => {
    const out = summary('none');
    expect(out).toMatch(/^SOL received\s+none on chain \(the service says 0\.9 SOL\)$/m);
    expect(out).toMatch(/^Amount\s+2\.5 X$/m);
    expect(out).not.toMatch(/^Sold/m);
    expect(summary('none', null)).toMatch(/^SOL received\s+none on chain$/m);
  });

  it("a transfer the chain cannot tie to this sell, or a chain not read: said so before the service's figure, never Sold", () => {
    const untied = summary({ untied: '100000000' }, '100000000');
    expect(untied).toMatch(/^SOL received\s+0\.1 SOL not tied to this sell \(the service says 0\.1 SOL\)$/m);
    expect(untied).not.toMatch(/^Sold/m);
    const unread = summary(null);
    expect(unread).toMatch(/^SOL received\s+not checked on chain \(the service says 0\.9 SOL\)$/m);
    expect(unread).not.toMatch(/^Sold/m);
  });

  it('under way with nothing said received: the minimum, as before', () => {
    expect(summary('none', null, 'pending')).toMatch(/^Minimum SOL\s+0\.0000049 SOL$/m);
    expect(summary(null, null, 'pending')).toMatch(/^Minimum SOL\s+0\.0000049 SOL$/m);
  });

  it("payoutOnChain reads the verification: the payouts' figure, the untied one, none, or nothing when unread", () => {
    const v = (over: Partial<Verification>): Verification => ({ rpc: 'r', verdict: 'verified', checks: [], ...over });
    expect(payoutOnChain(v({ received: { payoutsLamports: '5' } }))).toEqual({ paid: '5' });
    expect(payoutOnChain(v({ verdict: 'attributed', received: { untiedPayoutsLamports: '7' } }))).toEqual({
      untied: '7',
    });
    expect(payoutOnChain(v({ verdict: 'contradicted' }))).toBe('none');
    expect(payoutOnChain(v({ verdict: 'unchecked' }))).toBeNull();
    expect(payoutOnChain(null)).toBeNull();
  });
});

describe('verdicts: claim what the chain proves, wrapped to the width, never cut', () => {
  const SIG = '3VXMnjGYphWJRsfqDaCqBzsdVkgx2qMNWKqaYYc9UFTy9YMCdjALbW6A4p2Q1ARv5bEv8PyRQEBLxSatdUhw8v72';
  const ACCOUNT = 'CGrSUy1rJPPMpfPi4SN329Tv73HoXnP7PVt27mSe8G3v';
  const verified: Verification = {
    rpc: '127.0.0.1:8899',
    verdict: 'verified',
    checks: [
      {
        signature: SIG,
        role: 'deposit',
        expected: '0.1 SOL from your wallet to the treasury',
        mark: 'verified',
        chain: '0.1 SOL from your wallet to the treasury (fee 0.0000055 SOL), slot 280000006',
      },
      {
        signature: SIG,
        role: 'swap',
        expected: `74242649977 raw units of ${ACCOUNT} delivered, as the service reports it received`,
        mark: 'verified',
        chain: `the swap delivers 74242649977 raw units to token account ${ACCOUNT} of the service's trading wallet ${ACCOUNT} (not your wallet: the service holds bought tokens for you there)`,
      },
    ],
  };

  it('a trade that names no signatures (a failed sell) had nothing checked: never "every claim verified"', () => {
    const none: Verification = { rpc: '127.0.0.1:8899', verdict: 'verified', checks: [] };
    for (const text of [
      renderVerificationLines(none, plainTheme),
      renderVerificationTable(none, plainTheme, { width: 80 }),
    ]) {
      expect(text).toBe('On chain (127.0.0.1:8899): nothing checked: the trade names no signatures');
    }
  });

  it.each([80, 81])('trades --verify at %i columns on a terminal: every line fits, every claim whole', (width) => {
    const out = renderVerificationTable(verified, plainTheme, { width, shorten: true });
    for (const line of out.split('\n')) expect(displayWidth(line), line).toBeLessThanOrEqual(width);
    const text = out.replace(/\n {13}/g, ' ');
    for (const c of verified.checks) {
      expect(text).toContain(c.expected);
      expect(text).toContain(c.chain);
    }
    // The address is the thing checked (here the mint, the token account and its holder): whole on one line each.
    expect(out.split('\n').filter((l) => l.includes(ACCOUNT))).toHaveLength(3);
    // A signature wider than the whole line is the only thing shortened, in its middle, on a terminal.
    const shortened = out.split('\n').filter((l) => l.includes('…'));
    expect(shortened).toHaveLength(2);
    for (const line of shortened)
      expect(line).toMatch(new RegExp(`^SIGNATURE {4}${SIG.slice(0, 20)}\\w*…\\w*${SIG.slice(-8)}$`));
  });

  it('piped, a signature wider than the line stays whole; --wide: one line per claim, every cell whole', () => {
    expect(renderVerificationTable(verified, plainTheme, { width: 80 })).toContain(SIG);
    const wide = renderVerificationTable(verified, plainTheme, { width: 80, wide: true }).split('\n');
    expect(wide).toHaveLength(4);
    expect(wide[2]).toContain(verified.checks[1]!.chain);
  });
});
