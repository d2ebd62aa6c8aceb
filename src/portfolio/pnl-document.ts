// The `trader pnl --json` document: the report with every amount as a decimal string.
// Raw units and lamports are integer strings as the API writes them, each with its exact
// decimal beside it; USD figures are strings with exactly two decimals (exact cents, no float);
// percentages are strings with two decimals. Unknown figures are null.
import { SOL_DECIMALS, toDecimalString } from '../domain/amounts.js';
import { centsToDecimal, hundredthsToDecimal } from '../domain/usd.js';
import type { PnlReport, TokenPnl, TotalPnl } from './pnl-reckoning.js';

export interface PnlTokenDocument {
  mint: string;
  symbol: string | null;
  name: string | null;
  decimals: number | null;
  amount: string;
  amountDecimal: string | null;
  costBasisLamports: string | null;
  costBasisSol: string | null;
  costBasisUsd: string | null;
  valueUsd: string | null;
  sharePct: string | null;
  unrealizedUsd: string | null;
  unrealizedPct: string | null;
  soldAmount: string;
  soldAmountDecimal: string | null;
  proceedsLamports: string | null;
  proceedsSol: string | null;
  proceedsUsd: string | null;
  realizedLamports: string | null;
  realizedSol: string | null;
  realizedUsd: string | null;
  feesLamports: string | null;
  feesSol: string | null;
  notes: string[];
}

export interface PnlTotalDocument {
  costBasisLamports: string;
  costBasisSol: string;
  costBasisUsd: string;
  valueUsd: string;
  unrealizedUsd: string;
  unrealizedPct: string | null;
  proceedsLamports: string;
  proceedsSol: string;
  proceedsUsd: string;
  realizedLamports: string;
  realizedSol: string;
  realizedUsd: string;
  feesLamports: string;
  feesSol: string;
  /** Total figures that leave out a token whose figure is unknown (named by their field here). */
  incomplete: string[];
}

export interface PnlDocument {
  method: 'average-cost';
  asOf: string;
  since: string | null;
  tokens: PnlTokenDocument[];
  total: PnlTotalDocument;
}

const lamports = (v: bigint | null) => (v === null ? null : v.toString());
const sol = (v: bigint | null) => (v === null ? null : toDecimalString(v, SOL_DECIMALS));
const usd = (v: bigint | null) => (v === null ? null : centsToDecimal(v));
const pct = (v: bigint | null) => (v === null ? null : hundredthsToDecimal(v));
const units = (v: bigint, decimals: number | null) =>
  decimals === null || !Number.isInteger(decimals) || decimals < 0 || decimals > 255
    ? null
    : toDecimalString(v, decimals);

/** The report as the JSON document. */
export function pnlDocument(report: PnlReport): PnlDocument {
  return {
    method: report.method,
    asOf: new Date(report.asOf).toISOString(),
    since: report.since === null ? null : new Date(report.since).toISOString(),
    tokens: report.tokens.map(tokenDocument),
    total: totalDocument(report.total),
  };
}

function tokenDocument(t: TokenPnl): PnlTokenDocument {
  return {
    mint: t.mint,
    symbol: t.symbol,
    name: t.name,
    decimals: t.decimals,
    amount: t.amount.toString(),
    amountDecimal: units(t.amount, t.decimals),
    costBasisLamports: lamports(t.costBasisLamports),
    costBasisSol: sol(t.costBasisLamports),
    costBasisUsd: usd(t.costBasisCents),
    valueUsd: usd(t.valueCents),
    sharePct: pct(t.shareHundredths),
    unrealizedUsd: usd(t.unrealizedCents),
    unrealizedPct: pct(t.unrealizedHundredths),
    soldAmount: t.soldAmount.toString(),
    soldAmountDecimal: units(t.soldAmount, t.decimals),
    proceedsLamports: lamports(t.proceedsLamports),
    proceedsSol: sol(t.proceedsLamports),
    proceedsUsd: usd(t.proceedsCents),
    realizedLamports: lamports(t.realizedLamports),
    realizedSol: sol(t.realizedLamports),
    realizedUsd: usd(t.realizedCents),
    feesLamports: lamports(t.feesLamports),
    feesSol: sol(t.feesLamports),
    notes: t.notes,
  };
}

function totalDocument(t: TotalPnl): PnlTotalDocument {
  return {
    costBasisLamports: t.costBasisLamports.toString(),
    costBasisSol: sol(t.costBasisLamports)!,
    costBasisUsd: usd(t.costBasisCents)!,
    valueUsd: usd(t.valueCents)!,
    unrealizedUsd: usd(t.unrealizedCents)!,
    unrealizedPct: pct(t.unrealizedHundredths),
    proceedsLamports: t.proceedsLamports.toString(),
    proceedsSol: sol(t.proceedsLamports)!,
    proceedsUsd: usd(t.proceedsCents)!,
    realizedLamports: t.realizedLamports.toString(),
    realizedSol: sol(t.realizedLamports)!,
    realizedUsd: usd(t.realizedCents)!,
    feesLamports: t.feesLamports.toString(),
    feesSol: sol(t.feesLamports)!,
    incomplete: t.incomplete.map((k) => FIELD_OF[k]),
  };
}

/** Names of the total figures in the document (cents fields are the *Usd strings). */
const FIELD_OF: Record<TotalPnl['incomplete'][number], string> = {
  costBasisLamports: 'costBasisLamports',
  costBasisCents: 'costBasisUsd',
  valueCents: 'valueUsd',
  unrealizedCents: 'unrealizedUsd',
  proceedsLamports: 'proceedsLamports',
  proceedsCents: 'proceedsUsd',
  realizedLamports: 'realizedLamports',
  realizedCents: 'realizedUsd',
  feesLamports: 'feesLamports',
};
