// What is refused outright, whatever a template says: a message longer than a person reads
// whole (whether it fits this terminal is views/wording.ts's and the prompt's), that carries a transaction or another signing protocol's
// shape, or whose literal text is anything but printable ASCII; the alphabets of opaque values
// (whether one reads as words is wallet/word-shape.ts's).
import bs58 from 'bs58';
import { decodeBase64Strict, looksLikeTransaction } from '../transaction-decoder.js';
import { codePoint } from '../../domain/printable.js';

/** The most lines and bytes a message may carry: what a person reads whole on one screen of 80 × 24 (16 full rows). */
export const [MAX_LINES, MAX_BYTES] = [20, 1_280];
/** Random values a message may carry, and their longest (a base58 signature): word evidence is measured up to it, and a sentence split across values has few places. */
export const [MAX_OPAQUE_SLOTS, MAX_OPAQUE_LENGTH] = [4, 88];

/** Where an offset of the message stands, for a reason: "line 3, column 12". */
export function at(message: string, offset: number): string {
  const before = message.slice(0, offset);
  return `line ${before.split('\n').length}, column ${offset - before.lastIndexOf('\n')}`;
}

const SIWS_LABELS =
  /^(URI|Version|Chain ID|Nonce|Issued At|Expiration Time|Not Before|Request ID|Resources|Statement):/gm;

/** Reasons the message as a whole is refused outright (empty: none). */
export function messageProblems(message: string): string[] {
  const problems: string[] = [];
  const lines = message.replace(/\n$/, '').split('\n');
  const bytes = new TextEncoder().encode(message).length;
  if (message.trim() === '') return ['the message is empty'];
  if (lines.length > MAX_LINES)
    problems.push(`the message is ${lines.length} lines, more than the ${MAX_LINES} a person reads on one screen`);
  if (bytes > MAX_BYTES)
    problems.push(`the message is ${bytes} bytes, more than the ${MAX_BYTES} a person reads on one screen`);
  let offset = 0;
  lines.forEach((line, i) => {
    const where = at(message, offset);
    if (line === '' && i === 0) problems.push(`${where}: a blank first line`);
    if (line === '' && lines[i - 1] === '' && i > 0)
      problems.push(`${where}: two blank lines in a row, which set what follows apart from the rest`);
    if (/[ \t]$/.test(line)) problems.push(`${where}: whitespace at the end of the line`);
    offset += line.length + 1;
  });
  if (decodesAsTransaction(message))
    problems.push('the message decodes as a Solana transaction: signing it could authorize that transaction');
  if (message.startsWith('\u00ff') || /solana[\s_-]*off[\s_-]*chain/i.test(message))
    problems.push('the message is, or names, a Solana off-chain message');
  const labels = new Set([...message.matchAll(SIWS_LABELS)].map((m) => m[1]));
  if (/wants you to sign in/i.test(message) || labels.size >= 2)
    problems.push('the message has the shape of a Sign-In-With-Solana (EIP-4361) login');
  return problems;
}

/** The first character of literal text that is not printable ASCII or a newline, as a reason; null when none. */
export function literalCharacterProblem(message: string, start: number, text: string): string | null {
  const i = text.search(/[^\x20-\x7e\n]/);
  if (i < 0) return null;
  return `${at(message, start + i)}: ${codePoint(String.fromCodePoint(text.codePointAt(i)!))}, a character other than printable ASCII outside a bound token name or symbol`;
}

/** Whether the UTF-8 bytes of the message, or its base64 or base58 text, are a transaction or message. */
function decodesAsTransaction(message: string): boolean {
  const decoders = [
    () => new TextEncoder().encode(message),
    () => decodeBase64Strict(message.trim()),
    () => bs58.decode(message.trim()),
  ];
  return decoders.some((decode) => {
    try {
      return looksLikeTransaction(decode());
    } catch {
      return false; // not that encoding
    }
  });
}

/** The standard alphabets an opaque value may pin, narrowest first; none made up to fit one service's values. */
export const ALPHABETS: Record<string, RegExp> = {
  hex: /^[0-9a-f]+$/,
  HEX: /^[0-9A-F]+$/,
  base58: /^[1-9A-HJ-NP-Za-km-z]+$/,
  alnum: /^[0-9A-Za-z]+$/,
  uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
};
/** A value's alphabet, or null. */
export const alphabetOf = (value: string): string | null =>
  Object.keys(ALPHABETS).find((a) => ALPHABETS[a]!.test(value)) ?? null;
/** Whether a value fits a pinned alphabet and length (base58 of a fixed number of bytes varies by up to 2 characters). */
export const fits = (value: string, alphabet: string, length: number): boolean =>
  !!ALPHABETS[alphabet]?.test(value) &&
  (alphabet === 'base58' ? Math.abs(value.length - length) <= 2 : value.length === length);
