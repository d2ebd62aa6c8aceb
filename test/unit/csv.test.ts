// CSV cells and the streamed writer: RFC 4180 quoting through csv-stringify, parsed back with
// csv-parse; formula-like text neutralised, our numbers (negative ones included) left numbers.
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { cellText, neutralise, plainDecimal } from '../../src/io/csv-cells.js';
import { csvList, type CsvColumn } from '../../src/io/csv-output.js';

function collect() {
  let text = '';
  let writes = 0;
  return {
    stream: {
      write: (chunk: string) => {
        text += chunk;
        writes++;
        return true;
      },
    },
    text: () => text,
    writes: () => writes,
  };
}

interface Row {
  name: string | null;
  figure: string | null;
  price: number | null;
}
const COLUMNS: CsvColumn<Row>[] = [
  { header: 'name', kind: 'text', value: (r) => r.name },
  { header: 'figure', kind: 'number', value: (r) => r.figure },
  { header: 'price', kind: 'number', value: (r) => r.price },
];

describe('csv cells', () => {
  it.each([
    ['=HYPERLINK("http://x","y")', `'=HYPERLINK("http://x","y")`],
    ['+1', "'+1"],
    ['-1', "'-1"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\t=1', "'\t=1"],
    ['\r=1', "'\r=1"],
    ['  =1+1', "'  =1+1"],
    ['＝1+1', "'＝1+1"],
    ['Woof Sandbox Dog', 'Woof Sandbox Dog'],
    ['a=b', 'a=b'],
    ['', ''],
  ])('text %j is written %j', (text, written) => {
    expect(neutralise(text)).toBe(written);
    expect(cellText(text, 'text')).toBe(written);
  });

  it('number columns keep plain decimals, negative ones too; anything else in them is text', () => {
    expect(cellText('-12.34', 'number')).toBe('-12.34');
    expect(cellText('0', 'number')).toBe('0');
    expect(cellText(-5, 'number')).toBe('-5');
    expect(cellText('-1+2', 'number')).toBe("'-1+2");
    expect(cellText('=1', 'number')).toBe("'=1");
    expect(cellText('1e5', 'number')).toBe('1e5');
    expect(cellText(null, 'number')).toBe('');
    expect(cellText(true, 'text')).toBe('true');
  });

  it('JSON numbers are written as plain decimals, never in exponent form', () => {
    expect(plainDecimal(2e-7)).toBe('0.0000002');
    expect(plainDecimal(0.000030017819117571617)).toBe('0.000030017819117571617');
    expect(plainDecimal(1.5e21)).toBe('1500000000000000000000');
    expect(plainDecimal(-0.5)).toBe('-0.5');
    expect(plainDecimal(148.5)).toBe('148.5');
    expect(Number(plainDecimal(0.1 + 0.2))).toBe(0.1 + 0.2);
  });
});

describe('csvList', () => {
  it('writes a header, then one write per page, CRLF records, quoting what needs it', () => {
    const out = collect();
    const printer = csvList(out.stream, COLUMNS);
    printer.page([{ name: 'line\nbreak', figure: '-1.50', price: 2e-7 }]);
    printer.page([]);
    printer.page([{ name: 'say "hi", then =1', figure: null, price: null }]);
    printer.end();
    expect(out.writes()).toBe(2);
    expect(out.text()).toBe('name,figure,price\r\n"line\nbreak",-1.50,0.0000002\r\n"say ""hi"", then =1",,\r\n');
    expect(parse(out.text(), { columns: true })).toEqual([
      { name: 'line\nbreak', figure: '-1.50', price: '0.0000002' },
      { name: 'say "hi", then =1', figure: '', price: '' },
    ]);
  });

  it('a lone CR in service text is quoted, so the record still parses as one', () => {
    const out = collect();
    const printer = csvList(out.stream, COLUMNS);
    printer.page([{ name: 'a\rb', figure: '1', price: 1 }]);
    printer.end();
    expect(parse(out.text(), { columns: true })).toEqual([{ name: 'a\rb', figure: '1', price: '1' }]);
  });

  it('an empty list is the header row alone', () => {
    const out = collect();
    const printer = csvList(out.stream, COLUMNS);
    printer.end();
    expect(out.text()).toBe('name,figure,price\r\n');
  });
});
