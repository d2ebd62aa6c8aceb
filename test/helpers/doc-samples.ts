// What the doc tests compare: a sample's lines and the tool's, with the values that vary between
// runs masked explicitly (ids, addresses and signatures, times, figures) and spacing collapsed, so a
// changed label, a line added or lost, or a changed sentence fails while a new id does not. A line
// of its own `…` (or `...`) in a sample stands for any lines the doc leaves out.
import { lines } from './cli-assert.js';

/** A line's shape: ids, addresses, times and figures masked, spacing collapsed. */
export function shapeLine(line: string): string {
  return (
    line
      .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g, '<id>')
      .replace(/\bsell_[1-9A-HJ-NP-Za-km-z]{10,}\b/g, '<sell id>')
      // The time masked, its zone kept: a time shown without its zone is a drift.
      .replace(/\b\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2}(\.\d+)?Z?)?/g, '<time>')
      .replace(/\b\d{2}-\d{2} \d{2}:\d{2}\b/g, '<time>')
      .replace(/\b[1-9A-HJ-NP-Za-km-z]{32,88}\b/g, '<base58>')
      .replace(/\b[0-9a-f]{8,35}…/g, '<id…>')
      .replace(/\b[1-9A-HJ-NP-Za-km-z]{4,8}…[1-9A-HJ-NP-Za-km-z]{0,8}/g, '<base58…>')
      .replace(/\breq_\w+/g, '<request id>')
      .replace(/\bsk_sandbox_\w+/g, '<key>')
      .replace(/\b[0-9a-f]{16}\b/g, '<fingerprint>')
      .replace(/(\/tmp|\/home)\/\S+/g, '<path>')
      .replace(/127\.0\.0\.1:\d+/g, '<host>')
      // A time left ticks: 1m 0s one run, 59s the next.
      .replace(/\b(\d+m )?\d+s\b/g, '<duration>')
      .replace(/\d[\d,.]*/g, '<n>')
      .replace(/\s+/g, ' ')
      .trim()
  );
}

/** The shapes of a text's non-empty lines. */
export function shape(text: string): string[] {
  return lines(text).map(shapeLine);
}

const SKIPPED = /^(…|\.\.\.)$/;

/** Lines with a key-value view's continuations (indented 8 or more) joined to the line they go on: a value wraps where the path of a run's temporary folder is longer. */
const unwrapped = (text: string[]): string[] =>
  text.reduce<string[]>(
    (out, l) =>
      /^ {8,}\S/.test(l) && out.length > 0 ? [...out.slice(0, -1), `${out.at(-1)} ${l.trim()}`] : [...out, l],
    [],
  );

/** Whether `actual` fits `sample`: line by line (a wrapped value as one line), a sample line `…` matching any run of lines. */
export function fitsSample(sample: string[], actual: string[]): boolean {
  const want = unwrapped(sample)
    .map((l) => (SKIPPED.test(l.trim()) ? null : shapeLine(l)))
    .filter((l) => l !== '');
  const got = unwrapped(actual)
    .map(shapeLine)
    .filter((l) => l !== '');
  const match = (i: number, j: number): boolean => {
    if (i === want.length) return j === got.length;
    if (want[i] === null) {
      for (let k = j; k <= got.length; k++) if (match(i + 1, k)) return true;
      return false;
    }
    return j < got.length && want[i] === got[j] && match(i + 1, j + 1);
  };
  return match(0, 0);
}
