// The slippage a trade carries, against what the user allows: the service may not widen it, and
// the minimum must be that slippage's floor of the expected output, for sells (in lamports) and
// buys (in raw token units) alike. A low minimum is where a bad price hides.

/** The floor of `bps` of slippage on `expected`, rounded down to a whole unit. */
export function slippageFloor(expected: bigint, bps: number): bigint {
  return (expected * BigInt(10_000 - bps)) / 10_000n;
}

/**
 * Whether `minimum` is below the floor of `bps` on `expected` by more than rounding allows: a
 * minimum less than 1 bp of the expected output below the exact floor passes
 * (10000·min > expected·(9999 − bps) says exactly that), and so does the floor rounded down to
 * a whole unit, which on tiny trades is more.
 */
export function belowSlippageFloor(expected: bigint, minimum: bigint, bps: number): boolean {
  return minimum < slippageFloor(expected, bps) && 10_000n * minimum <= expected * BigInt(9_999 - bps);
}

/** A slippage in basis points as the API gives it, or null when it is not one (0-10000, whole). */
export function validBps(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 10_000 ? value : null;
}
