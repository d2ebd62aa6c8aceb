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
        .filter((run) => fits(run, part.opaque, part.length) && opaqueAlphabet(run) !== null && !accountIn(run, facts) && atBoundary(message, offset, offset + run.length));
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

/**
 * The texts a fact slot may hold now. A slot means one unit (raw units, whole tokens, lamports,
 * SOL, bps, %, a time's form); grouping and trailing zeros are how a figure is written, not what
 * it counts. A slot seen in several units (150 raw units are 150 tokens at 0 decimals) means
 * them all at once: only a text every unit writes, so the service never chooses one later.
 */
export function written(part: { fact: Fact; notations: readonly string[] }, facts: SellFacts): string[] {
  const unit = (n: string) => n.split(' ')[0]!;
  const texts = (u: string) => new Set(part.notations.filter((n) => unit(n) === u).map((n) => render(part.fact, n, facts) ?? ''));
  const units = [...new Set(part.notations.map(unit))].map(texts);
  return [...(units[0] ?? [])].filter((t) => t !== '' && units.every((u) => u.has(t)));
}

/** Why an approved template no longer fits: each slot approved where its units read alike that this trade writes apart. */
export function splitSlots(template: Template | null, facts: SellFacts): string[] {
  const split = (template?.parts ?? []).flatMap((p) => (typeof p !== 'string' && 'fact' in p && written(p, facts).length === 0 && new Set(p.notations.map((n) => n.split(' ')[0])).size > 1 ? [p] : []));
  return [...new Set(split.map((p) => `⟦${describe(p.fact, p.notations, null)}⟧ was approved where they read the same, and here they differ`))];
}
