// The words about a buy's money once the signed deposit was handed over: "nothing was spent"
// only when the chain proves it; otherwise what is known, what is not, and not to buy again.
import { describe, expect, it } from 'vitest';
import { depositWords, nothingSpentProven, type DepositEvidence } from '../../src/domain/deposit-evidence.js';

const base: DepositEvidence = {
  buyId: 'b1',
  status: 'cancelled',
  depositRecorded: false,
  lastValidBlockHeight: 1234,
  follow: 'trader trades b1 --watch',
};

describe('depositWords', () => {
  it('cancelled with no deposit recorded, the chain not asked: what is known and what is not, never "nothing was spent"', () => {
    const words = depositWords(base);
    expect(words).toBe(
      'buy b1 is cancelled and the service records no deposit signature; what is not known: the signed deposit stays valid until block height 1234 (about 90 s) and could still land until then, so do not buy again before it has expired; check with: trader trades b1 --watch',
    );
    expect(nothingSpentProven(base)).toBe(false);
    expect(depositWords({ ...base, status: 'expired', chainProvesAbsent: null })).toMatch(
      /^buy b1 is expired and the service records no deposit signature; what is not known/,
    );
  });

  it('only the chain proves nothing was spent; the chain can also prove it spent', () => {
    const proven = { ...base, chainProvesAbsent: true };
    expect(nothingSpentProven(proven)).toBe(true);
    expect(depositWords(proven)).toBe(
      'buy b1 is cancelled, and the chain shows the signed deposit expired unused (after block height 1234): nothing was spent; you may buy again',
    );
    expect(depositWords({ ...base, chainProvesAbsent: false })).toMatch(
      /the chain shows the signed deposit landed: the SOL was spent; follow it with: trader trades b1 --watch$/,
    );
  });

  it.each([
    [
      { depositRecorded: true },
      /^buy b1 is cancelled and a deposit signature is recorded: the SOL may have been spent; do not buy again until it has settled/,
    ],
    [
      { depositRecorded: null },
      /^buy b1 is cancelled and whether a deposit was recorded is unknown: the signed deposit could still land until block height 1234/,
    ],
    [
      { status: null, depositRecorded: null },
      /^buy b1 is in an unknown state \(it could not be read\): the signed deposit may still be spent until block height 1234/,
    ],
    [
      { status: 'awaiting_deposit', note: 'the cancel failed' },
      /^buy b1 is awaiting_deposit \(the cancel failed\): the signed deposit may still be spent/,
    ],
    [
      { status: 'deposit_submitted', depositRecorded: false },
      /^buy b1 is deposit_submitted: the service took the deposit despite the error/,
    ],
  ])('%o', (over, says) => {
    const words = depositWords({ ...base, ...over });
    expect(words).toMatch(says);
    expect(words).not.toMatch(/nothing (was )?spent/);
  });

  it('without a follow command the sentence ends with the advice', () => {
    expect(depositWords({ ...base, follow: null })).toMatch(/so do not buy again before it has expired$/);
  });
});
