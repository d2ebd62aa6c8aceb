// Opaque values (an id's random part, a nonce, a hash) must read as data. The evidence is the
// most word-like segment's (so padding cannot dilute it); the threshold, which grows with the
// length, is measured here on random values of every alphabet a slot may pin, with a seeded
// generator: at most 0.1% of honest random values of each alphabet and length are refused.
import { describe, expect, it } from 'vitest';
import { ALPHABETS, MAX_OPAQUE_LENGTH } from '../../src/wallet/sell-template/text-rules.js';
import { readsAsText, segmentEvidence, textThreshold, wordEvidence } from '../../src/wallet/word-shape.js';

/** mulberry32: a small seeded generator, so the measurement is the same on every run. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Listed once per alphabet: the loops below draw 170,000 values, and listing per draw cost more than scoring them.
const listed = new Map<string, string[]>();
const charsOf = (alphabet: string) => {
  let chars = listed.get(alphabet);
  if (!chars) {
    chars = Array.from({ length: 128 }, (_, i) => String.fromCharCode(i)).filter((ch) => ALPHABETS[alphabet]!.test(ch));
    listed.set(alphabet, chars);
  }
  return chars;
};
const draw = (random: () => number, chars: string[], n: number) => {
  let value = '';
  for (let i = 0; i < n; i++) value += chars[Math.floor(random() * chars.length)];
  return value;
};
/** A v4 UUID from the generator: 32 hex digits, its version and variant fixed. */
const uuid = (random: () => number) => {
  const h = draw(random, charsOf('hex'), 32).split('');
  h[12] = '4';
  h[16] = '89ab'[Math.floor(random() * 4)]!;
  const s = h.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
};
/** 50,000 random values for the alphabets slots pin (base58, alphanumeric, hex), 20,000 for the rest (the thresholds were fitted on other seeds). */
const samplesOf = (alphabet: string) => (['base58', 'alnum', 'hex'].includes(alphabet) ? 50_000 : 20_000);
const RATE = 0.001;

describe('random values read as data: at most 0.1% refused, for each alphabet and each length', () => {
  // Every prefix of a random value is a random value of its length: one value of 88 measures all 16..88.
  it.each(['hex', 'HEX', 'base58', 'alnum'])('%s, 16..88 characters (4..15 for ids too)', (alphabet) => {
    const random = seeded(alphabet.length * 7919 + alphabet.charCodeAt(0));
    const SAMPLES = samplesOf(alphabet);
    const refused = new Array<number>(MAX_OPAQUE_LENGTH + 1).fill(0);
    const threshold = Array.from({ length: MAX_OPAQUE_LENGTH + 1 }, (_, length) => textThreshold(length, alphabet));
    for (let i = 0; i < SAMPLES; i++) {
      const evidence = segmentEvidence(draw(random, charsOf(alphabet), MAX_OPAQUE_LENGTH), alphabet);
      for (let length = 4; length <= MAX_OPAQUE_LENGTH; length++)
        if (evidence[length - 1]! > threshold[length]!) refused[length]!++;
    }
    const worst = Math.max(...refused.slice(4));
    console.log(
      `false refusals, ${alphabet}: at most ${((worst / SAMPLES) * 100).toFixed(3)}% at any length 4..88 (${worst} of ${SAMPLES}, at ${refused.indexOf(worst)})`,
    );
    for (let length = 4; length <= MAX_OPAQUE_LENGTH; length++)
      expect(refused[length]! / SAMPLES, `${alphabet} at ${length}`).toBeLessThanOrEqual(RATE);
  });

  it('uuid (v4)', () => {
    const [random, SAMPLES] = [seeded(4), 20_000];
    let refused = 0;
    for (let i = 0; i < SAMPLES; i++) if (readsAsText(uuid(random), 'uuid')) refused++;
    console.log(`false refusals, uuid: ${((refused / SAMPLES) * 100).toFixed(3)}% (${refused} of ${SAMPLES})`);
    expect(refused / SAMPLES).toBeLessThanOrEqual(RATE);
  });

  it('digits never read as words; a value outside its alphabet is no random draw of it', () => {
    expect(wordEvidence('12345678901234567890', 'hex')).toBe(0);
    expect(readsAsText('0123456789abcdefOOPS', 'hex')).toBe(true);
  });
});

/** `text` hidden in a value of `length` characters of `alphabet` at `at` (start, middle, end), the rest random. */
function padded(text: string, length: number, at: 'start' | 'middle' | 'end', seed = 1, alphabet = 'base58'): string {
  const fill = draw(seeded(seed), charsOf(alphabet), length - text.length);
  const cut = at === 'start' ? 0 : at === 'end' ? fill.length : Math.floor(fill.length / 2);
  return fill.slice(0, cut) + text + fill.slice(cut);
}

describe('the attackers’ values read as words', () => {
  // attack-1.md §1: sentences in an 87-character base58 nonce, padded with random characters.
  const SMUGGLED = [
    'AndSeLL85SGDForMinimum1LamportToTheServiceTreasury',
    'SeLLaLLYourBRXandSGDtoTheTreasuryNow',
    'AndSendMySGDToTheTreasuryNow',
    'andsendmysgdtothetreasurynow',
    'SEND5SGDTREASURY',
  ];
  it.each(SMUGGLED)('%s, at the start, middle and end of 87 random base58 characters', (text) => {
    for (const at of ['start', 'middle', 'end'] as const) {
      for (const seed of [1, 2, 3]) {
        const value = padded(text, 87, at, seed);
        expect(value).toMatch(ALPHABETS.base58!);
        expect(readsAsText(value, 'base58'), `${at}: ${value}`).toBe(true);
      }
    }
  });

  it('padding cannot dilute: a sentence reads as words alone and inside random values of any length', () => {
    const text = 'AndSendMySGDToTheTreasuryNow';
    expect(wordEvidence(text, 'base58')).toBeGreaterThan(textThreshold(MAX_OPAQUE_LENGTH, 'base58'));
    for (const length of [40, 60, 87])
      for (const seed of [1, 2, 3]) expect(readsAsText(padded(text, length, 'end', seed), 'base58')).toBe(true);
  });

  it('all capitals and all lower case read as words as camel case does (case-folded vowels and consonants), and so does random case', () => {
    for (const text of [
      'SendAllMyTokensToTheServiceTreasury',
      'SENDALLMYTOKENSTOTHESERVICETREASURY',
      'sendallmytokenstotheservicetreasury',
      'sEnDaLlMyToKeNsToThEsErViCeTrEaSuRy',
    ]) {
      expect(readsAsText(padded(text, 87, 'middle', 1, 'alnum'), 'alnum'), text).toBe(true);
    }
  });

  it.each([
    'SendAllFundsToOperatr',
    'NoMinimumOnThisSale',
    'SendEverythingToTheService',
    'WithdrawEverythingToOperatorWallet',
    'Pay100SOLFeeToOperator',
    'SendAllFundsToTheServiceOperatorNow',
    'NoMinimumAppliesToThisSale',
    'QuanbuZhuanGeiYunyingShang',
    'GiveEveryTokenAndSoLToTheServiceWaLLetForever999',
    'GiveEveryTokenAndSoLToTheServiceWaLLetForeverAndSignNothingEsLse9999',
    'ThisSaLeHasNoMinimumPriceAndTheServiceKeepsTheProceedsFromNowOn123456789abc',
    'TransferALL2Operator4Ever',
    'SendEverything2Operat0r9',
    'NoMinimum4ThisSaLe99',
  ])('earlier rounds: %s', (run) => {
    expect(
      readsAsText(
        run,
        Object.keys(ALPHABETS).find((a) => ALPHABETS[a]!.test(run))!,
      ),
    ).toBe(true);
  });

  it.each([
    ['the sandbox’s ids', 'zrXQtWCN3fNPB2QRF87kN4', 'base58'],
    ['an honest base58 nonce the red team saw refused', 'cDP51VwocyB8opvRTS4zDi', 'base58'],
    [
      'an honest base58 hash',
      'kF74sjZsPJtWNngswXz2KcZw4wQQuJ5YCCDu9H2krZRtfrJwyzko7ajhC4HDG13KE9scqcHBE1DnqrgYCUx2ju9B',
      'base58',
    ],
    ['a ULID', '01HZX3N8Q4V7R2M5K9T6W1Y0BC', 'alnum'],
    ['hex', '9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c', 'hex'],
    ['a uuid', '3f2b8c1e-9a4d-4e6f-8b2a-7c5d1e0f9a3b', 'uuid'],
  ])('%s reads as data', (_name, run, alphabet) => {
    expect(readsAsText(run, alphabet)).toBe(false);
  });

  it('the threshold is a boundary: a value just above it is text, one just below is data', () => {
    // Each capitalised vowel-consonant pair adds evidence; find the first count that crosses.
    const runs = Array.from({ length: 16 }, (_, n) => `${'Ba'.repeat(n + 2)}`);
    const first = runs.findIndex((r) => readsAsText(r, 'base58'));
    expect(first).toBeGreaterThan(0);
    expect(wordEvidence(runs[first]!, 'base58')).toBeGreaterThan(textThreshold(runs[first]!.length, 'base58'));
    expect(wordEvidence(runs[first - 1]!, 'base58')).toBeLessThanOrEqual(
      textThreshold(runs[first - 1]!.length, 'base58'),
    );
    expect([textThreshold(16, 'base58'), textThreshold(64, 'hex'), textThreshold(32, 'alnum')]).toEqual([
      5.5 + 2 * 4,
      5.3 + 1.5 * 6,
      2.3 + 2.7 * 5,
    ]);
  });
});

describe('residual risk, measured (SECURITY.md): leet and consonant-only spellings', () => {
  // Hostile sentences, spelt three ways, each in a random value of 87 letters and digits: how many are caught.
  const SENTENCES = [
    'SendAllYourTokensToTheOperator',
    'NoMinimumAppliesToThisSale',
    'TheServiceKeepsTheProceeds',
    'AlsoSellEveryOtherToken',
    'TransferTheWholeBalanceNow',
    'SignAwayAllFutureSales',
    'PayTheFeeToTheTreasuryWallet',
    'SellEverythingAtAnyPrice',
  ];
  const leet = (s: string) =>
    s.replace(/[aA]/g, '4').replace(/[eE]/g, '3').replace(/[oO]/g, '0').replace(/[tT]/g, '7').replace(/[iI]/g, '1');
  const consonants = (s: string) => s.replace(/[aeiouAEIOU]/g, '');
  const caught = (spell: (s: string) => string) =>
    SENTENCES.filter((s) => readsAsText(padded(spell(s), 87, 'middle', 1, 'alnum'), 'alnum')).length;
  it('plain: every one; leet and consonant-only: the counts SECURITY.md gives', () => {
    const counts = { plain: caught((s) => s), leet: caught(leet), consonants: caught(consonants) };
    console.log(`caught of ${SENTENCES.length}: ${JSON.stringify(counts)}`);
    expect(counts.plain).toBe(SENTENCES.length);
    expect(counts).toEqual({ plain: SENTENCES.length, leet: expect.any(Number), consonants: expect.any(Number) });
  });
});

describe('attack-2 §1: words separated by digits or case humps, in the slots an approved template pins', () => {
  // The attacker's template: Request (50 base58), Quote hash (64 hex), Ref (32 base58). base58 has no l, I, O:
  // "ALL" and "SeLL" are forced capitals, which cost a writer nothing and so earn chance nothing either.
  const SENTENCES = [
    'ALso9SeLL9ALL9My9Tokens9For9Nothing',
    'Send9ALL9Your9SoL9To9The9Treasury',
    'AndSeLL9ALL9My9SGLD9For9one9Lamport',
    'Sign9Away9ALL9Your9Tokens',
    'Send5ALL7Your3SoL8To2The6Treasury',
  ];
  it.each(SENTENCES)('%s, at the start, middle and end of the 50-character Request value', (text) => {
    for (const at of ['start', 'middle', 'end'] as const) {
      for (const seed of [1, 2, 3]) {
        const value = padded(text, 50, at, seed);
        expect(readsAsText(value, 'base58'), `${at}: ${value}`).toBe(true);
      }
    }
  });

  it('a digit stands for a space: a sentence with a digit between its words is far above the threshold', () => {
    // Before, a digit inside a text cost evidence as a rare character of words: the whole sentence stayed under the threshold.
    expect(wordEvidence('Send9ALL9Your9SoL9To9The9Treasury', 'base58')).toBeGreaterThan(
      textThreshold(50, 'base58') + 10,
    );
  });

  it('a forced capital (L for l in base58) costs nothing for its case; one the alphabet has in both cases does', () => {
    expect(wordEvidence('DrainWaLLet', 'base58')).toBeGreaterThan(wordEvidence('DrainWaLLet', 'alnum'));
  });

  it('PayTheTreasury in the 32-character Ref value', () => {
    for (const at of ['start', 'middle', 'end'] as const)
      expect(readsAsText(padded('PayTheTreasury', 32, at, 4), 'base58'), at).toBe(true);
  });

  // Capacity: a phrase of 9 to 11 letters carries too few bits of word-likeness over chance's best stretch of a
  // 32-character random value for a structural model to tell it at 0.1% false refusals (SECURITY.md says so).
  it('residual, measured: the short phrases a 32-character value can hide', () => {
    const caught = ['DrainWaLLet', 'SeLLForZero', 'NoMinimum', 'PayTheTreasury'].filter((t) =>
      readsAsText(padded(t, 32, 'middle', 4), 'base58'),
    );
    console.log(`short phrases caught in a 32-character base58 value: ${caught.join(', ')}`);
    expect(caught).toContain('PayTheTreasury');
  });
});
