// What is refused outright, whatever a template says: a message that does not fit one screen
// with its labels and the question, that carries a transaction or another signing protocol's
// shape, or whose literal text is anything but printable ASCII. And the one structural test of
// an opaque value (an id, a nonce, a hash): whether it reads as words rather than random data.
import bs58 from 'bs58';
import { decodeBase64Strict, looksLikeTransaction } from '../transaction-decoder.js';

/** Rows of an 80-column screen the message may take, quoted with a 4-column margin (a longer line wraps onto more rows), and its bytes. */
export const [MAX_ROWS, MAX_COLUMNS, MAX_BYTES] = [16, 76, 1_280];

/** Where an offset of the message stands, for a reason: "line 3, column 12". */
export function at(message: string, offset: number): string {
  const before = message.slice(0, offset);
  return `line ${before.split('\n').length}, column ${offset - before.lastIndexOf('\n')}`;
}

/** Rows of an 80-column screen a message takes: ASCII one column each, anything else (only in a bound name or symbol) counted as two. */
export const rows = (message: string): number =>
  message.replace(/\n$/, '').split('\n').reduce((n, line) => n + Math.max(1, Math.ceil([...line].reduce((c, ch) => c + (ch.charCodeAt(0) < 0x80 ? 1 : 2), 0) / MAX_COLUMNS)), 0);

const SIWS_LABELS = /^(URI|Version|Chain ID|Nonce|Issued At|Expiration Time|Not Before|Request ID|Resources|Statement):/gm;

/** Reasons the message as a whole is refused outright (empty: none). */
export function messageProblems(message: string): string[] {
  const problems: string[] = [];
  const lines = message.replace(/\n$/, '').split('\n');
  const bytes = new TextEncoder().encode(message).length;
  if (message.trim() === '') return ['the message is empty'];
  if (rows(message) > MAX_ROWS) problems.push(`the message takes ${rows(message)} rows at ${MAX_COLUMNS} columns, more than the ${MAX_ROWS} that fit one screen with the question`);
  if (bytes > MAX_BYTES) problems.push(`the message is ${bytes} bytes, more than the ${MAX_BYTES} that fit one screen`);
  let offset = 0;
  lines.forEach((line, i) => {
    const where = at(message, offset);
    if (line === '' && i === 0) problems.push(`${where}: a blank first line`);
    if (line === '' && lines[i - 1] === '' && i > 0) problems.push(`${where}: two blank lines in a row, which set what follows apart from the rest`);
    if (/[ \t]$/.test(line)) problems.push(`${where}: whitespace at the end of the line`);
    offset += line.length + 1;
  });
  if (decodesAsTransaction(message)) problems.push('the message decodes as a Solana transaction: signing it could authorize that transaction');
  if (message.startsWith('\u00ff') || /solana[\s_-]*off[\s_-]*chain/i.test(message)) problems.push('the message is, or names, a Solana off-chain message');
  const labels = new Set([...message.matchAll(SIWS_LABELS)].map((m) => m[1]));
  if (/wants you to sign in/i.test(message) || labels.size >= 2) problems.push('the message has the shape of a Sign-In-With-Solana (EIP-4361) login');
  return problems;
}

/** The first character of literal text that is not printable ASCII or a newline, as a reason; null when none. */
export function literalCharacterProblem(message: string, start: number, text: string): string | null {
  const i = text.search(/[^\x20-\x7e\n]/);
  if (i < 0) return null;
  const code = text.codePointAt(i)!.toString(16).toUpperCase().padStart(4, '0');
  return `${at(message, start + i)}: U+${code}, a character other than printable ASCII outside a bound token name or symbol`;
}

/** Whether the UTF-8 bytes of the message, or its base64 or base58 text, are a transaction or message. */
function decodesAsTransaction(message: string): boolean {
  const decoders = [() => new TextEncoder().encode(message), () => decodeBase64Strict(message.trim()), () => bs58.decode(message.trim())];
  return decoders.some((decode) => {
    try {
      return looksLikeTransaction(decode());
    } catch {
      return false; // not that encoding
    }
  });
}

// Whether a run reads as text: a log-likelihood ratio, in bits, of its character classes
// (uppercase, lowercase vowel, lowercase consonant, digit) under a model of camel-case words
// against uniform draws from the run's own alphabet. Words alternate vowels and consonants and
// start with one capital; random data draws each class at its share of the alphabet. The
// threshold is measured (test/unit/sell-template.test.ts): at most 0.1% of random values of
// 16-32 characters in base58, base62 or hex read as text.
type CharClass = 'U' | 'v' | 'c' | 'd';
const classOf = (ch: string): CharClass => (/[A-Z]/.test(ch) ? 'U' : /[aeiou]/.test(ch) ? 'v' : /[a-z]/.test(ch) ? 'c' : 'd');
/** The chance of each class after the previous one (S: at the start) in camel-case words. */
const WORDLIKE: Record<CharClass | 'S', Record<CharClass, number>> = {
  S: { U: 0.6, v: 0.15, c: 0.15, d: 0.1 }, U: { U: 0.15, v: 0.45, c: 0.35, d: 0.05 }, v: { U: 0.15, v: 0.15, c: 0.65, d: 0.05 },
  c: { U: 0.2, v: 0.4, c: 0.35, d: 0.05 }, d: { U: 0.3, v: 0.1, c: 0.1, d: 0.5 },
};
/** Bits of evidence for words over data above which a run is text. */
export const TEXT_EVIDENCE_BITS = 8;
/** Alphabets of opaque values, narrowest first: a value's is the first that holds all of it. */
export const ALPHABETS: Record<string, RegExp> = {
  digits: /^[0-9]+$/, hex: /^[0-9a-f]+$/, HEX: /^[0-9A-F]+$/, consonants: /^[0-9B-DF-HJ-NP-TV-XZb-df-hj-np-tv-xz]+$/, base58: /^[1-9A-HJ-NP-Za-km-z]+$/,
  lower: /^[0-9a-z]+$/, upper: /^[0-9A-Z]+$/, alnum: /^[0-9A-Za-z]+$/, uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
};
/** A value's alphabet, or null. */
export const alphabetOf = (value: string): string | null => Object.keys(ALPHABETS).find((a) => ALPHABETS[a]!.test(value)) ?? null;
/** Whether a value fits a pinned alphabet and length (base58 of a fixed number of bytes varies by up to 2 characters). */
export const fits = (value: string, alphabet: string, length: number): boolean =>
  !!ALPHABETS[alphabet]?.test(value) && (alphabet === 'base58' ? Math.abs(value.length - length) <= 2 : value.length === length);
const ASCII = Array.from({ length: 128 }, (_, i) => String.fromCharCode(i));

/** Bits of evidence a run of ASCII letters and digits gives for camel-case words over random data of its alphabet. */
export function wordEvidence(run: string): number {
  const alphabet = ASCII.filter((ch) => ALPHABETS[alphabetOf(run)!]!.test(ch));
  const share: Record<CharClass, number> = { U: 0, v: 0, c: 0, d: 0 };
  for (const ch of alphabet) share[classOf(ch)]++;
  let bits = 0;
  let previous: CharClass | 'S' = 'S';
  for (const ch of run) {
    const cls = classOf(ch);
    bits += Math.log2(WORDLIKE[previous][cls] / (share[cls] / alphabet.length));
    previous = cls;
  }
  return bits;
}

/** Whether an opaque value (an id's random part, a nonce, a hash) reads as words rather than data. */
export const readsAsText = (run: string): boolean => /^[A-Za-z0-9]+$/.test(run) && wordEvidence(run) > TEXT_EVIDENCE_BITS;
