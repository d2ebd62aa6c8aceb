// How many terminal columns text takes: East Asian wide characters and emoji count 2,
// combining marks 0, colour codes nothing. It is cli-table3's own measure (its `strlen`, over
// string-width), so the widths our tables choose are the widths cli-table3 pads to. Loaded on
// first use: `--json` output never measures, and never loads cli-table3.
import { createRequire } from 'node:module';

type Measure = (text: string) => number;
let measure: Measure | undefined;

function cliTableMeasure(): Measure {
  // cli-table3 is CommonJS with no exports map; its utils module is what its layout pads with.
  measure ??= (createRequire(import.meta.url)('cli-table3/src/utils.js') as { strlen: Measure }).strlen;
  return measure;
}

/** Columns `text` takes on screen (the widest line when it has several). */
export function displayWidth(text: string): number {
  // Printable ASCII is one column a character: no need to load the measure (`trader --help` never does).
  if (PRINTABLE_ASCII.test(text)) return text.length;
  return cliTableMeasure()(text);
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
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\[[0-9;]*m/g, '');
}

/** Screen rows `text` takes on a terminal `columns` wide (long lines wrap; an empty line takes one). */
export function screenRows(text: string, columns: number): number {
  return text.split('\n').reduce((rows, line) => rows + Math.max(1, Math.ceil(displayWidth(line) / columns)), 0);
}
