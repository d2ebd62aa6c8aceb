// An SPL Memo beside the deposit's transfer: signed when it is one printable line naming no
// account but your wallet as its signer; shown in the review, carried in the facts, counted in the fee.
import { Keypair, SystemProgram } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_FEE_LAMPORTS } from '../../src/domain/defaults.js';
import { plainTheme } from '../../src/io/theme.js';
import { renderBuyReview } from '../../src/views/buy-screens.js';
import { MEMO_MAX_COLUMNS, memoColumns, memoText } from '../../src/wallet/deposit-memo.js';
import { inspectDeposit, type DepositInspectionInput } from '../../src/wallet/deposit-inspection.js';
import { MEMO_V1, memoInstruction } from '../helpers/deposit-transactions.js';
import { intent as apiIntent } from './api-helpers.js';
import { AMOUNT, MINT, budget, build, intent, owner, stranger, transfer, treasury } from './tx-fixtures.js';

const bytes = (text: string) => new TextEncoder().encode(text);

function inspect(transactionBase64: string, overrides: Partial<DepositInspectionInput> = {}) {
  return inspectDeposit({
    transactionBase64,
    owner: owner.publicKey.toBase58(),
    intent: intent(),
    requestedMint: MINT,
    typedLamports: AMOUNT,
    maxFeeLamports: DEFAULT_MAX_FEE_LAMPORTS,
    treasury: treasury.toBase58(),
    ...overrides,
  });
}

describe('memoText: printable, one line, at most 60 columns', () => {
  it('takes plain text, accented letters, CJK and emoji, and an empty memo', () => {
    for (const text of ['order 7f3a-42 for buy 0b9f3a2e', 'café crème', '注文', '🚀 to the moon', ''])
      expect(memoText(bytes(text))).toEqual({ text });
  });

  it(`takes ${MEMO_MAX_COLUMNS} columns and refuses ${MEMO_MAX_COLUMNS + 1}: ASCII counts one, any other character two`, () => {
    expect(memoText(bytes('x'.repeat(60)))).toEqual({ text: 'x'.repeat(60) });
    expect(memoText(bytes('x'.repeat(61)))).toEqual({
      problem:
        'its memo takes 61 columns, more than the 60 the review shows on one line (ASCII counts one, any other character two); tell the operator of the service to shorten it',
    });
    expect(memoText(bytes('注'.repeat(30)))).toEqual({ text: '注'.repeat(30) });
    expect(memoText(bytes('注'.repeat(30) + 'x'))).toMatchObject({
      problem: expect.stringMatching(/takes 61 columns/),
    });
    // Stacked combining marks cannot pass for one column each.
    expect(memoColumns('e' + '\u0301'.repeat(30))).toBe(61);
  });

  it.each([
    ['a newline', 'paid\nto you', 'U+000A LF'],
    ['a carriage return', 'ok\rto: attacker', 'U+000D CR'],
    ['an escape sequence', 'ok\u001b[2J', 'U+001B ESC'],
    ['a tab', 'a\tb', 'U+0009 TAB'],
    ['DEL', 'a\u007f', 'U+007F DEL'],
    ['a C1 control', 'a\u009b', 'U+009B'],
    ['a bidi override', 'pay \u202Eevil', 'U+202E'],
    ['a zero-width space', 'tre\u200Basury', 'U+200B'],
    ['a variation selector', 'a\uFE0F', 'U+FE0F'],
    ['a no-break space', 'a\u00A0b', 'U+00A0'],
    ['a line separator', 'a\u2028b', 'U+2028'],
    ['a private-use character', 'a\uE000', 'U+E000'],
    ['a braille blank', 'a\u2800b', 'U+2800'],
    ['a tag character', 'a\u{E0041}', 'U+E0041'],
  ])('refuses %s, naming it', (_what, text, name) => {
    const read = memoText(bytes(text));
    expect(read).toMatchObject({ problem: expect.stringContaining(`not printable text (${name}`) });
    expect((read as { problem: string }).problem).toMatch(
      /tell the operator of the service to write memos as plain text on one line$/,
    );
  });

  it('names at most five distinct characters and counts the rest', () => {
    expect(memoText(bytes('\u0001\u0002\u0002\u0003\u0004\u0005\u0006\u0007'))).toEqual({
      problem:
        'its memo holds characters that are not printable text (U+0001 SOH, U+0002 STX, U+0003 ETX, U+0004 EOT, U+0005 ENQ and 2 more); tell the operator of the service to write memos as plain text on one line',
    });
  });

  it('refuses bytes that are not UTF-8 (the Memo program would fail the transaction after taking the fee)', () => {
    expect(memoText(new Uint8Array([0x6f, 0x6b, 0xff]))).toMatchObject({
      problem: expect.stringMatching(/^its memo is not UTF-8 text/),
    });
    expect(memoText(new Uint8Array([0xed, 0xa0, 0x80]))).toMatchObject({ problem: expect.stringMatching(/not UTF-8/) }); // an encoded surrogate
  });
});

describe('inspectDeposit: a memo beside the transfer', () => {
  it.each([
    ['v3, no accounts', memoInstruction('order 42')],
    ['v1, no accounts', memoInstruction('order 42', { program: MEMO_V1 })],
    ['v3, your wallet as signer', memoInstruction('order 42', { signers: [owner.publicKey] })],
    ['v1, your wallet as signer', memoInstruction('order 42', { program: MEMO_V1, signers: [owner.publicKey] })],
  ])('is signed: %s, first or last, its text in the facts and its 200,000 units in the fee', (_what, memo) => {
    for (const instructions of [
      [...budget(), transfer(), memo],
      [memo, ...budget(), transfer()],
    ]) {
      const result = inspect(build(instructions));
      expect(result.problems).toEqual([]);
      expect(result.facts!.memo).toBe('order 42');
      // A limit was requested: it is the limit (budget() asks 200,000 at 1,000 µlamports).
      expect(result.facts!.networkFeeLamports).toBe(5_200n);
    }
    expect(inspect(build([transfer(), memo])).facts!.computeUnitLimit).toBe(203_000n);
  });

  it('refuses a memo naming another account, or your wallet where it is not a signer', () => {
    const other = inspect(build([...budget(), transfer(), memoInstruction('x', { signers: [stranger.publicKey] })]));
    expect(other.ok).toBe(false);
    expect(other.problems).toContain(
      'instruction 4 is a Memo naming accounts other than your wallet as its signer; tell the operator of the service to send memos with no accounts',
    );
    expect(other.facts!.memo).toBeNull();
    const twice = inspect(
      build([...budget(), transfer(), memoInstruction('x', { signers: [owner.publicKey, owner.publicKey] })]),
    );
    expect(twice.problems).toContain(
      'instruction 4 is a Memo naming accounts other than your wallet as its signer; tell the operator of the service to send memos with no accounts',
    );
    const notSigning = memoInstruction('x');
    notSigning.keys = [{ pubkey: treasury, isSigner: false, isWritable: false }];
    expect(inspect(build([transfer(), notSigning])).problems).toEqual([
      'instruction 2 is a Memo naming accounts other than your wallet as its signer; tell the operator of the service to send memos with no accounts',
    ]);
    // Your wallet named, but not as a signer (the service signs everything else).
    const unsigned = memoInstruction('x');
    unsigned.keys = [{ pubkey: owner.publicKey, isSigner: false, isWritable: false }];
    const paidByService = inspect(
      build([transfer(AMOUNT, treasury, stranger.publicKey), unsigned], { payer: stranger.publicKey }),
    );
    expect(paidByService.problems).toContain(
      'instruction 2 is a Memo naming accounts other than your wallet as its signer; tell the operator of the service to send memos with no accounts',
    );
    expect(paidByService.facts!.memo).toBeNull();
  });

  it('refuses a second memo', () => {
    const result = inspect(build([transfer(), memoInstruction('a'), memoInstruction('b', { program: MEMO_V1 })]));
    expect(result.problems).toEqual(['instruction 3 is a second Memo; only one is allowed']);
  });

  it('refuses a memo whose text may not be shown, saying which instruction and why; the facts carry no text', () => {
    const result = inspect(build([transfer(), memoInstruction('ok\u001b]0;title\u0007')]));
    expect(result.problems).toEqual([
      'instruction 2 is a Memo, but its memo holds characters that are not printable text (U+001B ESC, U+0007 BEL); tell the operator of the service to write memos as plain text on one line',
    ]);
    expect(result.facts!.memo).toBeNull();
    expect(inspect(build([transfer(), memoInstruction('y'.repeat(61))])).problems).toEqual([
      expect.stringMatching(/^instruction 2 is a Memo, but its memo takes 61 columns/),
    ]);
  });

  it('still refuses everything else beside a memo: a second transfer stays refused', () => {
    const result = inspect(
      build([
        transfer(),
        memoInstruction('x'),
        SystemProgram.transfer({ fromPubkey: owner.publicKey, toPubkey: Keypair.generate().publicKey, lamports: 1 }),
      ]),
    );
    expect(result.problems).toEqual([expect.stringMatching(/^instruction 3 is a second System transfer/)]);
  });
});

describe('the buy review shows the memo on one line', () => {
  const answerBy = { source: 'chain', lastValidBlockHeight: 1, blocksLeft: 150, readAtMs: 0, atMs: 60_000 };
  const quote = {
    token: {
      mint: 'MintOut111',
      symbol: 'MOON',
      name: null,
      decimals: 6,
      seenBefore: true,
      source: { decimals: 'chain', symbol: 'chain', name: null },
      unbound: [],
      chainUnread: null,
      risks: { risks: [], fingerprint: null, accepted: false, askAccept: false },
    },
    depositLamports: '100000000',
    platformFeeLamports: null,
    networkFeeMaxLamports: '5000',
    totalMaxLamports: '100005000',
    expectedOutputAmount: null,
    minimumOutputAmount: '2000000',
    expectedOutput: null,
    minimumOutput: '2',
    slippageBps: null,
    slippageBpsAsked: null,
    pricePerTokenSol: null,
    unknown: null,
  } as const;
  const review = (memo: string | null) =>
    ({
      intent: apiIntent,
      facts: { recipient: 'T', treasuryCheck: 'pinned', memo },
      lastValidBlockHeight: 1,
      quote: { trade: null, problem: 'x' },
      answerBy,
    }) as never;

  it('a 60-column memo stands on its line at 80 columns, quoted; no memo, no line', () => {
    const text = 'm'.repeat(MEMO_MAX_COLUMNS);
    const out = renderBuyReview(review(text), quote as never, 0, plainTheme);
    expect(out).toMatch(new RegExp(`^Memo {10}"${text}"$`, 'm'));
    for (const line of out.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
    expect(renderBuyReview(review('order 42'), quote as never, 0, plainTheme)).toMatch(
      /^Memo\s+"order 42" \(the service's note in the deposit; it moves nothing\)$/m,
    );
    expect(renderBuyReview(review(''), quote as never, 0, plainTheme)).toMatch(/^Memo\s+"" \(the service's note/m);
    expect(renderBuyReview(review(null), quote as never, 0, plainTheme)).not.toMatch(/^Memo/m);
  });
});
