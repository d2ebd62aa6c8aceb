// Tables for human output, fitted to the terminal (80 columns by default).
import { createRequire } from 'node:module';
import type TableType from 'cli-table3';

const require = createRequire(import.meta.url);
let TableClass: typeof TableType | undefined;

export interface Column {
  header: string;
  /** Right-align numbers. */
  align?: 'left' | 'right';
  /** Maximum width of this column's cells; longer text is shortened with an ellipsis. */
  maxWidth?: number;
}

/** Renders rows under the given columns as a borderless table. cli-table3 loads on first use. */
export function renderTable(columns: Column[], rows: string[][]): string {
  TableClass ??= require('cli-table3') as typeof TableType;
  const table = new TableClass({
    head: columns.map((c) => c.header),
    colAligns: columns.map((c) => c.align ?? 'left'),
    chars: {
      top: '', 'top-mid': '', 'top-left': '', 'top-right': '',
      bottom: '', 'bottom-mid': '', 'bottom-left': '', 'bottom-right': '',
      left: '', 'left-mid': '', mid: '', 'mid-mid': '',
      right: '', 'right-mid': '', middle: '  ',
    },
    style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0 },
  });
  for (const row of rows) table.push(row.map((cell, i) => truncate(cell, columns[i]?.maxWidth)));
  return table
    .toString()
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n');
}

/** Key–value lines for a single object, labels aligned. */
export function renderFields(fields: Array<[label: string, value: string]>): string {
  const width = Math.max(...fields.map(([label]) => label.length));
  return fields.map(([label, value]) => `${label.padEnd(width)}  ${value}`).join('\n');
}

/** Shortens a long identifier in the middle: `7xKXtg2C…sgAsU`. */
export function shortId(id: string, keep = 6): string {
  return id.length <= keep * 2 + 1 ? id : `${id.slice(0, keep)}…${id.slice(-keep)}`;
}

function truncate(text: string, max: number | undefined): string {
  if (!max || visibleLength(text) <= max) return text;
  return text.slice(0, Math.max(1, max - 1)) + '…';
}

function visibleLength(text: string): number {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\[[0-9;]*m/g, '').length;
}
