// Whether a text given where a key's source belongs (a path, keystore:<name>, …) could be the
// key itself: a secret must be refused before it is echoed in "not found", stored by `config
// set` or logged. Generous on purpose: anything that could be 32 or 64 bytes written in hex,
// base58 or base64 (near those lengths too), any long high-entropy token, a JSON array of byte
// values, or a seed phrase, in any case and with any separator. A file name that reads as words
// ("my-wallet.json", "~/.config/solana/id.json") is none of these. Pure: no text is kept or shown.

const BASE58 = /^[1-9A-HJ-NP-Za-km-z]+$/;
const BASE58_DIGITS = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
/** The pieces a name falls into: words (Capitalised, lower or CAPS), single capitals, numbers. */
const PIECE = /[A-Z]{2,}(?![a-z])|[A-Z]?[a-z]+|[A-Z]|[0-9]+/g;
/** Below this many letters and digits a token is too short to be a key, whatever it looks like. */
const MIN_LENGTH = 40;
/** Decoded lengths taken as "near 32 or 64 bytes" (a character or a few too many or too few). */
const NEAR_KEY_BYTES = (n: number) => (n >= 28 && n <= 36) || (n >= 60 && n <= 68);
/**
 * Letters and digits per piece: random base58 or base64 averages under 2 (case and digits change
 * every character or two), words over 4. Below `ANY_LENGTH`, a long token is taken for random
 * data at any length; below `KEY_LENGTH`, at a key's length: random keys measured up to 4.8 in
 * 200,000 draws, so a name of words without a dot that happens to be a key's length may be
 * refused too (rename it), rather than a key let through.
 */
const ANY_LENGTH = 3;
const KEY_LENGTH = 5.5;

/** What `text` could be as key material ("hex of 64 bytes", "a seed phrase", …), or null when it cannot be. Never quotes it. */
export function keyMaterialShape(text: string): string | null {
  // A scheme in front (file:, keystore:, prompt:, usb://) or a query (usb://ledger?key=…) does not hide what follows it.
  const body = text
    .trim()
    .replace(/^[A-Za-z][A-Za-z0-9+.-]+:(\/\/)?/, '')
    .trim();
  const parts = [body, ...(/[?&=]/.test(body) ? body.split(/[?&=]/) : [])].map((p) => p.trim());
  if (parts.some(isNumberList)) return 'a JSON array of numbers';
  if (parts.some(isPhrase)) return 'a seed phrase';
  // Hex with any separator between its bytes ("ab:cd", "AB CD", "0xab, 0xcd").
  for (const part of parts) {
    const hex = part.replace(/0x/gi, '').replace(/[\s:,;._'"()[\]{}-]+/g, '');
    // A key uses most of the 16 digits; "aaaa…" or "deadbeef" repeated is a name.
    if (hex.length >= 40 && /^[0-9a-f]+$/i.test(hex) && new Set(hex.toLowerCase()).size >= 8)
      return `hex of ${hex.length >> 1} bytes`;
  }
  // The whole value, the spaces between its groups taken out (not a path: a folder made by
  // mkdtemp, `…/run-Ltd8cL/`, is random too); then each run of its characters, except a file's
  // name before its extension (`solana-keygen grind` names a keypair file by its address: <address>.json).
  const grouped = parts
    .filter((p) => !/^[/~.]/.test(p))
    .map((p) => p.replace(/[\s,;:]+/g, ''))
    .filter((p) => /^[A-Za-z0-9+/=_-]+$/.test(p));
  const runs = [...body.matchAll(/[A-Za-z0-9+=_-]+(\.[A-Za-z0-9]{1,8}\b)?/g)]
    .filter((m) => m[1] === undefined)
    .map((m) => m[0]);
  for (const token of [...grouped, ...runs]) {
    const shape = tokenShape(token);
    if (shape) return shape;
  }
  return null;
}

/** 16 or more whole numbers, with brackets, commas and spaces only: a keypair's byte values. */
function isNumberList(text: string): boolean {
  return /^[[\](){}\d\s,;]+$/.test(text) && (text.match(/\d+/g)?.length ?? 0) >= 16;
}

/**
 * 11 to 25 words (BIP-39 phrases have 12 to 24, one may be missing or doubled) of 2 to 10
 * letters each, in any case, whatever separates them; numbers between them ("1. abandon 2. …")
 * are separators too, but not in a run of base58 that is a key's length: that is a key's text
 * (0.4% of random base58 keys read as 11 words split by digits), named as such below. Not a
 * path: a deep folder of short names is no phrase.
 */
function isPhrase(text: string): boolean {
  if (/[/\\]/.test(text) || (BASE58.test(text) && tokenShape(text) !== null)) return false;
  const words = text.split(/[^\p{L}]+/u).filter(Boolean);
  return words.length >= 11 && words.length <= 25 && words.every((w) => w.length >= 2 && w.length <= 10);
}

/** What a run of base58/base64 characters could be as a key, or null. */
function tokenShape(token: string): string | null {
  const alnum = token.replace(/[^A-Za-z0-9]/g, '');
  if (alnum.length < MIN_LENGTH) return null;
  const pieces = alnum.match(PIECE)?.length ?? 1;
  const perPiece = alnum.length / pieces;
  if (BASE58.test(token)) {
    const bytes = base58Length(token);
    if (NEAR_KEY_BYTES(bytes) && perPiece < KEY_LENGTH) return `base58 of ${bytes} bytes`;
  } else {
    const bytes = Math.floor((token.replace(/=+$/, '').length * 3) / 4);
    if (NEAR_KEY_BYTES(bytes) && perPiece < KEY_LENGTH) return `base64 of ${bytes} bytes`;
  }
  return perPiece < ANY_LENGTH ? `a long random-looking value (${alnum.length} characters)` : null;
}

/** How many bytes a base58 text decodes to. */
function base58Length(text: string): number {
  let n = 0n;
  for (const c of text) n = n * 58n + BigInt(BASE58_DIGITS.indexOf(c));
  const zeros = /^1*/.exec(text)![0].length;
  return zeros + (n === 0n ? 0 : (n.toString(16).length + 1) >> 1);
}
