// The one place that says what may fill a slot of a sell message's wording. A slot holds a value,
// and a value must not be able to say anything: an id, hash or nonce is one run of one alphabet,
// and the alphabet and length it had when the wording was pinned are written into the pinned
// wording ("{id: sell_ + 22 base58}"), so a value of another shape is a change of wording. A
// token's name and symbol come from the service alone: plain only in a conservative shape.
// A value that parses as one alphabet may still spell words (readsAsText).
// (Figures, times, the mint and wallets are checked against the trade's own values instead.)

import { isExpectedWord, isFunctionWord, isLabelWord, UNIT_WORDS } from './vocabulary.js';

/** An authorization id: `sell_` and one run of ASCII letters and digits (before any pin). */
export const ID_SHAPE = /^sell_[A-Za-z0-9]{4,64}$/;
/** A symbol: at most 10 ASCII letters and digits, a letter among them (a number would hide a figure). */
const SYMBOL_SHAPE = /^(?=[A-Za-z0-9]*[A-Za-z])[A-Za-z0-9]{1,10}$/;
/** A name: ASCII letters and digits in words of single spaces, at most 32 characters. */
const NAME_SHAPE = /^(?=.{1,32}$)[A-Za-z0-9]+(?: [A-Za-z0-9]+)*$/;
/** Words, camel case split ("SendAllNow" is three): a sentence in camel case has as many words as one with spaces. */
const wordsIn = (text: string): string[] => text.split(/ |(?<=[a-z0-9])(?=[A-Z])/);

/**
 * Whether a word of a name or symbol is one the message's wording uses to label the trade's
 * values ("minimum", "proceeds", "sell", "percent"): beside those labels it would read as one.
 * "SOL" is let through: staked and wrapped tokens name it ("Jito Staked SOL", "stSOL"), and a
 * symbol that is SOL or lamports as a whole is refused outright (currencyNamed).
 */
const labels = (word: string): boolean => isLabelWord(word) && UNIT_WORDS[word.toLowerCase()] !== 'sol';

/**
 * Whether a token's symbol fits the shape that cannot make a statement: two words at most
 * ("stSOL"), no run of 4 digits (a figure: "X1000"; "ai16z" and "S568T3" are plain), not a word
 * of the wording's own as a whole ("SOLANA", "MINIMUM") nor a label word in its parts ("SellAll").
 */
export const plainSymbol = (symbol: string): boolean =>
  SYMBOL_SHAPE.test(symbol) && wordsIn(symbol).length <= 2 && !/\d{4}/.test(symbol) && !(isExpectedWord(symbol) && !isFunctionWord(symbol)) && !wordsIn(symbol).some(labels);

/**
 * Whether a token's name fits the shape that cannot make a statement: three words at most, no
 * word that is a number of 3 digits or more ("Price 1000 USD"; a series number as in "Test Coin
 * 12" or "Grok 3" stays plain), no label word of the wording ("Zero Minimum Proceeds", "Fee 50 Percent").
 */
export const plainName = (name: string): boolean => {
  const words = wordsIn(name);
  return NAME_SHAPE.test(name) && words.length <= 3 && !words.some((w) => /^\d{3,}$/.test(w) || labels(w));
};

/** Digits that pass for letters (S0L, SO1, 5OL), and a capital I for a small l: folded before the currency is compared. */
const LOOK_ALIKES: Record<string, string> = { '0': 'o', '1': 'l', '5': 's', i: 'l' };
/**
 * SOL or lamports under a disguise: an optional wrapper or magnitude letter before it (W, K, M, B:
 * "WSOL", "KSOL", "MLAMPORTS"), or the word "wrapped", an optional plural s ("SOLs",
 * "LAMPORTSS"), and Solana for SOL.
 */
const CURRENCY_SHAPE = /^(?:wrapped )?([wkmb]?)(sol|solana|lamports?)s?$/;

/**
 * The currency unit a token's symbol or name renames, or null: the accounting reads figures in
 * SOL and lamports, so a token called "sol", "Lamp0rts", "SOLs" or "WS0L" makes "0.05 SOL" mean
 * that token. Compared in any case after folding look-alike digits (Unicode confusables are
 * refused by the character rules). Liquid staking tokens spell a lower-case issuer letter before
 * an upper-case SOL (Marinade's "mSOL", BlazeStake's "bSOL"): that exact spelling is theirs and
 * left to the other shape rules; "MSOL", "Msol", "mS0L" or "wSOL" (wrapped SOL is SOL) are not.
 */
export function currencyNamed(text: string): string | null {
  const folded = [...text.trim().toLowerCase().replace(/\s+/g, ' ')].map((ch) => LOOK_ALIKES[ch] ?? ch).join('');
  const m = CURRENCY_SHAPE.exec(folded);
  if (!m) return null;
  if (/^[kmb]SOL$/.test(text.trim())) return null;
  return m[2] === 'sol' || m[2] === 'solana' ? 'SOL' : 'lamports';
}

/** A scaling suffix as the figure accounting reads one after a number (UNIT_WORDS "scaled": K, MM, BN, thousand), a run of magnitude letters ("KK"), an exponent ("E6") or a multiplier ("X10", "10x"). */
const SCALING_SHAPE = /^(?:[kmb]+|e[+-]?\d{1,3}|x\d+|\d+x)$/;

/**
 * Whether a token's symbol or name would read as a suffix that scales the figure before it: the
 * symbol stands right after the whole-token figure, so "Amount: 0.854547 K" reads as 854.5 tokens.
 */
export function scalesFigure(text: string): boolean {
  const word = text.trim().toLowerCase();
  return UNIT_WORDS[word] === 'scaled' || SCALING_SHAPE.test(word);
}

// Whether a run reads as text: a log-likelihood ratio, in bits, of its character classes
// (uppercase, lowercase vowel, lowercase consonant, digit) under a model of camel-case words
// against uniform draws from the run's own alphabet. Words alternate vowels and consonants and
// start with one capital; random data draws each class at its share of the alphabet. The
// threshold is measured (test/unit/slot-shapes.test.ts): at most 0.1% of random ids of 16-32
// characters in base58, base62 or consonants and digits read as text.
type CharClass = 'U' | 'v' | 'c' | 'd';
const classOf = (ch: string): CharClass => (/[A-Z]/.test(ch) ? 'U' : /[aeiou]/.test(ch) ? 'v' : /[a-z]/.test(ch) ? 'c' : 'd');
/** The chance of each class after the previous one (S: at the start) in camel-case words. */
const WORDLIKE: Record<CharClass | 'S', Record<CharClass, number>> = {
  S: { U: 0.6, v: 0.15, c: 0.15, d: 0.1 },
  U: { U: 0.15, v: 0.45, c: 0.35, d: 0.05 },
  v: { U: 0.15, v: 0.15, c: 0.65, d: 0.05 },
  c: { U: 0.2, v: 0.4, c: 0.35, d: 0.05 },
  d: { U: 0.3, v: 0.1, c: 0.1, d: 0.5 },
};
/** Bits of evidence for words over data above which a run is text. */
export const TEXT_EVIDENCE_BITS = 8;

/** How many bits of evidence a run of ASCII letters and digits gives for camel-case words over random data. */
export function wordEvidence(run: string): number {
  const alphabet = ALPHABET_CHARS[shapeOf(run).alphabet] ?? ALPHABET_CHARS['alnum']!;
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

/** Whether an opaque run (an id's random part, a hash, a nonce) reads as words rather than data. */
export const readsAsText = (run: string): boolean => /^[A-Za-z0-9]+$/.test(run) && wordEvidence(run) > TEXT_EVIDENCE_BITS;

/** Alphabets, narrowest first: a value's alphabet is the first that holds all of it. */
const ALPHABETS: Array<[string, RegExp]> = [
  ['digits', /^[0-9]+$/],
  ['hex', /^[0-9a-f]+$/],
  ['HEX', /^[0-9A-F]+$/],
  ['consonants', /^[0-9B-DF-HJ-NP-TV-XZb-df-hj-np-tv-xz]+$/],
  ['base58', /^[1-9A-HJ-NP-Za-km-z]+$/],
  ['lower', /^[0-9a-z]+$/],
  ['upper', /^[0-9A-Z]+$/],
  ['alnum', /^[0-9A-Za-z]+$/],
];

const ASCII = Array.from({ length: 128 }, (_, i) => String.fromCharCode(i));
/** Each alphabet's characters, for the odds of a class of character in random data. */
const ALPHABET_CHARS: Record<string, string> = Object.fromEntries(ALPHABETS.map(([name, re]) => [name, ASCII.filter((ch) => re.test(ch)).join('')]));

const ANNOTATED_SLOT = /\{(id|hash|nonce): (?:(sell_|0x) \+ )?(\d+) ([A-Za-z0-9]+)\}/g;

interface Shape {
  prefix: string;
  length: number;
  alphabet: string;
}

function shapeOf(value: string): Shape {
  const prefix = /^(?:sell_|0x)/.exec(value)?.[0] ?? '';
  const rest = value.slice(prefix.length);
  return { prefix, length: rest.length, alphabet: ALPHABETS.find(([, a]) => a.test(rest))?.[0] ?? 'other' };
}

/**
 * Whether a value fits a pinned shape: the same prefix, every character in the pinned alphabet,
 * and a length within a quarter of the pinned one (encodings of a fixed size vary by a character).
 */
function fits(value: string, pinned: Shape): boolean {
  const rest = value.slice(pinned.prefix.length);
  const alphabet = ALPHABETS.find(([name]) => name === pinned.alphabet)?.[1];
  return shapeOf(value).prefix === pinned.prefix && !!alphabet?.test(rest) && rest.length * 4 >= pinned.length * 3 && rest.length * 4 <= pinned.length * 5;
}

/**
 * The wording with each {id}, {hash} and {nonce} slot's shape written in, in order: the pinned
 * shape where the value fits it (an honest value leaves the wording as pinned), else the value's
 * own (the wording changes, and the change shows old against new).
 */
export function shapeWording(wording: string, values: string[], pinnedText: string | null): string {
  const pinned = [...(pinnedText ?? '').matchAll(ANNOTATED_SLOT)];
  let i = 0;
  return wording.replace(/\{(id|hash|nonce)\}/g, (_, kind: string) => {
    const [value, old] = [values[i] ?? '', pinned[i++]];
    const was = old?.[1] === kind ? { prefix: old[2] ?? '', length: Number(old[3]), alphabet: old[4]! } : null;
    const shape = was && fits(value, was) ? was : shapeOf(value);
    return `{${kind}: ${shape.prefix ? `${shape.prefix} + ` : ''}${shape.length} ${shape.alphabet}}`;
  });
}

/** A wording with its slots' shapes taken out: what a pin made before shapes were pinned holds.*/
export function withoutShapes(wording: string): string {
  return wording.replace(ANNOTATED_SLOT, '{$1}');
}
