// Whether a message is, byte for byte, what the tool writes from an approved template and this
// trade's facts: each literal exact, each fact in the notation seen, each opaque slot of its alphabet.
import { describe, render, type Fact, type SellFacts } from './facts.js';
import { atBoundary, opaqueAlphabet } from './extract.js';
import type { Template } from './template.js';
import { accountIn } from '../address-sized.js';
import { fits } from './text-rules.js';

/** The slots' values when `message` is a rendering of `template` with `facts`; null when it is not. */
export function match(template: Template, facts: SellFacts, message: string): string[] | null {
  const parts = template.parts;
  // Depth-first over the few renderings each slot has; a failed (part, offset) is not tried twice.
  const failed = new Set<string>();
  const from = (i: number, offset: number): string[] | null => {
    if (i === parts.length) return offset === message.length ? [] : null;
    const key = `${i}:${offset}`;
    if (failed.has(key)) return null;
    const part = parts[i]!;
    let candidates: string[];
    if (typeof part === 'string') candidates = [part];
    else if ('fact' in part) candidates = written(part, facts);
    else {
      candidates = [-2, -1, 0, 1, 2]
        .map((d) => message.slice(offset, offset + part.length + d))
        .filter(
          (run) =>
            fits(run, part.opaque, part.length) &&
            opaqueAlphabet(run) !== null &&
            !accountIn(run, facts) &&
            atBoundary(message, offset, offset + run.length),
        );
    }
    for (const text of candidates) {
      if (!message.startsWith(text, offset)) continue;
      const rest = from(i + 1, offset + text.length);
      if (rest) return typeof part === 'string' ? rest : [text, ...rest];
    }
    failed.add(key);
    return null;
  };
  return from(0, 0);
}

const unitsOf = (notations: readonly string[]) => [...new Set(notations.map((n) => n.split(' ')[0]!))];

/**
 * The texts a fact slot may hold now: one unit's (grouping and trailing zeros are how a figure is
 * written, not what it counts); a slot seen in several units (7 raw units are 7 tokens at 0
 * decimals) means them all at once, so only a text each writes: the service never chooses one.
 */
export function written(part: { fact: Fact; notations: readonly string[] }, facts: SellFacts): string[] {
  const [first = [], ...rest] = unitsOf(part.notations).map((u) =>
    part.notations.filter((n) => n.split(' ')[0] === u).map((n) => render(part.fact, n, facts)),
  );
  return [...new Set(first)].filter((t): t is string => !!t && rest.every((texts) => texts.includes(t)));
}

/** Why an approved template no longer fits: each slot approved where its units read alike that this trade writes apart. */
export const splitSlots = (template: Template | null, facts: SellFacts): string[] => [
  ...new Set(
    (template?.parts ?? []).flatMap((p) =>
      typeof p !== 'string' && 'fact' in p && unitsOf(p.notations).length > 1 && written(p, facts).length === 0
        ? [`⟦${describe(p.fact, p.notations, null)}⟧ was approved where they read the same, and here they differ`]
        : [],
    ),
  ),
];
