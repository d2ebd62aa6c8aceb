// The authorization's fields against the request and the user's limits, before its message is
// read: the token, amount, outputs, slippage and floor, id and times of a live 2-minute authorization.
import type { SellAuthorization } from '../../api/types.js';
import { formatSol, isCanonicalIntegerString } from '../../domain/amounts.js';
import { belowSlippageFloor, slippageFloor, validBps } from '../slippage.js';
import { formatLocalTime } from '../../domain/local-time.js';
import type { SellFacts } from './facts.js';
import { counted } from '../../domain/units.js';

/** The most an authorization may live: the API's 2 minutes, with room for rounding. */
export const MAX_LIFETIME_MS = 150_000;
/** How far the service's clock may run ahead of ours. */
export const CLOCK_SKEW_MS = 60_000;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/;

export interface AuthorizationRequest {
  mint: string;
  /** Raw token units asked for. */
  amount: bigint;
  /** --min-sol in lamports, or null. */
  minSolLamports: bigint | null;
  /** The most slippage the user allows: the stricter of --slippage-bps and the profile's maxSlippageBps, else the default cap. */
  allowedSlippageBps: number;
}

/** A time field as ms, when it is strict ISO 8601 (a looser string could carry words Date.parse skips). */
export function timeOrNull(value: unknown): number | null {
  return typeof value === 'string' && ISO_TIME.test(value) && !Number.isNaN(Date.parse(value))
    ? Date.parse(value)
    : null;
}

/** Whether the authorization can no longer be signed: its expiry is past (or unreadable). The one rule for "expired". */
export function authorizationExpired(auth: { expiresAt: unknown }, nowMs: number): boolean {
  const expiresMs = timeOrNull(auth.expiresAt);
  return expiresMs === null || expiresMs <= nowMs;
}

/** Checks the fields; returns the problems (one line each) and the checked values when there are none. */
export function checkAuthorization(
  auth: SellAuthorization,
  req: AuthorizationRequest,
  nowMs: number,
): { problems: string[]; fields: Pick<SellFacts, 'amount' | 'minimum' | 'expected' | 'slippageBps'> | null } {
  const problems: string[] = [];
  const integer = (value: unknown, name: string): bigint | null => {
    if (isCanonicalIntegerString(value)) return BigInt(value);
    problems.push(`the authorization's ${name} ${JSON.stringify(value)} is not a whole number`);
    return null;
  };
  if (auth.mint !== req.mint)
    problems.push(`the authorization sells ${String(auth.mint)}, not the requested token ${req.mint}`);
  const amount = integer(auth.amount, 'amount');
  if (amount !== null && amount !== req.amount)
    problems.push(`the authorization sells ${counted(amount, 'raw unit')}, not the requested ${req.amount}`);
  const expected = integer(auth.expectedOutputLamports, 'expectedOutputLamports');
  const minimum = integer(auth.minimumOutputLamports, 'minimumOutputLamports');
  const bps = validBps(auth.slippageBps);
  if (bps === null)
    problems.push(
      `the authorization's slippage ${JSON.stringify(auth.slippageBps)} is not a number of basis points from 0 to 10000`,
    );
  else if (bps > req.allowedSlippageBps)
    problems.push(`the authorization's slippage ${bps} bps is more than the ${req.allowedSlippageBps} bps allowed`);
  if (expected !== null && minimum !== null) {
    if (minimum > expected)
      problems.push(`the minimum ${formatSol(minimum)} SOL is above the expected ${formatSol(expected)} SOL`);
    else if (bps !== null && belowSlippageFloor(expected, minimum, bps)) {
      problems.push(
        `the minimum ${formatSol(minimum)} SOL is below what ${bps} bps of slippage allows on the expected ${formatSol(expected)} SOL (${formatSol(slippageFloor(expected, bps))} SOL)`,
      );
    }
  }
  // A sale with no floor is no quote, however small the honest one may be.
  if (minimum === 0n) problems.push('the minimum output is 0 lamports: a sale with no floor');
  if (expected === 0n) problems.push('the expected output is 0 lamports: a sale for nothing');
  if (minimum !== null && req.minSolLamports !== null && minimum < req.minSolLamports) {
    problems.push(`the minimum ${formatSol(minimum)} SOL is below --min-sol ${formatSol(req.minSolLamports)} SOL`);
  }
  if (typeof auth.id !== 'string' || !/^sell_[A-Za-z0-9]{4,64}$/.test(auth.id))
    problems.push(
      `the authorization id ${JSON.stringify(auth.id)} is not an opaque sell_ id of 4 to 64 letters and digits`,
    );
  // An authorization lives 2 minutes (api-spec.md): one that claims longer would keep the signature usable.
  const expiresMs = timeOrNull(auth.expiresAt);
  const createdMs = timeOrNull(auth.createdAt);
  if (expiresMs === null)
    problems.push(`the authorization's expiresAt ${JSON.stringify(auth.expiresAt)} is not an ISO 8601 time`);
  else if (expiresMs <= nowMs) problems.push(`the authorization expired at ${formatLocalTime(expiresMs)}`);
  else if (expiresMs > nowMs + MAX_LIFETIME_MS + CLOCK_SKEW_MS)
    problems.push(`the authorization expires at ${formatLocalTime(expiresMs)}, more than 2 minutes from now`);
  if (createdMs === null)
    problems.push(`the authorization's createdAt ${JSON.stringify(auth.createdAt)} is not an ISO 8601 time`);
  else if (
    expiresMs !== null &&
    (expiresMs - createdMs > MAX_LIFETIME_MS || createdMs >= expiresMs || createdMs > nowMs + CLOCK_SKEW_MS)
  ) {
    problems.push(
      `the authorization's createdAt ${formatLocalTime(createdMs)} does not fit a 2-minute authorization expiring at ${formatLocalTime(expiresMs)}`,
    );
  }
  if (typeof auth.message !== 'string' || auth.message.length === 0)
    problems.push('the authorization has no message to sign');
  const fields =
    problems.length === 0 ? { amount: amount!, minimum: minimum!, expected: expected!, slippageBps: bps! } : null;
  return { problems, fields };
}
