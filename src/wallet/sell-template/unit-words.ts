// The unit words of sell messages (SOL, lamports, raw units, tokens, bps, percent): the tool
// knows each figure slot's unit, so a unit word next to a figure that says another unit is a
// false statement of money, refused before any person is asked; and a token whose symbol or name
// reads as a unit word would turn that word into its slot (`0.5 ⟦SOL⟧`), so it is never a slot.
import { sameTokenText } from '../../domain/token-text.js';
import { describe, type SellFacts } from './facts.js';
import type { Part } from './template.js';

/** Each unit word a message may write after a figure, and the unit (facts.ts's) it names. */
const UNIT_OF: Record<string, string> = {
  sol: 'SOL',
  lamport: 'lamports',
  lamports: 'lamports',
  raw: 'raw',
  unit: 'raw',
  units: 'raw',
  token: 'tokens',
  tokens: 'tokens',
  bps: 'bps',
  percent: '%',
  '%': '%',
};

/** The unit words, as the reasons name them. */
export const UNIT_WORDS = Object.keys(UNIT_OF);

/** Why this token's symbol or name cannot be a slot (it reads as a unit word, look-alikes folded); null when neither does. */
export function unitWordToken(facts: Pick<SellFacts, 'symbol' | 'name'>): string | null {
  for (const fact of ['symbol', 'name'] as const) {
    const word = UNIT_WORDS.find((w) => sameTokenText(facts[fact], w));
    if (word)
      return `the token's ${fact} ${JSON.stringify(facts[fact])} reads as "${word}", a unit word of sell messages: a slot for it could not be told from the unit, so this token is not sold through a sell message`;
  }
  return null;
}

const FIGURES = ['amount', 'minimum', 'expected', 'slippage'];

/**
 * Each figure slot directly followed (after at most one space) by a unit its slot is not in: a
 * unit word of the literal text, or the symbol's slot (a count of whole tokens). `values`: the
 * slots' values in order, for the reason.
 */
export function unitContradictions(parts: readonly Part[], values: readonly string[], facts: SellFacts): string[] {
  const problems: string[] = [];
  let slot = -1;
  parts.forEach((p, i) => {
    if (typeof p === 'string') return;
    slot++;
    if (!('fact' in p) || !FIGURES.includes(p.fact)) return;
    const units = new Set(p.notations.map((n) => n.split(' ')[0]!));
    const next = parts[i + 1];
    const after = next === ' ' ? parts[i + 2] : next;
    let said: { unit: string; word: string } | null = null;
    if (after !== undefined && typeof after !== 'string' && 'fact' in after && after.fact === 'symbol')
      said = { unit: 'tokens', word: '⟦the symbol⟧' };
    else if (typeof next === 'string') {
      const word = /^ ?([A-Za-z]+|%)/.exec(next)?.[1];
      const unit = word === undefined ? undefined : UNIT_OF[word.toLowerCase()];
      if (unit) said = { unit, word: `"${word}"` };
    }
    if (said && !units.has(said.unit))
      problems.push(
        `"${values[slot]}" is the ${describe(p.fact, p.notations, facts)}, but ${said.word} after it says another unit: the message would misstate the figure`,
      );
  });
  return problems;
}
