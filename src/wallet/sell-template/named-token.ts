// A message that does not name the mint names the token by its symbol alone, which anyone may
// give a token: it names this mint only where a person bound that symbol to it (the trust store's
// pin, domain/token-binding.ts, which no other mint's bound symbol may read as). That no other
// held token shares it is the service's word (its holdings) and proves nothing.
import type { SellFacts } from './facts.js';
import type { Part } from './template.js';

/** Why a template without the mint cannot name this token (its symbol unbound); null when it states the mint or the symbol is bound. */
export function unboundSymbolNaming(
  parts: readonly Part[],
  facts: Pick<SellFacts, 'mint' | 'symbol'>,
  symbolBound: boolean,
): string | null {
  const has = (fact: string) => parts.some((p) => typeof p !== 'string' && 'fact' in p && p.fact === fact);
  if (has('mint') || !has('symbol') || symbolBound) return null;
  return `the message names the token only by its symbol ${JSON.stringify(facts.symbol)}, which no person has bound to ${facts.mint}: any token may carry that symbol, and the service's holdings are no proof that none other does`;
}
