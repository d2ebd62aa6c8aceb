// Checks of a sell authorization before its message is signed (shared/cli-contract.md, "What
// the tool checks before it signs anything"): the fields agree with the request and the user's
// slippage, and the message is accounted for in full (sell-message/accounting.ts), printable
// (sell-message/text-rules.ts), shaped like nothing but this sell (sell-message/foreign-shapes.ts)
// and not a transaction. Whether its wording is the service's pinned one is the flow's to judge.

import bs58 from 'bs58';
import type { SellAuthorization } from '../api/types.js';
import { formatSol, isCanonicalIntegerString } from '../amounts.js';
import { accountForMessage, describeTokenAmount, MAX_LIFETIME_MS, type Finding } from './sell-message/accounting.js';
import { ID_SHAPE } from './sell-message/slot-shapes.js';
import { foreignShapeProblems } from './sell-message/foreign-shapes.js';
import { characterProblems } from './sell-message/text-rules.js';
import { belowSlippageFloor, slippageFloor, validBps } from './slippage.js';
import { decodeBase64Strict, looksLikeTransaction } from './transaction-decoder.js';

export type { Finding } from './sell-message/accounting.js';

/** Whether the authorization can no longer be signed: its expiry is past (or unreadable). The one rule for "expired". */
export function authorizationExpired(auth: { expiresAt: unknown }, nowMs: number): boolean {
  const expiresMs = timeOrNull(auth.expiresAt);
  return expiresMs === null || expiresMs <= nowMs;
}

/** How far the service's clock may run ahead of ours. */
const CLOCK_SKEW_MS = 60_000;

export interface SellCheckInput {
  authorization: SellAuthorization;
  requestedMint: string;
  /** Raw token units the user asked to sell. */
  requestedAmount: bigint;
  /** What holdings say about the token; null when unknown. */
  token: { symbol: string | null; decimals: number | null; name?: string | null } | null;
  /** The token's symbol and name as a person confirmed them for this service (trust store), or null. */
  confirmedToken?: { symbol: string | null; name: string | null } | null;
  /** Every token the account holds (mint, symbol, name), to tell a unique symbol and refuse others. */
  knownTokens: Array<{ mint: string; symbol: string | null; name?: string | null }>;
  /** The owner wallet, and the pinned treasury (null when none): the only addresses a message may name besides the mint. */
  owner: string;
  treasury: string | null;
  /** --min-sol in lamports, or null. */
  minSolLamports: bigint | null;
  /** The most slippage the user allows: --slippage-bps, else the profile's maxSlippageBps, else the default cap. */
  allowedSlippageBps: number;
  nowMs: number;
}

export interface SellCheck {
  /** Rules broken, one line each: never signed. */
  problems: string[];
  /** Parts of the message the tool cannot explain: signed only if the user accepts them. */
  findings: Finding[];
  /** The message with the trade's values masked; null when there is no message to read. */
  wording: string | null;
  /** The values of the wording's {id}, {hash} and {nonce} slots, in order, whose shapes the pin holds. */
  slotValues: string[];
}

/** Checks a sell authorization against the request. Pure; never throws on bad input. */
export function checkSellAuthorization(input: SellCheckInput): SellCheck {
  const { authorization: auth, requestedMint, requestedAmount, token, minSolLamports, nowMs } = input;
  const problems: string[] = [];
  const symbol = token?.symbol?.trim() ? token.symbol.trim() : null;
  const decimals = token?.decimals ?? null;
  const describeAmount = (units: bigint): string => describeTokenAmount(units, decimals, symbol);

  if (auth.mint !== requestedMint) {
    problems.push(`the authorization sells ${String(auth.mint)}, not the requested token ${requestedMint}`);
  }
  const amount = integerField(auth.amount, 'amount', problems);
  if (amount !== null && amount !== requestedAmount) {
    problems.push(`the authorization sells ${describeAmount(amount)}, not the requested ${describeAmount(requestedAmount)}`);
  }
  const expected = integerField(auth.expectedOutputLamports, 'expectedOutputLamports', problems);
  const minimum = integerField(auth.minimumOutputLamports, 'minimumOutputLamports', problems);
  const bps = validBps(auth.slippageBps);
  if (bps === null) {
    problems.push(`the authorization's slippage ${JSON.stringify(auth.slippageBps)} is not a number of basis points from 0 to 10000`);
  } else if (bps > input.allowedSlippageBps) {
    problems.push(`the authorization's slippage ${bps} bps is more than the ${input.allowedSlippageBps} bps allowed`);
  }
  if (expected !== null && minimum !== null) problems.push(...minimumProblems(expected, minimum, bps));
  // A sale with no floor is no quote, however small the honest one may be.
  if (minimum === 0n) problems.push('the minimum output is 0 lamports: a sale with no floor');
  if (expected === 0n) problems.push('the expected output is 0 lamports: a sale for nothing');
  if (minimum !== null && minSolLamports !== null && minimum < minSolLamports) {
    problems.push(`the minimum ${formatSol(minimum)} SOL is below --min-sol ${formatSol(minSolLamports)} SOL`);
  }
  // The id is printed in commands and masked in the wording: one run of letters and digits after
  // sell_ (slot-shapes.ts), whose alphabet and length the pinned wording holds.
  const idIsPlain = typeof auth.id === 'string' && ID_SHAPE.test(auth.id);
  if (!idIsPlain) problems.push(`the authorization id ${JSON.stringify(auth.id)} is not an opaque sell_ id of 4 to 64 letters and digits`);
  // An authorization lives 2 minutes (api-spec.md): one that claims longer would keep the signature usable.
  const expiresMs = timeOrNull(auth.expiresAt);
  const createdMs = timeOrNull(auth.createdAt);
  if (expiresMs === null) problems.push(`the authorization's expiresAt ${JSON.stringify(auth.expiresAt)} is not a valid time`);
  else if (authorizationExpired(auth, nowMs)) problems.push(`the authorization expired at ${auth.expiresAt}`);
  else if (expiresMs > nowMs + MAX_LIFETIME_MS + CLOCK_SKEW_MS) problems.push(`the authorization expires at ${auth.expiresAt}, more than 2 minutes from now`);
  if (createdMs !== null && expiresMs !== null && (expiresMs - createdMs > MAX_LIFETIME_MS || createdMs > nowMs + CLOCK_SKEW_MS)) {
    problems.push(`the authorization's createdAt ${auth.createdAt} does not fit a 2-minute authorization expiring at ${auth.expiresAt}`);
  }

  const message = auth.message;
  if (typeof message !== 'string' || message.length === 0) {
    problems.push('the authorization has no message to sign');
    return { problems, findings: [], wording: null, slotValues: [] };
  }
  problems.push(...characterProblems(message), ...foreignShapeProblems(message));
  if (decodesAsTransaction(message)) problems.push('the message decodes as a Solana transaction; signing it could authorize that transaction');

  const others = input.knownTokens.filter((t) => t.mint !== requestedMint);
  const accounting = accountForMessage(message, {
    mint: requestedMint,
    owner: input.owner,
    treasury: input.treasury,
    authorizationId: idIsPlain ? auth.id : '',
    amount: requestedAmount,
    decimals,
    symbol,
    name: token?.name ?? null,
    confirmed: input.confirmedToken ?? null,
    symbolIsUnique: symbol !== null && !others.some((t) => t.symbol?.trim() === symbol),
    otherTokens: others,
    minimumLamports: minimum ?? -1n,
    expectedLamports: expected ?? -1n,
    slippageBps: bps ?? -1,
    createdAtMs: createdMs,
    expiresAtMs: expiresMs,
    nowMs,
  });
  problems.push(...accounting.problems);
  return { problems, findings: accounting.findings, wording: accounting.wording, slotValues: accounting.slotValues };
}

/** The minimum against the expected output and the authorization's slippage. */
function minimumProblems(expected: bigint, minimum: bigint, bps: number | null): string[] {
  if (minimum > expected) return [`the minimum ${formatSol(minimum)} SOL is above the expected ${formatSol(expected)} SOL`];
  if (bps === null || !belowSlippageFloor(expected, minimum, bps)) return [];
  return [
    `the minimum ${formatSol(minimum)} SOL is below what ${bps} bps of slippage allows on the expected ${formatSol(expected)} SOL (${formatSol(slippageFloor(expected, bps))} SOL)`,
  ];
}

function integerField(value: unknown, name: string, problems: string[]): bigint | null {
  if (isCanonicalIntegerString(value)) return BigInt(value);
  problems.push(`the authorization's ${name} ${JSON.stringify(value)} is not a whole number`);
  return null;
}

function timeOrNull(value: unknown): number | null {
  const ms = typeof value === 'string' ? Date.parse(value) : NaN;
  return Number.isNaN(ms) ? null : ms;
}

/**
 * Whether the message's UTF-8 bytes are a transaction or message, or the message is base64 or
 * base58 text of one (which nothing should ever ask us to sign as a "message").
 */
function decodesAsTransaction(message: string): boolean {
  if (looksLikeTransaction(new TextEncoder().encode(message))) return true;
  const text = message.trim();
  for (const decode of [() => decodeBase64Strict(text), () => bs58.decode(text)]) {
    try {
      if (looksLikeTransaction(decode())) return true;
    } catch {
      /* not that encoding */
    }
  }
  return false;
}
