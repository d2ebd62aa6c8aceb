// What the buy review shows, from the intent, the deposit's fee, the trade read and the token:
// known facts computed exactly, unknown ones said to be unknown, never invented.
import { describe, expect, it } from 'vitest';
import type { BuyIntent, Trade } from '../../src/api/types.js';
import { buyQuote, buySlippageProblems } from '../../src/trade/buy-quote.js';
import { knownTokens, resolveTokenMint } from '../../src/trade/token-lookup.js';
import { bindToken } from '../../src/domain/token-binding.js';
import type { BuyToken } from '../../src/trade/buy-review.js';
import { activity, holding, intent, position, trade } from './api-helpers.js';

const buy = {
  ...intent,
  outputMint: 'MintX',
  amountLamports: '500000000',
  minimumOutputAmount: '367355658948',
} as BuyIntent;
const read = {
  ...trade,
  id: buy.id,
  outputMint: 'MintX',
  inputAmount: '500000000',
  expectedOutputAmount: '371066322170',
  minimumOutputAmount: '367355658948',
  platformFeeLamports: '5000000',
  slippageBps: 100,
} as Trade;
const woof = { symbol: 'WOOF', name: 'Woof', decimals: 5 };
const onChain = {
  mint: 'MintX',
  program: 'spl-token',
  decimals: 5,
  symbol: 'WOOF',
  name: 'Woof',
  metadataSource: 'metaplex',
} as const;
/** The token as a buy binds it: the service's lists (`listed`), the chain's facts. */
const bound = (listed: typeof woof | null, chain: typeof onChain | null | 'unreadable' = onChain): BuyToken => ({
  binding: bindToken('MintX', listed, chain, null, {}),
  seenBefore: listed !== null,
  chainUnread: chain === 'unreadable' ? 'connection refused' : null,
});

describe('buyQuote', () => {
  it('a token traded before: whole tokens, the all-in price, the applied slippage, the total with the network fee cap', () => {
    expect(buyQuote(buy, 5_500n, { trade: read, problem: null }, bound(woof), undefined)).toEqual({
      token: {
        mint: 'MintX',
        symbol: 'WOOF',
        name: 'Woof',
        decimals: 5,
        seenBefore: true,
        source: { decimals: 'chain', symbol: 'chain', name: 'chain' },
        unbound: [],
        chainUnread: null,
      },
      depositLamports: '500000000',
      platformFeeLamports: '5000000',
      networkFeeMaxLamports: '5500',
      totalMaxLamports: '500005500',
      expectedOutputAmount: '371066322170',
      minimumOutputAmount: '367355658948',
      expectedOutput: '3710663.2217',
      minimumOutput: '3673556.58948',
      slippageBps: 100,
      slippageBpsAsked: null,
      pricePerTokenSol: '0.0000001347',
      unknown: null,
    });
  });

  it("a token new to the account, with facts on chain: whole tokens by the chain's decimals, its symbol and name", () => {
    const q = buyQuote(buy, 5_500n, { trade: read, problem: null }, bound(null), 150);
    expect(q).toMatchObject({
      expectedOutput: '3710663.2217',
      minimumOutput: '3673556.58948',
      pricePerTokenSol: '0.0000001347',
      unknown: null,
      token: { symbol: 'WOOF', decimals: 5, seenBefore: false },
    });
  });

  it("a chain that cannot be read: raw units only, no price, and why; the service's facts unbound, not shown as the token's", () => {
    const q = buyQuote(buy, 5_500n, { trade: read, problem: null }, bound(woof, 'unreadable'), 150);
    expect(q).toMatchObject({
      expectedOutput: null,
      minimumOutput: null,
      pricePerTokenSol: null,
      slippageBpsAsked: 150,
      token: { symbol: null, decimals: null, seenBefore: true, chainUnread: 'connection refused' },
    });
    expect(q.token.unbound).toEqual([
      { fact: 'decimals', value: '5' },
      { fact: 'symbol', value: 'WOOF' },
      { fact: 'name', value: 'Woof' },
    ]);
    expect(q.unknown).toBe("the token's decimals (the chain could not be read): amounts in raw units, no price");
  });

  it('no token mint on chain: raw units, and why', () => {
    expect(buyQuote(buy, 5_500n, { trade: read, problem: null }, bound(null, null), undefined).unknown).toBe(
      "the token's decimals (the chain has no token mint there): amounts in raw units, no price",
    );
  });

  it('no trade read: the expected output, fee and slippage are unknown, the intent’s own facts stay', () => {
    const q = buyQuote(
      buy,
      5_500n,
      { trade: null, problem: 'the trade could not be read (HTTP 503)' },
      bound(woof),
      undefined,
    );
    expect(q).toMatchObject({
      expectedOutputAmount: null,
      platformFeeLamports: null,
      slippageBps: null,
      pricePerTokenSol: null,
      minimumOutput: '3673556.58948',
    });
    expect(q.unknown).toBe('expected output, platform fee and slippage: the trade could not be read (HTTP 503)');
  });
});

describe('buySlippageProblems: the quote against what the user allows', () => {
  const quoted = (over: Partial<Trade>) => ({ trade: { ...read, ...over } as Trade, problem: null });
  // Expected 371,066,322,170 at 100 bps: the floor is 367,355,658,948; 1 bp of rounding allows down to 367,318,552,316.
  const withMinimum = (minimum: string) => ({ ...buy, minimumOutputAmount: minimum }) as BuyIntent;
  it('the floor, and a minimum rounded by less than 1 bp, pass; one unit lower does not; 1% lower does not', () => {
    expect(buySlippageProblems(buy, quoted({}), 500, true)).toEqual([]);
    expect(buySlippageProblems(withMinimum('367318552317'), quoted({}), 500, true)).toEqual([]);
    expect(buySlippageProblems(withMinimum('367318552316'), quoted({}), 500, true)).toEqual([
      'the minimum out 367318552316 raw units is below what 100 bps of slippage allows on the expected 371066322170 (367355658948)',
    ]);
    expect(buySlippageProblems(withMinimum('363682102358'), quoted({}), 500, true)).toHaveLength(1);
  });
  it('a quote that names no slippage: the minimum must be the floor of the slippage allowed', () => {
    const noBps = { trade: { ...read, slippageBps: null } as Trade, problem: null };
    const floor500 = ((371066322170n * 9_500n) / 10_000n).toString();
    expect(buySlippageProblems({ ...buy, minimumOutputAmount: floor500 } as BuyIntent, noBps, 500, true)).toEqual([]);
    expect(buySlippageProblems({ ...buy, minimumOutputAmount: '0' } as BuyIntent, noBps, 500, true)).toEqual([
      `the minimum out 0 raw units is below what 500 bps of slippage allows on the expected 371066322170 (${floor500})`,
    ]);
  });

  it('the default cap: 500 bps passes, 501 does not; a typed limit holds at its edge', () => {
    const at = (bps: number) => quoted({ slippageBps: bps });
    const floorAt = (bps: number) => withMinimum(((371066322170n * BigInt(10_000 - bps)) / 10_000n).toString());
    expect(buySlippageProblems(floorAt(500), at(500), 500, true)).toEqual([]);
    expect(buySlippageProblems(floorAt(501), at(501), 500, true)).toEqual([
      "the quote's slippage 501 bps is more than the 500 bps allowed",
    ]);
    expect(buySlippageProblems(buy, quoted({}), 100, true)).toEqual([]);
    expect(buySlippageProblems(buy, quoted({}), 99, true)).toEqual([
      "the quote's slippage 100 bps is more than the 99 bps allowed",
    ]);
  });
  it('without a trade read: refused unattended, shown as unknown at the prompt; a minimum above the expected output is refused', () => {
    expect(buySlippageProblems(buy, { trade: null, problem: 'HTTP 503' }, 500, true)).toEqual([
      "the quote's slippage cannot be checked: HTTP 503",
    ]);
    expect(buySlippageProblems(buy, { trade: null, problem: 'HTTP 503' }, 500, false)).toEqual([]);
    expect(buySlippageProblems(withMinimum('371066322171'), quoted({}), 500, true)).toEqual([
      'the minimum out 371066322171 raw units is above the expected 371066322170',
    ]);
  });
});

describe('token lookup', () => {
  const known = knownTokens({
    holdings: [{ ...holding, mint: 'Mint1111111111A', symbol: 'WOOF', name: 'Woof', decimals: 5 }] as never,
    positions: [
      { ...position, mint: 'Mint2222222222B', token: { symbol: 'WOOF', name: 'Other', decimals: 9 } },
    ] as never,
    activity: [
      { ...activity, mint: 'Mint3333333333C', symbol: 'SGLD', decimals: 6 },
      { ...activity, mint: 'Mint1111111111A', symbol: 'IGNORED', decimals: 1 },
    ] as never,
  });

  it('merges holdings, positions and activity by mint, the first list that knows a fact winning', () => {
    expect(known.get('Mint1111111111A')).toEqual({ symbol: 'WOOF', name: 'Woof', decimals: 5 });
    expect(known.get('Mint3333333333C')).toEqual({ symbol: 'SGLD', name: null, decimals: 6 });
  });

  it('a symbol (any case, $ allowed) or a mint prefix of 8+ characters names one token; several or none is exit 2', () => {
    expect(resolveTokenMint('$sgld', known, 'you have held or traded')).toBe('Mint3333333333C');
    expect(resolveTokenMint('Mint2222', known, 'you have held or traded')).toBe('Mint2222222222B');
    expect(() => resolveTokenMint('woof', known, 'you have held or traded')).toThrow(
      '"woof" could be any of 2 tokens you have held or traded (WOOF Mint1111111111A, WOOF Mint2222222222B); give the mint address instead',
    );
    expect(() => resolveTokenMint('Mint', known, 'you hold')).toThrow(
      /neither a mint address nor the symbol or mint prefix of a token you hold/,
    );
  });
});
