// The values a setting takes, one parser each, whether typed as a flag, set in the environment or
// stored in a profile (`config set` checks a value with the parser that reads it back): slippage,
// lamports, seconds, a treasury address, text; and the profile's keys. A refusal is a one-line
// UsageError (exit 2) naming the value and what is accepted.
import { DECIMAL_NUMBER, decimalToUnits, isCanonicalIntegerString, SOL_DECIMALS, U64_MAX } from '../domain/amounts.js';
import { printable } from '../domain/printable.js';
import { UsageError } from '../domain/errors.js';
import { TOKEN_RISK_POLICIES, type TokenRiskPolicy } from '../domain/token-risks.js';
import { parseBaseUrl, parseRpcUrl } from '../net/urls.js';
import { isAddress } from '../domain/address.js';
import { parseSignerSource } from '../wallet/signer-source.js';
import { PROFILE_KEYS, type ProfileKey } from './config-file.js';

function quote(s: string): string {
  return JSON.stringify(s);
}

/** A whole number from `min` to `max`; `what` says what is accepted. */
export function parseIntegerInRange(s: string, option: string, min: bigint, max: bigint, what: string): bigint {
  if (typeof s !== 'string' || !isCanonicalIntegerString(s)) {
    throw new UsageError(`invalid ${option} ${quote(String(s))}: use ${what}`);
  }
  const n = BigInt(s);
  if (n < min || n > max) throw new UsageError(`invalid ${option} ${quote(s)}: use ${what}`);
  return n;
}

/** Slippage in basis points: a whole number 0–10000. */
export function parseSlippageBps(s: string, option = '--slippage-bps'): number {
  return Number(parseIntegerInRange(s, option, 0n, 10_000n, 'a whole number of basis points from 0 to 10000'));
}

/**
 * A typed amount with the `,` of its thousands groups removed, as the tool prints amounts
 * (1,000woof → 1000woof, 1,000,000 → 1000000); a `,` anywhere else is refused, never guessed at.
 */
export function withoutGroups(s: string, fail: (why: string) => never): string {
  if (!s.includes(',')) return s;
  const grouped = /^([1-9][0-9]{0,2}(?:,[0-9]{3})+)((?:\.[0-9]*)?(?:[^,.0-9][^,]*)?)$/.exec(s);
  if (!grouped) fail('a "," only groups the whole part in threes (1,000,000 or 1,234.5woof)');
  return grouped![1]!.replace(/,/g, '') + grouped![2]!;
}

/**
 * The one parser of a SOL amount in lamports, for a trade's amount, a lamport flag and a lamport
 * config key alike: a whole number of lamports (`100000000`) or SOL with a case-insensitive `sol`
 * suffix (`0.1sol`, `1SOL`), at most 9 decimals, converted exactly; the whole part may be grouped
 * in thousands (`1,000,000`). Refused: `.5sol` and `5.sol`, leading zeros, signs, spaces,
 * exponents, hex, a `,` that is no thousands group, anything above the u64 maximum, and zero
 * when `positive` says why an amount must be more (`a buy spends more than zero`).
 */
export function parseLamports(typed: string, option: string, positive: string | null = null): bigint {
  const accepted = `use lamports as a ${positive ? 'positive ' : ''}whole number (100000000) or SOL with the suffix sol (0.1sol)`;
  const fail = (why: string): never => {
    throw new UsageError(`invalid ${option} ${quote(String(typed))}: ${why}; ${accepted}`);
  };
  if (typeof typed !== 'string' || typed === '') fail('it is empty');
  const s = withoutGroups(typed, fail);
  if (/^-[0-9.]/.test(s)) fail(positive ? `it is negative; ${positive}` : 'it is negative');
  let lamports: bigint;
  const sol = /^(.*)sol$/i.exec(s);
  if (sol) {
    const m = DECIMAL_NUMBER.exec(sol[1]!);
    if (!m) fail('not a plain decimal number of SOL');
    const units = decimalToUnits(m![1]!, m![2] ?? '', SOL_DECIMALS);
    if (units === null) fail('SOL has at most 9 decimals');
    lamports = units!;
  } else {
    if (!isCanonicalIntegerString(s)) {
      fail(/^[0-9]*\.[0-9]*$/.test(s) ? 'a decimal amount needs the suffix sol' : 'not a whole number');
    }
    lamports = BigInt(s);
  }
  if (positive && lamports === 0n) fail('it must be more than zero');
  if (lamports > U64_MAX) fail('it is more than the largest possible amount (u64)');
  return lamports;
}

/** A lamport option or config key such as --max-fee-lamports: 0 … u64 max, in lamports or `sol`. */
export function parseLamportsOption(s: string, option = '--max-fee-lamports'): bigint {
  return parseLamports(s, option);
}

/** Trades per rolling hour: a whole number 0 (none) to 1000000. */
export function parseTradesPerHour(s: string, option = 'config key maxTradesPerHour'): number {
  return Number(parseIntegerInRange(s, option, 0n, 1_000_000n, 'a whole number of trades from 0 to 1000000'));
}

/** A comma-separated list of mint addresses (allowedMints, deniedMints). */
export function parseMints(s: string, option: string): string[] {
  const mints = s.split(',').map((m) => m.trim());
  for (const m of mints) parseAddress(m, `each mint of ${option}`);
  return mints;
}

/** Longest wait accepted, in seconds: Node timers cannot go beyond 2^31-1 ms (about 24.8 days). */
const MAX_SECONDS = 2_147_483;

/**
 * A positive number of seconds (decimals allowed, `1.5`), at least `min` when given and at most
 * MAX_SECONDS. Used by --timeout, --interval (min 2) and --request-timeout. Returns seconds.
 */
export function parseSeconds(s: string, opts: { min?: number; option?: string } = {}): number {
  const option = opts.option ?? 'seconds value';
  const min = opts.min;
  const what = min !== undefined ? `a number of seconds, at least ${min}` : 'a positive number of seconds';
  if (typeof s !== 'string' || !DECIMAL_NUMBER.test(s)) {
    throw new UsageError(`invalid ${option} ${quote(String(s))}: use ${what}`);
  }
  const n = Number(s);
  if (!(n > 0) || (min !== undefined && n < min) || n > MAX_SECONDS) {
    throw new UsageError(`invalid ${option} ${quote(s)}: use ${what} (at most ${MAX_SECONDS})`);
  }
  return n;
}

/** An address (a treasury): base58 of 32 bytes; `what` names it in the error. */
export function parseAddress(value: string, what: string): string {
  if (!isAddress(value))
    throw new UsageError(`${what} must be a base58 address of 32 bytes, got "${printable(value)}"`);
  return value;
}

/** Text that must be there: not empty, no surrounding spaces. */
export function parseText(value: string, what: string): string {
  if (value === '' || value.trim() !== value)
    throw new UsageError(`${what} must not be empty or have surrounding spaces`);
  return value;
}

/** The highest transfer fee (bps, 0-10000) that is only a warning; above it a person accepts the mint's risks (domain/token-risks.ts). */
export function parseTransferFeeBps(s: string, option = 'config key maxTransferFeeBps'): number {
  return Number(parseIntegerInRange(s, option, 0n, 10_000n, 'a whole number of basis points from 0 to 10000'));
}

/** How unattended runs treat a token's warn-level risks: warn or refuse (refuse-level risks always need a person). */
export function parseTokenRiskPolicy(s: string, option = 'config key tokenRisk'): TokenRiskPolicy {
  if (!(TOKEN_RISK_POLICIES as readonly string[]).includes(s))
    throw new UsageError(`${option} must be ${TOKEN_RISK_POLICIES.join(' or ')}, got "${printable(s)}"`);
  return s as TokenRiskPolicy;
}

/** A key of a config profile. */
export function parseProfileKey(value: string): ProfileKey {
  if (!(PROFILE_KEYS as readonly string[]).includes(value))
    throw new UsageError(`unknown config key "${printable(value)}"; keys: ${PROFILE_KEYS.join(', ')}`);
  return value as ProfileKey;
}

/** A value for a config key, checked by the parser that reads it back; returns what is stored. */
export function parseProfileValue(key: ProfileKey, value: string, opts: { insecure: boolean }): string | number {
  const option = `config key ${key}`;
  switch (key) {
    case 'baseUrl':
      parseBaseUrl(value, { insecure: opts.insecure, what: option });
      return value;
    case 'treasury':
      return parseAddress(value, 'treasury');
    case 'rpcUrl':
      parseRpcUrl(value, option);
      return value;
    case 'maxSlippageBps':
      return parseSlippageBps(value, option);
    case 'maxTransferFeeBps':
      return parseTransferFeeBps(value, option);
    case 'tokenRisk':
      return parseTokenRiskPolicy(value, option);
    case 'maxBuyLamports':
    case 'maxFeeLamports':
    case 'maxDailyBuyLamports':
    case 'maxDailySellLamports':
      return parseLamportsOption(value, option).toString();
    case 'maxDailyLossLamports':
      return parseLamportsOption(value, option).toString();
    case 'maxTradesPerHour':
      return parseTradesPerHour(value, option);
    case 'allowedMints':
    case 'deniedMints':
      return parseMints(value, option).join(',');
    case 'timeout':
    case 'requestTimeout':
      return parseSeconds(value, { option });
    case 'keypair':
      parseSignerSource(value);
      return parseText(value, key);
    case 'apiKey':
    case 'apiKeyFile':
      return parseText(value, key);
  }
}
