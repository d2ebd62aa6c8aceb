// A token's share of the portfolio drawn as a bar of block characters: `███▍    42%`.
import { divRound } from '../domain/usd.js';

/** Width of a full (100%) bar, in character cells. */
export const BAR_CELLS = 8;
const PARTS = ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];

/**
 * The bar for a share given in hundredths of a percent, to the eighth of a cell, padded to
 * `cells` so the percentages line up; "" when the share is unknown.
 */
export function shareBar(hundredths: bigint | null, cells = BAR_CELLS): string {
  if (hundredths === null) return '';
  const clamped = hundredths < 0n ? 0n : hundredths > 10_000n ? 10_000n : hundredths;
  const eighths = Number(divRound(clamped * BigInt(cells) * 8n, 10_000n));
  const bar = '█'.repeat(Math.floor(eighths / 8)) + PARTS[eighths % 8];
  const whole = divRound(clamped, 100n);
  const percent = whole === 0n && clamped > 0n ? '<1%' : `${whole}%`;
  return `${bar.padEnd(cells)} ${percent.padStart(3)}`;
}
