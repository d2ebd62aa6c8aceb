// Keeps the API key out of anything the service sends back, before anything is shortened for
// display, so no cut can leave a piece behind. Four rules, each on every text:
// - any run of 8 or more of the key's characters, as they are (a display prefix that is the
//   key's head, a key cut in two by a line break);
// - the same on the text's letters and digits only, percent-decoded and with case ignored, against
//   the key and its encodings: the key echoed transformed ("…-4FQ2MZ7-PL4VB8N-…", "%34%66…", upper
//   case, in dashed pieces), base64- or base64url-encoded (at any byte offset of what was
//   encoded), hex-encoded, or reversed — the secret part only: the key's public head is no secret;
// - a short text (at most twice the key's length) that holds most of the key's letters and
//   digits in order, whatever lies between them, is masked whole;
// - pieces shorter than 8 (down to 4) that together cover most of the key, or of one of its
//   encodings (a long field of 7-character windows shifted by one): each is masked.

/** A run this long that also occurs in the key is a piece of the key. */
export const KEY_FRAGMENT_LENGTH = 8;

/** A short text holding at least this share of the key's letters and digits, in order, is masked. */
export const KEY_SHARE_MASKED = 2 / 3;

/** The shortest piece that counts towards covering the key (rule 4): shorter runs of it are everywhere by chance. */
export const COVER_PIECE_LENGTH = 4;

/**
 * An answer this short is always walked: the rule for short texts that hold most of the key has
 * no quick test, and a single object costs microseconds to walk (pages are what the quick test is for).
 */
export const ALWAYS_WALKED_LENGTH = 8192;

export interface Redactor {
  /**
   * The text with every piece of the key hidden: each shows as the key's own first 4 characters
   * and "…", so no number of echoed pieces adds up to more of the key than `config list` shows.
   */
  (text: string): string;
  /**
   * Whether the text may hold a piece of the key in any of the forms above (the quick test
   * before a deep walk of a page): false only when no rule can find anything in it.
   */
  holdsPiece(text: string): boolean;
}

// Letters and digits as 0–35 (case folded); -1 for everything else.
const ALNUM = new Int8Array(128).fill(-1);
for (let c = 48; c <= 57; c++) ALNUM[c] = c - 48;
for (let c = 97; c <= 122; c++) ALNUM[c] = ALNUM[c - 32] = c - 87;

const hexValue = (c: number): number =>
  c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : c >= 65 && c <= 70 ? c - 55 : -1;

/**
 * A text's letters and digits, percent-decoded (also twice over: %2573) and case folded, each
 * with the span of the original text it came from.
 */
interface Skeleton {
  /** Each kept character as 0–35. */
  values: number[];
  starts: number[];
  ends: number[];
}

function skeletonOf(text: string): Skeleton {
  const values: number[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  for (let i = 0; i < text.length;) {
    const start = i;
    let c = text.charCodeAt(i++);
    // %XX, and %25XX… (an encoded percent sign), decoded to the character they stand for.
    while (c === 37 && i + 1 < text.length) {
      const hi = hexValue(text.charCodeAt(i));
      const lo = hexValue(text.charCodeAt(i + 1));
      if (hi < 0 || lo < 0) break;
      c = hi * 16 + lo;
      i += 2;
    }
    const v = c < 128 ? ALNUM[c]! : -1;
    if (v < 0) continue;
    values.push(v);
    starts.push(start);
    ends.push(i);
  }
  return { values, starts, ends };
}

/** Skeleton values as a string of one character each, for slicing and searching. */
function asText(values: number[]): string {
  let out = '';
  for (const v of values) out += String.fromCharCode(v + 48);
  return out;
}

/** Length of the longest common subsequence of two short arrays. */
function commonInOrder(a: number[], b: number[]): number {
  let prev = new Uint16Array(b.length + 1);
  let row = new Uint16Array(b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      row[j] = a[i - 1] === b[j - 1] ? prev[j - 1]! + 1 : Math.max(prev[j]!, row[j - 1]!);
    }
    [prev, row] = [row, prev];
  }
  return prev[b.length]!;
}

/**
 * The part of the key that is secret: what follows its last "_" or "-" when that is at least 16
 * characters ("sk_live_…"), else the whole key. A prefix that names the kind of key is in every
 * such key and in ordinary words ("sandbox"), so matching it would mask innocent text.
 */
export function secretPart(key: string): string {
  const cut = Math.max(key.lastIndexOf('_'), key.lastIndexOf('-'));
  return cut >= 0 && key.length - cut - 1 >= 16 ? key.slice(cut + 1) : key;
}

/**
 * The forms a service may echo the key in, as texts whose letters and digits (case folded) are
 * matched: the secret part as it is and reversed, hex-encoded, and base64-encoded at each of the
 * three byte offsets the key may stand at in what was encoded (base64url's letters and digits are
 * base64's), each cut to the characters that depend on the secret part alone.
 */
export function keyForms(key: string): string[] {
  const secret = secretPart(key);
  const bytes = Buffer.from(key, 'utf8');
  // The key's public head (`sk_sandbox_`) is no secret: its encodings are common text ("sandbox"
  // in a deposit's memo), so only characters that depend on the secret part are matched.
  const head = bytes.length - Buffer.byteLength(secret, 'utf8');
  const base64 = [0, 1, 2].map((offset) => {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    // The first characters mix in the bytes before the secret; the last ones, the bytes after the key.
    const from = Math.ceil(((offset + head) * 8) / 6);
    return encoded.slice(from, encoded.length - 4);
  });
  return [secret, [...secret].reverse().join(''), bytes.subarray(head).toString('hex'), ...base64];
}

/** A key's form as rules 2 to 4 match it: its letters and digits (0–35), as text, and the share rule 4 needs. */
interface Form {
  values: number[];
  text: string;
  needed: number;
}

/** What the redactor of one key matches against, built once per key. */
interface KeyPatterns {
  key: string;
  /** What each hidden piece shows as. */
  marker: string;
  /** Rule 1: the key's own 8-character pieces. */
  pieces: Set<string>;
  /** The key's 4-character blocks at multiples of 4: the quick test of rule 1. */
  blocks: string[];
  /** Rules 2 to 4: the key's forms (the first is the secret part itself). */
  forms: Form[];
  transformedPieces: Set<string>;
  coverGrams: Set<string>;
  /** The 4-runs of the dense forms, and of the hex forms, as bit sets (the quick test of rules 2 to 4). */
  grams: Uint8Array;
  sparseGrams: Uint8Array;
  longest: number;
  longestDense: number;
  longestSparse: number;
  shareNeeded: number;
}

/** A redactor for one key. */
export function keyRedactor(key: string): Redactor {
  const p = keyPatterns(key);
  const redact = ((text: string): string => transformed(p, exactPieces(p, text))) as Redactor;
  redact.holdsPiece = (text) => exactHeld(p, text) || transformedHeld(p, text);
  return redact;
}

/** The key's pieces, forms and 4-run sets. */
function keyPatterns(key: string): KeyPatterns {
  const pieces = new Set<string>();
  for (let i = 0; i + KEY_FRAGMENT_LENGTH <= key.length; i++) pieces.add(key.slice(i, i + KEY_FRAGMENT_LENGTH));
  // The exact pieces: every piece holds one of the key's 4-character blocks that start at a
  // multiple of 4 (a piece starts at most 3 characters before one and runs 8), so a text holding
  // none of those few blocks holds no piece: one native search per block.
  const blocks: string[] = [];
  for (let b = 0; b + 4 <= key.length; b += 4) blocks.push(key.slice(b, b + 4));
  // Rules 2 to 4 work on the letters and digits, case folded, of the key's forms (the first is the secret part itself).
  const forms = keyForms(key).map((form): Form => {
    const values = skeletonOf(form).values;
    return { values, text: asText(values), needed: Math.ceil(values.length * KEY_SHARE_MASKED) };
  });
  // Every 4-run of the forms' skeletons, as a 24-bit number, in a bit set: the quick scan's test.
  // A form of hex digits alone (the hex encoding) is apart: its 4-runs are 16 bits, so ids and
  // hashes in hex hit them by chance, and five hits (as an 8-run gives) are asked of them, not three.
  const sparse = forms.filter((f) => f.values.every((v) => v < 16));
  const dense = forms.filter((f) => !sparse.includes(f));
  return {
    key,
    marker: `${key.slice(0, 4)}…`,
    pieces,
    blocks,
    forms,
    transformedPieces: windowsOf(forms, KEY_FRAGMENT_LENGTH),
    coverGrams: windowsOf(forms, COVER_PIECE_LENGTH),
    grams: gramsOf(dense),
    sparseGrams: gramsOf(sparse),
    longest: Math.max(...forms.map((f) => f.values.length)),
    longestDense: Math.max(0, ...dense.map((f) => f.values.length)),
    longestSparse: Math.max(0, ...sparse.map((f) => f.values.length)),
    shareNeeded: Math.ceil(forms[0]!.values.length * KEY_SHARE_MASKED),
  };
}

/** Every run of this length of the forms' texts. */
function windowsOf(forms: Form[], length: number): Set<string> {
  const set = new Set<string>();
  for (const f of forms) for (let i = 0; i + length <= f.values.length; i++) set.add(f.text.slice(i, i + length));
  return set;
}

/** Every 4-run of the forms, as a 24-bit number, in a bit set. */
function gramsOf(list: Form[]): Uint8Array {
  const set = new Uint8Array(1 << 21);
  for (const { values } of list) {
    for (let i = 0; i + 4 <= values.length; i++) {
      const g = (values[i]! << 18) | (values[i + 1]! << 12) | (values[i + 2]! << 6) | values[i + 3]!;
      set[g >>> 3]! |= 1 << (g & 7);
    }
  }
  return set;
}

/** Rule 1: runs of 8 or more of the key's own characters, masked. */
function exactPieces(p: KeyPatterns, text: string): string {
  if (text.length < KEY_FRAGMENT_LENGTH || p.pieces.size === 0) return text;
  let out = '';
  let i = 0;
  while (i < text.length) {
    if (!p.pieces.has(text.slice(i, i + KEY_FRAGMENT_LENGTH))) {
      out += text[i];
      i++;
      continue;
    }
    // Extend the run as far as it stays a piece of the key.
    let end = i + KEY_FRAGMENT_LENGTH;
    while (end < text.length && p.key.includes(text.slice(i, end + 1))) end++;
    out += p.marker;
    i = end;
  }
  return out;
}

/** The runs of a skeleton's text that start with one of these windows, each extended while it stays in a form ([start, end)). */
function formRuns(p: KeyPatterns, skText: string, windows: Set<string>, length: number): Array<[number, number]> {
  const n = skText.length;
  const runs: Array<[number, number]> = [];
  let i = 0;
  while (i + length <= n) {
    if (!windows.has(skText.slice(i, i + length))) {
      i++;
      continue;
    }
    let end = i + length;
    while (end < n && p.forms.some((f) => f.text.includes(skText.slice(i, end + 1)))) end++;
    runs.push([i, end]);
    i = end;
  }
  return runs;
}

/** Rule 4: runs of 4+ that are pieces of one form and together cover most of it (skeleton positions, [start, end)). */
function coveringRuns(p: KeyPatterns, skText: string): Array<[number, number]> {
  const runs = formRuns(p, skText, p.coverGrams, COVER_PIECE_LENGTH);
  if (runs.length < 2) return [];
  for (const f of p.forms) {
    const covered = new Uint8Array(f.values.length);
    const mine = runs.filter(([s, e]) => {
      const run = skText.slice(s, e);
      const at = f.text.indexOf(run);
      if (at < 0) return false;
      covered.fill(1, at, at + run.length);
      return true;
    });
    if (covered.reduce((a, b) => a + b, 0) >= f.needed) return mine;
  }
  return [];
}

/** Rules 2 to 4, on the text's letters and digits: each match masked in the original text. */
function transformed(p: KeyPatterns, text: string): string {
  const sk = skeletonOf(text);
  const n = sk.values.length;
  if (n < KEY_FRAGMENT_LENGTH || p.transformedPieces.size === 0) return text;
  const keySkeleton = p.forms[0]!.values;
  const m = keySkeleton.length;
  // Rule 3: a short text that is mostly the key, in order.
  if (
    m >= 2 * KEY_FRAGMENT_LENGTH &&
    n <= 2 * m &&
    n >= p.shareNeeded &&
    commonInOrder(keySkeleton, sk.values) >= p.shareNeeded
  )
    return p.marker;
  // Rule 2: runs of the skeleton that are pieces of a form of the key, mapped back to their spans.
  const skText = asText(sk.values);
  const runs = formRuns(p, skText, p.transformedPieces, KEY_FRAGMENT_LENGTH);
  // Rule 4, on what rule 2 left: short pieces that add up to the key.
  const left =
    runs.length === 0
      ? skText
      : skText
          .split('')
          .map((c, k) => (runs.some(([s, e]) => k >= s && k < e) ? '\u0000' : c))
          .join('');
  runs.push(...coveringRuns(p, left));
  if (runs.length === 0) return text;
  runs.sort((a, b) => a[0] - b[0]);
  const spans = runs.map(([s, e]): [number, number] => [sk.starts[s]!, sk.ends[e - 1]!]);
  let out = '';
  let at = 0;
  for (const [s, e] of spans) {
    out += text.slice(at, s) + p.marker;
    at = e;
  }
  return out + text.slice(at);
}

/** Whether the text may hold one of the key's own pieces (rule 1's quick test). */
function exactHeld(p: KeyPatterns, text: string): boolean {
  return p.blocks.some((block) => text.includes(block)) && [...p.pieces].some((piece) => text.includes(piece));
}

/**
 * The transformed forms: one pass over the letters and digits (separators skipped, case
 * folded) looking for 4-runs of the key's forms; three of them within a form's length of each
 * other (five for a hex form) is worth a walk (an 8-run of the key holds five; by chance, a 50 kB
 * page of random text holds about one 4-run). Percent signs make the pass decode first.
 */
function transformedHeld(p: KeyPatterns, text: string): boolean {
  if (p.longest < KEY_FRAGMENT_LENGTH) return false;
  // Decoded first: a text with percent signs is made into its letters and digits once.
  const values = text.includes('%') ? skeletonOf(text).values : null;
  const length = values ? values.length : text.length;
  // The hits met so far: the last two of the dense forms', the last four of the hex forms' (a ring).
  let dense1 = -0x3fffffff;
  let dense2 = -0x3fffffff;
  let s0 = -0x3fffffff;
  let s1 = -0x3fffffff;
  let s2 = -0x3fffffff;
  let s3 = -0x3fffffff;
  let g = 0;
  let n = 0;
  for (let i = 0; i < length; i++) {
    let v: number;
    if (values) v = values[i]!;
    else {
      const c = text.charCodeAt(i);
      if (c >= 128) continue;
      v = ALNUM[c]!;
      if (v < 0) continue;
    }
    g = ((g << 6) | v) & 0xffffff;
    if (++n < 4) continue;
    const at = g >>> 3;
    const bit = 1 << (g & 7);
    if (p.grams[at]! & bit) {
      if (n - dense1 <= p.longestDense) return true;
      dense1 = dense2;
      dense2 = n;
    }
    if (p.sparseGrams[at]! & bit) {
      if (n - s0 <= p.longestSparse) return true;
      s0 = s1;
      s1 = s2;
      s2 = s3;
      s3 = n;
    }
  }
  return false;
}

/** A copy of a parsed JSON value with every string, and every object key, redacted. */
export function redactDeep<T>(value: T, redact: (s: string) => string): T {
  if (typeof value === 'string') return redact(value) as T;
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, redact)) as T;
  if (value && typeof value === 'object') {
    // The key may be echoed as a property name as well as a value.
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [redact(k), redactDeep(v, redact)])) as T;
  }
  return value;
}
