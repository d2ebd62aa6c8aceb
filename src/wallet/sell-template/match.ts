// Whether a message is, byte for byte, what the tool writes from an approved template and this
// trade's facts: each literal exact, each fact in a notation seen, each opaque slot of its alphabet.
import { render, type SellFacts } from './facts.js';
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
    else if ('fact' in part) candidates = [...new Set(part.notations.map((n) => render(part.fact, n, facts)).filter((t): t is string => !!t))];
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
