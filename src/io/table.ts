// Tables for human output, drawn by cli-table3 (borderless, two spaces between columns) and
// fitted to the terminal's width (80 columns when it is not a terminal) by the choices made here
// first. No cell is ever cut: to fit, a table first uses the short form of columns that have one,
// then wraps text marked wrappable at spaces (the one rule, io/word-wrap.ts: a value is never
// broken inside, so a column is never narrower than its widest value), then drops its lower-value
// columns; when even that is too wide, each row is printed as a block of lines. `--wide` shows
// every cell whole on one line whatever the width. Widths are display widths (displayWidth: a CJK
// character or an emoji takes 2 columns), the measure cli-table3 pads with.
import { createRequire } from 'node:module';
import type CliTable3 from 'cli-table3';
import { displayWidth, stripAnsi } from './display-width.js';
import type { Layout } from './theme.js';
import { packWords, piecesOf } from './word-wrap.js';

export interface Column {
  header: string;
  /** Right-align numbers. */
  align?: 'left' | 'right';
  /** Display width beyond which this column's cells wrap at spaces (never narrower than its widest value). */
  maxWidth?: number;
  /** Text that may wrap at spaces into a narrower column (down to this many columns, or its widest value) to fit the table's width. */
  shrinkTo?: number;
  /** A shorter form of a cell (a time without its year), used before anything is shortened or dropped. */
  compact?: (cell: string) => string;
  /** The column may be dropped to fit: lower numbers go first. Columns without it always stay. */
  drop?: number;
}

/** How much room a table has. */
export interface TableLayout {
  /** Columns available (the terminal's width). */
  width: number;
  /** Show every cell whole on one line, ignoring the width (--wide). */
  wide?: boolean;
  /** On a terminal: a value wider than the whole width, in the last-resort blocks, is shortened in its middle (renderFields). */
  shorten?: boolean;
}

const GAP = 2;
/** Width of a table when nothing else is known: not a terminal. */
export const TABLE_WIDTH = 80;

/** Renders rows under the given columns as a borderless table that fits `layout`. */
export function renderTable(columns: Column[], rows: string[][], layout: TableLayout | number = TABLE_WIDTH): string {
  const { width, wide, shorten } = typeof layout === 'number' ? { width: layout, wide: false, shorten: false } : layout;
  if (wide) return render(columns, rows, naturalWidths(columns, rows, false));

  const droppable = columns
    .map((c, i) => ({ c, i }))
    .filter(({ c }) => c.drop !== undefined)
    .sort((a, b) => a.c.drop! - b.c.drop! || b.i - a.i);
  // Everything in full; else the short forms; then the lower-value columns dropped one by one.
  const attempts = [
    { compact: false, dropped: 0 },
    ...droppable.map((_, n) => ({ compact: true, dropped: n })),
    { compact: true, dropped: droppable.length },
  ];
  for (const { compact, dropped } of attempts) {
    const gone = new Set(droppable.slice(0, dropped).map(({ i }) => i));
    const keep = columns.map((_, i) => i).filter((i) => !gone.has(i));
    const cols = keep.map((i) => columns[i]!);
    const cells = rows.map((r) =>
      keep.map((i) => (compact && columns[i]!.compact ? columns[i]!.compact!(r[i] ?? '') : (r[i] ?? ''))),
    );
    const widths = fitWidths(cols, cells, width);
    if (widths) return render(cols, cells, widths);
  }
  return renderRecords(columns, rows, { width, shorten: shorten ?? false });
}

/** Each column's widest cell (bounded by maxWidth, but never below its widest value, unless `bounded` is false). */
function naturalWidths(columns: Column[], rows: string[][], bounded = true): number[] {
  return columns.map((c, i) => {
    let natural = displayWidth(c.header);
    for (const r of rows) natural = Math.max(natural, displayWidth(r[i] ?? '')); // no spread: lists can be long
    if (!bounded || !c.maxWidth) return natural;
    return Math.min(natural, Math.max(c.maxWidth, displayWidth(c.header), widestPiece(rows, i)));
  });
}

/** The widest piece no line may break (io/word-wrap.ts piecesOf) among column `i`'s cells. */
function widestPiece(rows: string[][], i: number): number {
  let widest = 0;
  for (const r of rows)
    for (const line of (r[i] ?? '').split('\n'))
      for (const piece of piecesOf(stripAnsi(line))) widest = Math.max(widest, displayWidth(piece));
  return widest;
}

/** Widths that fit `width`, wrapping wrappable text as little as needed; null when they cannot. */
function fitWidths(columns: Column[], rows: string[][], width: number): number[] | null {
  const widths = naturalWidths(columns, rows);
  const pieces = columns.map((c, i) => (c.shrinkTo === undefined ? 0 : widestPiece(rows, i)));
  const floor = (i: number) =>
    Math.max(columns[i]!.shrinkTo ?? Infinity, pieces[i]!, displayWidth(columns[i]!.header), 2);
  let total = widths.reduce((a, b) => a + b, 0) + GAP * Math.max(0, columns.length - 1);
  const saving = widths.reduce(
    (sum, w, i) => sum + (columns[i]!.shrinkTo === undefined ? 0 : Math.max(0, w - floor(i))),
    0,
  );
  if (total - saving > width) return null;
  while (total > width) {
    let widest = -1;
    widths.forEach((w, i) => {
      if (columns[i]!.shrinkTo !== undefined && w > floor(i) && (widest < 0 || w > widths[widest]!)) widest = i;
    });
    if (widest < 0) break;
    widths[widest]! -= 1;
    total -= 1;
  }
  return widths;
}

function render(columns: Column[], rows: string[][], widths: number[]): string {
  const wrapped = rows.map((row) => row.map((cell, i) => wrapCell(cell, widths[i]!)));
  // A column whose cells wrapped takes only the width its longest line needs (unbounded: a
  // maxWidth bounds where cells wrap, never cuts a line already laid out, as --wide's are).
  const used = widths.map((w, i) =>
    Math.min(
      w,
      naturalWidths(
        [columns[i]!],
        wrapped.map((r) => [r[i] ?? '']),
        false,
      )[0]!,
    ),
  );
  return drawTable(
    columns.map((c) => c.header),
    wrapped,
    used,
    columns.map((c) => c.align ?? 'left'),
  );
}

const NO_BORDER = {
  top: '',
  'top-mid': '',
  'top-left': '',
  'top-right': '',
  bottom: '',
  'bottom-mid': '',
  'bottom-left': '',
  'bottom-right': '',
  left: '',
  'left-mid': '',
  mid: '',
  'mid-mid': '',
  right: '',
  'right-mid': '',
  middle: ' '.repeat(GAP),
};

let TableClass: typeof CliTable3 | undefined;

/** cli-table3 draws the cells (already wrapped to fit) at the given widths; lines lose their trailing padding. */
function drawTable(head: string[], rows: string[][], widths: number[], aligns: Array<'left' | 'right'>): string {
  // Required on first use so that --json output never loads it.
  TableClass ??= createRequire(import.meta.url)('cli-table3') as typeof CliTable3;
  const table = new TableClass({
    head,
    chars: NO_BORDER,
    style: { 'padding-left': 0, 'padding-right': 0, head: [], border: [], compact: true },
    colWidths: widths,
    colAligns: aligns,
    wordWrap: false,
  });
  table.push(...rows);
  return table
    .toString()
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n');
}

/** The last resort on a narrow terminal: one block of `Header  value` lines per row. */
function renderRecords(columns: Column[], rows: string[][], layout: Layout): string {
  return rows
    .map((row) =>
      renderFields(
        columns
          .map((c, i): [string, string] => [c.header, row[i] ?? ''])
          .filter(([label, value]) => label !== '' || value !== ''),
        layout,
      ),
    )
    .join('\n\n');
}

/**
 * Key–value lines for a single object, labels aligned, laid out to `layout.width` by the one
 * wrapping rule (io/word-wrap.ts): a value that does not fit after its label goes on at its
 * column, broken only between values, and a value wider than the room left moves to a line of its
 * own. A value wider than the whole width (an 88-character signature at 80 columns) is shortened in
 * its middle on a terminal (`3VXMnjGY…dUhw8v72`; --json has it whole) and kept whole when piped.
 */
export function renderFields(
  fields: Array<[label: string, value: string]>,
  layout: Layout = { width: TABLE_WIDTH, shorten: false },
): string {
  if (fields.length === 0) return '';
  const labelWidth = Math.max(...fields.map(([label]) => displayWidth(label)));
  const indent = ' '.repeat(labelWidth + GAP);
  const room = Math.max(1, layout.width - indent.length);
  const lines: string[] = [];
  for (const [label, value] of fields) {
    const head = `${label}${' '.repeat(labelWidth - displayWidth(label))}`;
    if (value === '') {
      lines.push(label.trimEnd());
      continue;
    }
    const valueLines = value.split('\n').flatMap((line) => fitValue(line, room, layout));
    valueLines.forEach((line, i) =>
      lines.push(
        line.column0 ? line.text : `${i === 0 ? head : ' '.repeat(labelWidth)}${' '.repeat(GAP)}${line.text}`.trimEnd(),
      ),
    );
  }
  return lines.join('\n');
}

/** One line of a value as renderFields lays it out: at the value's column, or (too wide for it) alone from column 0. */
interface ValueLine {
  text: string;
  column0: boolean;
}

/** A value's lines within `room` columns: pieces packed greedily; a piece wider than `room` alone on a line (from column 0 when that lets it fit). */
function fitValue(value: string, room: number, layout: Layout): ValueLine[] {
  if (displayWidth(value) <= room) return [{ text: value, column0: false }];
  const out: ValueLine[] = [];
  let line = '';
  const flush = () => {
    if (line !== '') out.push({ text: line, column0: false });
    line = '';
  };
  for (const piece of piecesOf(value)) {
    const candidate = line === '' ? piece : `${line} ${piece}`;
    if (displayWidth(candidate) <= room) {
      line = candidate;
      continue;
    }
    flush();
    const width = displayWidth(piece);
    if (width <= room) line = piece;
    else if (width <= layout.width) {
      // Too wide for the value's column, not for the line: it moves to a line of its own (the label's stays, empty if need be).
      if (out.length === 0) out.push({ text: '', column0: false });
      out.push({ text: piece, column0: true });
    } else if (layout.shorten) out.push({ text: shortenMiddle(piece, room), column0: false });
    // Piped, a value wider than any line stays whole: after its label, or alone on its line.
    else out.push({ text: piece, column0: out.length > 0 });
  }
  flush();
  return out;
}

/** `3VXMnjGY…dUhw8v72`: the start and the end of a value too wide to show whole, within `max` columns. */
export function shortenMiddle(text: string, max: number): string {
  if (displayWidth(text) <= max) return text;
  const plain = stripAnsi(text);
  const keep = Math.max(2, max - 1);
  const head = Math.ceil(keep / 2);
  return `${plain.slice(0, head)}…${plain.slice(plain.length - (keep - head))}`;
}

/**
 * The shortest prefix of each id (at least `min` characters) that no other id in the list
 * shares, with `…` when it is shorter than the id: what a table shows is what can be typed.
 */
export function uniquePrefixes(ids: string[], min = 8): Map<string, string> {
  const sorted = [...new Set(ids)].sort();
  const shown = new Map<string, string>();
  const common = (a: string | undefined, b: string) => {
    if (a === undefined) return 0;
    let n = 0;
    while (n < a.length && n < b.length && a[n] === b[n]) n++;
    return n;
  };
  sorted.forEach((id, i) => {
    const length = Math.max(min, common(sorted[i - 1], id) + 1, common(sorted[i + 1], id) + 1);
    shown.set(id, length >= id.length ? id : `${id.slice(0, length)}…`);
  });
  return shown;
}

/**
 * The start of an id or mint for a table cell, `GFmFPoog…`: what is shown can be typed back as a
 * prefix (never a middle ellipsis, which cannot). `keep` is kept for callers of the old form;
 * at least 8 characters are shown.
 */
export function shortId(id: string, keep = 4): string {
  const length = Math.max(8, keep * 2);
  return id.length <= length + 1 ? id : `${id.slice(0, length)}…`;
}

/** A cell's lines within `max` columns, broken at spaces only (the column is never narrower than its widest value). */
export function wrapCell(text: string, max: number): string {
  if (displayWidth(text) <= max) return text;
  // A cell in one colour keeps it on every line: the codes do not survive being split across lines.
  const coloured = /^(\x1b\[[0-9;]*m)([^\x1b]*)(\x1b\[[0-9;]*m)$/.exec(text);
  const [open, plain, close] = coloured ? [coloured[1]!, coloured[2]!, coloured[3]!] : ['', stripAnsi(text), ''];
  return plain
    .split('\n')
    .flatMap((line) => packWords(piecesOf(line), { room: () => max, first: '', next: '' }))
    .map((line) => `${open}${line}${close}`)
    .join('\n');
}

/** Width of text on screen (colour codes take none, wide characters two). */
export const visibleLength = displayWidth;
