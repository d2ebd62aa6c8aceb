// The key redactor: any piece of the key (8 characters or more of it, anywhere in a text) is
// hidden, and holdsPiece, the quick test that decides whether a page is walked, finds every piece
// at every offset, and nothing shorter.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  KEY_FRAGMENT_LENGTH,
  KEY_SHARE_MASKED,
  keyForms,
  keyRedactor,
  redactDeep,
  secretPart,
} from '../../src/api/redact.js';

const KEY = 'tk_live_9fQ2mZ7pL4vB8nR3tY6wK1cF5hJ0dG2sE4uI7o'; // 45 characters: not a multiple of 4

describe('keyRedactor', () => {
  const redact = keyRedactor(KEY);

  it('holdsPiece finds every 8-character piece at every offset of the key, inside other text', () => {
    for (let i = 0; i + KEY_FRAGMENT_LENGTH <= KEY.length; i++) {
      const piece = KEY.slice(i, i + KEY_FRAGMENT_LENGTH);
      expect(redact.holdsPiece(`{"note":"x${piece}y"}`), `offset ${i}`).toBe(true);
      expect(redact(`x${piece}y`), `offset ${i}`).toBe(`x${KEY.slice(0, 4)}…y`);
    }
  });

  it('7 characters of the key are left alone; holdsPiece is false for text without the key', () => {
    for (let i = 0; i + KEY_FRAGMENT_LENGTH - 1 <= KEY.length; i++) {
      const seven = KEY.slice(i, i + KEY_FRAGMENT_LENGTH - 1);
      expect(redact(`${seven} ${seven}`), `offset ${i}`).toBe(`${seven} ${seven}`);
    }
    expect(
      redact.holdsPiece(
        JSON.stringify({ data: [{ id: 'act_1', mint: 'GFmFPooguQpNXADJ6Dd42rWt69m57SA6oFk3QwEcWqCd' }] }),
      ),
    ).toBe(false);
  });

  it('the whole key, or two pieces of it, show as no more than its first 4 characters each', () => {
    expect(redact(`key=${KEY};`)).toBe(`key=${KEY.slice(0, 4)}…;`);
    expect(redact(`${KEY.slice(0, 10)} and ${KEY.slice(20, 30)}`)).toBe(`${KEY.slice(0, 4)}… and ${KEY.slice(0, 4)}…`);
  });
});

describe('keyRedactor: the key echoed transformed', () => {
  const key = 'sk_test_4fQ2mZ7pL4vB8nR3tY6wK1cF5hJ0dG2s'; // secret part: the 32 characters after the last "_"
  const secret = key.slice(8);
  const redact = keyRedactor(key);
  const dashed7 = (s: string) => s.match(/.{1,7}/g)!.join('-');
  const percent = (s: string) =>
    [...s].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`).join('');
  /** No 8 characters of the key, case ignored, are left in `out` once separators are dropped. */
  const holdsNoPiece = (out: string) => {
    const flat = decodeURIComponent(out.replace(/%(?![0-9a-f]{2})/gi, '%25'))
      .replace(/[^0-9a-z]/gi, '')
      .toLowerCase();
    const k = secret.toLowerCase();
    for (let i = 0; i + 8 <= k.length; i++)
      expect(flat.includes(k.slice(i, i + 8)), `piece ${k.slice(i, i + 8)} left in ${out}`).toBe(false);
  };

  it.each([
    ['upper case', key.toUpperCase()],
    ['in 7-character pieces separated by dashes', dashed7(key)],
    [
      'upper case, dashed, percent-encoded (the reported echo)',
      encodeURIComponent(dashed7(key.toUpperCase())).replace(/-/g, '%2D'),
    ],
    ['every character percent-encoded', percent(key)],
    ['percent-encoded twice', percent(key).replace(/%/g, '%25')],
    [
      'separated by spaces, mixed case',
      [...secret].map((c, i) => (i % 2 ? c.toUpperCase() : c.toLowerCase())).join(' '),
    ],
  ])('%s: hidden, seen by the quick test; in a long text, the text around it kept', (_name, echoed) => {
    const long = `your key ${echoed} is suspended until the account review of this month has been completed by support`;
    expect(redact.holdsPiece(JSON.stringify({ data: [{ message: long }] }))).toBe(true);
    const out = redact(long);
    holdsNoPiece(out);
    expect(out).toMatch(
      /^your key .*sk_t…[^0-9a-z]* is suspended until the account review of this month has been completed by support$/i,
    );
    // A short text that is mostly the key is masked whole.
    expect(redact(`key ${echoed}`)).toBe('sk_t…');
  });

  it('a short field holding most of the key in order is masked whole: at two thirds of its characters, not one fewer', () => {
    // Every third character dropped: no run of 8 is left, only the order.
    const kept = [...secret].filter((_, i) => i % 3 !== 2);
    expect(kept).toHaveLength(Math.ceil(32 * KEY_SHARE_MASKED)); // 22
    expect(redact(kept.join('-'))).toBe('sk_t…');
    expect(redact(kept.join('').toUpperCase())).toBe('sk_t…');
    const fewer = kept.slice(1).join('-');
    expect(redact(fewer)).toBe(fewer);
  });

  it('only a short field is masked by the in-order rule: at twice the key length, not one more', () => {
    const kept = [...secret].filter((_, i) => i % 3 !== 2).join('');
    const pad = (n: number) => 'x'.repeat(n);
    // 22 of the key's characters and junk letters the key does not hold ('x'), 64 in all = 2 × 32.
    expect(secret.toLowerCase()).not.toContain('x');
    expect(redact(kept + pad(64 - 22))).toBe('sk_t…');
    const longer = kept + pad(65 - 22);
    expect(redact(longer)).toBe(longer);
  });

  it('the prefix that names the kind of key, and ordinary words, are not the key', () => {
    for (const text of [
      'SK-TEST keys are for tests',
      'sk test',
      'the trader sandbox',
      'Sell 1,234.5 BONK for at least 0.0495 SOL',
    ]) {
      expect(redact(text)).toBe(text);
      expect(redact.holdsPiece(text)).toBe(false);
    }
    expect(secretPart(key)).toBe(secret);
    expect(secretPart('short_abc')).toBe('short_abc');
  });

  it('7 characters of the secret, transformed, are left alone; 8 are hidden (case and dashes ignored)', () => {
    const seven = secret.slice(5, 12).toUpperCase();
    const eight = secret.slice(5, 13).toUpperCase();
    expect(redact(`id ${seven.slice(0, 3)}-${seven.slice(3)}`)).toBe(`id ${seven.slice(0, 3)}-${seven.slice(3)}`);
    expect(redact(`id ${eight.slice(0, 3)}-${eight.slice(3)}`)).toBe('id sk_t…');
  });

  it('honest values of every kind pass unchanged: ids, mints, signatures, base64 transactions', () => {
    const values = [
      '0b9f3a2e-8d6c-4a55-9a43-2f5d9b8e1c11',
      'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263',
      'sell_3xQ9bKzT4mHnP2wRvL8cDfG7jY',
      '5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW',
      Buffer.from(Array.from({ length: 300 }, (_, i) => (i * 37) % 256)).toString('base64'),
    ];
    for (const v of values) expect(redact(v)).toBe(v);
  });
});

describe('redactDeep', () => {
  const key = 'sk_test_4fQ2mZ7pL4vB8nR3tY6wK1cF5hJ0dG2s';
  const redact = keyRedactor(key);
  it('hides the key as an object key as well as a value, at any depth', () => {
    const echoed = { data: { [key]: { scopes: ['read'] }, nested: [{ [key.toUpperCase()]: 1, note: `k=${key}` }] } };
    const out = redactDeep(echoed, redact);
    const text = JSON.stringify(out);
    expect(text).not.toContain(key.slice(8, 16));
    expect(text.toLowerCase()).not.toContain(key.slice(8, 16).toLowerCase());
    expect(out).toEqual({ data: { 'sk_t…': { scopes: ['read'] }, nested: [{ 'sk_t…': 1, note: 'k=sk_t…' }] } });
  });
});

describe('keyRedactor: the key echoed encoded, reversed, or in short overlapping pieces', () => {
  const key = 'sk_sandbox_cZGMUb6ZzphNUzwdbQMXhHo2oF8bojs6';
  const redact = keyRedactor(key);
  const secret = key.slice(key.lastIndexOf('_') + 1);
  const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64');
  const windows = (s: string, size: number, sep: string) =>
    Array.from({ length: s.length - size + 1 }, (_, i) => s.slice(i, i + size)).join(sep);
  /** No 8 characters in a row of any form of the key survive in `out` (letters and digits, case folded). */
  const leftOf = (out: string, form: string) => {
    const flat = out.replace(/[^0-9a-z]/gi, '').toLowerCase();
    const f = form.replace(/[^0-9a-z]/gi, '').toLowerCase();
    const left: string[] = [];
    for (let i = 0; i + 8 <= f.length; i++) if (flat.includes(f.slice(i, i + 8))) left.push(f.slice(i, i + 8));
    return left;
  };

  // The key's public head (sk_…_) is no secret: its encodings may stay; every character that depends on the secret part goes.
  const head = key.length - secret.length;
  const secretB64 = b64(key).slice(Math.ceil((head * 8) / 6));
  it("the public head's encodings are left alone: a deposit whose memo says 'trader-sandbox:…' reaches the inspection as it was sent", () => {
    for (const offset of ['', 'a', 'ab']) {
      const text = b64(`${offset}tag:${key.slice(0, head)}bd7aa57e-9f90-4839-acbf-3c1e0b7e6c1f`);
      expect(redact(text)).toBe(text);
    }
  });

  it.each([
    ['base64', b64(key), secretB64],
    [
      'base64 inside an encoded sentence (another byte offset)',
      b64(`your key: ${key} is suspended`),
      b64(`your key: ${key}`).slice(Math.ceil(((10 + head) * 8) / 6)),
    ],
    ['base64 at the third byte offset', b64(`ab${key}`), b64(`ab${key}`).slice(Math.ceil(((2 + head) * 8) / 6))],
    [
      'base64url',
      Buffer.from(`x${key}`).toString('base64url'),
      Buffer.from(`x${key}`)
        .toString('base64url')
        .slice(Math.ceil(((1 + head) * 8) / 6)),
    ],
    ['hex', Buffer.from(key).toString('hex'), Buffer.from(secret).toString('hex')],
    ['hex, upper case', Buffer.from(key).toString('hex').toUpperCase(), Buffer.from(secret).toString('hex')],
    ['reversed', [...key].reverse().join(''), [...secret].reverse().join('')],
  ])('%s: hidden, and the quick test sees it', (_name, echoed, form) => {
    expect(form.length).toBeGreaterThan(16);
    const text = `account note: ${echoed} (see support)`;
    expect(redact.holdsPiece(JSON.stringify({ data: { note: text } }))).toBe(true);
    const out = redact(text);
    expect(out).toContain('sk_s…');
    expect(leftOf(out, form)).toEqual([]);
    expect(out.startsWith('account note: ')).toBe(true);
  });

  it.each([
    ['7-character windows shifted by one, glued', windows(key, 7, '')],
    ['7-character windows, comma separated', windows(key, 7, ',')],
    ['5-character windows of the secret, spaced', windows(secret, 5, ' ')],
    ['7-character windows of the hex form', windows(Buffer.from(key).toString('hex'), 7, '|')],
  ])('%s: each piece masked, none left that adds up to the key', (_name, field) => {
    expect(field.length).toBeGreaterThan(2 * key.length); // too long for the short-text rule
    expect(redact.holdsPiece(JSON.stringify({ data: { name: field } }))).toBe(true);
    const out = redact(field);
    // What is left holds no 4-character piece of the secret that could be put back together.
    const flat = out
      .replace(/sk_s…/g, ' ')
      .replace(/[^0-9a-z]/gi, '')
      .toLowerCase();
    const pieces = [
      ...new Set(Array.from({ length: secret.length - 3 }, (_, i) => secret.slice(i, i + 4).toLowerCase())),
    ].filter((p) => flat.includes(p));
    expect(pieces.length, `left: ${out}`).toBeLessThan(secret.length / 3);
  });

  it('innocent text is left alone: a deposit transaction (base64), signatures and ids, and a few short coincidences with the key', () => {
    const tx = b64(Buffer.from(Array.from({ length: 300 }, (_, i) => (i * 37 + 11) % 256)));
    const text = `tx ${tx} sig 3VXMnjGYphWJRsfqDaCqBzsdVkgx2qMNWKqaYYc9UFTy9YMCdjALbW6A4p2Q1ARv5bEv8PyRQEBLxSatdUhw8v72 id 9ae2e38a-2f9c-4dcd-ae7d-7de95bc77de4 and ${secret.slice(0, 4)} then ${secret.slice(10, 14)}`;
    expect(redact(text)).toBe(text);
    expect(keyForms(key)).toHaveLength(6);
  });

  it('a page of hex ids and hashes is not worth a walk (a hex form needs five hits, not three); the key hex-encoded among them is', () => {
    // 3,000 sha256 hashes: 192,000 hex digits, whose 4-runs meet the hex form's by chance.
    const hashes = Array.from({ length: 3000 }, (_, i) => createHash('sha256').update(`id ${i}`).digest('hex'));
    const page = JSON.stringify({ data: hashes.map((id) => ({ id })) });
    expect(redact.holdsPiece(page)).toBe(false);
    const withKey = JSON.stringify({
      data: [...hashes.slice(0, 1500), Buffer.from(key).toString('hex'), ...hashes.slice(1500)].map((id) => ({ id })),
    });
    expect(redact.holdsPiece(withKey)).toBe(true);
  });
});
