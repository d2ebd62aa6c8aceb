// Token facts the API gives only through holdings: symbol, name and decimals by mint, and
// which mint a typed symbol means.
import type { ServiceClient } from '../api/client.js';
import type { Holding } from '../api/types.js';
import { ApiError, UsageError } from '../errors.js';

export interface TokenMeta {
  symbol: string | null;
  name: string | null;
  decimals: number | null;
}

/** The holding of this mint, if any. */
export function holdingOf(holdings: Holding[], mint: string): Holding | undefined {
  return holdings.find((h) => h.mint === mint);
}

/** Token facts from a holding. */
export function metaOf(holding: Holding | undefined): TokenMeta | null {
  return holding ? { symbol: holding.symbol, name: holding.name, decimals: holding.decimals } : null;
}

/** The mint of the one holding whose symbol is `symbol` (case-insensitive). */
export function mintForSymbol(holdings: Holding[], symbol: string): string {
  const matches = holdings.filter((h) => h.symbol !== null && h.symbol.toLowerCase() === symbol.replace(/^\$/, '').toLowerCase());
  if (matches.length === 1) return matches[0]!.mint;
  if (matches.length === 0) {
    throw new UsageError(`"${symbol}" is neither a mint address nor the symbol of a token you hold; see \`trader holdings\``);
  }
  throw new UsageError(`${matches.length} holdings have the symbol ${symbol} (${matches.map((h) => h.mint).join(', ')}); give the mint address instead`);
}

/**
 * Holdings read only for the nicer display of a token (symbol, decimals): a service that cannot
 * give them costs the formatting, never the command. An interrupt still propagates.
 */
export async function readHoldingsQuietly(api: ServiceClient): Promise<Holding[]> {
  try {
    return await api.holdings();
  } catch (err) {
    if (err instanceof ApiError) return [];
    throw err;
  }
}
