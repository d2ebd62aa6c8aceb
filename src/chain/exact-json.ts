// JSON as the chain writes it: lamport values are integers that may pass 2^53, which JSON.parse
// would round. Here every integer beyond Number's exact range is kept as its digits (a string),
// so the reader turns it into a bigint exactly; everything else parses as JSON.parse would.

const NUMBER = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/** JSON.parse, keeping integers outside the safe range as decimal strings. */
export function parseJsonExact(text: string): unknown {
  let out = '';
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') {
      // Skip the string, escapes and all: digits inside it are text.
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
      continue;
    }
    if (c !== '-' && (c < '0' || c > '9')) continue;
    NUMBER.lastIndex = i;
    const token = NUMBER.exec(text)?.[0];
    if (!token) continue;
    if (/^-?\d+$/.test(token) && !Number.isSafeInteger(Number(token))) {
      out += `${text.slice(from, i)}"${token}"`;
      from = i + token.length;
    }
    i += token.length - 1;
  }
  return JSON.parse(out + text.slice(from));
}

/** A non-negative integer read exactly: a safe JSON number or the digits parseJsonExact kept; null otherwise. */
export function exactLamports(value: unknown): bigint | null {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? BigInt(value) : null;
  if (typeof value === 'string' && /^\d+$/.test(value)) return BigInt(value);
  return null;
}
