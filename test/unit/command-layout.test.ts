// How a command to copy and human text are laid out on a terminal: a command wider than the
// terminal becomes shell lines joined by ` \` that a shell runs as the same command; text wraps
// at spaces only, a backquoted span and a word wider than the line kept whole.
import { describe, expect, it } from 'vitest';
import { commandLines, withCommand } from '../../src/io/command-line.js';
import { displayWidth } from '../../src/io/display-width.js';
import { wrapWords } from '../../src/io/word-wrap.js';

/** What a shell makes of continuation lines: each ` \` + newline + indentation becomes one space. */
const reassembled = (lines: string) => lines.replace(/ \\\n */g, ' ');

const MINT = 'GFmFPooguQpNXADJ6Dd42rWt69m57SA6oFk3QwEcWqCd';
const KEY = '9488f2c1-5d3e-4a7b-9c0d-1e2f3a4b5c6d';
const RESUME = `trader buy ${MINT} 0.1sol --idempotency-key ${KEY}`; // 117 columns

describe('commandLines', () => {
  it('a command exactly as wide as the terminal stays one line; one column wider, it breaks between words', () => {
    const command = `trader trades ${'a'.repeat(60)} --watch`; // 82
    expect(command).toHaveLength(82);
    expect(commandLines(command, 82)).toBe(command);
    expect(commandLines(command, 81)).toBe(`trader trades ${'a'.repeat(60)} \\\n  --watch`);
  });

  it('each line but the last ends in ` \\` and fits the width (the ` \\` counted), continuation lines indented', () => {
    expect(commandLines(RESUME, 80)).toBe(`trader buy ${MINT} 0.1sol \\\n  --idempotency-key ${KEY}`);
    expect(commandLines(RESUME, 60)).toBe(`trader buy ${MINT} \\\n  0.1sol --idempotency-key \\\n  ${KEY}`);
    for (const width of [48, 50, 60, 61, 62, 63, 64, 80, 116]) {
      const laid = commandLines(RESUME, width);
      expect(reassembled(laid), `width ${width}`).toBe(RESUME);
      for (const line of laid.split('\n'))
        expect(displayWidth(line), `width ${width}: ${line}`).toBeLessThanOrEqual(width);
      // No id or option is split: every word of the command is whole on one line.
      const words = laid.split('\n').flatMap((l) => l.replace(/ \\$/, '').trim().split(' '));
      expect(words).toEqual(RESUME.split(' '));
    }
  });

  it('the ` \\` decides at the limit: a word joins a line only with room for it, except on the last line', () => {
    // "trader buy MINT x" is 57 columns; with " \\" 59.
    expect(commandLines(`trader buy ${MINT} x yy`, 59)).toBe(`trader buy ${MINT} x \\\n  yy`);
    expect(commandLines(`trader buy ${MINT} x yy`, 58)).toBe(`trader buy ${MINT} \\\n  x yy`);
    // The last line carries no " \\": "  cc dd" fits 7 columns as it is, not 6.
    expect(commandLines('aa bb cc dd', 7)).toBe('aa bb \\\n  cc dd');
    expect(commandLines('aa bb cc dd', 6)).toBe('aa \\\n  bb \\\n  cc \\\n  dd');
  });

  it('a word wider than any line stands alone on its line, whole; quoted words with spaces are one word', () => {
    // At 40 columns (the narrowest the tool lays out for) a mint cannot fit a line: it is whole on its own.
    expect(commandLines(RESUME, 40)).toBe(`trader buy \\\n  ${MINT} \\\n  0.1sol --idempotency-key \\\n  ${KEY}`);
    const long = 'z'.repeat(50);
    expect(commandLines(`trader x ${long} y`, 40)).toBe(`trader x \\\n  ${long} \\\n  y`);
    const quoted = `trader config set label 'two words here' --profile p`;
    expect(commandLines(quoted, 40)).toBe(`trader config set label \\\n  'two words here' --profile p`);
    expect(reassembled(commandLines(quoted, 40))).toBe(quoted);
  });
});

describe('withCommand on a terminal', () => {
  it('off a terminal a long command stays one line (scripts read it); on one it is laid out', () => {
    const lead = 'If interrupted, resume with:';
    expect(withCommand(lead, RESUME, 80)).toBe(`${lead}\n${RESUME}`);
    expect(withCommand(lead, RESUME, 80, true)).toBe(`${lead}\n${commandLines(RESUME, 80)}`);
    expect(withCommand(lead, RESUME, 146, true)).toBe(`${lead} ${RESUME}`);
    expect(withCommand(lead, RESUME, 145, true)).toBe(`${lead}\n${RESUME}`);
    expect(commandLines(RESUME, 117)).toBe(RESUME);
  });
});

describe('wrapWords', () => {
  it('a line as wide as the width stays; one wider breaks at the last space that fits', () => {
    expect(wrapWords('aaaa bbbb cccc', 14)).toBe('aaaa bbbb cccc');
    expect(wrapWords('aaaa bbbb cccc', 13)).toBe('aaaa bbbb\ncccc');
    // A word that ends exactly at the width stays on the line.
    expect(wrapWords('aaaa bbbb cccc dd', 14)).toBe('aaaa bbbb cccc\ndd');
    expect(wrapWords('aaaa bbbb ccccc dd', 14)).toBe('aaaa bbbb\nccccc dd');
  });

  it('a word wider than the width stands alone, whole; a backquoted span is never broken', () => {
    expect(wrapWords(`a ${'x'.repeat(20)} b`, 10)).toBe(`a\n${'x'.repeat(20)}\nb`);
    const note = 'trader sandbox running in the background (pid 1); stop it with `trader sandbox stop`';
    expect(wrapWords(note, 80)).toBe(
      'trader sandbox running in the background (pid 1); stop it with\n`trader sandbox stop`',
    );
    expect(wrapWords('see `eval "$(trader sandbox --background)"` now', 20)).toBe(
      'see\n`eval "$(trader sandbox --background)"`\nnow',
    );
  });

  it('each line of several is wrapped alone, its indentation kept; colour codes take no width', () => {
    expect(wrapWords('short\n  aaa bbb ccc', 9)).toBe('short\n  aaa bbb\n  ccc');
    expect(wrapWords('\u001b[33mwarning:\u001b[39m aaa bbb', 12)).toBe('\u001b[33mwarning:\u001b[39m aaa\nbbb');
  });

  it('never splits a shell continuation from its line: lines already laid out are left as they are', () => {
    const laid = commandLines(RESUME, 80);
    expect(wrapWords(laid, 80)).toBe(laid);
    expect(wrapWords(`  ${'x'.repeat(45)} \\`, 40)).toBe(`  ${'x'.repeat(45)} \\`);
  });
});

describe('Output on stderr: wrapped on a terminal, one line each when piped', () => {
  const outputOn = async (stderrColumns: number | undefined, json = false) => {
    const { Output } = await import('../../src/io/output.js');
    const { plainTheme } = await import('../../src/io/theme.js');
    const written: string[] = [];
    const stream = { write: (s: string) => written.push(s) } as unknown as NodeJS.WritableStream;
    const terminal = {
      stdout: stream,
      stderr: stream,
      stdin: process.stdin,
      stdoutIsTTY: false,
      stderrIsTTY: stderrColumns !== undefined,
      color: false,
      spinners: false,
      interactive: false,
      columns: 80,
      ...(stderrColumns === undefined ? {} : { stderrColumns }),
    };
    return { output: new Output(terminal, json, plainTheme), written };
  };
  const NOTE = 'trader sandbox running in the background (pid 1); stop it with `trader sandbox stop`'; // 84

  it('a note: wrapped at spaces at the terminal width, untouched when piped', async () => {
    const tty = await outputOn(80);
    tty.output.note(NOTE);
    expect(tty.written.join('')).toBe(
      'trader sandbox running in the background (pid 1); stop it with\n`trader sandbox stop`\n',
    );
    const wide = await outputOn(84);
    wide.output.note(NOTE);
    expect(wide.written.join('')).toBe(`${NOTE}\n`);
    const piped = await outputOn(undefined);
    piped.output.note(NOTE);
    expect(piped.written.join('')).toBe(`${NOTE}\n`);
  });

  it('a warning wraps the same way', async () => {
    const tty = await outputOn(40);
    tty.output.warn('the quote expires in 5 s; it may be refused');
    expect(tty.written.join('')).toBe('warning: the quote expires in 5 s; it\nmay be refused\n');
  });

  it('the next page command: one line when it fits (at the width) or piped; too wide, on lines of its own', async () => {
    const command = `trader activity --limit 3 --cursor ${'c'.repeat(30)}`; // 65
    const line = `More results: ${command}  (or --all)`; // 91
    const at = await outputOn(91);
    at.output.morePages({ nextCursor: 'c', hasMore: true }, command);
    expect(at.written.join('')).toBe(`${line}\n`);
    const shorter = await outputOn(90); // "More results (or --all): " + the command is 90
    shorter.output.morePages({ nextCursor: 'c', hasMore: true }, command);
    expect(shorter.written.join('')).toBe(`More results (or --all): ${command}\n`);
    const past = await outputOn(89);
    past.output.morePages({ nextCursor: 'c', hasMore: true }, command);
    expect(past.written.join('')).toBe(`More results (or --all):\n${command}\n`);
    const narrow = await outputOn(50);
    narrow.output.morePages({ nextCursor: 'c', hasMore: true }, command);
    expect(narrow.written.join('')).toBe(
      `More results (or --all):\ntrader activity --limit 3 --cursor \\\n  ${'c'.repeat(30)}\n`,
    );
    const piped = await outputOn(undefined);
    piped.output.morePages({ nextCursor: 'c', hasMore: true }, command);
    expect(piped.written.join('')).toBe(`${line}\n`);
  });
});
