// The columns of each --csv export. Every documented field of the --json item is a column of
// the same name (nested fields as `token.symbol`, lists joined by spaces), so a parsed CSV row
// equals the JSON item field by field; raw amounts get an exact decimal column beside them.
import type { ActivityEntry, Holding, Position } from '../api/types.js';
import { SOL_DECIMALS, toDecimalString } from '../domain/amounts.js';
import type { PnlDocument, PnlTokenDocument, PnlTotalDocument } from '../portfolio/pnl-document.js';
import type { RecentTrade } from '../portfolio/recent-trades.js';
import type { CsvColumn } from '../io/csv-output.js';

type Value = string | number | boolean | null | undefined;
const text = <T>(header: string, value: (item: T) => Value): CsvColumn<T> => ({ header, kind: 'text', value });
const number = <T>(header: string, value: (item: T) => Value): CsvColumn<T> => ({ header, kind: 'number', value });

/** Raw units as an exact decimal, or empty when the decimals are unknown. */
const decimal = (raw: string | null, decimals: number | null | undefined) =>
  raw === null ||
  decimals === null ||
  decimals === undefined ||
  !Number.isInteger(decimals) ||
  decimals < 0 ||
  decimals > 255
    ? null
    : toDecimalString(BigInt(raw), decimals);
const sol = (lamports: string | null) => (lamports === null ? null : toDecimalString(BigInt(lamports), SOL_DECIMALS));

export const ACTIVITY_CSV: CsvColumn<ActivityEntry>[] = [
  text('createdAt', (e) => e.createdAt),
  text('type', (e) => e.type),
  text('status', (e) => e.status),
  text('symbol', (e) => e.symbol),
  text('mint', (e) => e.mint),
  number('decimals', (e) => e.decimals),
  number('amount', (e) => e.amount),
  number('amountDecimal', (e) => decimal(e.amount, e.decimals)),
  number('solLamports', (e) => e.solLamports),
  number('sol', (e) => sol(e.solLamports)),
  number('usdValue', (e) => e.usdValue),
  number('points', (e) => e.points),
  text('signature', (e) => e.signature),
  text('id', (e) => e.id),
];

export const TRADES_CSV: CsvColumn<RecentTrade>[] = [
  text('createdAt', (t) => t.createdAt),
  text('side', (t) => t.side),
  text('id', (t) => t.id),
  text('status', (t) => t.status),
  text('symbol', (t) => t.symbol),
  text('mint', (t) => t.mint),
  number('decimals', (t) => t.decimals),
  number('amount', (t) => t.amount),
  number('amountDecimal', (t) => decimal(t.amount, t.decimals)),
  number('solLamports', (t) => t.solLamports),
  number('sol', (t) => sol(t.solLamports)),
  text('signature', (t) => t.signature),
  text('positionId', (t) => t.positionId),
  text('idempotencyKey', (t) => t.idempotencyKey),
  text('journal', (t) => t.journal),
];

export const POSITION_CSV: CsvColumn<Position>[] = [
  text('id', (p) => p.id),
  text('status', (p) => p.status),
  text('token.symbol', (p) => p.token?.symbol),
  text('token.name', (p) => p.token?.name),
  number('token.decimals', (p) => p.token?.decimals),
  text('mint', (p) => p.mint),
  number('principalLamports', (p) => p.principalLamports),
  number('principalSol', (p) => sol(p.principalLamports)),
  number('costLamports', (p) => p.costLamports),
  number('costSol', (p) => sol(p.costLamports)),
  number('boughtAmount', (p) => p.boughtAmount),
  number('boughtAmountDecimal', (p) => decimal(p.boughtAmount, p.token?.decimals)),
  number('soldAmount', (p) => p.soldAmount),
  number('soldAmountDecimal', (p) => decimal(p.soldAmount, p.token?.decimals)),
  number('remainingAmount', (p) => p.remainingAmount),
  number('remainingAmountDecimal', (p) => decimal(p.remainingAmount, p.token?.decimals)),
  text('buyTradeId', (p) => p.buyTradeId),
  text('buySignature', (p) => p.buySignature),
  text('openedAt', (p) => p.openedAt),
  text('createdAt', (p) => p.createdAt),
  text('updatedAt', (p) => p.updatedAt),
];

export const HOLDING_CSV: CsvColumn<Holding>[] = [
  text('symbol', (h) => h.symbol),
  text('name', (h) => h.name),
  text('mint', (h) => h.mint),
  number('decimals', (h) => h.decimals),
  number('amount', (h) => h.amount),
  number('balance', (h) => h.balance),
  number('usdPrice', (h) => h.usdPrice),
  number('usdValue', (h) => h.usdValue),
  text('sellInProgress', (h) => h.sellInProgress),
  text('positionIds', (h) => h.positionIds.join(' ')),
  text('imageUrl', (h) => h.imageUrl),
];

/** One row of the pnl export: a token, or the total (row = "total", token fields empty). */
export type PnlCsvRow = { row: 'token'; token: PnlTokenDocument } | { row: 'total'; total: PnlTotalDocument };

const tokenField = (f: keyof PnlTokenDocument) => (r: PnlCsvRow) => (r.row === 'token' ? (r.token[f] as Value) : null);
const field = (f: keyof PnlTokenDocument & keyof PnlTotalDocument) => (r: PnlCsvRow) =>
  (r.row === 'token' ? r.token[f] : r.total[f]) as Value;

export const PNL_CSV: CsvColumn<PnlCsvRow>[] = [
  text('row', (r) => r.row),
  text('symbol', tokenField('symbol')),
  text('name', tokenField('name')),
  text('mint', tokenField('mint')),
  number('decimals', tokenField('decimals')),
  number('amount', tokenField('amount')),
  number('amountDecimal', tokenField('amountDecimal')),
  number('costBasisLamports', field('costBasisLamports')),
  number('costBasisSol', field('costBasisSol')),
  number('costBasisUsd', field('costBasisUsd')),
  number('valueUsd', field('valueUsd')),
  number('sharePct', tokenField('sharePct')),
  number('unrealizedUsd', field('unrealizedUsd')),
  number('unrealizedPct', field('unrealizedPct')),
  number('soldAmount', tokenField('soldAmount')),
  number('soldAmountDecimal', tokenField('soldAmountDecimal')),
  number('proceedsLamports', field('proceedsLamports')),
  number('proceedsSol', field('proceedsSol')),
  number('proceedsUsd', field('proceedsUsd')),
  number('realizedLamports', field('realizedLamports')),
  number('realizedSol', field('realizedSol')),
  number('realizedUsd', field('realizedUsd')),
  number('feesLamports', field('feesLamports')),
  number('feesSol', field('feesSol')),
  text('notes', (r) => (r.row === 'token' ? r.token.notes.join('; ') : null)),
  text('incomplete', (r) => (r.row === 'total' ? r.total.incomplete.join(' ') : null)),
];

/** The pnl document as CSV rows: one per token, then the total. */
export function pnlCsvRows(doc: PnlDocument): PnlCsvRow[] {
  return [
    ...doc.tokens.map((token) => ({ row: 'token' as const, token })),
    { row: 'total' as const, total: doc.total },
  ];
}
