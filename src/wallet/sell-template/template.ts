// A template (a sell message with slots for the trade's facts and opaque values, the rest literal
// text): its fingerprint, its text for people, and the labels of a message's slots.
import { createHash } from 'node:crypto';
import { ADDRESS_SIZE_NOTE, isAddressSized } from '../address-sized.js';
import { describe, type Fact, type SellFacts } from './facts.js';
import { ALPHABETS, SCREEN_COLUMNS } from './text-rules.js';

export type Alphabet = 'hex' | 'HEX' | 'base58' | 'uuid';

export type Part = string | { fact: Fact; notations: string[] } | { opaque: Alphabet; length: number };

export interface Template {
  parts: Part[];
}

/** A short, stable name for a template, typed to accept it: sha-256 of its parts, 16 hex digits. */
export function fingerprint(template: Template): string {
  return createHash('sha256').update(JSON.stringify(template.parts), 'utf8').digest('hex').slice(0, 16);
}

/** Whether a stored value is a template this version reads (the trust store is the user's file): its literal text printable ASCII, as extract.ts writes it. */
export function isTemplate(value: unknown): value is Template {
  const part = (p: { fact?: unknown; notations?: unknown; opaque?: unknown; length?: unknown } | string | null) =>
    typeof p === 'string'
      ? /^[\x20-\x7e\n]*$/.test(p)
      : (typeof p?.fact === 'string' && Array.isArray(p.notations)) ||
        (typeof p?.opaque === 'string' && p.opaque in ALPHABETS && Number.isInteger(p.length));
  const parts = (value as { parts?: unknown } | null)?.parts;
  return Array.isArray(parts) && parts.every(part);
}

/** The template as text for people: each slot "⟦what⟧" (⟦…⟧ cannot be literal text, which is ASCII). */
export function templateText(template: Template, facts: SellFacts | null = null): string {
  return template.parts
    .map((p) =>
      typeof p === 'string'
        ? p
        : 'fact' in p
          ? `⟦${describe(p.fact, p.notations, facts)}⟧`
          : `⟦${p.length} ${p.opaque}⟧`,
    )
    .join('');
}

/** The labels of a message's slots, packed into lines of one screen's width: "[3] 1.5 = amount in whole tokens (6 decimals)". */
export function legend(template: Template, values: string[], facts: SellFacts): string[] {
  const entries = template.parts
    .filter((p): p is Exclude<Part, string> => typeof p !== 'string')
    .map((p, i) => {
      const value = values[i]!;
      const shown = value.length > 24 ? `${value.slice(0, 10)}…${value.slice(-10)}` : value;
      return `[${i + 1}] ${shown} = ${'fact' in p ? describe(p.fact, p.notations, facts) : isAddressSized(p) ? ADDRESS_SIZE_NOTE : `a ${p.length}-character ${p.opaque} value`}`;
    });
  const lines: string[] = [];
  for (const entry of entries) {
    const last = lines.length - 1;
    if (last >= 0 && [...lines[last]!].length + 3 + [...entry].length <= SCREEN_COLUMNS) lines[last] += `   ${entry}`;
    else lines.push(entry);
  }
  return lines;
}
