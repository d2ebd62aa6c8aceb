// Profit and loss from positions, activity and holdings: pure arithmetic, no I/O.
//
// Method (average cost per token, written out in docs/pnl.md and `trader pnl --help`):
// - Each position that received tokens is a lot: its units are `boughtAmount`, its SOL cost is
//   `principalLamports` (the whole deposit, platform fee included), its USD cost is that SOL at
//   the rate of its buy's activity entry (`usdValue / solLamports`), rounded to the cent.
// - Per token, lots and completed sell entries are walked oldest first. A sale takes its share
//   of the pool's cost (units sold / units held), rounded to the lamport and to the cent, halves
//   away from zero; a sale that empties the pool takes all that is left, so rounding never
//   creates or loses cost. Realized P&L = proceeds at execution (the sell entry's `solLamports`
//   and `usdValue`) − that share. What is left is the cost basis of the open part.
// - Unrealized P&L = value now (the holding's `usdValue`) − the cost basis in USD.
// - Platform fees = principal − `costLamports` of each lot (the part of the deposit the swap did
//   not spend).
// - `since` limits realized figures and fees to sells and buys at or after it; the walk still
//   starts at the first buy, so a sale's cost is the same whatever the period.
// - A figure that cannot be known is null, with a note saying why; it is never guessed.
import type { ActivityEntry, Holding, Position } from '../api/types.js';
import { divRound, numberToFraction, percentHundredths, usdToCents } from '../domain/usd.js';
import { counted } from '../domain/units.js';

export interface PnlInput {
  positions: readonly Position[];
  /** Activity entries; only buys and sells are used. Any order. */
  activity: readonly ActivityEntry[];
  holdings: readonly Holding[];
}

export interface PnlOptions {
  /** Epoch ms: realized figures and fees count only from here. */
  since: number | null;
  /** Epoch ms the report is made at (shown, not computed with). */
  asOf: number;
  /** Report this token only (its share is still of the whole portfolio). */
  mint?: string | null;
}

export interface TokenPnl {
  mint: string;
  symbol: string | null;
  name: string | null;
  decimals: number | null;
  /** Raw units held now. */
  amount: bigint;
  /** SOL spent on the units held now, fees included. */
  costBasisLamports: bigint | null;
  costBasisCents: bigint | null;
  valueCents: bigint | null;
  /** Share of the portfolio's known value, in hundredths of a percent. */
  shareHundredths: bigint | null;
  unrealizedCents: bigint | null;
  /** Unrealized P&L as hundredths of a percent of the cost basis; null when the basis is zero. */
  unrealizedHundredths: bigint | null;
  /** Raw units sold in the period. */
  soldAmount: bigint;
  proceedsLamports: bigint | null;
  proceedsCents: bigint | null;
  realizedLamports: bigint | null;
  realizedCents: bigint | null;
  /** Platform fees of the buys in the period. */
  feesLamports: bigint | null;
  /** Why figures are unknown, in words. */
  notes: string[];
}

/** Sums over the tokens; a figure unknown for some token is summed over the others and named in `incomplete`. */
export interface TotalPnl {
  costBasisLamports: bigint;
  costBasisCents: bigint;
  valueCents: bigint;
  unrealizedCents: bigint;
  unrealizedHundredths: bigint | null;
  proceedsLamports: bigint;
  proceedsCents: bigint;
  realizedLamports: bigint;
  realizedCents: bigint;
  feesLamports: bigint;
  incomplete: Array<keyof typeof TOTAL_FIGURES>;
}

export interface PnlReport {
  method: 'average-cost';
  asOf: number;
  since: number | null;
  tokens: TokenPnl[];
  total: TotalPnl;
}

/** Total figures and the token figure each sums. */
const TOTAL_FIGURES = {
  costBasisLamports: 'costBasisLamports',
  costBasisCents: 'costBasisCents',
  valueCents: 'valueCents',
  unrealizedCents: 'unrealizedCents',
  proceedsLamports: 'proceedsLamports',
  proceedsCents: 'proceedsCents',
  realizedLamports: 'realizedLamports',
  realizedCents: 'realizedCents',
  feesLamports: 'feesLamports',
} as const satisfies Record<string, keyof TokenPnl>;

/** Positions in these statuses received their tokens (held, being sold, or sold). */
const LOT_STATUSES: ReadonlySet<string> = new Set(['open', 'closing', 'closed']);
/** Positions whose remaining units are held now (what holdings aggregate). */
const HELD_STATUSES: ReadonlySet<string> = new Set(['open', 'closing']);
/** Activity statuses of a buy or sell that happened. Others (pending, failed…) are not counted. */
const DONE_STATUSES: ReadonlySet<string> = new Set(['completed', 'confirmed']);

interface Lot {
  at: number;
  units: bigint;
  principal: bigint;
  cents: bigint | null;
  fee: bigint | null;
  remaining: bigint;
  sold: bigint;
  held: boolean;
}

interface Sale {
  at: number;
  units: bigint;
  lamports: bigint | null;
  cents: bigint | null;
}

interface TokenFacts {
  mint: string;
  symbol: string | null;
  name: string | null;
  decimals: number | null;
  lots: Lot[];
  sales: Sale[];
  holding: Holding | null;
  notes: string[];
}

const time = (iso: string | null | undefined): number | null => {
  if (!iso) return null;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? null : ms;
};

const add = (a: bigint | null, b: bigint | null): bigint | null => (a === null || b === null ? null : a + b);

/** Computes the report. Pure: the same input always gives the same figures. */
export function computePnl(input: PnlInput, opts: PnlOptions): PnlReport {
  const tokens = new Map<string, TokenFacts>();
  for (const h of input.holdings) {
    const t = factsOf(tokens, h.mint);
    t.holding = h;
    learn(t, h);
  }
  const buys = buyIndex(input.activity);
  for (const p of input.positions) addLot(tokens, p, buys);
  for (const e of input.activity) addSale(tokens, e);
  const rows: TokenPnl[] = [];
  for (const t of tokens.values()) {
    const row = tokenPnl(t, opts.since);
    if (row) rows.push(row);
  }
  shareOut(rows);
  rows.sort(
    (a, b) =>
      cmpDesc(a.valueCents, b.valueCents) ||
      (a.symbol ?? '\uffff').localeCompare(b.symbol ?? '\uffff') ||
      a.mint.localeCompare(b.mint),
  );
  const shown = opts.mint ? rows.filter((r) => r.mint === opts.mint) : rows;
  return { method: 'average-cost', asOf: opts.asOf, since: opts.since, tokens: shown, total: totalOf(shown) };
}

/** A token's facts, made empty at its first mention. */
function factsOf(tokens: Map<string, TokenFacts>, mint: string): TokenFacts {
  let t = tokens.get(mint);
  if (!t)
    tokens.set(
      mint,
      (t = { mint, symbol: null, name: null, decimals: null, lots: [], sales: [], holding: null, notes: [] }),
    );
  return t;
}

/** The token's symbol, name and decimals, from the first source that gives each. */
function learn(t: TokenFacts, meta: { symbol?: string | null; name?: string | null; decimals?: number | null }): void {
  t.symbol ??= meta.symbol ?? null;
  t.name ??= meta.name ?? null;
  t.decimals ??= meta.decimals ?? null;
}

/** The done buy entries, by signature and by figures, and those already given to a position. */
interface BuyIndex {
  bySignature: Map<string, ActivityEntry | null>;
  byFigures: Map<string, ActivityEntry[]>;
  claimed: Set<ActivityEntry>;
}

/**
 * Buy entries by signature (a position names its buy's swap signature); a signature seen twice
 * identifies nothing.
 */
function buyIndex(activity: readonly ActivityEntry[]): BuyIndex {
  const buys = activity.filter((e) => e.type === 'buy' && DONE_STATUSES.has(e.status) && e.mint !== null);
  const bySignature = new Map<string, ActivityEntry | null>();
  const byFigures = new Map<string, ActivityEntry[]>();
  for (const e of buys) {
    if (e.signature) bySignature.set(e.signature, bySignature.has(e.signature) ? null : e);
    const key = figuresKey(e.mint, e.amount, e.solLamports);
    byFigures.set(key, [...(byFigures.get(key) ?? []), e]);
  }
  return { bySignature, byFigures, claimed: new Set<ActivityEntry>() };
}

/** A position that bought tokens as a lot of its token, with its USD cost from its buy's entry where known. */
function addLot(tokens: Map<string, TokenFacts>, p: Position, buys: BuyIndex): void {
  if (!p.mint || !LOT_STATUSES.has(p.status) || p.boughtAmount === null) return;
  const t = factsOf(tokens, p.mint);
  learn(t, p.token ?? {});
  const units = BigInt(p.boughtAmount);
  if (units === 0n) {
    t.notes.push(`position ${p.id} received no tokens; it is left out`);
    return;
  }
  const entry = buyEntryOf(p, buys.bySignature, buys.byFigures, buys.claimed);
  if (entry) buys.claimed.add(entry);
  const principal = BigInt(p.principalLamports);
  const cost = p.costLamports === null ? null : BigInt(p.costLamports);
  let cents: bigint | null = null;
  if (!entry) t.notes.push(`no activity entry for the buy of position ${p.id}: its USD cost is unknown`);
  else {
    cents = entryRateCents(entry, principal);
    if (cents === null)
      t.notes.push(
        `the activity entry of the buy of position ${p.id} has no USD value or SOL amount: its USD cost is unknown`,
      );
  }
  if (cost === null || cost > principal)
    t.notes.push(`position ${p.id} does not say what its swap spent: its platform fee is unknown`);
  t.lots.push({
    at: time(entry?.createdAt) ?? time(p.openedAt) ?? time(p.createdAt) ?? 0,
    units,
    principal,
    cents,
    fee: cost === null || cost > principal ? null : principal - cost,
    remaining: p.remainingAmount === null ? 0n : BigInt(p.remainingAmount),
    sold: BigInt(p.soldAmount),
    held: HELD_STATUSES.has(p.status),
  });
}

/** A done sell entry as a sale of its token. */
function addSale(tokens: Map<string, TokenFacts>, e: ActivityEntry): void {
  if (e.type !== 'sell' || !DONE_STATUSES.has(e.status) || e.mint === null || e.amount === null) return;
  const t = factsOf(tokens, e.mint);
  learn(t, e);
  t.sales.push({
    at: time(e.createdAt) ?? 0,
    units: BigInt(e.amount),
    lamports: e.solLamports === null ? null : BigInt(e.solLamports),
    cents: usdToCents(e.usdValue),
  });
}

/** The activity entry of a position's buy: by swap signature, else the one unclaimed entry with the same mint, units and SOL. */
function buyEntryOf(
  p: Position,
  bySignature: ReadonlyMap<string, ActivityEntry | null>,
  byFigures: ReadonlyMap<string, ActivityEntry[]>,
  claimed: ReadonlySet<ActivityEntry>,
): ActivityEntry | null {
  if (p.buySignature) {
    const e = bySignature.get(p.buySignature);
    if (e && e.mint === p.mint && !claimed.has(e)) return e;
  }
  if (p.costLamports === null) return null;
  const same = (byFigures.get(figuresKey(p.mint, p.boughtAmount, p.costLamports)) ?? []).filter((e) => !claimed.has(e));
  return same.length === 1 ? same[0]! : null;
}

const figuresKey = (mint: string | null, units: string | null, lamports: string | null) =>
  `${mint}|${units}|${lamports}`;

/** USD cents of `lamports` at the rate of an activity entry (its usdValue for its solLamports), or null. */
function entryRateCents(e: ActivityEntry, lamports: bigint): bigint | null {
  if (e.usdValue === null || e.solLamports === null) return null;
  const usd = numberToFraction(e.usdValue);
  const sol = BigInt(e.solLamports);
  if (usd === null || sol === 0n) return null;
  return divRound(usd.num * 100n * lamports, usd.den * sol);
}

function tokenPnl(t: TokenFacts, since: number | null): TokenPnl | null {
  const inPeriod = (at: number) => since === null || at >= since;
  const notes = [...t.notes];
  const positionsHeld = t.lots.reduce((s, l) => s + (l.held ? l.remaining : 0n), 0n);
  const amount = t.holding ? BigInt(t.holding.amount) : positionsHeld;
  const lotsInPeriod = t.lots.filter((l) => inPeriod(l.at));
  const salesInPeriod = t.sales.filter((s) => inPeriod(s.at));
  // A token neither held nor traded in the period has nothing to report.
  if (amount === 0n && lotsInPeriod.length + salesInPeriod.length === 0) return null;
  const feesLamports = lotsInPeriod.reduce<bigint | null>((s, l) => add(s, l.fee), 0n);

  const walk = averageCost(t, inPeriod);
  const soldByPositions = t.lots.reduce((s, l) => s + l.sold, 0n);
  const soldByActivity = t.sales.reduce((s, x) => s + x.units, 0n);
  const known = walk !== null && soldByPositions === soldByActivity && walk.units === positionsHeld;
  // Which sale took which cost cannot be known: every average-cost figure is unknown.
  if (!known)
    notes.push('activity and positions disagree on the amount sold (a trade may still be settling; run again)');
  const noLots = t.lots.length === 0 && amount > 0n;
  if (noLots) notes.push('no position bought this token: its cost is unknown');

  let valueCents: bigint | null = 0n;
  if (amount > 0n && !t.holding) {
    valueCents = null;
    notes.push('held in positions but not listed in holdings: its value now is unknown');
  } else if (amount > 0n) {
    valueCents = usdToCents(t.holding!.usdValue);
    if (valueCents === null) notes.push('the service gives no USD price for this token: its value now is unknown');
  }
  // The value is of what holdings list; the basis is of what positions hold. They must agree.
  const sameUnits = amount === positionsHeld;
  if (!sameUnits && !noLots) {
    notes.push(
      `holdings list ${counted(amount, 'raw unit')} but open positions hold ${positionsHeld}: P&L on the open part is unknown`,
    );
  }

  const costBasisLamports = known && !noLots ? walk.poolLamports : null;
  const costBasisCents = known && !noLots ? walk.poolCents : null;
  const unrealizedCents =
    sameUnits && valueCents !== null && costBasisCents !== null ? valueCents - costBasisCents : null;
  return {
    mint: t.mint,
    symbol: t.symbol,
    name: t.name,
    decimals: t.decimals,
    amount,
    costBasisLamports,
    costBasisCents,
    valueCents,
    shareHundredths: null,
    unrealizedCents,
    unrealizedHundredths:
      unrealizedCents !== null && costBasisCents !== null && costBasisCents > 0n
        ? percentHundredths(unrealizedCents, costBasisCents)
        : null,
    soldAmount: known ? walk.soldAmount : salesInPeriod.reduce((s, x) => s + x.units, 0n),
    proceedsLamports: known ? walk.proceedsLamports : null,
    proceedsCents: known ? walk.proceedsCents : null,
    realizedLamports: known ? walk.realizedLamports : null,
    realizedCents: known ? walk.realizedCents : null,
    feesLamports,
    notes: [...new Set(notes)],
  };
}

interface Walk {
  units: bigint;
  poolLamports: bigint;
  poolCents: bigint | null;
  soldAmount: bigint;
  proceedsLamports: bigint | null;
  proceedsCents: bigint | null;
  realizedLamports: bigint | null;
  realizedCents: bigint | null;
}

/** The average-cost walk over a token's lots and sales, oldest first; null if a sale sells more than was held. */
function averageCost(t: TokenFacts, inPeriod: (at: number) => boolean): Walk | null {
  // A buy goes before a sale at the same instant: nothing is sold before it is bought.
  const events = [
    ...t.lots.map((lot) => ({ at: lot.at, order: 0, lot, sale: null })),
    ...t.sales.map((sale) => ({ at: sale.at, order: 1, lot: null, sale })),
  ].sort((a, b) => a.at - b.at || a.order - b.order);
  const w: Walk = {
    units: 0n,
    poolLamports: 0n,
    poolCents: 0n,
    soldAmount: 0n,
    proceedsLamports: 0n,
    proceedsCents: 0n,
    realizedLamports: 0n,
    realizedCents: 0n,
  };
  for (const { lot, sale, at } of events) {
    if (lot) {
      w.units += lot.units;
      w.poolLamports += lot.principal;
      w.poolCents = add(w.poolCents, lot.cents);
      continue;
    }
    if (sale!.units > w.units) return null;
    const all = sale!.units === w.units;
    const costLamports = all ? w.poolLamports : divRound(w.poolLamports * sale!.units, w.units);
    const costCents = w.poolCents === null ? null : all ? w.poolCents : divRound(w.poolCents * sale!.units, w.units);
    w.units -= sale!.units;
    w.poolLamports -= costLamports;
    w.poolCents = add(w.poolCents, costCents === null ? null : -costCents);
    if (inPeriod(at)) {
      w.soldAmount += sale!.units;
      w.proceedsLamports = add(w.proceedsLamports, sale!.lamports);
      w.proceedsCents = add(w.proceedsCents, sale!.cents);
      w.realizedLamports = add(w.realizedLamports, sale!.lamports === null ? null : sale!.lamports - costLamports);
      w.realizedCents = add(
        w.realizedCents,
        sale!.cents === null || costCents === null ? null : sale!.cents - costCents,
      );
    }
    // An emptied pool starts again: an old unknown cost does not cloud later buys.
    if (w.units === 0n) w.poolCents = 0n;
  }
  return w;
}

/** Each token's share of the known total value. */
function shareOut(rows: TokenPnl[]): void {
  const total = rows.reduce((s, r) => s + (r.valueCents !== null && r.valueCents > 0n ? r.valueCents : 0n), 0n);
  for (const r of rows) {
    r.shareHundredths =
      r.valueCents === null || total === 0n ? null : percentHundredths(r.valueCents > 0n ? r.valueCents : 0n, total);
  }
}

function totalOf(rows: readonly TokenPnl[]): TotalPnl {
  const total = { incomplete: [] } as unknown as TotalPnl;
  for (const [key, figure] of Object.entries(TOTAL_FIGURES) as Array<[keyof typeof TOTAL_FIGURES, keyof TokenPnl]>) {
    let sum = 0n;
    for (const r of rows) {
      const v = r[figure] as bigint | null;
      if (v === null) {
        if (!total.incomplete.includes(key)) total.incomplete.push(key);
      } else sum += v;
    }
    (total as unknown as Record<string, bigint>)[key] = sum;
  }
  // The percentage compares like with like: tokens whose unrealized P&L is known.
  const basis = rows.reduce((s, r) => s + (r.unrealizedCents !== null ? (r.costBasisCents ?? 0n) : 0n), 0n);
  total.unrealizedHundredths = basis > 0n ? percentHundredths(total.unrealizedCents, basis) : null;
  return total;
}

function cmpDesc(a: bigint | null, b: bigint | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a > b ? -1 : a < b ? 1 : 0;
}
