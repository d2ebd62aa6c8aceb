// A sell's wording laid out for people: the message (or a template's text) behind a gutter,
// each row within the terminal, and its slots marked ⟦…⟧ in place — one renderer for the first
// sell's prompt and for `config trust`. The guard decides (wallet/sell-template/); this draws.
import { isAddressSized } from '../wallet/address-sized.js';
import { describe, type SellFacts } from '../wallet/sell-template/facts.js';
import type { Part, Template } from '../wallet/sell-template/template.js';
import { markedValue } from '../io/terminal-text.js';
import { wrapWords } from '../io/word-wrap.js';

type Slot = Exclude<Part, string>;

/** Columns a message's text takes, never fewer than on screen: ASCII one each, anything else two. */
const columnsOf = (chars: string[]) => chars.reduce((n, ch) => n + (ch.charCodeAt(0) < 0x80 ? 1 : 2), 0);

/**
 * A message as printed for a terminal `columns` wide: each row behind a gutter (`│` a line
 * starts, `┆` it goes on), broken before its last space that fits or inside a longer run, so the
 * terminal never wraps a row itself (a row it wrapped would lose the gutter).
 */
export function quotedRows(message: string, columns: number): string[] {
  const room = Math.max(2, columns - 4);
  return message.split('\n').flatMap((line) => {
    const chars = [...line];
    const rows: string[] = [];
    for (let start = 0; ;) {
      let end = start;
      while (end < chars.length && columnsOf(chars.slice(start, end + 1)) <= room) end++;
      // Before the last space that fits (it opens the next row) when the next word fits a row; else the row is filled.
      const space = chars.lastIndexOf(' ', end - 1);
      const wordEnd = chars.indexOf(' ', space + 1) < 0 ? chars.length : chars.indexOf(' ', space + 1);
      const cut =
        end === chars.length
          ? end
          : space > start && columnsOf(chars.slice(space, wordEnd)) <= room
            ? space
            : Math.max(end, start + 1);
      rows.push(`  ${rows.length === 0 ? '│' : '┆'} ${chars.slice(start, cut).join('')}`);
      if ((start = cut) >= chars.length) return rows;
    }
  });
}

/** Text with ⟦…⟧ slots behind the gutter: a slot is one value, its spaces break no row. */
export function wordingRows(text: string, columns: number): string[] {
  const glued = text.replace(/⟦[^⟧]*⟧/g, (slot) => slot.replace(/ /g, '\u00a0'));
  return quotedRows(glued, columns).map((row) => row.replace(/\u00a0/g, ' '));
}

/** The template as text for people: each slot "⟦what⟧" (⟦…⟧ cannot be literal text, which is ASCII). */
export function templateText(template: Template, facts: SellFacts | null = null): string {
  const slot = (p: Slot) => ('fact' in p ? describe(p.fact, p.notations, facts) : `${p.length} ${p.opaque}`);
  return template.parts.map((p) => (typeof p === 'string' ? p : `⟦${slot(p)}⟧`)).join('');
}

/** The message a template and its slots' values make, each value marked ⟦…⟧ where it stands (a ⟦, ⟧ or combining mark in it named <U+…>). */
export function markedMessage(template: Template, values: readonly string[]): string {
  let slot = 0;
  return template.parts.map((p) => (typeof p === 'string' ? p : `⟦${markedValue(values[slot++]!)}⟧`)).join('');
}

/**
 * The one line (two when it would pass 80 columns) a wording needs beside it: its random values
 * of 32 bytes, each named as `config trust` shows it, can be an account address the tool cannot
 * check (wallet/address-sized.ts); none when it has none.
 */
export function addressSizeWarning(parts: readonly Part[]): string[] {
  const sized = parts.filter((p): p is Slot => typeof p !== 'string' && isAddressSized(p));
  const named = [...new Set(sized.map((p) => `⟦${'opaque' in p ? `${p.length} ${p.opaque}` : ''}⟧`))];
  if (named.length === 0) return [];
  const said = `${sized.length === 1 ? named[0] : `Each ${named.join(', ')}`} is 32 bytes:`;
  const warning = 'it can be an account address, which the tool cannot check';
  return `${said} ${warning}`.length <= 80 ? [`${said} ${warning}`] : [said, warning];
}

const UNIT_WORDS: Record<string, string> = {
  raw: 'raw units',
  tokens: 'whole tokens',
  lamports: 'lamports',
  SOL: 'SOL',
  bps: 'bps',
  '%': 'percent',
};

/**
 * What each figure of a first approval counts, beside the message, so a value does not pass for
 * another fact or unit (`Amount: ⟦1000000⟧ ⟦WOOF⟧`): `Marked figures: ⟦10⟧ is the amount in whole
 * tokens, ⟦1000000⟧ in raw units · ⟦0.0495⟧ is the minimum in SOL, …`, wrapped to `columns`; none when the message has no figure.
 */
export function figureLegend(template: Template, values: readonly string[], columns: number): string[] {
  const byFact = new Map<string, Map<string, string>>();
  let slot = -1;
  for (const p of template.parts) {
    if (typeof p === 'string') continue;
    slot++;
    if (!('fact' in p) || !['amount', 'minimum', 'expected', 'slippage'].includes(p.fact)) continue;
    const units = [...new Set(p.notations.map((n) => UNIT_WORDS[n.split(' ')[0]!] ?? n))].join(' and ');
    // Each value and its units once; the first of a fact names it.
    const value = `⟦${markedValue(values[slot]!)}⟧`;
    const seen = byFact.get(p.fact) ?? new Map<string, string>();
    if (!seen.has(`${value} ${units}`))
      seen.set(`${value} ${units}`, `${value} ${seen.size === 0 ? `is the ${p.fact} ` : ''}in ${units}`);
    byFact.set(p.fact, seen);
  }
  if (byFact.size === 0) return [];
  const text = `Marked figures: ${[...byFact.values()].map((said) => [...said.values()].join(', ')).join(' · ')}`;
  return wrapWords(text, columns).split('\n');
}
