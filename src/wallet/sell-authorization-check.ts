// Checks of a sell authorization before its message is signed (shared/cli-contract.md, "What
// the tool checks before it signs anything"). The API does not fix the message's wording, so
// the checks look for facts, not phrases: the token is named, the amount and the minimum are
// stated, in any of the forms a reasonable server might write them.
//
// How numbers in the message are read (one rule for the amount and for the minimum):
// - a number is a whole token of the text: `100` does not match inside `1000`, `100.5`, `x100`,
//   `-100`, `$100` (dollars), `100%` (a share, not units) or `1e2`;
// - thousands separators `,` and `_` are allowed (one kind per number, groups of three), and so
//   are spaces (plain, no-break, thin) between groups of exactly three digits, so `1 000` reads
//   as one thousand and never as a `1` followed by something else; a malformed grouping such as
//   `100,5` matches nothing rather than guessing;
// - trailing zeros of a fraction are ignored (`0.04950` states 0.0495); `.` is the only decimal
//   point; a unit may follow directly (`0.0495SOL`);
// - base58 words of 32+ characters (addresses, signatures) and UUIDs are skipped, so the digits
//   of the mint never count as an amount.
//
// A message is also refused when it decodes as a transaction, either as its own UTF-8 bytes
// (what gets signed) or as base64/base58 text of one (defence in depth).

import bs58 from 'bs58';
import type { SellAuthorization } from '../api/types.js';
import { formatSol, formatTokenAmount, isCanonicalIntegerString, toDecimalString, SOL_DECIMALS } from '../amounts.js';
import { decodeBase64Strict, looksLikeTransaction } from './transaction-decoder.js';

export const MAX_MESSAGE_BYTES = 2_048;

export interface SellCheckInput {
  authorization: SellAuthorization;
  requestedMint: string;
  /** Raw token units the user asked to sell. */
  requestedAmount: bigint;
  /** What holdings say about the token; null when unknown. */
  token: { symbol: string | null; decimals: number | null } | null;
  /** --min-sol in lamports, or null. */
  minSolLamports: bigint | null;
  /** The slippage asked for (--slippage-bps, else the profile's maxSlippageBps), or null for the service's default. */
  slippageBps?: number | null;
  nowMs: number;
}

/**
 * Characters that can hide or reorder text, so that what the user reads is not what is signed:
 * control characters other than tab and newline (Cc), format characters such as zero-width
 * spaces, bidi embeddings, overrides and isolates, BOM, soft hyphen and tag characters (Cf), line
 * and paragraph separators (Zl, Zp), private-use (Co), unpaired surrogates (Cs), the invisible
 * Hangul fillers and the supplementary variation selectors.
 */
const HIDING_CHARACTER =
  /(?![\t\n])[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Co}\p{Cs}\u115F\u1160\u3164\uFFA0\u180B-\u180F\u{E0100}-\u{E01EF}]/u;

/** Checks a sell authorization against the request; returns the problems, one line each (empty = ok). */
export function checkSellAuthorization(input: SellCheckInput): string[] {
  const { authorization: auth, requestedMint, requestedAmount, token, minSolLamports, nowMs } = input;
  const problems: string[] = [];
  const symbol = token?.symbol?.trim() ? token.symbol.trim() : null;
  const decimals = token?.decimals ?? null;
  const describeAmount = (units: bigint): string =>
    decimals !== null
      ? `${formatTokenAmount(units, decimals)} ${symbol ?? 'tokens'} (${units} raw units)`
      : `${units} raw units`;

  if (auth.mint !== requestedMint) {
    problems.push(`the authorization sells ${String(auth.mint)}, not the requested token ${requestedMint}`);
  }
  const amount = lamportsField(auth.amount, 'amount', problems);
  if (amount !== null && amount !== requestedAmount) {
    problems.push(`the authorization sells ${describeAmount(amount)}, not the requested ${describeAmount(requestedAmount)}`);
  }
  const expected = lamportsField(auth.expectedOutputLamports, 'expectedOutputLamports', problems);
  const minimum = lamportsField(auth.minimumOutputLamports, 'minimumOutputLamports', problems);
  if (expected !== null && minimum !== null && minimum > expected) {
    problems.push(
      `the minimum ${formatSol(minimum)} SOL is above the expected ${formatSol(expected)} SOL`,
    );
  }
  // The slippage is the user's to choose: the service may not widen it, and the minimum must
  // be what that slippage gives (a low minimum is where a bad price would hide).
  const allowedBps = input.slippageBps ?? null;
  if (allowedBps !== null && (typeof auth.slippageBps !== 'number' || auth.slippageBps > allowedBps)) {
    problems.push(`the authorization's slippage ${String(auth.slippageBps)} bps is more than the ${allowedBps} bps asked for`);
  }
  const bps = allowedBps ?? (Number.isInteger(auth.slippageBps) && auth.slippageBps >= 0 && auth.slippageBps <= 10_000 ? auth.slippageBps : null);
  if (bps === null) {
    problems.push(`the authorization's slippage ${JSON.stringify(auth.slippageBps)} is not a number of basis points from 0 to 10000`);
  } else if (expected !== null && minimum !== null) {
    const floor = (expected * BigInt(10_000 - bps)) / 10_000n;
    if (minimum < floor) {
      problems.push(`the minimum ${formatSol(minimum)} SOL is below what ${bps} bps of slippage allows on the expected ${formatSol(expected)} SOL (${formatSol(floor)} SOL)`);
    }
  }
  if (minimum !== null && minSolLamports !== null && minimum < minSolLamports) {
    problems.push(`the minimum ${formatSol(minimum)} SOL is below --min-sol ${formatSol(minSolLamports)} SOL`);
  }

  const expiresMs = typeof auth.expiresAt === 'string' ? Date.parse(auth.expiresAt) : NaN;
  if (Number.isNaN(expiresMs)) {
    problems.push(`the authorization's expiresAt ${JSON.stringify(auth.expiresAt)} is not a valid time`);
  } else if (expiresMs <= nowMs) {
    problems.push(`the authorization expired at ${auth.expiresAt}`);
  }

  const message = auth.message;
  if (typeof message !== 'string' || message.length === 0) {
    problems.push('the authorization has no message to sign');
    return problems;
  }
  problems.push(...checkMessageText(message));

  if (!namesToken(message, requestedMint, symbol)) {
    problems.push(
      `the message does not name the token: neither its mint ${requestedMint}` +
        (symbol ? ` nor its symbol ${symbol}` : '') +
        ' appears in it',
    );
  }
  const numbers = new Set(numbersInText(message));
  const states = (units: bigint, unitDecimals: number | null): boolean =>
    numbers.has(units.toString()) || (unitDecimals !== null && numbers.has(toDecimalString(units, unitDecimals)));
  if (!states(requestedAmount, decimals)) {
    problems.push(`the message does not state the amount ${describeAmount(requestedAmount)}`);
  }
  if (minimum !== null && !states(minimum, SOL_DECIMALS)) {
    problems.push(`the message does not state the minimum ${formatSol(minimum)} SOL (${minimum} lamports)`);
  }
  return problems;
}

function lamportsField(value: unknown, name: string, problems: string[]): bigint | null {
  if (isCanonicalIntegerString(value)) return BigInt(value);
  problems.push(`the authorization's ${name} ${JSON.stringify(value)} is not a whole number`);
  return null;
}

/** The text-level rules: printable, short, not a transaction. */
function checkMessageText(message: string): string[] {
  const problems: string[] = [];
  const hidden = HIDING_CHARACTER.exec(message);
  if (hidden) {
    const cp = hidden[0].codePointAt(0)!;
    problems.push(
      `the message contains the invisible or control character U+${cp.toString(16).toUpperCase().padStart(4, '0')} ` +
        `at position ${hidden.index}, which can hide what is being signed`,
    );
  }
  const bytes = new TextEncoder().encode(message);
  if (bytes.length > MAX_MESSAGE_BYTES) {
    problems.push(`the message is ${bytes.length} bytes long, more than the ${MAX_MESSAGE_BYTES} allowed`);
  }
  if (decodesAsTransaction(message, bytes)) {
    problems.push('the message decodes as a Solana transaction; signing it could authorize that transaction');
  }
  return problems;
}

/**
 * Whether the message's UTF-8 bytes are a transaction or message, or the message is base64 or
 * base58 text of one (which nothing should ever ask us to sign as a "message").
 */
function decodesAsTransaction(message: string, bytes: Uint8Array): boolean {
  if (looksLikeTransaction(bytes)) return true;
  const text = message.trim();
  const candidates: Array<() => Uint8Array> = [() => decodeBase64Strict(text), () => bs58.decode(text)];
  for (const decode of candidates) {
    let decoded: Uint8Array;
    try {
      decoded = decode();
    } catch {
      continue;
    }
    if (looksLikeTransaction(decoded)) return true;
  }
  return false;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Whether `text` names the token: its mint as a whole word, or its symbol as a whole word,
 * optionally prefixed by `$`. The symbol matches regardless of case, except a one-character
 * symbol, which must match exactly (so the symbol `A` is not "named" by the word "a").
 */
export function namesToken(text: string, mint: string, symbol: string | null): boolean {
  if (mint && new RegExp(`(?<![A-Za-z0-9])${escapeRegExp(mint)}(?![A-Za-z0-9])`).test(text)) return true;
  if (!symbol) return false;
  const flags = [...symbol].length > 1 ? 'iu' : 'u';
  return new RegExp(`(?<![\\p{L}\\p{N}_$])\\$?${escapeRegExp(symbol)}(?![\\p{L}\\p{N}_])`, flags).test(text);
}

const BASE58_WORD = /(?<![A-Za-z0-9])[1-9A-HJ-NP-Za-km-z]{32,}(?![A-Za-z0-9])/g;
const UUID = /(?<![A-Za-z0-9])[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?![A-Za-z0-9])/gi;
const GROUP_SPACE = '[ \\u00A0\\u2009\\u202F]';
const NUMBER = new RegExp(
  // Not glued to a word, another number, a sign or a dollar sign.
  '(?<![\\p{L}\\p{N}_.,+$\\u2212-])' +
    // Integer part: digits, then groups after , or _ (validated below), or after a space when exactly three digits.
    `(\\d+(?:[,_]\\d+|${GROUP_SPACE}\\d{3}(?!\\d))*)` +
    '(?:\\.(\\d+))?',
  'gu',
);
/**
 * After a number: an exponent, a percent sign, a second decimal point, or a separator and more
 * digits after the fraction (`1.000,5`) make it something else.
 */
const NOT_A_PLAIN_NUMBER_AFTER = /^(?:[eE][+-]?\d|\s*%|\.\d|[,_]\d)/;

/**
 * The numbers written in `text`, normalised to plain decimal strings ("1,000.50" → "1000.5",
 * "007" → "7"), following the rules in this file's header. Numbers with a malformed grouping
 * are left out.
 */
export function numbersInText(text: string): string[] {
  const masked = text.replace(BASE58_WORD, ' ').replace(UUID, ' ');
  const out: string[] = [];
  // The match is greedy and has no trailing condition, so it is always the whole number; what
  // follows is checked here rather than in a lookahead, which would let the engine backtrack to
  // a shorter prefix ("100%" → "10").
  for (const m of masked.matchAll(NUMBER)) {
    if (NOT_A_PLAIN_NUMBER_AFTER.test(masked.slice(m.index! + m[0].length))) continue;
    const integer = normaliseGrouping(m[1]!);
    if (integer === null) continue;
    const fraction = (m[2] ?? '').replace(/0+$/, '');
    out.push(integer + (fraction ? `.${fraction}` : ''));
  }
  return out;
}

function normaliseGrouping(intPart: string): string | null {
  const separators = new Set(intPart.match(/[^0-9]/g) ?? []);
  if (separators.size > 1) return null;
  if (separators.size === 1) {
    const [first, ...rest] = intPart.split(/[^0-9]/);
    if (first!.length < 1 || first!.length > 3 || rest.some((g) => g.length !== 3)) return null;
  }
  return intPart.replace(/[^0-9]/g, '').replace(/^0+(?=\d)/, '');
}
