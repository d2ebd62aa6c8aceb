// A message turned into a template: each of this trade's facts as written at a word boundary a
// slot, each opaque run a slot of its alphabet and length, the rest literal text of printable
// ASCII with no figure or address.
import { accountIn } from '../address-sized.js';
import { NAMED, render, renderings, type Fact, type SellFacts } from './facts.js';
import type { Alphabet, Part, Template } from './template.js';
import { ALPHABETS, at, literalCharacterProblem, MAX_OPAQUE_LENGTH, MAX_OPAQUE_SLOTS } from './text-rules.js';
import { codePoint } from '../../domain/printable.js';

export type Extraction = { template: Template; values: string[] } | { refused: string[] };

/** Whether `text` at [start, end) stands alone: no ASCII letter or digit, nor `.`/`,` joined to a digit, on either side. */
export function atBoundary(message: string, start: number, end: number): boolean {
  const alnum = (ch: string | undefined) => ch !== undefined && /[A-Za-z0-9]/.test(ch);
  const joined = (sep: string | undefined, digit: string | undefined) =>
    sep !== undefined && /[.,]/.test(sep) && digit !== undefined && /[0-9]/.test(digit);
  return (
    !alnum(message[start - 1]) &&
    !alnum(message[end]) &&
    !joined(message[start - 1], message[start - 2]) &&
    !joined(message[end], message[end + 1])
  );
}

/** An opaque run's alphabet (an ASCII run of 16 or more, a letter and a digit in it), or null. */
export function opaqueAlphabet(run: string): Alphabet | null {
  if (!/[A-Za-z]/.test(run) || !/[0-9]/.test(run) || run.length < 16) return null;
  return (['hex', 'HEX', 'base58', 'uuid'] as const).find((a) => ALPHABETS[a]!.test(run)) ?? null;
}

type Span = { start: number; end: number; part: Exclude<Part, string> };

/**
 * Why a bound symbol or name the message states cannot be its slot: a slot holds words, so a
 * control, format character (a zero-width joiner in an emoji sequence) or space other than one
 * ASCII space between words, which could hide or reorder text, keeps it out; said in one line,
 * not as its first non-ASCII character in literal text. Null when none.
 */
export function unslottedTokenText(message: string, facts: SellFacts): string | null {
  for (const fact of ['symbol', 'name'] as const) {
    const value = facts[fact];
    const i = value === null ? -1 : message.indexOf(value);
    if (i < 0 || render(fact, 'exact', facts) !== null) continue;
    const odd = [...value!].find((ch) => /[\p{C}\p{Z}]/u.test(ch) && ch !== ' ');
    const what = odd ? codePoint(odd) : 'a space that is not one space between words';
    return `${at(message, i)}: the token's bound ${fact} holds ${what}, which a slot never holds (it could hide or reorder text), so a message stating it is not signed`;
  }
  return null;
}

/** The template of `message` for these facts, or the reasons it is refused outright. */
export function extract(message: string, facts: SellFacts): Extraction {
  const unslotted = unslottedTokenText(message, facts);
  if (unslotted) return { refused: [unslotted] };
  const refused: string[] = [];
  const byText = new Map<string, Map<Fact, string[]>>();
  for (const r of renderings(facts)) {
    const facts = byText.get(r.text) ?? new Map<Fact, string[]>();
    facts.set(r.fact, [...(facts.get(r.fact) ?? []), r.notation]);
    byText.set(r.text, facts);
  }
  const named = (text: string) => [...byText.get(text)!.keys()].some((f) => NAMED.includes(f));
  const order = [...byText.keys()].sort((a, b) => Number(named(b)) - Number(named(a)) || b.length - a.length);
  const taken = new Uint8Array(message.length);
  const spans: Span[] = [];
  for (const text of order) {
    for (let i = message.indexOf(text); i >= 0; i = message.indexOf(text, i + 1)) {
      if (!atBoundary(message, i, i + text.length) || taken.subarray(i, i + text.length).some((t) => t)) continue;
      const slots = [...byText.get(text)!];
      const both = `"${text}" is both the ${slots.map(([f]) => f).join(' and the ')} of this trade, so the template cannot tell which the wording means`;
      if (slots.length > 1)
        refused.push(
          `${at(message, i)}: ${both}; a fresh quote (run the command again) with other values tells them apart`,
        );
      const [fact, notations] = slots[0]!;
      taken.fill(1, i, i + text.length);
      spans.push({ start: i, end: i + text.length, part: { fact, notations: [...notations].sort() } });
    }
  }
  // Literal text: opaque runs become slots; any other figure, address or non-ASCII is refused.
  const parts: Part[] = [];
  const values: string[] = [];
  let from = 0;
  const slot = ({ start, end, part }: Span) => {
    if (start > from) parts.push(message.slice(from, start));
    parts.push(part);
    values.push(message.slice(start, end));
    from = end;
  };
  const literal = (end: number) => {
    const [base, text] = [from, message.slice(from, end)];
    const problem = literalCharacterProblem(message, base, text);
    if (problem) refused.push(problem);
    for (const m of text.matchAll(/[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}|[A-Za-z0-9]+/g)) {
      const start = base + m.index!;
      const alphabet = opaqueAlphabet(m[0]);
      const account = accountIn(m[0], facts);
      if (account) refused.push(`${at(message, start)}: ${account}`);
      else if (alphabet && m[0].length > MAX_OPAQUE_LENGTH)
        refused.push(
          `${at(message, start)}: a run of ${m[0].length} characters, longer than any nonce, hash or signature (${MAX_OPAQUE_LENGTH})`,
        );
      else if (alphabet && atBoundary(message, start, start + m[0].length))
        slot({ start, end: start + m[0].length, part: { opaque: alphabet, length: m[0].length } });
      else if (/[0-9]/.test(m[0]))
        refused.push(`${at(message, start)}: "${m[0]}", a figure that is not one of this trade's facts`);
    }
    if (end > from) parts.push(message.slice(from, end));
    from = end;
  };
  for (const span of spans.sort((a, b) => a.start - b.start)) {
    literal(span.start);
    slot(span);
  }
  literal(message.length);
  const opaque = parts.filter((p) => typeof p !== 'string' && 'opaque' in p).length;
  if (opaque > MAX_OPAQUE_SLOTS)
    refused.push(`${opaque} random values (nonces, hashes), more than the ${MAX_OPAQUE_SLOTS} a message may carry`);
  if (refused.length > 0) return { refused };
  return { template: { parts }, values };
}
