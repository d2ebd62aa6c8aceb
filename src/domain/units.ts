// Counts with their units as people read them, in one place: the unit is plural unless the count
// is exactly one ("1 lamport", "0 lamports", "2 lamports"), and a duration is seconds written
// `30 s`. A SOL amount with its lamports beside it is amounts.ts's solAndLamports.

/** Units a count is printed with; each one's plural adds an s. */
export type CountUnit = 'lamport' | 'token' | 'raw unit' | 'trade' | 'sell' | 'account' | 'address lookup table';

/**
 * `1 lamport`, `2 lamports`, `0 lamports`, `1.5 tokens`: the number as written (`digits`, by default
 * the count as is) and the unit, singular only when the number written is exactly 1.
 */
export function counted(n: bigint | number | string, unit: CountUnit, digits: string = String(n)): string {
  return `${digits} ${digits === '1' ? unit : `${unit}s`}`;
}

/** `1000000 lamports`, `1 lamport`: the raw count as a person could type it back. */
export function lamports(n: bigint | string): string {
  return counted(n, 'lamport');
}

/** `30 s`, `1.5 s`: milliseconds as seconds, to the millisecond. */
export function secondsText(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}
