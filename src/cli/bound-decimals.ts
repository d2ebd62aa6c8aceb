// Token amounts in the read commands (holdings, pnl, activity, positions, trades) counted in the
// decimals bound to their mint in the trust store (a person's, or the chain's at a trade a person
// signed), never the service's: a service that says 9 for a mint bound at 5 would show every
// amount 10^4 too small. Where the two differ, one warning per mint names both.
import type { ActivityEntry, Holding, Position } from '../api/types.js';
import type { Context } from './context.js';
import { toDecimalString } from '../domain/amounts.js';
import { bindingPin, listedSymbol, type PinnedTokenFacts } from '../domain/token-binding.js';

/** The service's lists with their decimals replaced by the bound ones where the trust store binds the mint. */
export interface BoundDecimals {
  /** The decimals to count `mint`'s amounts in: the bound ones, else the service's. */
  of(mint: string | null, service: number | null): number | null;
  /** The symbol to list `mint` by: the bound one, else the service's unless it is bound to another mint (then only its claim). */
  symbol(mint: string | null, service: string | null): { symbol: string | null; claims: string | null };
  holding(h: Holding): Holding;
  position(p: Position): Position;
  entry(e: ActivityEntry): ActivityEntry;
}

/** Reads the trust store's bound decimals for this service; a store that cannot be read is a warning, and the service's decimals stand. */
export async function boundDecimals(ctx: Context): Promise<BoundDecimals> {
  let pins: Record<string, PinnedTokenFacts> = {};
  try {
    pins = (await ctx.trustStore()).read().tokens ?? {};
  } catch (err) {
    const { TrustStoreError } = await import('../config/trust-store.js');
    if (!(err instanceof TrustStoreError)) throw err;
    ctx.output.warn(
      `the bound token facts could not be read (${err.message}): amounts are counted in the service's decimals`,
    );
  }
  const warned = new Set<string>();
  const of = (mint: string | null, service: number | null): number | null => {
    const pin = mint === null ? undefined : pins[mint];
    if (!pin || !bindingPin(pin) || typeof pin.decimals !== 'number') return service;
    if (service !== null && service !== pin.decimals && !warned.has(mint!)) {
      warned.add(mint!);
      ctx.output.warn(
        `the service gives token ${mint} ${service} decimals, but it is bound to ${pin.decimals}: its amounts are counted in the bound ${pin.decimals}`,
      );
    }
    return pin.decimals;
  };
  return {
    of,
    symbol: (mint, service) => listedSymbol(pins, mint, service),
    holding(h) {
      const decimals = of(h.mint, h.decimals);
      // The service's `balance` is its amount in its decimals: restated in the bound ones.
      return decimals === h.decimals || decimals === null
        ? h
        : { ...h, decimals, balance: /^[0-9]+$/.test(h.amount) ? toDecimalString(BigInt(h.amount), decimals) : null };
    },
    position(p) {
      const decimals = of(p.mint, p.token?.decimals ?? null);
      return decimals === (p.token?.decimals ?? null)
        ? p
        : { ...p, token: { symbol: p.token?.symbol ?? null, name: p.token?.name ?? null, decimals } };
    },
    entry(e) {
      const decimals = of(e.mint, e.decimals);
      return decimals === e.decimals ? e : { ...e, decimals };
    },
  };
}
