import { PublicKey, SystemProgram, TransactionMessage, VersionedTransaction } from '@solana/web3.js';
import bs58 from 'bs58';
import { describe, expect, it } from 'vitest';
import type { SellAuthorization } from '../../src/api/types.js';
import {
  checkSellAuthorization,
  namesToken,
  numbersInText,
  type SellCheckInput,
} from '../../src/wallet/sell-authorization-check.js';

const MINT = 'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263';
const NOW = Date.parse('2030-01-01T00:00:00.000Z');
// 1,234.5 BONK at 5 decimals; minimum 0.0495 SOL; expected 0.05 SOL
const AMOUNT = 123_450_000n;

function authorization(overrides: Partial<SellAuthorization> = {}): SellAuthorization {
  return {
    id: 'sell_01HZX3',
    status: 'awaiting_signature',
    mint: MINT,
    amount: AMOUNT.toString(),
    positionId: null,
    expectedOutputLamports: '50000000',
    minimumOutputLamports: '49500000',
    slippageBps: 100,
    message: `Sell ${AMOUNT} of ${MINT} for at least 49500000 lamports`,
    expiresAt: '2030-01-01T00:02:00.000Z',
    authorizedAt: null,
    signatureVerifiedAt: null,
    executionStarted: false,
    failureCode: null,
    failureReason: null,
    createdAt: '2030-01-01T00:00:00.000Z',
    ...overrides,
  };
}

function check(overrides: Partial<SellAuthorization> = {}, input: Partial<SellCheckInput> = {}): string[] {
  return checkSellAuthorization({
    authorization: authorization(overrides),
    requestedMint: MINT,
    requestedAmount: AMOUNT,
    token: { symbol: 'BONK', decimals: 5 },
    minSolLamports: null,
    nowMs: NOW,
    ...input,
  });
}

function expectProblem(problems: string[], pattern: RegExp) {
  expect(problems.some((p) => pattern.test(p)), `problems: ${JSON.stringify(problems)}`).toBe(true);
  for (const p of problems) expect(p).not.toContain('\n');
}

describe('checkSellAuthorization: plausible wordings pass', () => {
  it.each([
    [`Sell ${AMOUNT} of ${MINT} for at least 49500000 lamports`],
    ['Authorize sale of 1,234.5 BONK. Minimum received: 0.0495 SOL.'],
    ['I authorize selling 1234.50000 $BONK for no less than 0.049500000 SOL (expires 2030-01-01T00:02:00Z)'],
    [`trader sell authorization\nmint: ${MINT}\namount: 123_450_000\nminimumOutputLamports: 49_500_000\nnonce: 7f3a`],
    ['sell 1 234.5 bonk → min 0.0495SOL'],
    [`{"action":"sell","mint":"${MINT}","amount":"${AMOUNT}","minOut":"49500000"}`],
    ['Sell\t1,234.5\tBONK\tmin\t49,500,000 lamports'],
    ['Vendre 1 234,5 BONK? no: Sell 1234.5 BONK for ≥ 0.0495 SOL'],
    [
      [
        'trader sandbox: authorize a token sale',
        'Token: BONK (Bonk Inu)',
        `Mint: ${MINT}`,
        `Amount: 1,234.5 BONK (${AMOUNT} raw units)`,
        'Minimum proceeds: 0.0495 SOL (49500000 lamports)',
        'Authorization: sell_0b9f3a2e-8d6c-4a55-9a43-2f5d9b8e1c11',
        'Expires: 2030-01-01T00:02:00.000Z',
      ].join('\n'),
    ],
  ])('%s', (message) => {
    expect(check({ message })).toEqual([]);
  });

  it('passes with the mint only when the symbol is unknown', () => {
    expect(check({ message: `Sell ${AMOUNT} units of ${MINT}, minimum 49500000 lamports` }, { token: null })).toEqual([]);
  });
});

describe('checkSellAuthorization: what the message must state', () => {
  it('refuses a message that does not name the token', () => {
    const problems = check({ message: 'Sell 1,234.5 tokens for at least 0.0495 SOL' });
    expectProblem(problems, new RegExp(`does not name the token: neither its mint ${MINT} nor its symbol BONK`));
    expect(problems).toHaveLength(1);
  });
  it('does not accept the symbol inside a longer word or another symbol', () => {
    expectProblem(check({ message: 'Sell 1,234.5 BONKS for at least 0.0495 SOL' }), /does not name the token/);
    expectProblem(check({ message: 'Sell 1,234.5 XBONK for at least 0.0495 SOL' }), /does not name the token/);
    expectProblem(check({ message: `Sell 1,234.5 of ${MINT}x for at least 0.0495 SOL` }, { token: null }), /does not name the token/);
  });
  it('refuses a message without the amount', () => {
    expectProblem(check({ message: 'Sell your BONK for at least 0.0495 SOL' }), /does not state the amount 1,234\.5 BONK \(123450000 raw units\)/);
  });
  it('refuses a message with a different amount', () => {
    expectProblem(check({ message: 'Sell 1,234.6 BONK for at least 0.0495 SOL' }), /does not state the amount/);
    expectProblem(check({ message: 'Sell 12,345 BONK for at least 0.0495 SOL' }), /does not state the amount/);
  });
  it('refuses a message without the minimum', () => {
    expectProblem(
      check({ message: 'Sell 1,234.5 BONK at the market price' }),
      /does not state the minimum 0\.0495 SOL \(49500000 lamports\)/,
    );
  });
  it('refuses the amount matched only as a part of a larger number', () => {
    const amount = 100n;
    const base = { requestedAmount: amount, token: { symbol: 'BONK', decimals: null } };
    const auth = { amount: '100' };
    expect(check({ ...auth, message: 'Sell 100 BONK, min 0.0495 SOL' }, base)).toEqual([]);
    for (const message of [
      'Sell 1000 BONK, min 0.0495 SOL',
      'Sell 100.5 BONK, min 0.0495 SOL',
      'Sell 1100 BONK, min 0.0495 SOL',
      'Sell 1,100 BONK, min 0.0495 SOL',
      'Sell 100,000 BONK, min 0.0495 SOL',
      'Sell 100 000 BONK, min 0.0495 SOL',
      'Sell 100% of BONK, min 0.0495 SOL',
      'Sell 1e2 BONK, min 0.0495 SOL',
      'Sell -100 BONK, min 0.0495 SOL',
      'Sell $100 of BONK, min 0.0495 SOL',
      'Sell x100 BONK, min 0.0495 SOL',
      'Sell 100.100.1 BONK, min 0.0495 SOL',
    ]) {
      expectProblem(check({ ...auth, message }, base), /does not state the amount 100 raw units/);
    }
  });
  it('does not read the digits of an address as an amount', () => {
    const mint = `55${MINT.slice(2)}`;
    const problems = check(
      { mint, amount: '55', message: `Sell ${mint} for at least 0.0495 SOL` },
      { requestedMint: mint, requestedAmount: 55n, token: null },
    );
    expectProblem(problems, /does not state the amount 55 raw units/);
    expect(check({ mint, amount: '55', message: `Sell 55 of ${mint} for at least 0.0495 SOL` }, {
      requestedMint: mint,
      requestedAmount: 55n,
      token: null,
    })).toEqual([]);
  });
  it('refuses a minimum stated only as part of another number', () => {
    expectProblem(check({ message: 'Sell 1,234.5 BONK, min 0.04950001 SOL' }), /does not state the minimum/);
    expectProblem(check({ message: 'Sell 1,234.5 BONK, min 495000000 lamports' }), /does not state the minimum/);
  });
});

describe('checkSellAuthorization: message text', () => {
  const good = 'Sell 1,234.5 BONK for at least 0.0495 SOL';
  it.each([
    ['NUL', '\u0000'],
    ['carriage return', '\r'],
    ['escape', '\u001b[2K'],
    ['DEL', '\u007f'],
    ['C1 control', '\u0085'],
  ])('refuses a %s', (_name, ch) => {
    expectProblem(check({ message: `${good}${ch} extra` }), /invisible or control character U\+00/);
  });
  it.each([
    ['zero-width space', '\u200B'],
    ['right-to-left mark', '\u200F'],
    ['right-to-left override', '\u202E'],
    ['left-to-right embedding', '\u202A'],
    ['first-strong isolate', '\u2068'],
    ['pop directional isolate', '\u2069'],
    ['byte-order mark', '\uFEFF'],
    ['word joiner', '\u2060'],
    ['soft hyphen', '\u00AD'],
    ['line separator', '\u2028'],
    ['tag character', '\u{E0041}'],
    ['lone surrogate', '\uD800'],
    ['Hangul filler', '\u3164'],
  ])('refuses a %s, which can hide text', (_name, ch) => {
    expectProblem(check({ message: `Sell 1,234.5 BONK for at least 0.0495 SOL${ch}` }), /invisible or control character .*can hide/);
  });
  it('allows newlines, tabs and ordinary Unicode', () => {
    expect(check({ message: `Sell 1,234.5 BONK 🐶\n\tminimum ≥ 0.0495 SOL — café` })).toEqual([]);
  });
  it('refuses a message over 2,048 UTF-8 bytes, counting bytes not characters', () => {
    const pad = (n: number) => `${good} ${'é'.repeat(n)}`;
    const bytes = (s: string) => new TextEncoder().encode(s).length;
    const fits = pad((2048 - bytes(good) - 1) / 2 | 0);
    expect(bytes(fits)).toBeLessThanOrEqual(2048);
    expect(check({ message: fits })).toEqual([]);
    const over = `${fits}éé`;
    expect(over.length).toBeLessThan(2048);
    expectProblem(check({ message: over }), /bytes long, more than the 2048 allowed/);
  });
  it('refuses an empty message', () => {
    expectProblem(check({ message: '' }), /no message/);
  });
  it('refuses a web3-serialized transaction message carried as the string', () => {
    // Keys, blockhash and amount made of ASCII bytes, so the message bytes are valid UTF-8 and
    // survive as a JS string exactly.
    const ascii = (c: string) => new PublicKey(Buffer.from(c.repeat(32)));
    const message = new TransactionMessage({
      payerKey: ascii('P'),
      recentBlockhash: ascii('H').toBase58(),
      instructions: [SystemProgram.transfer({ fromPubkey: ascii('P'), toPubkey: ascii('T'), lamports: 0x41414141 })],
    }).compileToLegacyMessage();
    const bytes = message.serialize();
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    expect(Buffer.from(text, 'utf8').equals(bytes)).toBe(true);
    expectProblem(check({ message: text }), /decodes as a Solana transaction/);
    // …and as base64 text of a whole transaction, in case anything downstream decodes before signing.
    const wire = Buffer.from(new VersionedTransaction(message).serialize()).toString('base64');
    expectProblem(check({ message: wire }), /decodes as a Solana transaction/);
    expectProblem(check({ message: bs58.encode(bytes) }), /decodes as a Solana transaction/);
  });
  it('refuses a printable text crafted to be a valid legacy transaction message', () => {
    // Every byte printable: header "   " (32 signers…), key count "\t" (9 keys), 9×32 key bytes,
    // 32 blockhash bytes, "\t" (9 instructions), each: program index, "\t" + 9 account indexes,
    // "\t" + 9 data bytes. Structurally a legacy message; the check must see it.
    const instruction = `k\t${'a'.repeat(9)}\t${'d'.repeat(9)}`;
    const crafted = `   \t${'K'.repeat(9 * 32)}${'H'.repeat(32)}\t${instruction.repeat(9)}`;
    const problems = check({ message: crafted });
    expectProblem(problems, /decodes as a Solana transaction/);
    expect(problems.some((p) => /control character/.test(p))).toBe(false);
    // One byte less is not a message any more.
    expect(check({ message: crafted.slice(0, -1) }).some((p) => /decodes as a Solana transaction/.test(p))).toBe(false);
  });
  it('refuses a message with control bytes that is a minimal legacy message', () => {
    const text = `\u0001\u0000\u0001\u0001${'K'.repeat(32)}${'B'.repeat(32)}\u0000`;
    expectProblem(check({ message: text }), /decodes as a Solana transaction/);
  });
});

describe('checkSellAuthorization: fields', () => {
  it('refuses an expired authorization', () => {
    expectProblem(check({ expiresAt: '2029-12-31T23:59:59.000Z' }), /expired at 2029-12-31T23:59:59.000Z/);
    expectProblem(check({ expiresAt: new Date(NOW).toISOString() }), /expired/);
  });
  it('refuses an unparseable expiry', () => {
    expectProblem(check({ expiresAt: 'soon' }), /expiresAt "soon" is not a valid time/);
  });
  it('refuses another mint', () => {
    expectProblem(check({ mint: 'So11111111111111111111111111111111111111112' }), /sells So111.*not the requested token/);
  });
  it('refuses another amount', () => {
    expectProblem(check({ amount: '123450001' }), /sells 1,234.50001 BONK \(123450001 raw units\), not the requested 1,234.5 BONK/);
  });
  it('refuses a minimum above the expected output', () => {
    expectProblem(
      check({ expectedOutputLamports: '49000000', message: 'Sell 1,234.5 BONK for at least 0.0495 SOL' }),
      /minimum 0\.0495 SOL is above the expected 0\.049 SOL/,
    );
  });
  it('compares as integers, not strings', () => {
    // "9" > "10" as strings; as integers 9 < 10, so this passes
    expect(
      check({ expectedOutputLamports: '10', minimumOutputLamports: '9', message: 'Sell 1,234.5 BONK, min 9 lamports' }),
    ).toEqual([]);
  });
  it('refuses a minimum below --min-sol', () => {
    expectProblem(check({}, { minSolLamports: 50_000_000n }), /minimum 0\.0495 SOL is below --min-sol 0\.05 SOL/);
    expect(check({}, { minSolLamports: 49_500_000n })).toEqual([]);
  });
  it.each([['1e7'], ['-1'], [''], ['0x10'], ['49500000.0'], [' 49500000']])('refuses a malformed minimum %j', (value) => {
    expectProblem(check({ minimumOutputLamports: value }), /minimumOutputLamports .* is not a whole number/);
  });
  it('refuses a malformed expected output or amount', () => {
    expectProblem(check({ expectedOutputLamports: 'lots' }), /expectedOutputLamports "lots" is not a whole number/);
    expectProblem(check({ amount: '1.5' }), /amount "1.5" is not a whole number/);
  });
});

describe('numbersInText', () => {
  it.each([
    ['Sell 1,234.50 BONK', ['1234.5']],
    ['0.0495SOL', ['0.0495']],
    ['1_000_000 units', ['1000000']],
    ['12 345 678 units', ['12345678']],
    ['a 100,5 b', []],
    ['1,00,000', []],
    ['1,000_000', []],
    ['007 and 0.000', ['7', '0']],
    ['list: 100, 200', ['100', '200']],
    ['end 100.', ['100']],
    ['v1.2.3', []],
    ['1.2.3', []],
    ['1.000,5', []],
    ['sell_123 0b9f3a2e-8d6c-4a55-9a43-2f5d9b8e1c11', []],
    ['12%', []],
    ['12 %', []],
  ])('%j → %j', (text, expected) => {
    expect(numbersInText(text)).toEqual(expected);
  });
});

describe('namesToken', () => {
  it('symbol: whole word, any case, $ allowed; one-letter symbols exact case', () => {
    expect(namesToken('sell bonk now', MINT, 'BONK')).toBe(true);
    expect(namesToken('sell $BONK now', MINT, 'BONK')).toBe(true);
    expect(namesToken('sell BONK.', MINT, 'BONK')).toBe(true);
    expect(namesToken('sell BONKERS', MINT, 'BONK')).toBe(false);
    expect(namesToken('sell a token', MINT, 'A')).toBe(false);
    expect(namesToken('sell A', MINT, 'A')).toBe(true);
    expect(namesToken('sell W.E.N', MINT, 'W.E.N')).toBe(true);
    expect(namesToken('sell WxEyN', MINT, 'W.E.N')).toBe(false);
  });
  it('mint: whole word, exact case', () => {
    expect(namesToken(`mint=${MINT};`, MINT, null)).toBe(true);
    expect(namesToken(`mint=${MINT.toLowerCase()}`, MINT, null)).toBe(false);
    expect(namesToken(`mint=${MINT.slice(0, -1)}`, MINT, null)).toBe(false);
  });
});

describe('checkSellAuthorization: slippage is the user\'s to choose', () => {
  it('accepts the slippage asked for, or less', () => {
    expect(check({}, { slippageBps: 100 })).toEqual([]);
    expect(check({ slippageBps: 50, minimumOutputLamports: '49750000', message: `Sell ${AMOUNT} of ${MINT} for at least 49750000 lamports` }, { slippageBps: 100 })).toEqual([]);
  });

  it('refuses a wider slippage than asked for', () => {
    expectProblem(check({}, { slippageBps: 50 }), /slippage 100 bps is more than the 50 bps asked for/);
  });

  it('refuses a minimum below what the slippage allows, even when the message states it', () => {
    // 50,000,000 expected at 100 bps allows down to 49,500,000; 40,000,000 hides a worse price.
    const low = { minimumOutputLamports: '40000000', message: `Sell ${AMOUNT} of ${MINT} for at least 40000000 lamports` };
    expectProblem(check(low), /minimum 0\.04 SOL is below what 100 bps of slippage allows/);
    expectProblem(check(low, { slippageBps: 100 }), /below what 100 bps of slippage allows on the expected 0\.05 SOL \(0\.0495 SOL\)/);
  });

  it('refuses a slippage that is not a number of basis points', () => {
    expectProblem(check({ slippageBps: 20_000 as number }), /not a number of basis points/);
  });
});
