// A token amount as people read it, always with its unit: whole tokens with the symbol when the
// token is known, `tokens` when only its decimals are, else plainly marked as raw units.
import { formatTokenAmount } from '../domain/amounts.js';
import type { TokenMeta } from '../domain/token-meta.js';
import { oneLine } from '../io/terminal-text.js';
import { counted } from '../domain/units.js';

/** `1,234.5 WOOF`, `1.5 tokens` (decimals known, no symbol) or `1,234,500 raw units`. */
export function tokenAmount(units: bigint | string, token: TokenMeta | null): string {
  const decimals = token?.decimals ?? null;
  const digits = formatTokenAmount(units, decimals);
  if (token?.symbol) return `${digits} ${oneLine(token.symbol)}`;
  return counted(units, decimals === null ? 'raw unit' : 'token', digits);
}
