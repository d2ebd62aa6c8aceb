// Hand-written response checks (zod would add ~90 ms start-up). Each checks presence and JSON
// type of every documented field; unknown fields are kept and enum values are not restricted
// (the real service may add statuses). A check returns a problem ("data.intent.id missing") or null.

import { oneLine } from './http-errors.js';

export type Check = (value: unknown, at: string) => string | null;

function kind(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return `string ${JSON.stringify(oneLine(v, 30))}`;
  if (typeof v === 'object') return 'an object';
  return typeof v;
}

function wrong(at: string, v: unknown, want: string): string {
  return v === undefined ? `${at} missing` : `${at} not ${want} (got ${kind(v)})`;
}

export const str: Check = (v, at) => (typeof v === 'string' ? null : wrong(at, v, 'a string'));
export const bool: Check = (v, at) => (typeof v === 'boolean' ? null : wrong(at, v, 'a boolean'));
export const num: Check = (v, at) => (typeof v === 'number' && Number.isFinite(v) ? null : wrong(at, v, 'a number'));
export const int: Check = (v, at) => (Number.isSafeInteger(v) ? null : wrong(at, v, 'an integer'));
/** Raw amount: a decimal string of a non-negative integer. */
export const amount: Check = (v, at) =>
  typeof v === 'string' && /^[0-9]{1,40}$/.test(v) ? null : wrong(at, v, 'a decimal integer string');

export function nullable(c: Check): Check {
  return (v, at) => (v === null ? null : v === undefined ? `${at} missing` : c(v, at));
}

export function arrayOf(c: Check): Check {
  return (v, at) => {
    if (!Array.isArray(v)) return wrong(at, v, 'an array');
    for (let i = 0; i < v.length; i++) {
      const p = c(v[i], `${at}[${i}]`);
      if (p) return p;
    }
    return null;
  };
}

export function obj(fields: Record<string, Check>): Check {
  // Built once, not per checked object: list pages run this for every item.
  const entries = Object.entries(fields).map(([name, c]) => [name, c, `.${name}`] as const);
  return (v, at) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return wrong(at, v, 'an object');
    const o = v as Record<string, unknown>;
    for (const [name, c, suffix] of entries) {
      const p = c(Object.hasOwn(o, name) ? o[name] : undefined, at + suffix);
      if (p) return p;
    }
    return null;
  };
}

const nstr = nullable(str);
const namount = nullable(amount);
const nint = nullable(int);
/** Token decimals: a whole number 0-255 (a negative or huge one would break every amount shown). */
const decimals: Check = (v, at) =>
  Number.isSafeInteger(v) && (v as number) >= 0 && (v as number) <= 255
    ? null
    : wrong(at, v, 'token decimals from 0 to 255');
const ndecimals = nullable(decimals);
const nnum = nullable(num);

export const buyIntent = obj({
  id: str,
  status: str,
  outputMint: str,
  amountLamports: amount,
  minimumOutputAmount: amount,
  depositExpiresAt: str,
});

export const buyDeposit = obj({ transaction: str, lastValidBlockHeight: int });

export const sellAuthorization = obj({
  id: str,
  status: str,
  mint: str,
  amount,
  positionId: nstr,
  expectedOutputLamports: amount,
  minimumOutputLamports: amount,
  slippageBps: int,
  message: str,
  expiresAt: str,
  authorizedAt: nstr,
  signatureVerifiedAt: nstr,
  executionStarted: bool,
  failureCode: nstr,
  failureReason: nstr,
  createdAt: str,
});

/** The document shows only `status` of the sell order group. */
export const sellOrder = obj({ status: str });

export const position = obj({
  id: str,
  status: str,
  mint: nstr,
  token: nullable(obj({ symbol: nstr, name: nstr, decimals: ndecimals })),
  principalLamports: amount,
  costLamports: namount,
  boughtAmount: namount,
  soldAmount: amount,
  remainingAmount: namount,
  buyTradeId: nstr,
  buySignature: nstr,
  openedAt: nstr,
  createdAt: str,
  updatedAt: str,
});

const tradeSignatures = obj({ deposit: nstr, swaps: arrayOf(str), payouts: arrayOf(str), refund: nstr });
const tradeRefund = nullable(obj({ state: str, amountLamports: namount }));
const tradeFailure = nullable(obj({ code: nstr, reason: nstr }));

export const tradeStatus = obj({
  id: str,
  side: str,
  status: str,
  stage: str,
  terminal: bool,
  signatures: tradeSignatures,
  failure: tradeFailure,
  refund: tradeRefund,
  completedAt: nstr,
});

export const trade = obj({
  id: str,
  side: str,
  status: str,
  stage: str,
  terminal: bool,
  inputMint: str,
  outputMint: str,
  inputAmount: amount,
  expectedOutputAmount: amount,
  minimumOutputAmount: amount,
  receivedOutputAmount: namount,
  slippageBps: nint,
  platformFeeLamports: namount,
  signatures: tradeSignatures,
  refund: tradeRefund,
  failure: tradeFailure,
  createdAt: str,
  expiresAt: nstr,
  completedAt: nstr,
});

export const activityEntry = obj({
  id: str,
  type: str,
  status: str,
  signature: nstr,
  mint: nstr,
  symbol: nstr,
  decimals: ndecimals,
  amount: namount,
  solLamports: namount,
  usdValue: nnum,
  points: num,
  createdAt: str,
});

export const holding = obj({
  mint: str,
  name: nstr,
  symbol: nstr,
  decimals: ndecimals,
  amount,
  balance: nstr,
  usdPrice: nnum,
  usdValue: nnum,
  imageUrl: str,
  positionIds: arrayOf(str),
  sellInProgress: bool,
});

export const account = obj({
  accountId: str,
  walletAddress: str,
  createdAt: str,
  apiKey: obj({ id: str, name: str, prefix: str, scopes: arrayOf(str), createdAt: str }),
});

export const pointsSummary = obj({
  totalPoints: num,
  volumeUsd: str,
  completedSwaps: int,
  rank: nint,
  participants: int,
  pointsPerUsd: int,
});

export const createBuyResponse = obj({ intent: buyIntent, deposit: buyDeposit });
export const buyIntentResponse = obj({ intent: buyIntent });
export const sellAuthorizationResponse = obj({ authorization: sellAuthorization });
export const authorizeSellResponse = obj({ authorization: sellAuthorization, sell: sellOrder });
export const getSellResponse = obj({ authorization: sellAuthorization, sell: nullable(sellOrder) });

export const pagination = obj({ nextCursor: nstr, hasMore: bool });

/** The success envelope `{data, requestId}` (plus `pagination` for paged lists). */
export function envelope(data: Check, paged = false): Check {
  const fields: Record<string, Check> = { requestId: str, data };
  if (paged) fields.pagination = pagination;
  const check = obj(fields);
  // Paths read "data.intent.id", not ".data.intent.id".
  return (v, _at) => {
    const p = check(v, '');
    return p === null ? null : p.startsWith('.') ? p.slice(1) : `response ${p.replace(/^ /, '')}`;
  };
}
