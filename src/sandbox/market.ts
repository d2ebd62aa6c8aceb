// Tokens, constant-product pools, the SOL/USD price, quotes and the platform fee.
// All quote arithmetic is bigint; USD figures are numbers because the API reports them as numbers.
import { createHash } from 'node:crypto';
import { keypairFromSeed } from './sandbox-keys.js';
import type { MintExtras, TokenRecord } from './state.js';

export const LAMPORTS_PER_SOL = 1_000_000_000n;
export const SOL_MINT = 'So11111111111111111111111111111111111111112';
export const PLATFORM_FEE_BPS = 100n;
export const DEFAULT_SLIPPAGE_BPS = 100;
export const DEFAULT_SOL_USD = 150;
/** SOL on each side of a fresh pool: deep enough for normal orders, shallow enough that big ones move the price. */
export const DEFAULT_POOL_SOL = 1_000n;

interface TokenSeed {
  symbol: string;
  name: string;
  decimals: number;
  tokensPerSol: bigint;
  program?: 'token-2022';
  mintExtras?: MintExtras;
}

const DEFAULT_TOKENS: TokenSeed[] = [
  { symbol: 'WOOF', name: 'Woof Sandbox Dog', decimals: 5, tokensPerSol: 7_500_000n },
  { symbol: 'SGLD', name: 'Sandbox Gold', decimals: 6, tokensPerSol: 120n },
  { symbol: 'BRIX', name: 'Brix Protocol', decimals: 9, tokensPerSol: 40n },
  // A Token-2022 mint with its metadata in the mint, so both metadata layouts are on the chain.
  { symbol: 'MOON', name: 'Moon Sandbox', decimals: 8, tokensPerSol: 1_500n, program: 'token-2022' },
  // Tokens whose mints carry risks a buy's review shows (docs/token-risks.md): a live mint and
  // freeze authority (warn), a transfer fee above the default threshold and a permanent delegate
  // (a person accepts them). Listed after the others, and kept out of the seeded history.
  {
    symbol: 'ICE',
    name: 'Ice Freezable',
    decimals: 6,
    tokensPerSol: 300n,
    mintExtras: { mintAuthority: authority('ICE:mint'), freezeAuthority: authority('ICE:freeze') },
  },
  {
    symbol: 'TOLL',
    name: 'Toll Fee Sandbox',
    decimals: 6,
    tokensPerSol: 500n,
    program: 'token-2022',
    mintExtras: { transferFee: { bps: 250, maximumFee: '5000000000' } },
  },
  {
    symbol: 'GRAB',
    name: 'Grab Delegate',
    decimals: 6,
    tokensPerSol: 800n,
    program: 'token-2022',
    mintExtras: { permanentDelegate: authority('GRAB:delegate') },
  },
];

/** A sandbox token's authority: a fixed address no one holds the key of here. */
function authority(role: string): string {
  return deriveAddress(`trader-sandbox-authority:${role}`);
}

/** Deterministic valid mint address for a seed string (same on every start). */
export function deriveAddress(seed: string): string {
  const bytes = createHash('sha256').update(seed).digest();
  return keypairFromSeed(bytes).publicKey.toBase58();
}

/** A token with a fresh pool priced at `tokensPerSol` whole tokens per SOL. */
export function makeToken(
  symbol: string,
  name: string,
  decimals: number,
  tokensPerSol: bigint,
  mint = deriveAddress(`trader-sandbox-token:${symbol}`),
  poolSol = DEFAULT_POOL_SOL,
): TokenRecord {
  return {
    symbol,
    name,
    mint,
    decimals,
    imageUrl: `https://example.com/trader-sandbox/tokens/${encodeURIComponent(symbol.toLowerCase())}.png`,
    solReserve: poolSol * LAMPORTS_PER_SOL,
    tokenReserve: poolSol * tokensPerSol * 10n ** BigInt(decimals),
  };
}

/** The tokens a fresh sandbox trades. */
export function defaultTokens(): TokenRecord[] {
  return DEFAULT_TOKENS.map((t) => ({
    ...makeToken(t.symbol, t.name, t.decimals, t.tokensPerSol),
    ...(t.program ? { program: t.program } : {}),
    ...(t.mintExtras ? { mintExtras: t.mintExtras } : {}),
  }));
}

/** Platform fee of a buy: taken from the deposited amount before the swap. */
export function buyFee(amountLamports: bigint): bigint {
  return (amountLamports * PLATFORM_FEE_BPS) / 10_000n;
}

/** Raw token units a swap of `solIn` lamports returns from the pool now. */
export function quoteBuy(token: TokenRecord, solIn: bigint): bigint {
  return (token.tokenReserve * solIn) / (token.solReserve + solIn);
}

/** Lamports a sale of `amount` raw units returns from the pool now. */
export function quoteSell(token: TokenRecord, amount: bigint): bigint {
  return (token.solReserve * amount) / (token.tokenReserve + amount);
}

/** The floor a slippage tolerance allows, rounded down. */
export function applySlippage(expected: bigint, slippageBps: number): bigint {
  return (expected * (10_000n - BigInt(slippageBps))) / 10_000n;
}

/** Execute a buy against the pool. */
export function swapBuy(token: TokenRecord, solIn: bigint, out: bigint): void {
  token.solReserve += solIn;
  token.tokenReserve -= out;
}

/** Execute a sell against the pool. */
export function swapSell(token: TokenRecord, amount: bigint, out: bigint): void {
  token.tokenReserve += amount;
  token.solReserve -= out;
}

/** Multiply the token's price by `multiplier` (changes the SOL side of the pool). */
export function scalePrice(token: TokenRecord, multiplier: number): void {
  const ppm = BigInt(Math.round(multiplier * 1_000_000));
  token.solReserve = (token.solReserve * ppm) / 1_000_000n;
  if (token.solReserve < 1n) token.solReserve = 1n;
}

/** Set the token's USD price per whole token, keeping the token side of the pool. */
export function setUsdPrice(token: TokenRecord, usdPrice: number, solUsd: number): void {
  const current = usdPerToken(token, solUsd);
  if (current > 0) scalePrice(token, usdPrice / current);
}

/** USD price of one whole token at the pool's spot price. */
export function usdPerToken(token: TokenRecord, solUsd: number): number {
  const lamportsPerWhole = (Number(token.solReserve) / Number(token.tokenReserve)) * 10 ** token.decimals;
  return (lamportsPerWhole / 1e9) * solUsd;
}

/** USD value of lamports, in whole cents. */
export function lamportsToCents(lamports: bigint, solUsd: number): number {
  return Math.round((Number(lamports) / 1e9) * solUsd * 100);
}

/** Exact decimal string of a raw amount (`123450` with 5 decimals → `1.2345`). */
export function formatUnits(raw: bigint, decimals: number): string {
  const neg = raw < 0n;
  const abs = neg ? -raw : raw;
  const base = 10n ** BigInt(decimals);
  const whole = abs / base;
  let frac = (abs % base).toString().padStart(decimals, '0').replace(/0+$/, '');
  frac = frac ? `.${frac}` : '';
  return `${neg ? '-' : ''}${whole}${frac}`;
}
