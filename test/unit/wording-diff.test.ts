// The word diff a changed wording is shown with: a changed word between kept ones; a slot is one
// word; a rewritten text is shown whole, old then new.
import { describe, expect, it } from 'vitest';
import { wordDiff } from '../../src/domain/wording-diff.js';

describe('wordDiff', () => {
  it('one word changed, a line added: the rest kept', () => {
    expect(
      wordDiff(
        'Sell ⟦amount in raw units⟧ of ⟦the mint⟧\nMinimum ⟦minimum in SOL⟧ SOL',
        'Sell ⟦amount in raw units⟧ of ⟦the mint⟧\nFloor ⟦minimum in SOL⟧ SOL\nok',
      ),
    ).toEqual([
      { op: '=', text: 'Sell ⟦amount in raw units⟧ of ⟦the mint⟧\n' },
      { op: '+', text: 'Floor' },
      { op: '-', text: 'Minimum' },
      { op: '=', text: ' ⟦minimum in SOL⟧ SOL' },
      { op: '+', text: '\nok' },
    ]);
  });

  it('a slot is one word: another slot is a change of the whole slot', () => {
    expect(wordDiff('at least ⟦minimum in SOL⟧', 'at least ⟦expected in SOL⟧')).toEqual([
      { op: '=', text: 'at least ' },
      { op: '+', text: '⟦expected in SOL⟧' },
      { op: '-', text: '⟦minimum in SOL⟧' },
    ]);
  });

  it('less than half the words in common: old then new, whole', () => {
    expect(wordDiff('a b c d', 'a x y z')).toEqual([
      { op: '-', text: 'a b c d' },
      { op: '+', text: 'a x y z' },
    ]);
    expect(wordDiff('a b c d', 'a b y z')[0]).toEqual({ op: '=', text: 'a b ' });
  });
});
