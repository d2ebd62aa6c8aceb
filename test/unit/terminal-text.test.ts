import { describe, expect, it } from 'vitest';
import { oneLine, safeForTerminal } from '../../src/io/terminal-text.js';

describe('safeForTerminal', () => {
  it('keeps plain text, newlines, tabs and our colours', () => {
    const coloured = '\u001b[32mcompleted\u001b[39m and \u001b[1m\u001b[33mpending\u001b[39m\u001b[22m';
    expect(safeForTerminal(`a\tb\nc ${coloured}`)).toBe(`a\tb\nc ${coloured}`);
  });

  it("keeps a CSV's CR LF line ends (newcomer trial 5); a CR anywhere else is named", () => {
    expect(safeForTerminal('a,b\r\nc,d\r\n')).toBe('a,b\r\nc,d\r\n');
    expect(safeForTerminal('a\r\r\nb\rc\r')).toBe('a<U+000D>\r\nb<U+000D>c<U+000D>');
  });

  it.each([
    ['clear screen', 'WOOF\u001b[2J', 'WOOF'],
    ['window title (OSC … BEL)', '\u001b]0;owned\u0007Dog', 'Dog'],
    ['OSC 8 hyperlink (OSC … ST)', '\u001b]8;;http://evil\u001b\\click\u001b]8;;\u001b\\', 'click'],
    ['cursor movement', 'up\u001b[1A\u001b[10D', 'up'],
    ['conceal (SGR 8)', 'a\u001b[8mhidden\u001b[0m', 'ahidden\u001b[0m'],
    ['lone ESC', 'a\u001b', 'a'],
  ])('removes %s', (_name, input, expected) => {
    expect(safeForTerminal(input)).toBe(expected);
  });

  it.each([
    ['bell and backspace', 'x\u0007\u0008y', 'x<U+0007><U+0008>y'],
    ['carriage return overwrite', 'safe\rEVIL', 'safe<U+000D>EVIL'],
    ['C1 CSI (inert)', 'a\u009b2Jb', 'a<U+009B>2Jb'],
    ['bidi override', 'abc\u202edcb', 'abc<U+202E>dcb'],
    ['zero-width space', 'W\u200bOOF', 'W<U+200B>OOF'],
    ['a trailing zero-width space (attack-1 §7)', 'WOOF\u200b', 'WOOF<U+200B>'],
    ['tag characters (attack-1 §7)', 'Dog\u{E0020}\u{E0041}', 'Dog<U+E0020><U+E0041>'],
    ['a variation selector and a soft hyphen', 'Wo\ufe0fof\u00ad', 'Wo<U+FE0F>of<U+00AD>'],
    ['a line separator', 'a\u2028b', 'a<U+2028>b'],
    ['a trailing BRAILLE PATTERN BLANK (attack-3 F9)', 'WOOF\u2800', 'WOOF<U+2800>'],
    ['the other glyphs a font draws blank', 'a\u{1D159}b\u{16FE4}c', 'a<U+1D159>b<U+16FE4>c'],
    ['the Hangul fillers', '\u115F\u1160W\u3164\uFFA0', '<U+115F><U+1160>W<U+3164><U+FFA0>'],
  ])('names what cannot be seen: %s', (_name, input, expected) => {
    expect(safeForTerminal(input)).toBe(expected);
  });

  it('leaves what a reader sees: a visible Braille pattern beside the blank one, spaces of every width', () => {
    expect(safeForTerminal('\u2801\u28FF \u3000\u00A0')).toBe('\u2801\u28FF \u3000\u00A0');
  });
});

describe('withCommand: a command to copy is never wrapped with words before it', () => {
  it('shares its line when the whole line fits the width (at it), goes to its own line one column past', async () => {
    const { withCommand } = await import('../../src/io/command-line.js');
    const lead = 'Follow it with:'; // 15
    const command = `trader trades ${'a'.repeat(50)} --watch`; // 72
    expect(withCommand(lead, command, 88)).toBe(`${lead} ${command}`);
    expect(withCommand(lead, command, 87)).toBe(`${lead}\n${command}`);
  });

  it('screenRows: a line wider than the terminal takes more rows; wide characters count 2', async () => {
    const { screenRows } = await import('../../src/io/display-width.js');
    expect(screenRows('x'.repeat(80), 80)).toBe(1);
    expect(screenRows('x'.repeat(81), 80)).toBe(2);
    expect(screenRows('月'.repeat(40), 80)).toBe(1);
    expect(screenRows('月'.repeat(41), 80)).toBe(2);
    expect(screenRows('a\n\nb', 80)).toBe(3);
  });
});

describe('oneLine', () => {
  it('a service string shown inside a line keeps to it: every control is named where it stood (line breaks, escapes, tabs), as is what cannot be seen', () => {
    expect(oneLine('Evil\nTotal\r\n0.1 SOL\u2028x\u202eyz\u001b[2J')).toBe(
      'Evil<U+000A>Total<U+000D><U+000A>0.1 SOL<U+2028>x<U+202E>yz<U+001B>[2J',
    );
    // attack-2 §5: a name with a newline, an erase-line escape and a carriage return.
    expect(oneLine('Woof\n\u001b[2KSend All\rDog\t\u0085')).toBe(
      'Woof<U+000A><U+001B>[2KSend All<U+000D>Dog<U+0009><U+0085>',
    );
    expect(oneLine('Woof Sandbox Dog')).toBe('Woof Sandbox Dog');
    // attack-3 F9: what a font draws blank, as safeForTerminal names it.
    expect(oneLine('WOOF\u2800 \u{1D159}\u{16FE4}\u2801')).toBe('WOOF<U+2800> <U+1D159><U+16FE4>\u2801');
  });
});
