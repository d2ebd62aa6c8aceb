// The words a sell message is expected to use. A word outside this list is a finding the user
// reads and accepts once, at the prompt, after which it is part of the service's pinned wording;
// under --yes it is refused. Words that flip or widen a sale's terms ("not", "less", "any",
// "pay", "transfer", "buy", "max", "more", "or") are deliberately absent, and so are the words
// that make statements about who owns or does what ("is", "will", "you", "your", "service"): a
// sell message labels the trade's values, it need not argue. Values in slots (ids, names) are
// not words: slot-shapes.ts says what they may be.

/** Words that join a sentence and label nothing. */
const FUNCTION_WORDS = `
  a an the this that these it its
  of for to at in on by from with and as
`;

/** The tool, the service and the chain by name: they label no value of the trade. */
const PROPER_NAMES = `trader sandbox solana`;

/** The words that label the trade's values and figures. */
const LABEL_WORDS = `
  sell sells selling sold sale seller sellers
  authorize authorizes authorized authorizing authorization authorise authorises authorised authorising authorisation
  sign signs signed signing signature message confirm confirms confirmed confirming request order trade
  token tokens amount amounts raw unit units base smallest quantity
  minimum min least floor proceeds receive received receiving output out
  expected expect estimated estimate quote quoted slippage tolerance bps basis points percent
  mint address wallet owner
  expires expire expired expiry expiration valid until before within time date issued created at utc exp
  minute minutes seconds
  sol lamport lamports
  id ref reference nonce hash key
  once only single use used
  action type side
`;

const WORDS = `${FUNCTION_WORDS} ${LABEL_WORDS} ${PROPER_NAMES}`;

/** The words that speak of selling, as a regular expression's alternatives. */
export const SELL_WORDS = 'sell|sells|selling|sold|sale|sales';

const wordSet = (words: string) => new Set(words.split(/\s+/).filter(Boolean));
const VOCABULARY = wordSet(WORDS);
const FUNCTIONS = wordSet(FUNCTION_WORDS);
const LABELS = wordSet(LABEL_WORDS);

/** Whether a word (any case) only joins a sentence ("the", "of"). */
export const isFunctionWord = (word: string): boolean => FUNCTIONS.has(word.toLowerCase());

/** Whether a word (any case) is one a sell message uses to label a value or a figure ("minimum", "proceeds", "sol"). */
export const isLabelWord = (word: string): boolean => LABELS.has(word.toLowerCase());

/** Whether a word (any case) is one a sell message is expected to use. */
export const isExpectedWord = (word: string): boolean => VOCABULARY.has(word.toLowerCase());

/** The words of a text run: letters only, camelCase and snake_case split ("minOutLamports" → min, Out, Lamports). */
export function wordsOf(text: string): Array<{ word: string; index: number }> {
  const out: Array<{ word: string; index: number }> = [];
  for (const m of text.matchAll(/[\p{L}\p{M}]+/gu)) {
    // Split camelCase (a lower letter followed by an upper one) so keys read as their words.
    let index = m.index!;
    for (const word of m[0].split(/(?<=\p{Ll})(?=\p{Lu})/u)) {
      out.push({ word, index });
      index += word.length;
    }
  }
  return out;
}

/** The units a figure may be written in, as the accounting reads them. */
export type Unit = 'sol' | 'lamports' | 'tokens' | 'raw' | 'bps' | 'pct' | 'seconds' | 'minutes' | 'ms' | 'scaled';

// "min" is left out: "123 min" reads as a minimum as often as minutes. No prototype: a word of
// the message ("constructor") must look up nothing.
export const UNIT_WORDS: Record<string, Unit | undefined> = Object.assign(Object.create(null), Object.fromEntries(
  Object.entries<string>({
    sol: 'sol',
    lamports: 'lamport lamports',
    raw: 'raw unit units base smallest',
    tokens: 'token tokens',
    bps: 'bps bp basis',
    pct: 'percent',
    seconds: 's sec secs second seconds',
    minutes: 'mins minute minutes',
    ms: 'ms',
    scaled: 'k m b bn mm x times thousand million billion trillion',
  }).flatMap(([unit, words]) => words.split(' ').map((word) => [word, unit as Unit])),
));
