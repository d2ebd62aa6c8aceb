// How many terminal columns text takes: East Asian wide characters and emoji count 2,
// combining marks 0, colour codes nothing. It is string-width, the measure cli-table3 pads its
// cells with (the same copy: string-width 4, the major cli-table3 depends on), so the widths our
// tables choose are the widths cli-table3 pads to. Loaded on first use: `--json` output never
// measures, and `trader --help` (printable ASCII) never loads it.
import { createRequire } from 'node:module';

type Measure = (text: string) => number;
let measure: Measure | undefined;

function stringWidth(): Measure {
  // string-width 4 is CommonJS (its ESM majors need a newer cli-table3 to share one copy).
  measure ??= createRequire(import.meta.url)('string-width') as Measure;
  return measure;
}

/** Columns `text` takes on screen (the widest line when it has several). */
export function displayWidth(text: string): number {
  // Printable ASCII is one column a character: no need to load the measure (`trader --help` never does).
  if (PRINTABLE_ASCII.test(text)) return text.length;
  // As cli-table3 measures a cell: the widest of its lines, colour codes not counted.
  const width = stringWidth();
  return stripAnsi(text)
    .split('\n')
    .reduce((widest, line) => Math.max(widest, width(line)), 0);
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

let graphemes: Intl.Segmenter | undefined;

/** The longest start of `text` (colour codes removed) that takes at most `max` columns, whole characters only. */
export function sliceToWidth(text: string, max: number): string {
  let out = '';
  let width = 0;
  graphemes ??= new Intl.Segmenter('en', { granularity: 'grapheme' });
  for (const { segment } of graphemes.segment(stripAnsi(text))) {
    const w = displayWidth(segment);
    if (width + w > max) break;
    out += segment;
    width += w;
  }
  return out;
}

/** Text without its colour codes. */
export function stripAnsi(text: string): string {
  return text.replace(/\u001b\[[0-9;]*m/g, '');
}

/** Screen rows `text` takes on a terminal `columns` wide (long lines wrap; an empty line takes one). */
export function screenRows(text: string, columns: number): number {
  return text.split('\n').reduce((rows, line) => rows + Math.max(1, Math.ceil(displayWidth(line) / columns)), 0);
}
