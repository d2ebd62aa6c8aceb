// Which mint `--token` means: a mint address as given, or the one token of the account's
// history (holdings, positions, activity) with that symbol.
import { UsageError } from '../errors.js';
import type { PnlInput } from './pnl.js';

/** Base58, the length of a Solana address. */
const MINT_LIKE = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;

/** True when the text can only be a mint address, not a symbol. */
export function isMintLike(value: string): boolean {
  return MINT_LIKE.test(value);
}

/** The mint of `token` (a mint, or a symbol, case-insensitive, `$` allowed) among the tokens the input knows. */
export function findTokenMint(token: string, input: PnlInput): string {
  if (isMintLike(token)) return token;
  const wanted = token.replace(/^\$/, '').toLowerCase();
  const mints = new Set<string>();
  const consider = (mint: string | null, symbol: string | null | undefined) => {
    if (mint && symbol && symbol.toLowerCase() === wanted) mints.add(mint);
  };
  for (const h of input.holdings) consider(h.mint, h.symbol);
  for (const p of input.positions) consider(p.mint, p.token?.symbol);
  for (const e of input.activity) consider(e.mint, e.symbol);
  if (mints.size === 1) return [...mints][0]!;
  if (mints.size === 0) {
    throw new UsageError(`"${token}" is neither a mint address nor the symbol of a token you hold or traded; see \`trader holdings\` or \`trader activity\``);
  }
  throw new UsageError(`${mints.size} tokens you hold or traded have the symbol ${token} (${[...mints].join(', ')}); give the mint address instead`);
}
