// What a yes agrees to stands whole on the screen with its question, or it is not asked: the rows
// counted at the edge (exactly the terminal's rows is asked, one more is not), the question's rows
// by the terminal's width, and no terminal (its size unknown) never refused.
import { describe, expect, it } from 'vitest';
import { notShownWhole, tooSmallHint } from '../../src/domain/screen-fit.js';

const countdown = { expired: 'a yes gets a fresh deposit' };
const QUESTION = 'Sign and send this deposit?';
// "? expired: a yes gets a fresh deposit · Sign and send this deposit? (y/N) y": 73 characters, one row at 80, two at 60.
const questionLength = `? expired: ${countdown.expired} · ${QUESTION} (y/N) y`.length;

describe('notShownWhole', () => {
  it('the review and its one-row question at exactly the terminal rows is asked; one row more is not, saying the rows needed and had', () => {
    expect(questionLength).toBeLessThanOrEqual(80);
    expect(notShownWhole({ rows: 24, columns: 80, shownRows: 23 }, 'the review', QUESTION, countdown)).toBeNull();
    expect(notShownWhole({ rows: 24, columns: 80, shownRows: 24 }, 'the review', QUESTION, countdown)).toEqual({
      notShown: 'the review and the question take 25 rows at 80 columns and this terminal shows 24: it was not asked',
      rows: 25,
    });
  });

  it('the question takes the rows its longest form needs at the width: two at 60 columns', () => {
    expect(questionLength).toBeGreaterThan(60);
    expect(notShownWhole({ rows: 16, columns: 60, shownRows: 14 }, 'the review', QUESTION, countdown)).toBeNull();
    expect(notShownWhole({ rows: 16, columns: 60, shownRows: 15 }, 'the review', QUESTION, countdown)?.rows).toBe(17);
  });

  it('no terminal, or its size unknown: nothing to count, never refused', () => {
    expect(
      notShownWhole({ rows: undefined, columns: 80, shownRows: 500 }, 'the review', QUESTION, countdown),
    ).toBeNull();
    expect(
      notShownWhole({ rows: 24, columns: undefined, shownRows: 500 }, 'the review', QUESTION, countdown),
    ).toBeNull();
    expect(notShownWhole({ rows: 24, columns: 80, shownRows: null }, 'the review', QUESTION, countdown)).toBeNull();
  });

  it('the hint names the rows needed and the unattended way', () => {
    expect(tooSmallHint(25)).toBe(
      'run the command again in a terminal of at least 25 rows, or read it with --dry-run and run it with --yes (docs/troubleshooting.md)',
    );
  });
});
