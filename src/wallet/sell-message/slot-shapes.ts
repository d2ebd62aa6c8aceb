// The one place that says what may fill a slot of a sell message's wording. A slot holds a value,
// and a value must not be able to say anything: an id, hash or nonce is one run of one alphabet,
// and the alphabet and length it had when the wording was pinned are written into the pinned
// wording ("{id: sell_ + 22 base58}"), so a value of another shape is a change of wording. A
// token's name and symbol come from the service alone: plain only in a conservative shape.
// (Figures, times, the mint and wallets are checked against the trade's own values instead.)

/** An authorization id: `sell_` and one run of ASCII letters and digits (before any pin). */
export const ID_SHAPE = /^sell_[A-Za-z0-9]{4,64}$/;
/** A symbol: at most 10 ASCII letters and digits, a letter among them (a number would hide a figure). */
const SYMBOL_SHAPE = /^(?=[A-Za-z0-9]*[A-Za-z])[A-Za-z0-9]{1,10}$/;
/** A name: ASCII letters and digits in words of single spaces, at most 32 characters. */
const NAME_SHAPE = /^(?=.{1,32}$)[A-Za-z0-9]+(?: [A-Za-z0-9]+)*$/;
/** Words, camel case split ("SendAllNow" is three): a sentence in camel case has as many words as one with spaces. */
const wordCount = (text: string): number => text.split(/ |(?<=[a-z0-9])(?=[A-Z])/).length;

/** Whether a token's symbol fits the shape that cannot make a statement (two words at most: "stSOL"). */
export const plainSymbol = (symbol: string): boolean => SYMBOL_SHAPE.test(symbol) && wordCount(symbol) <= 2;
/** Whether a token's name fits the shape that cannot make a statement: three words at most. */
export const plainName = (name: string): boolean => NAME_SHAPE.test(name) && wordCount(name) <= 3;

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

/** A wording with its slots' shapes taken out: what a pin made before shapes were pinned holds. */
export function withoutShapes(wording: string): string {
  return wording.replace(ANNOTATED_SLOT, '{$1}');
}
