// What the words and signs around the trade's figures say they are. Accounting proves that each
// figure is one of the trade's values in a unit that fits; it cannot tell "Sell 10 WOOF for at
// least 0.5 SOL" from "Sell 0.5 SOL for at least 10 WOOF", nor "Minimum proceeds: 0.5 SOL" from
// "Minimum proceeds: 0.5 SOL - 1%". So, on the masked wording (accounting.ts), the words between
// one of the trade's figures and the one before it (or the start; line breaks do not end them:
// "Receive:" on a line of its own still says what the next figure is) must fit the figure's role:
//
// - the minimum is introduced by a minimum word (minimum, min, at least, floor, >=) with nothing
//   after that word but labels ("Minimum proceeds (SOL): 0.5"), or named after its figure
//   ("0.5 SOL minimum"); and it is not called the expected output after its figure;
// - the amount is never introduced as a minimum or as what the user receives;
// - the expected output is never introduced as a minimum, nor as what is sold;
// - a minimum is spoken of only at the minimum's figure ("the minimum is only a quote" is not);
// - no figure is a percentage of another ("1% of 0.5 SOL");
// - and the rules on the text's shape below, each stated where it is checked: no sign beside a
//   figure or time, an expiry states a time, the lifetime is a validity, a unit named before a
//   figure fits it, the minimum word is not qualified, the slippage only explains the minimum,
//   nothing opaque where the proceeds or a wallet are named and no holder but your wallet, no
//   comment or strike-through markup.
//
// A figure put in another's role (or under a unit that does not fit it, or as a percentage of
// another) is a problem: never signed. The other rules judge the text's shape, which an honest
// service may word its own way ("Min. received:", "->"): what breaks them is a finding on its
// line, refused under --yes and highlighted at the prompt, where accepting it pins that text.

import { SELL_WORDS, UNIT_WORDS } from './vocabulary.js';

const ROLE_FIGURE = /\{(amount|minimum|expected|slippage)\.[a-z]+\}/g;
const NEXT_FIGURE = /\{(?:amount|minimum|expected|slippage)\.[a-z]+\}/;
/** The end of a sentence: a line break, or a full stop or semicolon before a space. */
const SENTENCE_END = /\n|[.;](?:\s|$)/;
/** The trade's figures, and the times and lifetime that bound the authorization. */
const ANY_FIGURE = /\{(?:(?:amount|minimum|expected|slippage)\.[a-z]+|time|lifetime)\}/g;
const MIN_CUE = /\b(?:minimum|min|at least|no less than|floor)\b|>=|≥/;
/** A minimum word with nothing after it but labels, up to its figure. */
const MIN_BOUND =
  /(?:\b(?:minimum|min|at least|no less than|floor)\b|>=|≥)(?:[\s:="'.]|\(\s*(?:sol|lamports)\s*\)|\b(?:proceeds|output|out|received|receive|amount|sol|lamports|of|in|to|the|a|an)\b)*$/;
const RECEIVE_CUE = /\b(?:receive|receives|received|receiving|proceeds|output|out|expected|expect|estimated|estimate|quote|quoted|get|gets)\b/;
const EXPECT_CUE = /\b(?:expected|expect|estimated|estimate|quote|quoted)\b/;
const SELL_CUE = new RegExp(`\\b(?:${SELL_WORDS})\\b`);
/** A figure then its unit and "minimum" or "min": the minimum named after its figure. */
const MINIMUM_AFTER = /^[ \t]*(?:sol|lamports?)?[ \t]*(?:minimum|min)\b/;
/** The second form of a figure in brackets right after the first: "10 WOOF (1000000 raw units)". */
export const BRACKETED = /^[ \t]*[^\s()]*[ \t]*\([ \t]*$/;
const PERCENT_OF = /\d[ \t]*(?:%|percent)[ \t]+of\b/i;
/** Signs that change or loosen a figure they stand beside. */
const SIGN = /(?:<=|=<|>=|=>|[<>≤≥+\-−–~?*×÷^|&!])/;
/** What may stand between a figure and a sign after it: its unit or symbol, %, a closing bracket or quote. */
const AFTER_FIGURE = /^[ \t]*(?:\{symbol\}|[\p{L}◎$]+)?[ \t]*%?[ \t]*[)"'\]]*[ \t]*/u;
const EXPIRY_CUE = /\b(?:expires|expire|expiry|expiration|exp|until)\b/g;
/**
 * What may stand between an expiry word and what it states: labels, then the authorization's
 * time or lifetime, or a figure (a duration that is not the lifetime is accounting's finding).
 */
const EXPIRY_FILLER = /^(?:[\s:="']|\b(?:at|in|on|after|utc|date|time)\b)*(?:\{(?:time|lifetime)\}|\d)/;
/** Where the proceeds or a wallet would be named. */
const DESTINATION = /\b(?:proceeds|receive|receives|received|receiving|output|out|to|wallet|owner|payout|recipient|destination|pay|paid|send|account)\b/;
const OPAQUE_VALUE = /\{(hash|id|uuid|nonce|mint|treasury)\}/g;
/** Words that say who gets or holds something; what follows them must be your wallet, a figure or a unit. */
const HOLDER = /\b(?:proceeds|payout|recipient|destination|wallet|owner|seller|beneficiary|account|receive|receives|received|receiving)\b/g;
const HOLDER_FILLER = /^(?:[\s:="'(]|\b(?:to|the|a|an|in|is|are|go|goes|sent|paid|by|your|my|of)\b)*/;
const HOLDER_OK = /^(?:\{owner\}|\{(?:amount|minimum|expected)\.[a-z]+\}|\b(?:sol|lamports?|minimum|min|at least|floor)\b|>=|≥|[)\]}",;.]|$)/;
/** The words that may stand before a minimum word in its clause ("for at least", "with a minimum of"). */
const MIN_QUALIFIER = /^(?:[\s:="'(•*]|\b(?:for|with|at|of|a|an|the|and|to|will|sell|sells|selling|sale|receive|receives|you|proceeds|output|out|amount|sol|lamports?|raw|units?|tokens?|bps)\b)*$/;
const UNIT_BEFORE = /(?:\(\s*|\bin\s+|[:=]\s*)?(\{symbol\}|\bsol\b|\blamports?\b|\braw units?\b|\bunits?\b|\btokens?\b|\bbps\b|\bpercent\b)\s*\)?\s*[:=]?\s*["']?\s*$/;
const VALIDITY = /\b(?:expires|expire|expiry|expiration|exp|valid|validity|within|until|lifetime)\b/;
const TIME_CHAIN = /\{(?:time|lifetime)\}[\s\p{L}]*?\b(?:from|after|past|beyond|later|plus)\b[\s\p{L}:]*\{(?:time|lifetime)\}/u;
/** Comments and strike-through ("# …", "// …", "~~…~~"); a YAML document start ("---") is not one. */
const MARKUP = /(?:^|\s)(?:#|\/\/|--(?!-)|\/\*|<!--)|~~|\*\/|-->/m;

type Fact = 'amount' | 'minimum' | 'expected' | 'slippage';

/** A rule of shape broken on a line of the message (0-based): a finding there. */
export interface Concern {
  reason: string;
  line: number;
}

/** The problems and concerns of the figures' roles in a masked wording (accounting.ts) of `message`. */
export function figureRoleChecks(wording: string, message: string): { problems: string[]; concerns: Concern[] } {
  const problems = new Set<string>();
  const concerns: Concern[] = [];
  const concern = (reason: string, at: number, text = wording) => {
    const line = lineOf(text, at);
    if (!concerns.some((c) => c.reason === reason && c.line === line)) concerns.push({ reason, line });
  };
  if (PERCENT_OF.test(message)) problems.add('the message takes a percentage of a figure, which changes what the figure says');
  const markup = MARKUP.exec(wording);
  if (markup) concern('comment or strike-through markup, which can hide a part of the message', markup.index + (markup[0].match(/^\s*/)?.[0].length ?? 0));
  let from = 0;
  let previous: Fact | null = null;
  for (const m of wording.matchAll(ROLE_FIGURE)) {
    const fact = m[1] as Fact;
    const end = m.index! + m[0].length;
    const raw = wording.slice(from, m.index);
    // "0.5 SOL minimum for 10 WOOF": the minimum's own after-word is not the next figure's.
    const plain = plainWords(raw);
    const words = previous === 'minimum' ? plain.replace(MINIMUM_AFTER, ' ') : plain;
    const repeat = previous === fact && BRACKETED.test(raw);
    const after = plainWords(upTo(wording, end, NEXT_FIGURE));
    if (!repeat) {
      // The words since the last word of selling say what the figure is; before it, what is sold.
      const sold = SELL_CUE.test(words);
      const tail = sold ? words.slice(lastIndexOf(words, SELL_CUE)) : words;
      if (fact === 'minimum' && !MIN_BOUND.test(tail) && !MINIMUM_AFTER.test(after)) {
        if (sold && !MIN_CUE.test(tail)) problems.add('the minimum is stated as what is sold');
        else concern('the minimum is not introduced as a minimum (the words before it name something else)', m.index!);
      }
      if (fact === 'amount' && MIN_CUE.test(tail)) problems.add('the amount sold is stated as a minimum');
      if (fact === 'amount' && RECEIVE_CUE.test(tail)) problems.add('the amount sold is stated as something received');
      if (fact === 'expected' && MIN_CUE.test(tail)) problems.add('the expected output is stated as a minimum');
      if (fact === 'expected' && sold && !RECEIVE_CUE.test(tail)) problems.add('the expected output is stated as what is sold');
      // Right after the minimum, on its line, the slippage may explain it ("(1% slippage)", "at 100 bps"), not apply to it.
      if (fact === 'slippage' && previous === 'minimum' && !raw.includes('\n') && /\bwith\b/.test(plain)) {
        concern('the slippage applied to the minimum (the minimum is the floor already)', m.index!);
      }
    }
    // Words after the last figure of a sentence name it too ("0.5 SOL expected").
    const sentence = upTo(wording, end, SENTENCE_END);
    const restOfLine = plainWords(sentence);
    if (!/\{(?:amount|minimum|expected|slippage)\./.test(sentence)) {
      if (fact === 'minimum' && (EXPECT_CUE.test(restOfLine) || SELL_CUE.test(restOfLine))) concern('the minimum called something else after its figure', m.index!);
      if (fact === 'amount' && (MIN_CUE.test(restOfLine) || RECEIVE_CUE.test(restOfLine))) concern('the amount sold called something else after its figure', m.index!);
      if (fact === 'expected' && (MIN_CUE.test(restOfLine) || SELL_CUE.test(restOfLine))) concern('the expected output called something else after its figure', m.index!);
    }
    // A minimum spoken of before a figure that is not the minimum (nor after the minimum's own figure).
    if (fact !== 'minimum' && MIN_CUE.test(words)) concern('a minimum spoken of away from the minimum’s figure', m.index!);
    previous = fact;
    from = end;
  }
  const rest = plainWords(wording.slice(from));
  if (MIN_CUE.test(rest) && !(previous === 'minimum' && MINIMUM_AFTER.test(rest))) {
    concern('a minimum spoken of away from the minimum’s figure', from + rest.search(MIN_CUE));
  }
  for (const problem of unitLabelProblems(wording)) problems.add(problem);
  const plain = plainWords(wording, false);
  for (const [reason, at] of [...signConcerns(wording)]) concern(reason, at);
  for (const [reason, at] of [...qualifierConcerns(plain), ...holderConcerns(plain), ...lifetimeConcerns(plain), ...expiryConcerns(plain)]) concern(reason, at, plain);
  for (const [reason, at] of labelConcerns(wording)) concern(reason, at);
  // The sandbox's header names it; anywhere else "trader" or "sandbox" would make the tool or the service a party to the sale.
  const firstLineEnd = wording.indexOf('\n') === -1 ? wording.length : wording.indexOf('\n');
  for (const m of wording.slice(firstLineEnd).matchAll(/\b(?:trader|sandbox)\b/gi)) concern('the service or the tool (trader, sandbox) named past the first line, as a party to the sale', firstLineEnd + m.index!);
  return { problems: [...problems], concerns };
}

/** The 0-based line of `index` in `text`. */
function lineOf(text: string, index: number): number {
  return text.slice(0, index).split('\n').length - 1;
}

/** A unit named right before a figure fits it: "Minimum (lamports): 0.05" is not the minimum in SOL. */
function unitLabelProblems(wording: string): string[] {
  const problems: string[] = [];
  for (const m of wording.matchAll(ROLE_FIGURE)) {
    const before = wording.slice(Math.max(0, m.index! - 40), m.index);
    // Lower-cased as written: a sign between a unit and the figure ("SOL - 1%") is no label.
    const unit = UNIT_BEFORE.exec(lowerAroundPlaceholders(before, true));
    if (!unit) continue;
    const word = unit[1]!.replace(/[{}]/g, '').split(' ').pop()!;
    // "sell BONK 123": a symbol after a verb names the token; after a label (":", "(", "in") it is the figure's unit.
    if (word === 'symbol' && !/[(:=]|\bin\s/.test(unit[0])) continue;
    // A unit fits the roles named in it ("Amount (WOOF): 1000000" states whole tokens, amount.tokens).
    const unitName = word === 'symbol' ? 'tokens' : UNIT_WORDS[word];
    if (!m[0].endsWith(`.${unitName}}`)) problems.push(`the unit named before ${describe(m[0])} (${word === 'symbol' ? 'the token symbol' : word}) does not fit it`);
  }
  return problems;
}

/** Only plain words may stand before the minimum word in its clause: "Estimated minimum" is no floor. */
function qualifierConcerns(plain: string): Array<[string, number]> {
  const problems: Array<[string, number]> = [];
  for (const m of plain.matchAll(/\b(?:minimum|min|at least|no less than|floor)\b/g)) {
    const before = plain.slice(0, m.index);
    if (insidePlaceholder(before)) continue; // the "minimum" of {minimum.sol}
    const clause = before.slice(clauseStart(before));
    if (!MIN_QUALIFIER.test(clause)) problems.push([`the minimum qualified ("${clause.trim()} ${m[0]}"), so it may not be a floor for you`, m.index!]);
  }
  return problems;
}

/** What follows a word that says who gets or holds something must be your wallet, a figure or a unit. */
function holderConcerns(plain: string): Array<[string, number]> {
  for (const m of plain.matchAll(HOLDER)) {
    if (insidePlaceholder(plain.slice(0, m.index))) continue;
    const after = plain.slice(m.index! + m[0].length).replace(HOLDER_FILLER, '');
    // What the clause says after it must all be your wallet, figures, units or minimum words: "<wallet> and trader sandbox" is not.
    // "Receive at least 0.5 SOL, …": an amount received, not a receiver.
    if (/^(?:\{(?:amount|minimum|expected)\.|at least|no less than|minimum|min\b|>=|≥)/.test(after)) continue;
    // Your wallet named, then "and …": a second holder.
    const shared = after.startsWith('{owner}') && /^\s*(?:and|&|plus|,)/.test(after.slice('{owner}'.length));
    const clause = after.slice(0, Math.max(0, after.search(/\n|[.;](?:\s|$)|$/)));
    const leftover = clause.replace(/\{(?:amount|minimum|expected|slippage)\.[a-z]+\}|\{symbol\}|\b(?:sol|lamports?|raw|units?|minimum|min|at least|floor|of|the|a|an|in)\b|>=|≥|[\s:="'()\],%]/g, '');
    if (!HOLDER_OK.test(after) || shared || (!after.startsWith('{owner}') && leftover !== '')) {
      return [[`the ${m[0]} given to something other than your wallet ("${m[0]}${plain.slice(m.index! + m[0].length, m.index! + m[0].length + 30).split('\n')[0]}")`, m.index!]];
    }
  }
  return [];
}

/** Where the clause that ends `text` starts: after its last line break, full stop, semicolon, comma, closing bracket or placeholder. */
function clauseStart(text: string): number {
  let start = 0;
  for (const m of text.matchAll(/[\n.;,)}]/g)) start = m.index! + 1;
  return start;
}

/** The lifetime is a validity ("valid for 2 minutes"), and no time is counted from another. */
function lifetimeConcerns(plain: string): Array<[string, number]> {
  const problems: Array<[string, number]> = [];
  const chain = TIME_CHAIN.exec(plain);
  if (chain) problems.push(['a time counted from another time, which can stretch how long the signature is valid', chain.index]);
  for (const m of plain.matchAll(/\{lifetime\}/g)) {
    const before = plain.slice(0, m.index);
    const clause = before.slice(Math.max(before.lastIndexOf('\n'), before.lastIndexOf('}')) + 1);
    if (!VALIDITY.test(clause)) problems.push(['the lifetime not stated as how long the authorization is valid', m.index!]);
  }
  return problems;
}

/** A sign right before or after a figure or time ("> 10 WOOF", "0.5 SOL - 1%"); ">=" may introduce the minimum. */
function signConcerns(wording: string): Array<[string, number]> {
  const problems: Array<[string, number]> = [];
  for (const m of wording.matchAll(ANY_FIGURE)) {
    const before = wording.slice(0, m.index).replace(/[ \t]*["'([]*[ \t]*$/, '');
    const sign = new RegExp(`(?:${SIGN.source})$`).exec(before)?.[0];
    if (sign && !(m[0].startsWith('{minimum.') && (sign === '>=' || sign === '≥'))) {
      problems.push([`a sign (${sign}) before ${describe(m[0])}, which may change or loosen it`, m.index!]);
    }
    const after = wording.slice(m.index! + m[0].length).replace(AFTER_FIGURE, '');
    const next = new RegExp(`^(?:${SIGN.source})`).exec(after)?.[0];
    if (next) problems.push([`a sign (${next}) after ${describe(m[0])}, which may change or loosen it`, m.index!]);
  }
  return problems;
}

/** An expiry word must be followed by the authorization's time or lifetime ("Expires: —" binds nothing). */
function expiryConcerns(plain: string): Array<[string, number]> {
  for (const m of plain.matchAll(EXPIRY_CUE)) {
    if (!EXPIRY_FILLER.test(plain.slice(m.index! + m[0].length))) return [['an expiry that states no time of the authorization', m.index!]];
  }
  return [];
}

/** A hash, id, nonce, the mint or the treasury where the proceeds or a wallet would be named ("Proceeds: 0x…"). */
function labelConcerns(wording: string): Array<[string, number]> {
  const problems: Array<[string, number]> = [];
  for (const m of wording.matchAll(OPAQUE_VALUE)) {
    const lineStart = wording.lastIndexOf('\n', m.index) + 1;
    const label = wording.slice(lineStart, m.index);
    const sinceValue = label.slice(Math.max(label.lastIndexOf('}') + 1, 0));
    if (DESTINATION.test(plainWords(sinceValue))) problems.push([`${describe(m[0])} where the proceeds or a wallet would be named`, m.index!]);
  }
  return problems;
}

const PLACEHOLDER_NAMES: Record<string, string> = { '{time}': 'a time', '{lifetime}': 'the lifetime', '{hash}': 'a hash', '{id}': 'an id', '{uuid}': 'an id', '{nonce}': 'a nonce', '{mint}': 'the mint', '{treasury}': 'the treasury' };

function describe(placeholder: string): string {
  if (PLACEHOLDER_NAMES[placeholder]) return PLACEHOLDER_NAMES[placeholder]!;
  const fact = placeholder.slice(1, placeholder.indexOf('.'));
  return fact === 'expected' ? 'the expected output' : `the ${fact}`;
}

/** Where the last match of `pattern` in `text` ends (0 when none). */
function lastIndexOf(text: string, pattern: RegExp): number {
  let end = 0;
  for (const m of text.matchAll(new RegExp(pattern.source, 'g'))) end = m.index! + m[0].length;
  return end;
}

/** The text from `from` up to the first match of `stop`, or to the end. */
function upTo(wording: string, from: number, stop: RegExp): string {
  const end = wording.slice(from).search(stop);
  return end === -1 ? wording.slice(from) : wording.slice(from, from + end);
}

/**
 * Lower-case words of a text, camelCase and snake_case split ("minOutLamports" → "min out
 * lamports"); placeholders blanked, or kept with `blank` false.
 */
function plainWords(text: string, blank = true): string {
  return lowerAroundPlaceholders(text.replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2').replace(/[_-]+/g, ' '), !blank);
}

/** The text lower-cased around its placeholders, which are kept (they are lower-case already) or blanked. */
function lowerAroundPlaceholders(text: string, keep: boolean): string {
  return text.replace(/\{[a-z.]+\}|[^{]+|\{/g, (part) => (/^\{[a-z.]+\}$/.test(part) ? (keep ? part : ' ') : part.toLowerCase()));
}

/** Whether the text ends inside a placeholder ("…{minimum" before ".sol}"). */
function insidePlaceholder(textBefore: string): boolean {
  return textBefore.lastIndexOf('{') > textBefore.lastIndexOf('}');
}
