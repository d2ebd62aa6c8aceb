// Accounts for every part of a sell message. The API does not fix the message's wording, so
// the tool cannot parse it; it can still refuse to sign anything it cannot explain:
//
// - every address-like base58 word is the mint, the owner wallet or the pinned treasury;
// - every number is one of the trade's own values in a unit that fits it (the amount in raw
//   units or whole tokens, the minimum and expected output in lamports or SOL, the slippage in
//   bps or %), part of a timestamp, the authorization's lifetime, or part of an id, nonce or hash;
// - the requested token is named (its mint, or its symbol where that symbol is one token's) and
//   no other token is.
//
// What breaks a rule (a wrong amount, a SOL figure labelled lamports, an unknown address, another
// token) is a problem: never signed. What is merely unexplained (a "1%" fee, an unknown word) is
// a finding: accepted at the prompt, it becomes part of the service's pinned wording. The wording
// is the message with each value replaced by a placeholder naming its role ({amount.tokens},
// {mint}, {id}, ...); what may fill the id, hash, nonce, name and symbol slots is slot-shapes.ts's.

import bs58 from 'bs58';
import { formatTokenAmount, SOL_DECIMALS, toDecimalString } from '../../amounts.js';
import { BRACKETED, figureRoleChecks } from './figure-roles.js';
import { currencyNamed, plainName, plainSymbol, readsAsText, scalesFigure } from './slot-shapes.js';
import { isExpectedWord, SELL_WORDS, UNIT_WORDS, wordsOf, type Unit } from './vocabulary.js';

/** What the message must agree with. */
export interface MessageFacts {
  mint: string;
  owner: string;
  /** The pinned treasury, if any: the only other address a message may name. */
  treasury: string | null;
  authorizationId: string;
  /** Raw token units. */
  amount: bigint;
  decimals: number | null;
  /** The requested token's symbol and name as holdings give them, or null. */
  symbol: string | null;
  name: string | null;
  /** The symbol and name a person confirmed for this token with this service (trust store), or null. */
  confirmed: { symbol: string | null; name: string | null } | null;
  /** Whether the symbol belongs to exactly one known token (only then does it name the token). */
  symbolIsUnique: boolean;
  /** Other tokens the account knows of; naming one of them is refused. */
  otherTokens: Array<{ mint: string; symbol: string | null; name?: string | null }>;
  minimumLamports: bigint;
  expectedLamports: bigint;
  slippageBps: number;
  createdAtMs: number | null;
  expiresAtMs: number | null;
  nowMs: number;
}

/** A part of the message the tool cannot explain. */
export interface Finding {
  /** The text as it stands in the message. */
  text: string;
  index: number;
  reason: string;
  /** About the token's name or symbol, not the wording: stands even when the wording is pinned. */
  token?: true;
  /** An id, hash or nonce that reads as words (slot-shapes.ts): stands even when the wording is pinned; a fresh authorization gets a fresh value. */
  slot?: true;
}

export interface Accounting {
  /** The message with the trade's own values masked. */
  wording: string;
  /** Rules broken: never signed. One line each. */
  problems: string[];
  /** Parts not explained: signed only if the user accepts them (or the pinned wording holds them). */
  findings: Finding[];
  /** The values of the wording's {id}, {hash} and {nonce} slots, in order (slot-shapes.ts). */
  slotValues: string[];
}

/** What the parts of the accounting share: the message's spans claimed so far, its problems and findings. */
interface Ledger {
  claim(start: number, end: number, placeholder: string): boolean;
  overlaps(start: number, end: number): boolean;
  find(index: number, text: string, reason: string): void;
  /** A slot's value that spells words: claimed as its slot (its shape is pinned), and never signed unread. */
  wordy(index: number, value: string, what: string): void;
  problems: string[];
  findings: Finding[];
}

/** The roles a figure may fill: a fact of the trade in a unit. */
type Role = keyof typeof ROLE_NAMES;

interface Span {
  start: number;
  end: number;
  placeholder: string;
}

const BASE58_RUN = /(?<![A-Za-z0-9])[1-9A-HJ-NP-Za-km-z]{32,}(?![A-Za-z0-9])/g;
const UUID = /(?<![A-Za-z0-9])[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?![A-Za-z0-9])/gi;
/** A date, a date and time, or a time of day (with seconds, fraction and zone when written). */
const TIME =
  /(?<![\w.:-])(?:(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)(Z|[+-]\d{2}:?\d{2}| ?UTC)?)?|(\d{2}:\d{2}(?::\d{2})?)(Z| ?UTC)?)(?![\w:])/g;
/** A nonce after its key, the last thing on its line or before punctuation ("nonce: 1000000000 WOOF" is none). */
const NONCE_VALUE = /\b(?:nonce|salt)\b["']?\s*[:=]\s*["']?([A-Za-z0-9]{4,64})(?=["']?\s*(?:$|[,;}\]]))/gim;
/** A hash in hex (one case, or after 0x), with a letter a-f (digits alone are a figure), no unit after it. */
const HEX_RUN = /(?<![\w-])(?:0x[0-9a-fA-F]{8,}|(?=[0-9a-f]*[a-f])[0-9a-f]{16,}|(?=[0-9A-F]*[A-F])[0-9A-F]{16,})(?![\w-])(?![ \t]*[\p{L}$◎])/gu;
/** A number: digits, thousands groups after , _ or a space, a fraction after `.`. */
const NUMBER = /\d+(?:[,_ ]\d+)*(?:\.\d+)?/g;
const LINK = /\b[a-z][a-z0-9+.-]*:\/\/\S+|\b(?:[a-z0-9-]+\.)+[a-z]{2,}\b(?!\.\d)/gi;
/** The most an authorization may live: the API's 2 minutes, with room for rounding. */
export const MAX_LIFETIME_MS = 150_000;
/** How far a time in the message may stand from the authorization's own times (clock rounding). */
const TIME_SLACK_MS = 60_000;

const TIME_UNIT_MS: Partial<Record<Unit, number>> = { ms: 1, seconds: 1_000, minutes: 60_000 };

/** Accounts for the whole message against the trade's facts. */
export function accountForMessage(message: string, facts: MessageFacts): Accounting {
  const spans: Span[] = [];
  const problems: string[] = [];
  const findings: Finding[] = [];
  const overlaps = (start: number, end: number) => spans.some((s) => start < s.end && s.start < end);
  const claim = (start: number, end: number, placeholder: string): boolean => {
    if (overlaps(start, end)) return false;
    spans.push({ start, end, placeholder });
    return true;
  };
  const find = (index: number, text: string, reason: string) => {
    if (!findings.some((f) => index < f.index + f.text.length && f.index < index + text.length)) findings.push({ text, index, reason });
  };

  // Times first: their digits and hyphens are not numbers or signs. Each must be the
  // authorization's own time; a later one would claim a longer validity.
  for (const m of message.matchAll(TIME)) {
    const verdict = judgeTime(m, facts);
    const misnamed = verdict === 'own' ? misnamedTime(message, m, facts) : null;
    if (misnamed) problems.push(misnamed);
    if (verdict === 'own') claim(m.index!, m.index! + m[0].length, '{time}');
    else if (verdict === 'late') problems.push(`the message states the time ${m[0]}, after the authorization expires (${facts.expiresAtMs === null ? 'unknown' : new Date(facts.expiresAtMs).toISOString()})`);
    else find(m.index!, m[0], 'a time that is not the authorization’s creation or expiry');
  }
  const wordy = (index: number, value: string, what: string) => {
    if (readsAsText(value.replace(/^(?:sell_|0x)/, ''))) findings.push({ text: value, index, reason: `${what} that reads as words, not as random data`, slot: true });
  };
  if (facts.authorizationId) {
    for (const m of message.matchAll(literalPattern(facts.authorizationId))) {
      if (claim(m.index!, m.index! + m[0].length, '{id}')) wordy(m.index!, m[0], 'an authorization id');
    }
  }
  for (const m of message.matchAll(UUID)) claim(m.index!, m.index! + m[0].length, '{uuid}');

  const ledger: Ledger = { claim, overlaps, find, wordy, problems, findings };
  accountForAddresses(message, facts, ledger);
  for (const m of message.matchAll(NONCE_VALUE)) {
    const value = m[1]!;
    const start = m.index! + m[0].length - value.length;
    if (isNonce(value) && claim(start, start + value.length, '{nonce}')) wordy(start, value, 'a nonce');
  }
  for (const m of message.matchAll(HEX_RUN)) if (claim(m.index!, m.index! + m[0].length, '{hash}')) wordy(m.index!, m[0], 'a hash');

  const named = accountForTokenNames(message, facts, ledger);
  const stated = accountForNumbers(message, facts, ledger);

  // Any digit still unclaimed was not read as one of the trade's values.
  for (const m of message.matchAll(/[^\s]*\d[^\s]*/g)) {
    const unclaimed = [...m[0].matchAll(/\d/g)].some((d) => !overlaps(m.index! + d.index!, m.index! + d.index! + 1));
    if (unclaimed) find(m.index!, m[0], 'a figure the tool cannot explain');
  }
  for (const m of message.matchAll(LINK)) if (!overlaps(m.index!, m.index! + m[0].length)) find(m.index!, m[0], 'a link or domain');
  // Every word must be one a sell message is expected to use (sell-message/vocabulary.ts).
  for (const { word, index } of wordsOf(message)) {
    if (overlaps(index, index + word.length) || isExpectedWord(word)) continue;
    find(index, word, 'a word the tool does not expect in a sell message');
  }
  for (const m of message.matchAll(/[\p{L}\p{M}]+/gu)) {
    if (/\p{Script=Latin}/u.test(m[0]) && /(?!\p{Script=Latin})\p{L}/u.test(m[0])) problems.push(`the message has a word mixing alphabets ("${m[0]}"), a look-alike of another word`);
  }

  if (!named) {
    problems.push(
      `the message does not name the token: neither its mint ${facts.mint}` +
        (facts.symbol ? (facts.symbolIsUnique ? ` nor its symbol ${facts.symbol}` : ` (its symbol ${facts.symbol} is shared by other tokens)`) : '') +
        ' appears in it as a word of its own',
    );
  }
  if (!stated.has('amount')) problems.push(`the message does not state the amount ${describeTokenAmount(facts.amount, facts.decimals, facts.symbol)}`);
  if (!stated.has('minimum')) problems.push(`the message does not state the minimum ${toDecimalString(facts.minimumLamports, SOL_DECIMALS)} SOL (${facts.minimumLamports} lamports)`);
  // Selling spoken of twice may be a second sale ("… and sell your tokens").
  const sellWords = wordsOf(message).filter(({ word, index }) => new RegExp(`^(?:${SELL_WORDS})$`, 'i').test(word) && !overlaps(index, index + word.length));
  for (const { word, index } of sellWords.slice(1)) find(index, word, 'selling spoken of a second time: a second sale?');
  const wording = mask(message, spans);
  // The wording keeps the message's lines (no masked value spans a line break), so a concern's line is the message's.
  const roles = figureRoleChecks(wording, message);
  problems.push(...roles.problems);
  const lines = message.split('\n');
  for (const { reason, line } of roles.concerns) {
    const index = lines.slice(0, line).reduce((n, l) => n + l.length + 1, 0);
    findings.push({ text: lines[line] ?? '', index, reason });
  }
  findings.sort((a, b) => a.index - b.index);
  const slotValues = spans.filter((s) => /^\{(?:id|hash|nonce)\}$/.test(s.placeholder)).sort((a, b) => a.start - b.start).map((s) => message.slice(s.start, s.end));
  return { wording, problems: [...new Set(problems)], findings, slotValues };
}

/**
 * Whether a time written in the message is the authorization's own: a date and time between
 * its creation and its expiry (a minute's slack either side), a date that is the day of either,
 * or a time of day that is either's. "late" is after the expiry; "other" anything else.
 */
function judgeTime(m: RegExpMatchArray, facts: MessageFacts): 'own' | 'late' | 'other' {
  const [, date, clock, zone, bareClock, bareZone] = m;
  const own = [facts.createdAtMs, facts.expiresAtMs].filter((t): t is number => t !== null);
  const from = (facts.createdAtMs ?? facts.nowMs) - TIME_SLACK_MS;
  const until = (facts.expiresAtMs ?? facts.nowMs) + TIME_SLACK_MS;
  if (date && clock) {
    if (!zone) return 'other'; // a time without a zone could be any time
    const ms = Date.parse(`${date}T${clock}${zone.trim() === 'UTC' ? 'Z' : zone}`);
    if (Number.isNaN(ms)) return 'other';
    if (ms > until) return 'late';
    return ms >= from ? 'own' : 'other';
  }
  // A date alone reads as the whole day ("Expires: 2026-11-24"): not the authorization's own time.
  const ownClock = !date && bareClock && bareZone && own.some((t) => new Date(t).toISOString().slice(11, 11 + bareClock.length) === bareClock);
  return ownClock ? 'own' : 'other';
}

/**
 * A time of the authorization named as the other one: its expiry introduced as when it was
 * issued or from when it is valid ("Issued: <expiry>", "Valid from: <expiry>") stretches the
 * validity a reader works out; its creation named as the expiry shortens nothing but misleads.
 */
function misnamedTime(message: string, m: RegExpMatchArray, facts: MessageFacts): string | null {
  if (facts.createdAtMs === null || facts.expiresAtMs === null || !m[1] || !m[2] || !m[3]) return null;
  const ms = Date.parse(`${m[1]}T${m[2]}${m[3].trim() === 'UTC' ? 'Z' : m[3]}`);
  const nearExpiry = Math.abs(ms - facts.expiresAtMs) < Math.abs(ms - facts.createdAtMs);
  const line = message.slice(message.lastIndexOf('\n', m.index! - 1) + 1, m.index).toLowerCase();
  if (nearExpiry && /\b(?:issued|created|from|start|starts|begin|begins|since)\b/.test(line)) return `the message gives the authorization’s expiry (${m[0]}) as when it starts`;
  if (!nearExpiry && /\b(?:expires|expire|expiry|expiration|until|exp)\b/.test(line)) return `the message gives the authorization’s creation (${m[0]}) as its expiry`;
  return null;
}

/**
 * A nonce is digits, hex, or base58: of 16 characters or more, or shorter with at least two
 * digits. Whether it reads as words is judged after (slot-shapes.ts readsAsText): a run of five
 * letters is common in random base58 and no sign of words.
 */
function isNonce(value: string): boolean {
  if (/^\d{4,}$/.test(value) || /^(?:[0-9a-f]{8,}|[0-9A-F]{8,})$/.test(value)) return true;
  return /^[1-9A-HJ-NP-Za-km-z]{8,}$/.test(value) && (value.length >= 16 || (value.match(/\d/g)?.length ?? 0) >= 2);
}

/** "1,234.5 BONK (123450000 raw units)", or "123450000 raw units" when the decimals are unknown. */
export function describeTokenAmount(units: bigint, decimals: number | null, symbol: string | null): string {
  return decimals === null ? `${units} raw units` : `${formatTokenAmount(units, decimals)} ${symbol ?? 'tokens'} (${units} raw units)`;
}

function accountForAddresses(message: string, facts: MessageFacts, { claim, find, problems, wordy }: Ledger): void {
  const others = new Set(facts.otherTokens.map((t) => t.mint));
  for (const m of message.matchAll(BASE58_RUN)) {
    const word = m[0];
    const start = m.index!;
    if (!isAddressText(word)) {
      // Signatures and hashes are longer than an address, with digits all along (a sentence spelt
      // in base58 has few); their shape is pinned with the wording (slot-shapes.ts).
      if (word.length > 44 && (word.match(/\d/g)?.length ?? 0) >= 3 && claim(start, start + word.length, '{hash}')) wordy(start, word, 'a hash');
      continue;
    }
    if (word === facts.mint || word === facts.owner) {
      // An address is introduced by a label of its own role: "Mint: <your wallet>" calls your wallet the token.
      const role = word === facts.mint ? 'mint' : 'owner';
      const label = roleLabelled(message.slice(0, start));
      if (label && label.role !== role) {
        problems.push(`the message labels ${role === 'mint' ? `the token's mint ${word}` : `your wallet ${word}`} "${label.word}", the label of ${label.role === 'mint' ? 'the token' : 'a wallet'}`);
      }
      claim(start, start + word.length, role === 'mint' ? '{mint}' : '{owner}');
    }
    // A sell pays the owner's wallet: the service's treasury has no part in it ("… to <treasury>"),
    // so naming it is for the user to read and accept, and then stays literal in the wording.
    else if (facts.treasury !== null && word === facts.treasury) find(start, word, 'the service’s treasury, which has no part in a sell: proceeds go to your wallet');
    else if (others.has(word)) problems.push(`the message names another token, ${word}`);
    else problems.push(`the message names the address ${word}, which is not the token, your wallet or the pinned treasury`);
  }
}

/** The words that name an address's role in a label: the token's mint, or a wallet that holds or receives. */
// No prototype: a word of the message ("constructor") must look up nothing.
const ROLE_WORDS: Record<string, 'mint' | 'owner' | undefined> = Object.assign(Object.create(null), { mint: 'mint', token: 'mint', contract: 'mint', ca: 'mint', wallet: 'owner', owner: 'owner', recipient: 'owner', seller: 'owner', payee: 'owner', account: 'owner' });

/**
 * The role named by the label right before an address on its line ("Token mint: ", `"owner":"`,
 * "Proceeds to wallet "): the last role word among its last two words, or null.
 */
function roleLabelled(before: string): { word: string; role: 'mint' | 'owner' } | null {
  const line = before.slice(before.lastIndexOf('\n') + 1).replace(/[\s:=“”"'(\[{]+$/u, '');
  const words = (/[A-Za-z][A-Za-z _-]*$/.exec(line)?.[0] ?? '').split(/[\s_-]+|(?<=[a-z])(?=[A-Z])/).filter(Boolean).slice(-2);
  const word = words.reverse().find((w) => ROLE_WORDS[w.toLowerCase()]);
  return word ? { word, role: ROLE_WORDS[word.toLowerCase()]! } : null;
}

/**
 * Whether the message names the token (mint, or unique symbol); masks its name and symbol, and
 * makes each one the tool cannot vouch for (slot-shapes.ts: not plain, not the one you confirmed
 * for this token) a token finding; refuses other tokens' symbols and names.
 */
function accountForTokenNames(message: string, facts: MessageFacts, { claim, problems, findings }: Ledger): boolean {
  let named = new RegExp(`(?<![A-Za-z0-9])${escapeRegExp(facts.mint)}(?![A-Za-z0-9])`).test(message);
  const name = facts.name?.trim() ?? '';
  const own = [
    ['name', name, plainName(name), 'at most 3 words of ASCII letters and digits, 32 characters, no number of 3 digits and no word that labels a figure', literalPattern(name)],
    ['symbol', facts.symbol ?? '', plainSymbol(facts.symbol ?? ''), 'at most 10 ASCII letters and digits, no 4 digits in a row and no word that labels a figure', symbolPattern(facts.symbol ?? '', false)],
  ] as const;
  // A token named after the currency the figures are read in would make "0.05 SOL" mean that token.
  for (const [what, value] of [['symbol', facts.symbol ?? ''], ['name', name]] as const) {
    const currency = currencyNamed(value);
    if (currency) problems.push(`the token's ${what} ${JSON.stringify(value)} names ${currency}, the currency the message's figures are read in`);
    else if (scalesFigure(value)) problems.push(`the token's ${what} ${JSON.stringify(value)} reads as a suffix that scales the figure before it`);
  }
  for (const [what, value, plain, rule, pattern] of own) {
    if (!/\p{L}/u.test(value) || value.includes('\n')) continue;
    const vouched = plain || value === facts.confirmed?.[what];
    for (const m of message.matchAll(pattern)) {
      const reason = `the token's ${what}, which comes from the service alone: neither plain (${rule}) nor the one confirmed for this token`;
      if (!vouched) findings.push({ text: m[0], index: m.index!, reason, token: true });
      // Digits in a value no one vouched for stay in the wording, where the accounting reads them.
      if ((vouched || !/\d/.test(value)) && claim(m.index!, m.index! + m[0].length, `{${what}}`) && what === 'symbol' && facts.symbolIsUnique) named = true;
    }
  }
  for (const other of facts.otherTokens) {
    const symbol = other.symbol?.trim() ?? '';
    const otherName = other.name?.trim() ?? '';
    // Any case for symbols that are no ordinary word of a sell message ("sgld"); exact case otherwise.
    if (symbol !== facts.symbol && symbol.toUpperCase() !== 'SOL' && [...symbol].length >= 2 && symbolPattern(symbol, symbol.length >= 3 && !isExpectedWord(symbol)).test(message)) {
      problems.push(`the message names another token, ${symbol} (${other.mint})`);
    }
    if (otherName.length >= 4 && !otherName.includes('\n') && otherName !== name && new RegExp(literalPattern(otherName).source, 'iu').test(message)) {
      problems.push(`the message names another token, ${otherName} (${other.mint})`);
    }
  }
  return named;
}

/** A name as a whole phrase (no letter or digit of any script right before or after it). */
function literalPattern(text: string): RegExp {
  return new RegExp(`(?<![\\p{L}\\p{N}_])${escapeRegExp(text)}(?![\\p{L}\\p{N}_])`, 'gu');
}

/** The symbol as a whole word (case-sensitive unless `anyCase`), optionally after `$`. */
function symbolPattern(symbol: string, anyCase: boolean): RegExp {
  return new RegExp(`(?<![\\p{L}\\p{N}_$])\\$?${escapeRegExp(symbol)}(?![\\p{L}\\p{N}_])`, anyCase ? 'giu' : 'gu');
}

/** Reads every number; returns which of the required facts were stated. */
function accountForNumbers(message: string, facts: MessageFacts, ctx: Ledger): Set<'amount' | 'minimum'> {
  const stated = new Set<'amount' | 'minimum'>();
  /** Each fact stated so far: its role, where its figure ends, and whether it was the bracketed second form. */
  const seen = new Map<string, { role: Role; end: number; bracketed: boolean }>();
  const values = roleValues(facts);
  for (const m of message.matchAll(NUMBER)) {
    for (const piece of splitGrouping(m[0], m.index!)) {
      const { text, start } = piece;
      const end = start + text.length;
      if (ctx.overlaps(start, end)) continue;
      const before = message.slice(0, start);
      const after = message.slice(end);
      const figure = figureAround(message, start, end);
      const unexplained = (why: string) => ctx.find(figure.index, figure.text, why);
      const value = normalise(text);
      const written = unitAfter(after, facts.symbol);
      const odd = oddNotation(before, after);
      if (odd || value === null || written === 'unknown') {
        unexplained(odd ?? (value === null ? 'a figure with malformed digit grouping' : 'a figure in a unit the tool does not know'));
        continue;
      }
      const outcome = judge(value, written ?? keyUnit(before, facts.symbol), values, facts, before);
      if (outcome.kind === 'role') {
        // Said twice ("sell 10 WOOF … then sell another 10 WOOF", or in raw units further on) the
        // text may mean twice the trade; the one form allowed is the other unit in brackets right
        // after the first ("10 WOOF (1000000 raw units)").
        const fact = outcome.role.split('.')[0]!;
        const first = seen.get(fact);
        const bracketed = first !== undefined && first.role !== outcome.role && BRACKETED.test(message.slice(first.end, start));
        if (first !== undefined && (!bracketed || first.bracketed)) {
          unexplained(`${describeRole(outcome.role, facts)} stated a second time`);
          continue;
        }
        seen.set(fact, { role: outcome.role, end, bracketed });
        ctx.claim(start, end, `{${outcome.role}}`);
        if (outcome.role.startsWith('amount')) stated.add('amount');
        if (outcome.role.startsWith('minimum')) stated.add('minimum');
      } else if (outcome.kind === 'placeholder') {
        ctx.claim(start, end, outcome.placeholder);
      } else if (outcome.kind === 'problem') {
        ctx.problems.push(`the message states "${figure.text}": ${outcome.why}`);
        ctx.claim(start, end, '{refused}');
      } else {
        unexplained(outcome.why);
      }
    }
  }
  return stated;
}

/** What is written around a figure that the accounting does not read as one of the trade's values, or null. */
function oddNotation(before: string, after: string): string | null {
  if (/[-+\u2212$€£¥~≈<>±#]$/.test(before)) return 'a signed, approximate or currency figure';
  if (/[\p{L}_.,]$/u.test(before)) return 'a figure joined to a word or punctuation';
  if (/^(?:[eE][+-]?\d|\.\d|[,_]\d)/.test(after)) return 'a figure in an unusual notation';
  if (/^\s*[×*+÷^\/]/.test(after) || /[×*÷^\/]\s*$/.test(before)) return 'arithmetic on a figure';
  return null;
}

/** A space-grouped run that is not valid grouping ("10 1000000") is several numbers. */
function splitGrouping(text: string, start: number): Array<{ text: string; start: number }> {
  if (!text.includes(' ') || normalise(text) !== null) return [{ text, start }];
  const out: Array<{ text: string; start: number }> = [];
  let offset = 0;
  for (const part of text.split(' ')) {
    if (part) out.push(...splitGrouping(part, start + offset));
    offset += part.length + 1;
  }
  return out;
}

/** The figure with what is glued to it ("1000000k", "$5"), where it stands in the message. */
function figureAround(message: string, start: number, end: number): { text: string; index: number } {
  let s = start;
  while (s > 0 && /[^\s]/.test(message[s - 1]!)) s--;
  let e = end;
  while (e < message.length && /[^\s]/.test(message[e]!)) e++;
  return { text: message.slice(s, e), index: s };
}

/** "1,234.50" → "1234.5"; null for malformed grouping. */
function normalise(text: string): string | null {
  const [intPart, frac = ''] = text.split('.');
  const separators = new Set(intPart!.match(/[^0-9]/g) ?? []);
  if (separators.size > 1) return null;
  if (separators.size === 1) {
    const [first, ...rest] = intPart!.split(/[^0-9]/);
    // A grouped number starts with 1-3 digits, not a zero ("0,049" is a decimal comma, not 49).
    if (first!.length < 1 || first!.length > 3 || first!.startsWith('0') || rest.some((g) => g.length !== 3)) return null;
  }
  const integer = intPart!.replace(/[^0-9]/g, '').replace(/^0+(?=\d)/, '');
  const fraction = frac.replace(/0+$/, '');
  return integer + (fraction ? `.${fraction}` : '');
}

/**
 * The unit written right after a number: glued ("0.05SOL", "1000000k") or after spaces; null
 * when the next word is an ordinary word of a sell message ("for", "and"), 'unknown' when it
 * is a word the tool does not know ("microlamports", "USD", "mSOL"), which could be any unit.
 */
function unitAfter(after: string, symbol: string | null): Unit | 'unknown' | null {
  if (/^\s*%/.test(after)) return 'pct';
  const glued = /^[\p{L}$◎]+/u.exec(after)?.[0];
  const spaced = /^[ \t]+\(?([\p{L}$◎][\p{L}\p{N}_]*)/u.exec(after)?.[1];
  const word = glued ?? spaced;
  if (!word) return null;
  if (symbol && (word === symbol || word === `$${symbol}`)) return 'tokens';
  if (word === '◎') return 'sol';
  const unit = UNIT_WORDS[word.toLowerCase()];
  if (unit) return unit;
  // Letters glued to a number that are not a unit scale or disguise it ("10x", "5OOO").
  if (glued) return 'scaled';
  return wordsOf(word).every((w) => isExpectedWord(w.word)) ? null : 'unknown';
}

/** The unit named by a `key: value` / `key = value` key right before the number ("min_lamports = …"). */
function keyUnit(before: string, symbol: string | null): Unit | null {
  const line = before.slice(before.lastIndexOf('\n') + 1);
  // A unit in brackets or after "in" right before the colon: "Minimum proceeds (SOL): 0.05",
  // "Amount in WOOF: 1000" (the symbol as the unit means whole tokens).
  const labelled = /(?:\(\s*|\bin\s+)([\p{L}$◎][\p{L}\p{N}_ ]*?)\s*\)?\s*[:=]\s*["']?$/u.exec(line)?.[1];
  if (labelled) {
    if (symbol && (labelled === symbol || labelled === `$${symbol}`)) return 'tokens';
    const unit = UNIT_WORDS[labelled.toLowerCase().replace(/^raw units?$/, 'raw')];
    if (unit) return unit;
  }
  // The key is the one word before the colon or equals sign ("min_out_lamports", "minOutLamports"),
  // never text running back across a sentence.
  const key = /([A-Za-z][A-Za-z0-9_-]{0,40})["']?\s*[:=]\s*["']?$/.exec(line)?.[1];
  if (!key) return null;
  const parts = key.split(/[_\s.-]+|(?<=[a-z])(?=[A-Z])/).map((p) => p.toLowerCase());
  return parts.reverse().map((part) => UNIT_WORDS[part]).find((unit) => unit === 'sol' || unit === 'lamports' || unit === 'raw' || unit === 'bps' || unit === 'pct') ?? null;
}

type Judgement =
  | { kind: 'role'; role: Role }
  | { kind: 'placeholder'; placeholder: string }
  | { kind: 'problem'; why: string }
  | { kind: 'finding'; why: string };

function roleValues(facts: MessageFacts): Map<Role, string> {
  const values = new Map<Role, string>([
    ['amount.raw', facts.amount.toString()],
    ['minimum.lamports', facts.minimumLamports.toString()],
    ['minimum.sol', toDecimalString(facts.minimumLamports, SOL_DECIMALS)],
    ['expected.lamports', facts.expectedLamports.toString()],
    ['expected.sol', toDecimalString(facts.expectedLamports, SOL_DECIMALS)],
    ['slippage.bps', String(facts.slippageBps)],
    ['slippage.pct', toDecimalString(BigInt(facts.slippageBps), 2)],
  ]);
  if (facts.decimals !== null) values.set('amount.tokens', toDecimalString(facts.amount, facts.decimals));
  return values;
}

/**
 * The roles a figure with no unit may carry: whole numbers only (raw units, lamports, bps). A
 * decimal with no unit ("Minimum proceeds: 0.049") could be SOL or lamports, and the API counts
 * SOL in lamports: it is not read as the minimum.
 */
const UNLABELLED_ROLES: Role[] = ['amount.raw', 'minimum.lamports', 'expected.lamports', 'slippage.bps'];

function judge(value: string, unit: Unit | null, values: Map<Role, string>, facts: MessageFacts, before: string): Judgement {
  const matching = (roles: Role[]) => roles.filter((r) => values.get(r) === value);
  const unitName = unit ?? 'no unit';
  if (unit === null) {
    const roles = matching(UNLABELLED_ROLES);
    if (roles.length > 0) return { kind: 'role', role: preferByContext(roles, before) };
    if (isTimestampOf(value, facts)) return { kind: 'placeholder', placeholder: '{time}' };
    return { kind: 'finding', why: 'a figure that is none of the trade’s values' };
  }
  if (unit === 'seconds' || unit === 'minutes' || unit === 'ms') {
    const lifetime = facts.createdAtMs !== null && facts.expiresAtMs !== null ? facts.expiresAtMs - facts.createdAtMs : null;
    // Only a lifetime the API allows counts: a service that moved createdAt back a year must not make "525600 minutes" true.
    if (lifetime !== null && lifetime > 0 && lifetime <= MAX_LIFETIME_MS && /^\d+$/.test(value) && Number(value) === Math.round(lifetime / TIME_UNIT_MS[unit]!)) {
      return { kind: 'placeholder', placeholder: '{lifetime}' };
    }
    return { kind: 'finding', why: `a duration that is not the authorization's lifetime` };
  }
  const all = matching([...values.keys()]);
  if (unit === 'scaled') {
    return all.length > 0 ? { kind: 'problem', why: `${describeRole(all[0]!, facts)} with a suffix that scales it` } : { kind: 'finding', why: 'a figure with a suffix that scales it' };
  }
  // A unit carries the roles named in it ('sol': minimum.sol and expected.sol).
  const own = (Object.keys(ROLE_NAMES) as Role[]).filter((r) => r.endsWith(`.${unit}`));
  const roles = matching(own);
  if (roles.length > 0) return { kind: 'role', role: preferByContext(roles, before) };
  // The value is one of the trade's figures, but in another unit: a mislabel, never signed.
  const elsewhere = all.filter((r) => !own.includes(r));
  if (elsewhere.length > 0) return { kind: 'problem', why: `${describeRole(elsewhere[0]!, facts)} written in ${unitName}` };
  if (unit === 'lamports' && value.includes('.')) return { kind: 'problem', why: 'lamports are whole numbers' };
  if (unit === 'raw') return { kind: 'problem', why: `not the amount ${describeTokenAmount(facts.amount, facts.decimals, facts.symbol)}` };
  if (unit === 'tokens') {
    return facts.decimals === null
      ? { kind: 'finding', why: 'an amount in whole tokens, and the token’s decimals are unknown' }
      : { kind: 'problem', why: `not the amount ${describeTokenAmount(facts.amount, facts.decimals, facts.symbol)}` };
  }
  if (unit === 'pct') return { kind: 'finding', why: 'a percentage that is not the slippage' };
  return { kind: 'finding', why: `a figure in ${unitName} that is none of the trade’s values` };
}

const ROLE_NAMES = {
  'amount.raw': 'the amount in raw units',
  'amount.tokens': 'the amount in whole tokens',
  'minimum.lamports': 'the minimum in lamports',
  'minimum.sol': 'the minimum in SOL',
  'expected.lamports': 'the expected output in lamports',
  'expected.sol': 'the expected output in SOL',
  'slippage.bps': 'the slippage in bps',
  'slippage.pct': 'the slippage in %',
} as const;

function describeRole(role: Role, facts: MessageFacts): string {
  return `${ROLE_NAMES[role]} (${roleValues(facts).get(role) ?? facts.amount})`;
}

/** When a figure is two roles at once (minimum = expected at 0 slippage), the words before it decide. */
function preferByContext(roles: Role[], before: string): Role {
  if (roles.length === 1) return roles[0]!;
  const line = before.slice(before.lastIndexOf('\n') + 1).slice(-60).toLowerCase();
  const cue = [...line.matchAll(/(min|least|floor|expect|quote|estimat|amount|sell|slippage)/g)].pop()?.[1];
  const wanted = cue === undefined ? null : /min|least|floor/.test(cue) ? 'minimum' : /expect|quote|estimat/.test(cue) ? 'expected' : /amount|sell/.test(cue) ? 'amount' : 'slippage';
  return roles.find((r) => wanted !== null && r.startsWith(wanted)) ?? roles[0]!;
}

/** A Unix time (seconds or milliseconds) of the authorization's creation or expiry. */
function isTimestampOf(value: string, facts: MessageFacts): boolean {
  if (!/^\d{9,13}$/.test(value)) return false;
  const n = Number(value);
  return [facts.createdAtMs, facts.expiresAtMs].some((ms) => ms !== null && (n === ms || n === Math.floor(ms / 1000)));
}

function isAddressText(word: string): boolean {
  if (word.length < 32 || word.length > 44) return false;
  try {
    return bs58.decode(word).length === 32;
  } catch {
    return false;
  }
}

function mask(message: string, spans: Span[]): string {
  let out = '';
  let at = 0;
  for (const s of [...spans].sort((a, b) => a.start - b.start)) {
    out += message.slice(at, s.start) + s.placeholder;
    at = s.end;
  }
  return out + message.slice(at);
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
