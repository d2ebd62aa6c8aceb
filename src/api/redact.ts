// Keeps the API key out of anything the service sends back: the whole key, and any run of 8
// or more of its characters (a display prefix that is the key's head, a key cut in two by a
// line break), before anything is shortened for display, so no cut can leave a piece behind.

/** A run this long that also occurs in the key is a piece of the key. */
export const KEY_FRAGMENT_LENGTH = 8;

export interface Redactor {
  /**
   * The text with every piece of the key hidden: each shows as the key's own first 4 characters
   * and "…", so no number of echoed pieces adds up to more of the key than `config list` shows.
   */
  (text: string): string;
  /** Whether the text holds any piece of the key (a quick test before a deep walk). */
  holdsPiece(text: string): boolean;
}

/** A redactor for one key. */
export function keyRedactor(key: string): Redactor {
  const pieces = new Set<string>();
  for (let i = 0; i + KEY_FRAGMENT_LENGTH <= key.length; i++) pieces.add(key.slice(i, i + KEY_FRAGMENT_LENGTH));
  const marker = `${key.slice(0, 4)}…`;
  const redact = ((text: string): string => {
    if (text.length < KEY_FRAGMENT_LENGTH || pieces.size === 0) return text;
    let out = '';
    let i = 0;
    while (i < text.length) {
      if (!pieces.has(text.slice(i, i + KEY_FRAGMENT_LENGTH))) {
        out += text[i];
        i++;
        continue;
      }
      // Extend the run as far as it stays a piece of the key.
      let end = i + KEY_FRAGMENT_LENGTH;
      while (end < text.length && key.includes(text.slice(i, end + 1))) end++;
      out += marker;
      i = end;
    }
    return out;
  }) as Redactor;
  // Every piece holds one of the key's 4-character blocks that start at a multiple of 4 (a piece
  // starts at most 3 characters before one and runs 8), so a text holding none of those few
  // blocks holds no piece: one search per block instead of one per piece on every page.
  const blocks: string[] = [];
  for (let b = 0; b + 4 <= key.length; b += 4) blocks.push(key.slice(b, b + 4));
  redact.holdsPiece = (text) => blocks.some((block) => text.includes(block)) && [...pieces].some((piece) => text.includes(piece));
  return redact;
}

/** A copy of a parsed JSON value with every string (and key) redacted. */
export function redactDeep<T>(value: T, redact: (s: string) => string): T {
  if (typeof value === 'string') return redact(value) as T;
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, redact)) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [redact(k), redactDeep(v, redact)])) as T;
  }
  return value;
}
