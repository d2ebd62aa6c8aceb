// What the words around the trade's figures say they are. Accounting proves that each figure is
// one of the trade's values in a unit that fits; it cannot tell "Sell 10 WOOF for at least
// 0.5 SOL" from "Sell 0.5 SOL for at least 10 WOOF", nor "Minimum proceeds: 0.5 SOL" from
// "Slippage tolerance: 0.5 SOL". So, on the masked wording, the words between one of the trade's
// figures and the one before it (or the start) must fit the figure's role. Line breaks do not
// end those words: "Receive:" on a line of its own still says what the next figure is.
//
// - the minimum is introduced as a minimum (minimum, min, at least, floor, >=) after any word of
//   selling, or followed by "minimum" ("0.5 SOL minimum");
// - the amount is never introduced as a minimum or as what the user receives;
// - the expected output is never introduced as a minimum, nor as what is sold;
// - a minimum is spoken of only at the minimum's figure ("the minimum is only a quote" is not);
// - no figure is taken as a percentage of another ("1% of 0.5 SOL").
//
// Each broken rule is a problem: never signed, whatever the user answers.

const ROLE_FIGURE = /\{(amount|minimum|expected|slippage)\.[a-z]+\}/g;
const MIN_CUE = /\b(?:minimum|min|at least|floor)\b|>=|≥/;
const RECEIVE_CUE = /\b(?:receive|receives|received|receiving|proceeds|output|out|expected|expect|estimated|estimate|quote|quoted|get|gets)\b/;
const SELL_CUE = /\b(?:sell|sells|selling|sold|sale|sales)\b/;
/** A figure then its unit and "minimum" or "min": the minimum named after its figure. */
const MINIMUM_AFTER = /^[ \t]*(?:sol|lamports?)?[ \t]*(?:minimum|min)\b/;
/** The second form of a figure in brackets right after the first: "10 WOOF (1000000 raw units)". */
const BRACKETED = /^[ \t]*[^\s()]*[ \t]*\([ \t]*$/;
const PERCENT_OF = /\d[ \t]*(?:%|percent)[ \t]+of\b/i;

type Fact = 'amount' | 'minimum' | 'expected' | 'slippage';

/** The problems of the figures' roles in a masked wording (accounting.ts) of `message`. */
export function figureRoleProblems(wording: string, message: string): string[] {
  const problems = new Set<string>();
  if (PERCENT_OF.test(message)) problems.add('the message takes a percentage of a figure, which changes what the figure says');
  let from = 0;
  let previous: Fact | null = null;
  for (const m of wording.matchAll(ROLE_FIGURE)) {
    const fact = m[1] as Fact;
    const raw = wording.slice(from, m.index);
    // "0.5 SOL minimum for 10 WOOF": the minimum's own after-word is not the next figure's.
    const plain = plainWords(raw);
    const words = previous === 'minimum' ? plain.replace(MINIMUM_AFTER, ' ') : plain;
    const repeat = previous === fact && BRACKETED.test(raw);
    if (!repeat) {
      // The words since the last word of selling say what the figure is; before it, what is sold.
      const sold = SELL_CUE.test(words);
      const tail = sold ? words.slice(lastIndexOf(words, SELL_CUE)) : words;
      if (fact === 'minimum' && !MIN_CUE.test(tail) && !MINIMUM_AFTER.test(plainWords(untilNextFigure(wording, m.index! + m[0].length)))) {
        problems.add(sold ? 'the minimum is stated as what is sold' : 'the minimum is not stated as a minimum (the words before it name something else)');
      }
      if (fact === 'amount' && MIN_CUE.test(tail)) problems.add('the amount sold is stated as a minimum');
      if (fact === 'amount' && RECEIVE_CUE.test(tail)) problems.add('the amount sold is stated as something received');
      if (fact === 'expected' && MIN_CUE.test(tail)) problems.add('the expected output is stated as a minimum');
      if (fact === 'expected' && sold && !RECEIVE_CUE.test(tail)) problems.add('the expected output is stated as what is sold');
    }
    // A minimum spoken of before a figure that is not the minimum (nor after the minimum's own figure).
    if (fact !== 'minimum' && MIN_CUE.test(words)) {
      problems.add('the message speaks of a minimum that is not at the minimum’s figure');
    }
    previous = fact;
    from = m.index! + m[0].length;
  }
  const rest = plainWords(wording.slice(from));
  if (MIN_CUE.test(rest) && !(previous === 'minimum' && MINIMUM_AFTER.test(rest))) {
    problems.add('the message speaks of a minimum that is not at the minimum’s figure');
  }
  return [...problems];
}

/** Where the last match of `pattern` in `text` ends (0 when none). */
function lastIndexOf(text: string, pattern: RegExp): number {
  let end = 0;
  for (const m of text.matchAll(new RegExp(pattern.source, 'g'))) end = m.index! + m[0].length;
  return end;
}

/** The text after a figure up to the next of the trade's figures. */
function untilNextFigure(wording: string, from: number): string {
  const next = wording.slice(from).search(/\{(?:amount|minimum|expected|slippage)\.[a-z]+\}/);
  return next === -1 ? wording.slice(from) : wording.slice(from, from + next);
}

/** Lower-case words of a text: other placeholders blanked, camelCase and snake_case split ("minOutLamports" → "min out lamports"). */
function plainWords(text: string): string {
  return text
    .replace(/\{[a-z.]+\}/g, ' ')
    .replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .toLowerCase();
}
