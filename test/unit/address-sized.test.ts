// Random values of an address's size (attack-3 F12): an approved slot of 64 hex digits can carry
// another party's public key, and the tool reads no prose to tell a payee from a nonce. So the
// approval screen labels such a slot as one that can be an account the tool cannot check (the
// prompt's legend; `config trust` and accept-wording, which show no values, in a line), and at
// later sells a value in it that is an address the tool knows in a role of its own (the mint,
// the wallet, the treasury) is refused, as a base58 one is.
import bs58 from 'bs58';
import { describe, expect, it } from 'vitest';
import { isAddressSized, knownHexAddress } from '../../src/wallet/address-sized.js';
import { addressSizeWarning } from '../../src/views/wording.js';
import { judgeSell, type Verdict } from '../../src/wallet/sell-template/guard.js';
import type { Part, Template } from '../../src/wallet/sell-template/template.js';
import { sellReviewText } from '../../src/views/sell-screens.js';
import { plainTheme, type Theme } from '../../src/io/theme.js';
import { authorization, good, input, OWNER, STRANGER, T1, TREASURY } from './sell-template-fixtures.js';

const hexOf = (address: string) => Buffer.from(bs58.decode(address)).toString('hex');
const RANDOM = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
const judge = (message: string, approved: Template | null = null, treasury: string | null = TREASURY) =>
  judgeSell(input(T1, message, approved, { treasury }));
const payTo = (value: string) => `${good(T1)}\nPay proceeds to: ${value}`;

describe('isAddressSized: opaque slots pinned at exactly 32 bytes', () => {
  const slot = (opaque: string, length: number): Part => ({ opaque, length }) as Part;
  it.each<[string, Part, boolean]>([
    ['64 hex digits', slot('hex', 64), true],
    ['64 HEX digits', slot('HEX', 64), true],
    ['63 hex digits', slot('hex', 63), false],
    ['65 hex digits', slot('hex', 65), false],
    ['44 base58', slot('base58', 44), true],
    ['43 base58', slot('base58', 43), true],
    ['42 base58', slot('base58', 42), false],
    ['45 base58', slot('base58', 45), false],
    ['a uuid', slot('uuid', 36), false],
    ['the mint (a fact, not a random value)', { fact: 'mint', notations: ['exact'] }, false],
  ])('%s: %s', (_name, part, sized) => {
    expect(isAddressSized(part as Exclude<Part, string>)).toBe(sized);
  });
});

describe('addressSizeWarning', () => {
  const hex64 = { opaque: 'hex', length: 64 } as Part;
  it('one slot: one line, named as the template text shows it; none without one', () => {
    expect(addressSizeWarning(['a ', { fact: 'mint', notations: ['exact'] }, ' b ', hex64])).toEqual([
      '⟦64 hex⟧ is 32 bytes: it can be an account address, which the tool cannot check',
    ]);
    expect(addressSizeWarning(['a ', { opaque: 'hex', length: 63 } as Part])).toEqual([]);
  });
  it('several: each kind named once, in two lines when one would pass 80 columns', () => {
    const lines = addressSizeWarning([hex64, ' ', hex64, ' ', { opaque: 'base58', length: 44 } as Part]);
    expect(lines).toEqual([
      'Each ⟦64 hex⟧, ⟦44 base58⟧ is 32 bytes:',
      'it can be an account address, which the tool cannot check',
    ]);
    for (const line of [...lines, ...addressSizeWarning([hex64])]) expect(line.length).toBeLessThanOrEqual(80);
  });
});

describe('knownHexAddress', () => {
  const known = { 'the mint': T1.mint, 'your wallet': OWNER, "the service's treasury": TREASURY };
  it('64 hex digits of a known address, in either case, name its role', () => {
    expect(knownHexAddress(hexOf(TREASURY), known)).toBe("the service's treasury");
    expect(knownHexAddress(hexOf(OWNER).toUpperCase(), known)).toBe('your wallet');
    expect(knownHexAddress(hexOf(T1.mint), known)).toBe('the mint');
  });
  it('an address it does not know, a random value, or a run of another length is none', () => {
    expect(knownHexAddress(hexOf(STRANGER), known)).toBeNull();
    expect(knownHexAddress(RANDOM, known)).toBeNull();
    expect(knownHexAddress(hexOf(TREASURY).slice(1), known)).toBeNull();
    expect(knownHexAddress(hexOf(TREASURY), { 'the service’s treasury': null })).toBeNull();
  });
});

describe('the guard, with a 64-hex slot after "Pay proceeds to:"', () => {
  const approved = (): Template => {
    const v = judge(payTo(RANDOM)) as Extract<Verdict, { kind: 'person' }>;
    expect(v.code).toBe('WORDING_NOT_APPROVED');
    return v.template!;
  };

  it('a later random value signs; the treasury, the wallet or the mint in hex is refused outright, naming it', () => {
    const template = approved();
    expect(judge(payTo('0f'.repeat(32)), template).kind).toBe('sign');
    for (const [address, role] of [
      [TREASURY, "the service's treasury"],
      [OWNER, 'your wallet'],
      [T1.mint, 'the mint'],
    ] as const) {
      for (const hex of [hexOf(address), hexOf(address).toUpperCase()]) {
        expect(judge(payTo(hex), template), role).toEqual({
          kind: 'refused',
          reasons: [`line 2, column 18: ${hex}, ${role} written in hex: an account, not a random value`],
        });
      }
    }
  });

  it('at a first sell too: the treasury in hex is never offered for approval', () => {
    expect(judge(payTo(hexOf(TREASURY)))).toMatchObject({
      kind: 'refused',
      reasons: [expect.stringContaining("the service's treasury written in hex")],
    });
    // With no treasury known (none set or pinned), its hex is a random value to the tool.
    expect(judge(payTo(hexOf(TREASURY)), null, null).kind).toBe('person');
  });

  it('the verdict carries the message as its slots cut it: the 64 hex digits one value', () => {
    const person = judge(payTo(RANDOM)) as Extract<Verdict, { kind: 'person' }>;
    expect(person.slots!.values).toContain(RANDOM);
  });
});

describe('the approval screen (the review a prompt shows with its question)', () => {
  const shown = (message: string, approved: Template | null = null) => {
    const verdict = judge(message, approved);
    const theme: Theme = { ...plainTheme, pending: (t) => `<!>${t}` };
    const review = {
      authorization: authorization(T1, message),
      verdict,
      token: { symbol: T1.symbol, name: T1.name, decimals: T1.decimals },
      unbound: [],
    };
    return sellReviewText(review, Date.parse(T1.createdAt), theme, { columns: 80 }).shown.split('\n');
  };
  it('a wording to approve: each value marked in place, and a 32-byte one warned of in one line that stands out (pending); none for 62 hex digits', () => {
    const rows = shown(payTo(RANDOM));
    // Too wide for the row it starts: it opens the next, whole.
    expect(rows.join('\n')).toContain(`  │ Pay proceeds to:\n  ┆  ⟦${RANDOM}⟧`);
    expect(rows.filter((r) => r.startsWith('<!>'))).toEqual([
      '<!>⟦64 hex⟧ is 32 bytes: it can be an account address, which the tool cannot check',
    ]);
    for (const row of rows) expect([...row.replace('<!>', '')].length, row).toBeLessThanOrEqual(80);
    expect(shown(payTo(RANDOM.slice(0, 62))).join('\n')).not.toContain('32 bytes');
  });
});
