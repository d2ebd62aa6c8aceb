// What a yes agrees to must be on the screen when it is given: a review (or a message and its
// labels) and the question below it are asked only when they stand whole on the terminal.

/** How a review and its question do not fit the terminal: why it was not asked, and the rows they need. */
export interface NotShown {
  notShown: string;
  rows: number;
}

/**
 * Whether what a yes agrees to (`shownRows`, as printed) and the question below it (its
 * countdown at its longest, and the answer typed) fit a terminal of `rows` × `columns`; null when
 * they do or its size is not known (no terminal).
 */
export function notShownWhole(
  terminal: { rows?: number; columns?: number; shownRows: number | null },
  what: string,
  question: string,
  countdown: { expired: string },
): NotShown | null {
  const { rows, columns, shownRows } = terminal;
  if (rows === undefined || columns === undefined || shownRows === null) return null;
  const needed = shownRows + Math.ceil(`? expired: ${countdown.expired} · ${question} (y/N) y`.length / columns);
  if (needed <= rows) return null;
  return {
    notShown: `${what} and the question take ${needed} rows at ${columns} columns and this terminal shows ${rows}: it was not asked`,
    rows: needed,
  };
}

/** What to do when a trade's review did not fit: a taller terminal, or the review read first and the trade run unattended. */
export const tooSmallHint = (needed: number): string =>
  `run the command again in a terminal of at least ${needed} rows, or read it with --dry-run and run it with --yes (docs/troubleshooting.md)`;
