// The sell guard's word tables look up words of a message the service wrote: a word that names a
// property of every object ("constructor", "__proto__") must find nothing, not a built-in.
import { describe, expect, it } from 'vitest';
import { UNIT_WORDS } from '../../src/wallet/sell-message/vocabulary.js';

describe('word tables have no prototype', () => {
  it.each(['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf'])('UNIT_WORDS[%j] is undefined', (word) => {
    expect(UNIT_WORDS[word]).toBeUndefined();
  });
  it('still finds its own words', () => {
    expect([UNIT_WORDS.sol, UNIT_WORDS.lamports, UNIT_WORDS.k]).toEqual(['sol', 'lamports', 'scaled']);
  });
});
