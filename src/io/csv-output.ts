// --csv: RFC 4180 CSV on stdout, written page by page as pages arrive. Quoting is csv-stringify's
// (the csv project's, well kept, no dependencies); this module is imported only by --csv runs,
// so other commands never load it.
import { stringify } from 'csv-stringify/sync';
import { cellText, type CellKind } from './csv-cells.js';
import type { ListPrinter } from './list-printer.js';

export interface CsvColumn<T> {
  header: string;
  kind: CellKind;
  value(item: T): string | number | boolean | null | undefined;
}

const OPTIONS = {
  // RFC 4180: CRLF between records. csv-stringify then quotes only fields holding a CRLF, so a
  // lone CR or LF inside service text is matched here to be quoted too.
  record_delimiter: 'windows',
  quoted_match: /[\r\n]/,
} as const;

/** A CSV list: the header row, then each page's rows as soon as it arrives (flat memory with --all). */
export function csvList<T>(stream: { write(text: string): unknown }, columns: readonly CsvColumn<T>[]): ListPrinter<T> {
  let started = false;
  const header = columns.map((c) => c.header);
  const write = (items: readonly T[]) => {
    const rows = items.map((item) => columns.map((c) => cellText(c.value(item), c.kind)));
    if (!started || rows.length > 0) stream.write(stringify(rows, { ...OPTIONS, header: !started, columns: header }));
    started = true;
  };
  return {
    page: (items) => write(items),
    end: () => {
      if (!started) write([]);
    },
  };
}
