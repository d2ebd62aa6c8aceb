// One prefix for every human error line, `error: `, written by one function (src/io/error-line.ts):
// no other source file builds an error line by hand, in either case.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { errorLine, errorMessage } from '../../src/io/error-line.js';

const root = new URL('../../', import.meta.url).pathname;

function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : /\.[jt]s$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

describe('the error line', () => {
  it('is `error: <message>`, and reads back to the message', () => {
    expect(errorLine('nothing was sent')).toBe('error: nothing was sent');
    expect(errorMessage(errorLine('nothing was sent'))).toBe('nothing was sent');
    expect(errorMessage('listening on 127.0.0.1')).toBe('listening on 127.0.0.1');
  });

  it('is built only by errorLine: no string in src/ or bin/ starts with an error prefix of its own', () => {
    const handBuilt = /[`'"](?:error|Error|ERROR):\s/;
    const found = [...sources('src'), ...sources('bin')]
      .filter((f) => f !== join('src', 'io', 'error-line.ts'))
      .flatMap((f) =>
        readFileSync(join(root, f), 'utf8')
          .split('\n')
          .map((line, i) => ({ where: `${f}:${i + 1}`, line }))
          .filter(({ line }) => handBuilt.test(line)),
      );
    expect(found).toEqual([]);
  });
});
