// The key redactor: any piece of the key (8 characters or more of it, anywhere in a text) is
// hidden, and holdsPiece, the quick test that decides whether a page is walked, finds every piece
// at every offset, and nothing shorter.
import { describe, expect, it } from 'vitest';
import { KEY_FRAGMENT_LENGTH, keyRedactor } from '../../src/api/redact.js';

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

  it('holdsPiece is false for 7 characters of the key, and for text without the key', () => {
    for (let i = 0; i + KEY_FRAGMENT_LENGTH - 1 <= KEY.length; i++) {
      const seven = KEY.slice(i, i + KEY_FRAGMENT_LENGTH - 1);
      expect(redact.holdsPiece(`${seven} ${seven}`), `offset ${i}`).toBe(false);
    }
    expect(redact.holdsPiece(JSON.stringify({ data: [{ id: 'act_1', mint: 'GFmFPooguQpNXADJ6Dd42rWt69m57SA6oFk3QwEcWqCd' }] }))).toBe(false);
  });

  it('the whole key, or two pieces of it, show as no more than its first 4 characters each', () => {
    expect(redact(`key=${KEY};`)).toBe(`key=${KEY.slice(0, 4)}…;`);
    expect(redact(`${KEY.slice(0, 10)} and ${KEY.slice(20, 30)}`)).toBe(`${KEY.slice(0, 4)}… and ${KEY.slice(0, 4)}…`);
  });
});
