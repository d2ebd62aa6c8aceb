// A template (a sell message with slots for the trade's facts and opaque values, the rest literal
// text) and its fingerprint; views/wording.ts writes it for people.
import { createHash } from 'node:crypto';
import type { Fact } from './facts.js';
import { ALPHABETS } from './text-rules.js';

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
