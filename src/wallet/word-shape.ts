// Whether an opaque value (a nonce, a hash, an id's random part) reads as words rather than
// random data, judged against its own pinned alphabet, with no word list. Each character is
// scored by the log-likelihood ratio (bits) of a model of text against a uniform draw from the
// alphabet, summed over the value's most word-like stretch (max-subarray: no padding dilutes it).
// The model of text is structural: words are letter runs, and any non-letter run (a digit in an
// alphabet with no space) separates words, as does a case hump (a capital after a lower-case
// letter starts a word); within a word vowels and consonants alternate as in words and each
// letter is as frequent as in English; its case follows lower case, capitals or camel case in one
// reading and is as random as the alphabet's in the other. A letter the alphabet has in one case
// only (base58 has L but no l, i and o but no I and O) costs nothing for its case: a writer had
// no choice. Chance's best stretch grows with the length, and so does the threshold; both are
// fitted per alphabet and measured (test/unit/word-evidence.test.ts) on 50,000 seeded random values.
import { ALPHABETS } from './sell-template/text-rules.js';

/** Each letter's frequency in English text, per thousand letters. */
const LETTERS: Record<string, number> = Object.fromEntries(
  'a82 b15 c28 d43 e127 f22 g20 h61 i70 j2 k8 l40 m24 n67 o75 p19 q1 r60 s63 t91 u28 v10 w24 x2 y20 z1'
    .split(' ')
    .map((e) => [e[0]!, Number(e.slice(1))]),
);
/** The chance of a vowel, a consonant or a separator at a word's start, after a vowel, after a consonant, after a separator. */
const KIND = [
  [0.3, 0.65, 0.05],
  [0.2, 0.7, 0.1],
  [0.45, 0.45, 0.1],
  [0.3, 0.6, 0.1],
];
/** The chance of lower or upper case at a word's first letter, after a lower-case letter, after one capital, after two. */
const CASE = [
  [0.5, 0.5],
  [0.8, 0.2],
  [0.8, 0.2],
  [0.03, 0.97],
];
type Char = { kind: number; upper: number; share: number; forms: number };
type Model = { size: number; kinds: number[]; chars: Map<string, Char>; totals: number[] };
const models = new Map<string, Model>();

/** An alphabet's characters: each one's kind, case, share of its kind in English (case folded), and how many case forms of it the alphabet has. */
function model(alphabet: string): Model {
  const cached = models.get(alphabet);
  if (cached) return cached;
  const test = ALPHABETS[alphabet]!;
  const chars = Array.from({ length: 128 }, (_, i) => String.fromCharCode(i)).filter((ch) => test.test(ch));
  const kindOf = (ch: string) => (/[aeiou]/i.test(ch) ? 0 : /[a-z]/i.test(ch) ? 1 : 2);
  const letters = [...new Set(chars.map((ch) => ch.toLowerCase()))];
  const mass = [0, 0, 0];
  for (const l of letters) mass[kindOf(l)]! += LETTERS[l] ?? 1;
  const entry = (ch: string): Char => {
    const forms = chars.filter((c) => c.toLowerCase() === ch.toLowerCase()).length;
    return {
      kind: kindOf(ch),
      upper: /[A-Z]/.test(ch) ? 1 : 0,
      share: (LETTERS[ch.toLowerCase()] ?? 1) / mass[kindOf(ch)]!,
      forms,
    };
  };
  const kinds = [0, 1, 2].map((k) => letters.filter((l) => kindOf(l) === k).length);
  const m = {
    size: chars.length,
    kinds,
    chars: new Map(chars.map((ch) => [ch, entry(ch)])),
    // Each KIND row's mass over the kinds this alphabet has (once here, not per character scored).
    totals: KIND.map((row) => row.reduce((sum, q, k) => sum + (kinds[k] ? q : 0), 0)),
  };
  models.set(alphabet, m);
  return m;
}

/** Bits of evidence for text over random draws from `alphabet` of the most word-like stretch of each prefix of an opaque value. */
export function segmentEvidence(value: string, alphabet: string): number[] {
  const { size, totals, chars } = model(alphabet === 'uuid' ? 'hex' : alphabet);
  const out: number[] = [];
  let [best, cased, caseless, previous, history] = [0, 0, 0, 0, 0];
  for (const ch of alphabet === 'uuid' ? value.replace(/-/g, '') : value) {
    const c = chars.get(ch);
    if (!c) return [...out, Infinity]; // not of its alphabet: no random draw made it
    const letter = c.kind !== 2;
    // A capital after a lower-case letter starts a word, as a separator does.
    const hump = letter && c.upper === 1 && history === 1;
    const kind = hump ? 0 : previous;
    const p = (KIND[kind]![c.kind]! / totals[kind]!) * c.share * size;
    const odds = CASE[hump || !letter ? 0 : history]!;
    const caseOdds = c.forms === 1 ? 1 : odds[c.upper]! / (odds[0]! + odds[1]!);
    cased = Math.max(0, cased + Math.log2(letter ? p * caseOdds : p));
    caseless = Math.max(0, caseless + Math.log2(letter ? p / c.forms : p));
    out.push((best = Math.max(best, cased, caseless)));
    previous = letter ? c.kind + 1 : 3;
    history = !letter ? history : c.upper ? Math.min(3, Math.max(2, history + 1)) : 1;
  }
  return out;
}

/** Bits of evidence the most word-like stretch of an opaque value gives for text over random draws from `alphabet`. */
export const wordEvidence = (value: string, alphabet: string): number => segmentEvidence(value, alphabet).at(-1) ?? 0;

/**
 * Bits of evidence above which a value of `length` characters of `alphabet` reads as words: chance's
 * best stretch grows with the length, and faster in a larger alphabet with two cases. Each line is
 * the 99.9th percentile of 50,000 random values of the alphabet at every length 4..88, plus 0.3 bits.
 */
const THRESHOLDS: Record<string, [number, number]> = {
  hex: [5.3, 1.5],
  HEX: [5.3, 1.5],
  uuid: [5.3, 1.5],
  base58: [5.5, 2.0],
  alnum: [2.3, 2.7],
};
export const textThreshold = (length: number, alphabet: string): number => {
  const [base, slope] = THRESHOLDS[alphabet] ?? THRESHOLDS.alnum!;
  return base + slope * Math.log2(length);
};

/** Whether an opaque value (an id's random part, a nonce, a hash) of a slot's alphabet reads as words rather than data. */
export const readsAsText = (value: string, alphabet: string): boolean =>
  wordEvidence(value, alphabet) > textThreshold(value.replace(/-/g, '').length, alphabet);
