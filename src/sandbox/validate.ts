// Request-body field checks; each failure is a 400 naming the field.
import { PublicKey } from '@solana/web3.js';
import { invalidField } from './sandbox-error.js';
import { DEFAULT_SLIPPAGE_BPS } from './market.js';

export const U64_MAX = 18_446_744_073_709_551_615n;
export type Body = Record<string, unknown>;

/** A required non-empty string. */
export function requireString(body: Body, field: string, maxLength = 10_000): string {
  const v = body[field];
  if (v === undefined || v === null) throw invalidField(field, 'is required');
  if (typeof v !== 'string') throw invalidField(field, 'must be a string');
  if (v.length === 0) throw invalidField(field, 'must not be empty');
  if (v.length > maxLength) throw invalidField(field, `must be at most ${maxLength} characters`);
  return v;
}

/** A mint: a base58 32-byte public key. */
export function requireMint(body: Body, field = 'mint'): string {
  const v = requireString(body, field, 64);
  try {
    const key = new PublicKey(v);
    if (key.toBase58() !== v) throw new Error('not canonical');
  } catch {
    throw invalidField(field, 'must be a base58 Solana address');
  }
  return v;
}

/** A positive integer amount given as a decimal string, within u64. */
export function requireAmount(body: Body, field: string): bigint {
  const v = requireString(body, field, 40);
  if (!/^[0-9]+$/.test(v)) throw invalidField(field, 'must be a decimal string of a positive integer');
  const n = BigInt(v);
  if (n <= 0n) throw invalidField(field, 'must be greater than zero');
  if (n > U64_MAX) throw invalidField(field, 'must fit in an unsigned 64-bit integer');
  return n;
}

/** The idempotency key: 1 to 128 characters. */
export function requireIdempotencyKey(body: Body): string {
  return requireString(body, 'idempotencyKey', 128);
}

/** What a buy or a sell asks for; its idempotency key stands for the other three. */
export interface TradeRequest {
  mint: string;
  amount: bigint;
  idempotencyKey: string;
  slippageBps: number;
}

/** The fields of POST /trade/buys and /trade/sells, checked in that order; only the amount's name differs. */
export function requireTradeRequest(body: Body, amountField: 'amountLamports' | 'amount'): TradeRequest {
  return {
    mint: requireMint(body),
    amount: requireAmount(body, amountField),
    idempotencyKey: requireIdempotencyKey(body),
    slippageBps: optionalSlippage(body),
  };
}

/** Optional slippage in basis points, integer 0–10000; default 100. */
export function optionalSlippage(body: Body): number {
  const v = body.slippageBps;
  if (v === undefined || v === null) return DEFAULT_SLIPPAGE_BPS;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 10_000) {
    throw invalidField('slippageBps', 'must be an integer from 0 to 10000');
  }
  return v;
}
