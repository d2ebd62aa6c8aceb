// The sell-message guard, table-driven: honest wordings a real service might use must pass with
// nothing to explain; each class of hostile message must be refused (a problem) or at least
// never signed without the user's explicit acceptance (a finding); the fields, slippage and
// minimum rules at their edges.
import { PublicKey, SystemProgram, TransactionMessage, VersionedTransaction } from '@solana/web3.js';
import bs58 from 'bs58';
import { describe, expect, it } from 'vitest';
import type { SellAuthorization } from '../../src/api/types.js';
import { DEFAULT_MAX_SLIPPAGE_BPS } from '../../src/defaults.js';
import { checkSellAuthorization, type SellCheck, type SellCheckInput } from '../../src/wallet/sell-authorization-check.js';
import { shapeWording, withoutShapes } from '../../src/wallet/sell-message/slot-shapes.js';

const MINT = 'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263';
const OTHER_MINT = 'EKpQGSJtjMFqKZ9KQanSqYXRcF8fBopzLHYxdM65zcjm';
const OWNER = 'F8Sc651uJsuRdU8PSrVvCB99stm48Hdt6RiDnxQ7EPfH';
const TREASURY = 'Ex1vp9AqsjvjZip3ai3SQEVqretUdF3QsuZKLWo4Z5V9';
const STRANGER = 'HLxAr4s3KjAJXKLmbGkXbBWRCYFxQ74thgZg9dxHxcAw';
const HASH = '61ENncBqfPr91HKmeoLBb5NizmMEj4yp98MimUQbTfzxtAgMJLHhANmfzuC8tJNQYgTM2rh1F4z143LL436R2AQt';
const NOW = Date.parse('2030-01-01T00:00:00.000Z');
const EXPIRES_UNIX = 1893456120; // NOW + 2 minutes, in seconds
// 1,234.5 BONK at 5 decimals; expected 0.05 SOL; minimum 0.0495 SOL (100 bps)
const AMOUNT = 123_450_000n;
const GOOD = `Sell 1,234.5 BONK (${MINT}) for at least 0.0495 SOL`;

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
    message: GOOD,
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

function check(overrides: Partial<SellAuthorization> = {}, input: Partial<SellCheckInput> = {}): SellCheck {
  return checkSellAuthorization({
    authorization: authorization(overrides),
    requestedMint: MINT,
    requestedAmount: AMOUNT,
    token: { symbol: 'BONK', decimals: 5, name: 'Bonk Inu' },
    knownTokens: [
      { mint: MINT, symbol: 'BONK' },
      { mint: OTHER_MINT, symbol: 'WIF' },
    ],
    owner: OWNER,
    treasury: TREASURY,
    minSolLamports: null,
    allowedSlippageBps: DEFAULT_MAX_SLIPPAGE_BPS,
    nowMs: NOW,
    ...input,
  });
}

/** Never signed unattended: a problem, or a finding (refused under --yes, highlighted at the prompt), says so. */
function expectNotSignedUnattended(result: SellCheck, pattern: RegExp) {
  const said = [...result.problems, ...result.findings.map((f) => f.reason)];
  expect(said.some((p) => pattern.test(p)), `problems and findings: ${JSON.stringify(said)}`).toBe(true);
}

function expectProblem(result: SellCheck, pattern: RegExp) {
  expect(result.problems.some((p) => pattern.test(p)), `problems: ${JSON.stringify(result.problems)}`).toBe(true);
  for (const p of result.problems) expect(p).not.toContain('\n');
}

/** The wording as the flow pins and compares it: each id, hash and nonce slot's shape written in. */
function shaped(result: SellCheck, pinned: string | null = null): string {
  return shapeWording(result.wording!, result.slotValues, pinned);
}

function expectClean(result: SellCheck) {
  expect(result.problems, 'problems').toEqual([]);
  expect(result.findings, 'findings').toEqual([]);
}

const sandboxWording = [
  'trader sandbox: authorize a token sale',
  'Token: BONK (Bonk Inu)',
  `Mint: ${MINT}`,
  `Amount: 1,234.5 BONK (${AMOUNT} raw units)`,
  'Minimum proceeds: 0.0495 SOL (49500000 lamports)',
  'Authorization: sell_01HZX3',
  'Expires: 2030-01-01T00:02:00.000Z',
].join('\n');

describe('honest wordings pass with nothing to explain', () => {
  it.each([
    ['the sandbox wording', sandboxWording],
    ['raw figures and the mint', `Sell ${AMOUNT} raw units of ${MINT} for at least 49500000 lamports.`],
    ['whole tokens with separators and trailing zeros', 'Authorize sale of 1,234.50000 BONK. Minimum received: 0.049500000 SOL.'],
    [
      'key = value lines with a nonce and an expiry',
      `action = sell\nmint = ${MINT}\namount = 123450000\nmin_out_lamports = 49500000\nslippage_bps = 100\nnonce = 8f3a9c2e71b4d05e\nexpires_at = 2030-01-01T00:02:00Z`,
    ],
    ['expected, minimum, % slippage and lifetime', 'Sell 1,234.5 $BONK. Expected 0.05 SOL, minimum 0.0495 SOL (1% slippage). Valid for 2 minutes.'],
    [
      'JSON',
      `{"action":"sell","mint":"${MINT}","amount":"123450000","minOutLamports":"49500000","slippageBps":100,"expiresAt":"2030-01-01T00:02:00.000Z"}`,
    ],
    ['the owner wallet named', `Seller ${OWNER} sells 1234.5 BONK (${MINT}) for >= 49,500,000 lamports`],
    ['space-grouped thousands', 'Sell 123 450 000 raw units of BONK, minimum 49 500 000 lamports'],
    ['a Unix expiry', `sell BONK 123450000 min 49500000 exp ${EXPIRES_UNIX}`],
    ['a numeric nonce', `${GOOD}\nNonce: 582910374`],
    ['a quote hash and a hex id', `${GOOD}\nQuote: ${HASH}\nRequest: 0x9f8e7d6c5b4a3f2e`],
    ['tabs', 'Sell\t1,234.5\tBONK\tmin\t49,500,000 lamports'],
    ['slippage in bps and the expected output in lamports', `Sell 1,234.5 BONK; expect 50000000 lamports, floor 49500000 lamports at 100 bps`],
    ['emoji, dashes and symbols', 'Sell 1,234.5 BONK 🐶\n\tminimum ≥ 0.0495 SOL — signed once'],
  ])('%s', (_name, message) => {
    expectClean(check({ message }));
  });

  it('the mint alone names a token whose symbol is unknown', () => {
    expectClean(check({ message: `Sell ${AMOUNT} units of ${MINT}, minimum 49500000 lamports` }, { token: null }));
  });

  it('masks the trade’s values: the same wording for another trade of another token', () => {
    const first = check({ message: sandboxWording });
    const other = check(
      {
        id: 'sell_99ZZ',
        mint: OTHER_MINT,
        amount: '2500000',
        expectedOutputLamports: '12000000',
        minimumOutputLamports: '11880000',
        expiresAt: '2030-01-01T00:07:00.000Z',
        createdAt: '2030-01-01T00:05:00.000Z',
        message: [
          'trader sandbox: authorize a token sale',
          'Token: WIF (Dog Hat)',
          `Mint: ${OTHER_MINT}`,
          'Amount: 2.5 WIF (2500000 raw units)',
          'Minimum proceeds: 0.01188 SOL (11880000 lamports)',
          'Authorization: sell_99ZZ',
          'Expires: 2030-01-01T00:07:00.000Z',
        ].join('\n'),
      },
      {
        requestedMint: OTHER_MINT,
        requestedAmount: 2_500_000n,
        token: { symbol: 'WIF', decimals: 6, name: 'Dog Hat' },
        nowMs: Date.parse('2030-01-01T00:05:00.000Z'),
      },
    );
    expectClean(first);
    expectClean(other);
    expect(other.wording).toBe(first.wording);
    expect(first.wording).toBe(
      [
        'trader sandbox: authorize a token sale',
        'Token: {symbol} ({name})',
        'Mint: {mint}',
        'Amount: {amount.tokens} {symbol} ({amount.raw} raw units)',
        'Minimum proceeds: {minimum.sol} SOL ({minimum.lamports} lamports)',
        'Authorization: {id}',
        'Expires: {time}',
      ].join('\n'),
    );
  });
});

describe('hostile messages are refused, never signed', () => {
  it.each([
    [
      'a Sign-In-With-Solana login for another site',
      `example.com wants you to sign in with your Solana account:\n${OWNER}\n\n${GOOD}\n\nURI: https://example.com/login\nVersion: 1\nChain ID: mainnet\nNonce: 8f3a9c2e71b4\nIssued At: 2030-01-01T00:00:00Z`,
      /Sign-In-With-Solana/,
    ],
    ['EIP-4361 fields without the opening line', `${GOOD}\nURI: https://example.com\nChain ID: 1\nIssued At: 2030-01-01T00:00:00Z`, /Sign-In-With-Solana/],
    ['the off-chain message preamble', `\u00ffsolana offchain ${GOOD}`, /off-chain message/],
    ['a withdrawal to another address', `I authorize withdrawal of ALL balances to ${STRANGER}. ref ${MINT} ${AMOUNT} 49500000`, /withdrawal/],
    ['a transfer to someone', `${GOOD}; transfer the proceeds to my other account`, /transfer to someone/],
    ['an approval', `${GOOD}. I approve unlimited spending`, /approval/],
    ['a delegation', `${GOOD}. Delegate BONK`, /delegation/],
    ['a change of authority', `${GOOD}. Set mint authority`, /change of authority/],
    ['a log-in', `Log in to trader.example. ${GOOD}`, /log-in/],
    ['an address that is not the mint, the owner or the treasury', `${GOOD}. Settle with ${STRANGER}`, /names the address HLxA/],
    ['another mint, the requested one named in passing', `Sell 1,234.5 of ${OTHER_MINT} for at least 0.0495 SOL (ref BONK ${MINT})`, /names another token, EKpQ/],
    ['another token’s symbol', `Sell 1,234.5 WIF (BONK ${MINT}) for at least 0.0495 SOL`, /names another token, WIF/],
    ['the symbol only as an ordinary lowercase word', 'Sell 1,234.5 bonk for at least 0.0495 SOL', /does not name the token/],
    ['a thousand times the amount, the real one as a reference', `Sell 1,234,500 BONK for at least 0 SOL. Reference: 1,234.5 BONK, 0.0495 SOL, ${MINT}`, /states "1,234,500": not the amount 1,234.5 BONK/],
    ['U+034F inside a number', `Sell 1,234.5\u034F BONK (${MINT}) for at least 0.0495 SOL`, /invisible/],
    ['U+FE0F inside a number', `Sell 1,234\uFE0F.5 BONK (${MINT}) for at least 0.0495 SOL`, /invisible/],
    ['U+17B5 inside a number', `Sell 1,234.5 BONK (${MINT}) for at least 0.04\u17B595 SOL`, /invisible/],
    ['U+2007 figure space grouping', `Sell 1,234.5 BONK (${MINT}) for at least 49\u2007500\u2007000 lamports`, /space or separator/],
    ['a no-break space', `Sell 1,234.5\u00A0BONK (${MINT}) for at least 0.0495 SOL`, /space or separator/],
    ['Arabic-Indic digits', `Sell ١٬٢٣٤٫٥ BONK (${MINT}) for at least 0.0495 SOL`, /digit or numeral outside 0-9/],
    ['fullwidth digits', `Sell １234.5 BONK (${MINT}) for at least 0.0495 SOL`, /digit or numeral outside 0-9/],
    ['a bidi override', `Sell 1,234.5 BONK (${MINT}) for at least \u202E5940.0 SOL`, /bidi control/],
    ['a combining strike through a digit', `Sell 1,234.5 BONK (${MINT}) for at least 0.0495\u0336 SOL`, /combining mark/],
    ['a SOL figure labelled lamports', `Sell 1,234.5 BONK (${MINT}) for at least 0.0495 lamports`, /minimum in SOL.*written in lamports/],
    ['a lamport figure labelled SOL', `Sell 1,234.5 BONK (${MINT}) for at least 49500000 SOL`, /minimum in lamports.*written in sol/],
    ['a raw figure labelled as whole tokens', `Sell ${AMOUNT} BONK (${MINT}) for at least 0.0495 SOL`, /amount in raw units.*written in tokens/],
    ['whole tokens labelled raw', `Sell 1234.5 raw units of BONK (${MINT}) for at least 0.0495 SOL`, /amount in whole tokens.*written in raw/],
    ['the amount with a scaling suffix', `Sell 123450000k of BONK (${MINT}) for at least 0.0495 SOL`, /amount in raw units.*suffix that scales/],
    ['a look-alike symbol mixing alphabets', `Sell 1,234.5 BΟNK for at least 0.0495 SOL`, /mixing alphabets/],
    ['no amount', `Sell your BONK (${MINT}) for at least 0.0495 SOL`, /does not state the amount 1,234\.5 BONK/],
    ['no minimum', `Sell 1,234.5 BONK (${MINT}) at the market price`, /does not state the minimum 0\.0495 SOL/],
    ['a symbol shared by two tokens and no mint', 'Sell 1,234.5 BONK for at least 0.0495 SOL', /does not name the token/],
  ])('%s', (name, message, pattern) => {
    const input = name.startsWith('a symbol shared')
      ? { knownTokens: [{ mint: MINT, symbol: 'BONK' }, { mint: OTHER_MINT, symbol: 'BONK' }] }
      : {};
    expectProblem(check({ message }, input), pattern);
  });

  it.each([
    ['a signed figure', `${GOOD}, fee -5 SOL`, '-5'],
    ['a dollar figure', `${GOOD}, worth $100`, '$100'],
    ['an exponent', `${GOOD}, cap 1e9`, '1e9'],
    ['a leading-dot fraction', `${GOOD}, or .0001 SOL`, '.0001'],
    ['a figure glued to a word', `${GOOD}, batch x100`, 'x100'],
    ['a duration that is not the lifetime', `${GOOD}. Expires in 3 minutes`, '3'],
    ['a percentage that is not the slippage', `${GOOD}. Fee 0.3%`, '0.3%'],
    ['another SOL figure', `${GOOD}. Network fee 0.000005 SOL`, '0.000005'],
    ['a quantity in words', `${GOOD}. Also sell one million more`, 'one'],
    ['a link', `${GOOD}. Terms: https://example.com/terms`, 'https://example.com/terms'],
    ['a ticker the tool does not know', `${GOOD} and USDC`, 'USDC'],
    ['a scaled figure that is none of the values', `${GOOD}. Limit 5k`, '5k'],
  ])('%s is a finding: never signed without the user’s acceptance', (_name, message, text) => {
    const result = check({ message });
    expect(result.problems).toEqual([]);
    expect(result.findings.map((f) => f.text)).toContain(text);
  });

  it('refuses a serialized transaction carried as the message, as text, base64 or base58', () => {
    const ascii = (c: string) => new PublicKey(Buffer.from(c.repeat(32)));
    const message = new TransactionMessage({
      payerKey: ascii('P'),
      recentBlockhash: ascii('H').toBase58(),
      instructions: [SystemProgram.transfer({ fromPubkey: ascii('P'), toPubkey: ascii('T'), lamports: 0x41414141 })],
    }).compileToLegacyMessage();
    const bytes = message.serialize();
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    expectProblem(check({ message: text }), /decodes as a Solana transaction/);
    expectProblem(check({ message: Buffer.from(new VersionedTransaction(message).serialize()).toString('base64') }), /decodes as a Solana transaction/);
    expectProblem(check({ message: bs58.encode(bytes) }), /decodes as a Solana transaction/);
  });

  it.each([
    ['NUL', '\u0000'],
    ['carriage return', '\r'],
    ['escape', '\u001b[2K'],
    ['zero-width space', '\u200B'],
    ['byte-order mark', '\uFEFF'],
    ['soft hyphen', '\u00AD'],
    ['line separator', '\u2028'],
    ['tag character', '\u{E0041}'],
    ['lone surrogate', '\uD800'],
    ['Hangul filler', '\u3164'],
  ])('refuses a %s', (_name, ch) => {
    expect(check({ message: `${GOOD}${ch}` }).problems.length).toBeGreaterThan(0);
  });

  it('counts the 2,048-byte limit in UTF-8 bytes', () => {
    const bytes = (s: string) => new TextEncoder().encode(s).length;
    const fits = `${GOOD} ${'é'.repeat(((2048 - bytes(GOOD) - 1) / 2) | 0)}`;
    expect(bytes(fits)).toBeLessThanOrEqual(2048);
    expect(check({ message: fits }).problems).toEqual([]);
    expectProblem(check({ message: `${fits}éé` }), /bytes long, more than the 2048 allowed/);
  });
});

// A false-positive audit wrote 60 honest wordings a real service might use; the shape rules
// above refused 28 of them outright. Shape is a finding now (accepted once at the prompt, then
// pinned), never a refusal: each of these honest wordings is signable once a person has read it.
describe('honest wordings in other shapes: at most findings, never refused outright', () => {
  it.each([
    'I authorize the sale of 1,234.5 BONK for no less than 0.0495 SOL.',
    'You are selling 1,234.5 BONK. You will receive at least 0.0495 SOL.',
    'Authorize sale: 1,234.5 BONK -> min 0.0495 SOL (expected 0.05 SOL, slippage 1%).',
    'Sell 1,234.5 BONK, receive at least 0.049500000 SOL, authorization sell_01HZX3, expires 2030-01-01T00:02:00.000Z',
    'Swap 1,234.5 BONK to SOL with minimum output 0.0495 SOL',
    'Sell 1,234.5 BONK\nMin. received: 0.0495 SOL',
    'Token sale authorization\nSelling: 1,234.5 BONK\nMinimum to receive: 0.0495 SOL\nExpires in 2 minutes',
    '---\ntype: sell\nsymbol: BONK\namount: 1,234.5 BONK\nmin_receive: 0.0495 SOL\nslippage: 1%\nid: sell_01HZX3',
    '# Acme Swap sell authorization\nsell: 1,234.5 BONK\nmin_out: 0.0495 SOL\nexpires: 2030-01-01T00:02:00.000Z',
    'Sell 1,234.5 BONK\n• Minimum: 0.0495 SOL\n• Expected: 0.05 SOL\n• Slippage tolerance: 1%',
    'Sell 1,234.5 BONK @ min 0.0495 SOL | expected 0.05 SOL | slippage 1% | id sell_01HZX3',
    'Sell 1,234.5 BONK for at least 0.0495 SOL\nSell ID: sell_01HZX3\nExpires: 2030-01-01T00:02:00.000Z (2 minutes)',
    'Sell 1,234.5 BONK → at least 0.0495 SOL',
    'SELL 1,234.5 BONK >= 0.0495 SOL',
    'Sell: 1,234.5 BONK\nMinimum (SOL): 0.0495\nMinimum (lamports): 49500000',
  ])('%j', (message) => {
    expect(check({ message }).problems).toEqual([]);
  });

  it('and these pass clean: Min. with a period, Minimum to receive, a YAML document start, receive at least … followed by more fields', () => {
    expectClean(check({ message: 'Sell 1,234.5 BONK\nMin. received: 0.0495 SOL' }));
    expectClean(check({ message: 'Sell 1,234.5 BONK\nMinimum to receive: 0.0495 SOL' }));
    expectClean(check({ message: '---\nsell: 1,234.5 BONK\nmin_out: 0.0495 SOL' }));
    expectClean(check({ message: 'Sell 1,234.5 BONK, receive at least 0.049500000 SOL, authorization sell_01HZX3, expires 2030-01-01T00:02:00.000Z' }));
  });
});

// A fifth red-team run got 12 signatures on first sells with words the vocabulary allowed: a
// second order, the service as a second recipient, the expiry given as the start, a date for
// an expiry. Each is refused now, or needs the user's reading.
describe('fifth red-team run: second orders, the service as a party, misnamed times', () => {
  const EXPIRES = 'Expires: 2030-01-01T00:02:00.000Z';
  it.each([
    ['a second order', `${sandboxWording}\nValid for: this order and a second order`, /./, 'second'],
    ['a second use', `${sandboxWording}\nUse: once and a second time`, /./, 'second'],
  ])('%s is never clean', (_name, message, _problem, word) => {
    const result = check({ message });
    expect([...result.problems, ...result.findings.map((f) => f.text)].join(' '), JSON.stringify(result)).toContain(word);
  });

  it.each([
    ['the proceeds shared with the service', `${sandboxWording}\nProceeds: ${OWNER} and trader sandbox`, /something other than your wallet|the service or the tool/],
    ['received by the service', `${sandboxWording}\nReceived by: trader sandbox`, /something other than your wallet|the service or the tool/],
    ['receiving: the service', `${sandboxWording}\nReceiving: trader sandbox`, /something other than your wallet|the service or the tool/],
    ['the token to the service', `${sandboxWording}\nToken: BONK to trader sandbox`, /the service or the tool/],
    ['the expiry given as the issue time', sandboxWording.replace(EXPIRES, 'Issued: 2030-01-01T00:02:00.000Z\nValid: 2 minutes'), /expiry \(2030-01-01T00:02:00.000Z\) as when it starts/],
    ['valid from the expiry', sandboxWording.replace(EXPIRES, 'Valid from: 2030-01-01T00:02:00.000Z'), /as when it starts/],
    ['the creation given as the expiry', sandboxWording.replace(EXPIRES, 'Expires: 2030-01-01T00:00:00.000Z'), /creation .* as its expiry/],
  ])('%s', (_name, message, problem) => {
    expectNotSignedUnattended(check({ message }), problem);
  });

  it('a date alone is not the authorization’s time: a finding, and under a pinned wording a change of it', () => {
    const dateOnly = check({ message: sandboxWording.replace(EXPIRES, 'Expires: 2030-01-01') });
    expect(dateOnly.findings.map((f) => f.text)).toContain('2030-01-01');
    expect(dateOnly.wording).not.toBe(check({ message: sandboxWording }).wording);
  });
});

// A fourth red-team run got 18 signatures past those rules: units named before a figure, a
// minimum with no unit, a qualified minimum word, the proceeds given to the treasury in words,
// the slippage applied to the minimum, a lifetime counted from the expiry. Each is refused now.
describe('fourth red-team run: units before figures, qualifiers, holders, lifetimes', () => {
  const line = (from: string, to: string) => sandboxWording.replace(from, to);
  const AMOUNT_LINE = `Amount: 1,234.5 BONK (${AMOUNT} raw units)`;
  const MIN_LINE = 'Minimum proceeds: 0.0495 SOL (49500000 lamports)';
  const EXPIRES = 'Expires: 2030-01-01T00:02:00.000Z';
  it.each([
    ['the raw amount labelled in whole tokens', line(AMOUNT_LINE, `Amount in BONK: ${AMOUNT}`), /the amount in raw units \(123450000\) written in tokens/],
    ['the raw amount with the symbol in brackets', line(AMOUNT_LINE, `Amount (BONK): ${AMOUNT}`), /the amount in raw units \(123450000\) written in tokens/],
    ['the raw amount after the symbol as a unit', line(AMOUNT_LINE, `Amount: BONK ${AMOUNT}`), /the unit named before the amount \(the token symbol\)/],
    ['the minimum in SOL labelled lamports', line(MIN_LINE, 'Minimum proceeds (lamports): 0.0495'), /does not state the minimum|the unit named before the minimum/],
    ['the minimum in SOL with no unit', line(MIN_LINE, 'Minimum proceeds: 0.0495'), /does not state the minimum/],
    ['an estimated minimum', line(MIN_LINE, `Estimated ${MIN_LINE.toLowerCase()}`), /the minimum qualified/],
    ['a reference minimum', line(MIN_LINE, `Reference ${MIN_LINE.toLowerCase()}`), /the minimum qualified/],
    ['the owner’s minimum and the treasury’s proceeds', line(MIN_LINE, `Owner ${MIN_LINE.toLowerCase()}\nTreasury proceeds: 0.05 SOL (50000000 lamports)`), /the minimum qualified/],
    ['proceeds: treasury', `${sandboxWording}\nProceeds: treasury`, /the proceeds given to something other than your wallet/],
    ['owner: treasury', `${sandboxWording}\nOwner: treasury`, /the owner given to something other than your wallet/],
    ['seller: treasury', `${sandboxWording}\nSeller: treasury`, /the seller given to something other than your wallet/],
    ['proceeds received by the treasury wallet', `${sandboxWording}\nProceeds received by treasury wallet only`, /the proceeds given to something other than your wallet/],
    ['the minimum to the treasury wallet', line(MIN_LINE, `${MIN_LINE} to treasury wallet`), /the wallet given to something other|something other than your wallet/],
    ['proceeds to the treasury', line(MIN_LINE, `${MIN_LINE}\nProceeds to treasury: 0.05 SOL (50000000 lamports)`), /the proceeds given to something other than your wallet/],
    ['the slippage applied to the minimum', line(MIN_LINE, `${MIN_LINE} with slippage tolerance 100 bps`), /the slippage applied to the minimum/],
    ['the expiry counted from the expiry', line(EXPIRES, 'Expires: 2 minutes from 2030-01-01T00:02:00.000Z'), /a time counted from another time/],
    ['the expiry counted twice', line(EXPIRES, 'Expires: 2 minutes from 2 minutes from 2030-01-01T00:02:00.000Z'), /a time counted from another time/],
    ['a standing order for the lifetime', line(AMOUNT_LINE, `${AMOUNT_LINE} for 2 minutes`), /the lifetime not stated as how long the authorization is valid/],
    ['zero as the minimum, the real one in brackets', `Sell 1,234.5 BONK (${MINT}) for at least 0 SOL (min 0.0495 SOL)`, /the minimum qualified/],
  ])('%s', (_name, message, problem) => {
    expectNotSignedUnattended(check({ message }), problem);
  });

  it('what stays allowed: the unit in a key, a validity, the slippage explaining the minimum, proceeds to your wallet', () => {
    expectClean(check({ message: `Sell BONK (${MINT})\nAmount (raw units): ${AMOUNT}\nMinimum proceeds (SOL): 0.0495\nValid for 2 minutes` }));
    expectClean(check({ message: `Sell 1,234.5 BONK (${MINT}), minimum 0.0495 SOL (1% slippage). Expires in 2 minutes.` }));
    expectClean(check({ message: `Sell 1,234.5 BONK (${MINT}) for at least 0.0495 SOL\nProceeds to ${OWNER}` }));
    expectClean(check({ message: `{"mint":"${MINT}","amount":"${AMOUNT}","minOutLamports":"49500000","slippageBps":100}` }));
  });
});

// A third red-team run got 30 signatures past the roles above with signs beside the figures,
// labels that empty the minimum, words after a figure, markup, and values where the proceeds
// would be named. Each is refused outright now (the sandbox wording, one line changed).
describe('third red-team run: signs, empty labels, trailing names, markup, destinations', () => {
  const line = (from: string, to: string) => sandboxWording.replace(from, to);
  const MIN_LINE = 'Minimum proceeds: 0.0495 SOL (49500000 lamports)';
  it.each([
    ['minimum minus the expected output', line(MIN_LINE, 'Minimum proceeds: 49500000 lamports - 50000000 lamports'), /a sign \(-\)/],
    ['minimum minus 1%', line(MIN_LINE, 'Minimum proceeds: 0.0495 SOL - 1%'), /a sign \(-\)/],
    ['minimum minus 100 bps', line(MIN_LINE, 'Minimum proceeds: 0.0495 SOL - 100 bps'), /a sign \(-\)/],
    ['minimum en-dash 1%', line(MIN_LINE, 'Minimum proceeds: 0.0495 SOL – 1%'), /a sign \(–\)/],
    ['below the minimum', line(MIN_LINE, 'Minimum proceeds: < 0.0495 SOL'), /a sign \(<\) before the minimum|not introduced as a minimum/],
    ['at most the minimum', line(MIN_LINE, 'Minimum proceeds: ≤ 0.0495 SOL'), /a sign \(≤\) before the minimum/],
    ['<= the minimum', line(MIN_LINE, 'Minimum proceeds <= 0.0495 SOL (49500000 lamports)'), /a sign \(<=\) before the minimum/],
    ['an empty minimum, the figure relabelled', line(MIN_LINE, 'Minimum proceeds: —; proceeds: 0.0495 SOL (49500000 lamports)'), /not introduced as a minimum/],
    ['min() of the minimum and 1%', line(MIN_LINE, 'Minimum proceeds: min(0.0495 SOL, 1%)'), /not introduced as a minimum/],
    ['a questioned minimum', line(MIN_LINE, 'Minimum proceeds: 0.0495 SOL? (49500000 lamports?)'), /a sign \(\?\) after the minimum/],
    ['the minimum called the expected output after it', line(MIN_LINE, 'Minimum proceeds: 0.0495 SOL expected'), /the minimum called something else after its figure/],
    ['a second line taking 1% off', `${sandboxWording}\nProceeds: - 1%`, /a sign \(-\) before the slippage/],
    ['the minimum struck out', line(MIN_LINE, `~~${MIN_LINE}~~`), /strike-through markup/],
    ['the minimum commented out', line(MIN_LINE, `# ${MIN_LINE}`), /comment or strike-through markup/],
    [
      'JSON with an empty minimum and a unitless proceeds figure',
      `{"sale": {"token": "BONK", "mint": "${MINT}", "amount": "${AMOUNT}", "minimum": "", "proceeds": "49500000", "authorization": "sell_01HZX3", "expires": "2030-01-01T00:02:00.000Z"}}`,
      /not introduced as a minimum/,
    ],
    ['an unbounded amount', line('Amount: 1,234.5 BONK', 'Amount: > 1,234.5 BONK'), /a sign \(>\) before the amount/],
    ['1% more than the amount', line(`Amount: 1,234.5 BONK (${AMOUNT} raw units)`, 'Amount: 1,234.5 BONK + 1%'), /a sign \(\+\) after the amount/],
    ['the proceeds as a 32-byte hex value', `${sandboxWording}\nProceeds: 0xdb1552c1206339a9cf2b7afde2b9128a6689a95a549ef8fa805e1934fa2fbc1b`, /a hash where the proceeds or a wallet would be named/],
    ['the proceeds to the mint address', `${sandboxWording}\nProceeds: ${MINT}`, /the mint where the proceeds or a wallet would be named/],
    ['an empty expiry', line('Expires: 2030-01-01T00:02:00.000Z', 'Expires: —'), /an expiry that states no time of the authorization/],
    ['an expiry after a time', line('Expires: 2030-01-01T00:02:00.000Z', 'Expires: > 2030-01-01T00:02:00.000Z'), /a sign \(>\) before a time/],
    ['an expiry plus two minutes', line('Expires: 2030-01-01T00:02:00.000Z', 'Expires: 2030-01-01T00:02:00.000Z + 2 minutes'), /a sign \(\+\) (after a time|before the lifetime)/],
  ])('%s', (_name, message, problem) => {
    expectNotSignedUnattended(check({ message }), problem);
  });

  it('what stays allowed: >= and ≥ before the minimum, = in key = value lines, an em dash between clauses, a hyphenated word', () => {
    expectClean(check({ message: `Sell 1,234.5 BONK (${MINT}) for >= 0.0495 SOL` }));
    expectClean(check({ message: 'Sell 1,234.5 BONK 🐶\n\tminimum ≥ 0.0495 SOL — signed once' }));
    expectClean(check({ message: `action = sell\nmint = ${MINT}\namount = 123450000\nmin_out_lamports = 49500000` }));
    expectClean(check({ message: `Single-use sell: 1,234.5 BONK (${MINT}) for at least 0.0495 SOL` }));
  });
});

// A second red-team run (against the guard that held the first table) got 23 signatures from
// expected words put in the wrong roles; each is now refused outright, whatever the user answers.
describe('second red-team run: figures in the wrong roles are refused', () => {
  const SOLD = `1,234.5 BONK (${MINT})`;
  it.each([
    ['the direction reversed', `Sell 0.0495 SOL for at least 1,234.5 BONK\nMint: ${MINT}`, /the minimum is stated as what is sold|the amount sold is stated as a minimum/],
    ['receiving the token for SOL', `trader sandbox: authorize a token sale\nMint: ${MINT}\nReceive 1,234.5 BONK (${AMOUNT} raw units) for 0.0495 SOL (49500000 lamports)`, /the amount sold is stated as something received/],
    ['a percentage of the minimum', sandboxWording.replace('Minimum proceeds: 0.0495 SOL', 'Minimum proceeds: 1% of 0.0495 SOL'), /a percentage of a figure/],
    ['0% of the expected output', `Sell ${SOLD} for at least 0% of 0.05 SOL`, /a percentage of a figure/],
    ['the minimum as a tolerated loss', `Sell ${SOLD}\nExpected proceeds: 0.05 SOL\nSlippage tolerance: 0.0495 SOL`, /the minimum is not introduced as a minimum/],
    ['the amount as 1% of the sale', `Sell BONK (${MINT})\nAmount: 1% of the sale is 1,234.5 BONK\nMinimum proceeds: 0.0495 SOL`, /a percentage of a figure/],
    ['the minimum negated', `${GOOD}\nThe "minimum" is only a quote`, /a minimum spoken of away from the minimum’s figure/],
    ['the minimum ignored', `${GOOD}. Ignore the minimum above`, /a minimum spoken of away from the minimum’s figure/],
    ['the expected output sold', `Sell 0.05 SOL of BONK (${MINT}); minimum 0.0495 SOL; amount ${AMOUNT} raw units`, /the expected output is stated as what is sold/],
    ['the expected output as a minimum', `Sell ${SOLD}, at least 0.05 SOL, at least 0.0495 SOL`, /the expected output is stated as a minimum/],
    ['"Receive:" on a line of its own before the amount', `Receive:\n1,234.5 BONK (${MINT})\nMinimum proceeds: 0.0495 SOL`, /the amount sold is stated as something received/],
    ['"at least" ending one line, the amount on the next', `Sell for at least\n1,234.5 BONK (${MINT})\nMinimum: 0.0495 SOL`, /the amount sold is stated as a minimum/],
  ])('%s', (_name, message, problem) => {
    expectNotSignedUnattended(check({ message }), problem);
  });

  it.each([
    ['an alternative with no floor', `${GOOD} or the quote`, 'or'],
    ['a second sale of everything', `${GOOD} and sell your tokens`, 'sell'],
    ['a standing delegation', `${GOOD}\nYou authorize the service to sell your tokens`, 'You'],
    ['a delegation to the treasury', `${GOOD}\nYou authorize ${TREASURY} to sell your tokens`, TREASURY],
    ['proceeds to the treasury', `${GOOD} to ${TREASURY}`, TREASURY],
    ['proceeds to the service', `${GOOD}, proceeds to the service`, 'service'],
    ['ownership passed to the service', `${GOOD}\nThe owner of your tokens is the service`, 'is'],
    ['the treasury as your wallet', `${GOOD}\nWallet: ${TREASURY}`, TREASURY],
  ])('%s: never signed without the user’s acceptance (refused under --yes)', (_name, message, text) => {
    const result = check({ message });
    expect(result.findings.map((f) => f.text), JSON.stringify(result)).toContain(text);
  });

  // Was: such names stayed literal because a word list knew their words; now the name's shape decides.
  it('a token name that is a sentence is a token finding (never signed unattended, even under a pinned wording)', () => {
    const pinned = check({ message: sandboxWording });
    for (const name of ['Owner Is The Service', 'Proceeds To The Service', 'Minimum Is Only A Quote', 'OwnerIsTheService']) {
      const hostile = check({ message: sandboxWording.replace('(Bonk Inu)', `(${name})`) }, { token: { symbol: 'BONK', decimals: 5, name } });
      expect(hostile.findings.filter((f) => f.token).map((f) => f.text), name).toEqual([name]);
    }
    // A plain name is masked: another token's sale has the same wording.
    const plain = check({ message: sandboxWording.replace('(Bonk Inu)', '(Woof Sandbox Dog)') }, { token: { symbol: 'BONK', decimals: 5, name: 'Woof Sandbox Dog' } });
    expect(plain.wording).toBe(pinned.wording);
  });

  it('honest role wordings still pass: the minimum named after its figure, >=, a JSON minAmountOut, a sentence between', () => {
    expectClean(check({ message: `Sell ${SOLD}: 0.0495 SOL minimum` }));
    expectClean(check({ message: `Sell ${SOLD}. 0.0495 SOL minimum` }));
    expectClean(check({ message: `Sell ${SOLD} for >= 0.0495 SOL` }));
    expectClean(check({ message: `{"mint":"${MINT}","amount":"${AMOUNT}","minAmountOut":"49500000","expectedAmountOut":"50000000"}` }));
    expectClean(check({ message: `Sell BONK (${MINT}). Minimum: 0.0495 SOL. Amount: ${AMOUNT}` }));
    expectClean(check({ message: `Sell BONK (${MINT})\nAmount:\n1,234.5 BONK\nMinimum proceeds:\n0.0495 SOL` }));
  });

  it('a token symbol made of digits and a point is not masked: the figure it hides is accounted for', () => {
    const token = { symbol: '0.0001', decimals: 5, name: 'Bonk Inu' };
    const knownTokens = [{ mint: MINT, symbol: '0.0001' }];
    const result = check({ message: `Sell 1,234.5 0.0001 (${MINT}) for at least 0.0001 SOL, minimum 0.0495 SOL` }, { token, knownTokens });
    expect(result.problems.length + result.findings.length, JSON.stringify(result)).toBeGreaterThan(0);
    expect(result.wording).not.toContain('{symbol}');
  });

  it('the pinned treasury named: no longer silently accepted (a sell has nothing to do with it), but not refused outright', () => {
    const result = check({ message: `${GOOD}\nTreasury: ${TREASURY}` });
    expect(result.problems).toEqual([]);
    expect(result.findings.map((f) => f.text)).toEqual(['Treasury', TREASURY]);
  });
});

// Found by a red-team run against the first version of this guard: every one was signed.
describe('red-team messages are never clean', () => {
  const notClean = (result: SellCheck) => expect(result.problems.length + result.findings.length, JSON.stringify(result)).toBeGreaterThan(0);
  it.each([
    ['a minimum in an unknown unit', `${GOOD.replace('0.0495 SOL', '49500000 microlamports')}`],
    ['a minimum in USD', GOOD.replace('SOL', 'USD')],
    ['a minimum in mSOL', GOOD.replace('SOL', 'mSOL')],
    ['another sale appended', `${GOOD}. Then sell another 1,234.5 BONK for at least 0.0495 SOL.`],
    ['the amount multiplied', `Sell 1,234.5 × 1,234.5 BONK (${MINT}) for at least 0.0495 SOL`],
    ['the amount multiplied with *', `Sell 1,234.5 * 1,234.5 BONK (${MINT}) for at least 0.0495 SOL`],
    ['any price', `${GOOD}, or at any price if the quote moves.`],
    ['send every token', `${GOOD}. Also send every BONK I hold to the service treasury.`],
    ['transfer into the treasury', `Transfer 1,234.5 BONK (${MINT}) into the treasury ${TREASURY}. Minimum 0.0495 SOL.`],
    ['transfer across a line break', `Transfer 1,234.5 BONK (${MINT})\nto ${TREASURY}. Minimum 0.0495 SOL.`],
    ['a JSON transfer', `{"action":"transfer","mint":"${MINT}","amount":"${AMOUNT}","recipient":"${TREASURY}","minOut":"49500000"}`],
    ['a spending approval in other words', `I authorize ${TREASURY} to spend up to 1,234.5 BONK from my wallet ${OWNER} at any time; minimum 0.0495 SOL`],
    ['a buy', `Buy 1,234.5 BONK (${MINT}) for at most 0.0495 SOL.`],
    ['a maximum', `Sell 1,234.5 BONK (${MINT}). Maximum proceeds: 0.0495 SOL; the rest is kept as a fee.`],
    ['a minimum that is not binding', `${GOOD}. The minimum is not binding.`],
    ['minus a fee', `${GOOD} minus a 1% fee.`],
    ['Spanish', `${GOOD}. Además autorizo transferir todos mis tokens a la tesorería.`],
    ['Russian', `${GOOD}. Также разрешаю перевести все мои токены на адрес сервиса.`],
    ['signing in', `${GOOD}. Signing in to WoofSwap as ${OWNER}.`],
    ['verify ownership for a site', `${GOOD}. Verify wallet ownership for app.woofswap.trade`],
    ['another held token by name and in lowercase', `${GOOD}. Also sell my Dog Hat, every last unit, and 1,000 wif more.`],
    ['a figure disguised as the creation time', `${GOOD}, plus 1500000000 more BONK.`],
    ['a hyphenated order reference spelling a second sale', `${GOOD}. Order ref ALSO-SELL-1000000-BONK-AT-MIN-0-SOL.`],
    ['a nonce that is words', `${GOOD}. nonce: PLUS-ALL-REMAINING-BONK-AT-ANY-PRICE`],
    ['a nonce followed by a unit', `${GOOD}. nonce: 1000000000 BONK`],
    ['an expiry far in the future', `${GOOD}. Valid until 2099-12-31T00:00:00Z.`],
    ['a lifetime of a year', `${GOOD}. This authorization is valid for 525600 minutes.`],
    ['a daily repeat', `Sell 1,234.5 BONK (${MINT}) daily for at least 0.0495 SOL, until my balance is empty.`],
  ])('%s', (_name, message) => {
    notClean(check({ message }, { knownTokens: [{ mint: MINT, symbol: 'BONK' }, { mint: OTHER_MINT, symbol: 'WIF', name: 'Dog Hat' }] }));
  });

  it('refuses fields that would let the wording’s slots say something else', () => {
    expectProblem(check({ id: 'sell_7Qx; amount 50,000,000 BONK; minimum 0 SOL', message: `${GOOD}\nAuthorization: sell_7Qx; amount 50,000,000 BONK; minimum 0 SOL` }), /is not an opaque sell_ id/);
    expectProblem(check({ id: '5000000', message: `${GOOD}, and also 5000000 BONK.` }), /is not an opaque sell_ id/);
    expectProblem(check({ expiresAt: '2099-12-31T23:59:59.000Z' }), /more than 2 minutes from now/);
    expectProblem(check({ createdAt: '2029-01-01T00:00:00.000Z' }), /createdAt .* does not fit a 2-minute authorization/);
    expectProblem(check({ message: `${GOOD}\nExpires: 2099-12-31T23:59:59Z` }), /states the time 2099-12-31T23:59:59Z, after the authorization expires/);
  });

  it('second review: words in the id, figures and sentences in hashes, the amount in two units, a key running across sentences', () => {
    expectProblem(check({ id: 'sell_and_withdraw_all_remaining_tokens', message: GOOD }), /not an opaque sell_ id/);
    expectProblem(check({ id: 'sellAndWithdrawAll', message: GOOD }), /not an opaque sell_ id/);
    // Was refused by a word list; now by the pinned shape: after the sandbox's ids, it is another wording.
    const pinnedId = shaped(check({ id: 'sell_7QxbKMv2pTnW9hRd3LcZfG', message: `${GOOD}\nAuthorization: sell_7QxbKMv2pTnW9hRd3LcZfG` }));
    expect(shaped(check({ id: 'sell_AndWithdrawEverything9', message: `${GOOD}\nAuthorization: sell_AndWithdrawEverything9` }), pinnedId)).not.toBe(pinnedId);
    expect(check({ id: 'sell_mDQPKdXB7yq1o11thgDwmg', message: GOOD }).problems).toEqual([]);
    expectProblem(check({ message: `${GOOD}, and sell 1000000000000000 raw units of BONK` }), /states "1000000000000000": not the amount/);
    expect(check({ message: `${GOOD}; sell 0x0000000000000000 SOL` }).findings.length).toBeGreaterThan(0);
    expect(check({ message: `${GOOD}. Ref NoMinimumAnyPriceAcceptedSendEverythingToBuyerXyzAbc` }).findings.length).toBeGreaterThan(0);
    const twice = check({ message: `Sell 1,234.5 BONK and sell ${AMOUNT} raw units of BONK (${MINT}) for at least 0.0495 SOL` });
    expect(twice.findings.map((f) => f.reason)).toContain(`the amount in raw units (${AMOUNT}) stated a second time`);
    expect(check({ message: `Sell 1,234.5 BONK (${AMOUNT} raw units) for at least 0.0495 SOL (49500000 lamports)` }).findings).toEqual([]);
    expectClean(check({ message: `Sell BONK (${MINT}). Minimum: 0.0495 SOL. Amount: ${AMOUNT}` }));
  });

  it('keeps a sentence passed off as the token name in the wording, where a change shows', () => {
    const pinned = check({ message: sandboxWording });
    const name = 'Bonk Inu) x 1000 (minimum 0 SOL';
    const hostile = check({ message: sandboxWording.replace('(Bonk Inu)', `(${name})`) }, { token: { symbol: 'BONK', decimals: 5, name } });
    expect(hostile.wording).not.toBe(pinned.wording);
    expect(hostile.findings.length).toBeGreaterThan(0);
  });
});

describe('fields', () => {
  it('refuses an expired or unparseable expiry', () => {
    expectProblem(check({ expiresAt: new Date(NOW).toISOString() }), /expired/);
    expectProblem(check({ expiresAt: 'soon' }), /expiresAt "soon" is not a valid time/);
  });
  it('refuses another mint or amount', () => {
    expectProblem(check({ mint: OTHER_MINT }), /sells EKpQ.*not the requested token/);
    expectProblem(check({ amount: '123450001' }), /sells 1,234.50001 BONK \(123450001 raw units\), not the requested 1,234.5 BONK/);
  });
  it.each([['1e7'], ['-1'], [''], ['0x10'], ['49500000.0'], [' 49500000']])('refuses a malformed minimum %j', (value) => {
    expectProblem(check({ minimumOutputLamports: value }), /minimumOutputLamports .* is not a whole number/);
  });
  it('refuses a minimum below --min-sol, accepts one equal to it', () => {
    expectProblem(check({}, { minSolLamports: 49_500_001n }), /below --min-sol/);
    expect(check({}, { minSolLamports: 49_500_000n }).problems).toEqual([]);
  });
});

describe('slippage and the minimum, at their edges', () => {
  // Expected 50,000,000 at 100 bps: the exact floor is 49,500,000; rounding may take it less
  // than 1 bp of the expected output (5,000 lamports) lower, so 49,495,001 passes, 49,495,000 does not.
  const at = (minimum: string, slippageBps = 100) =>
    check({ minimumOutputLamports: minimum, slippageBps, message: `Sell ${AMOUNT} raw units of ${MINT}, minimum ${minimum} lamports` });
  it('accepts the exact floor and a minimum above it', () => {
    expect(at('49500000').problems).toEqual([]);
    expect(at('49999999').problems).toEqual([]);
  });
  it('accepts a minimum rounded down by less than 1 bp; refuses 1 lamport further', () => {
    expect(at('49495001').problems).toEqual([]);
    expectProblem(at('49495000'), /below what 100 bps of slippage allows on the expected 0\.05 SOL \(0\.0495 SOL\)/);
  });
  it('accepts the floor rounded down to a whole lamport on a tiny sell, not a lamport less', () => {
    // Expected 6 lamports at 100 bps: the exact floor is 5.94, the whole-lamport floor 5.
    const tiny = (minimum: string) =>
      check({ expectedOutputLamports: '6', minimumOutputLamports: minimum, message: `Sell ${AMOUNT} raw units of ${MINT}, minimum ${minimum} lamports` });
    expect(tiny('5').problems).toEqual([]);
    expectProblem(tiny('4'), /below what 100 bps of slippage allows/);
  });
  it('refuses a minimum 1% below the floor', () => {
    expectProblem(at('49005000'), /below what 100 bps of slippage allows/);
  });
  it('refuses a minimum above the expected output', () => {
    expectProblem(at('50000001'), /minimum 0\.050000001 SOL is above the expected 0\.05 SOL/);
  });
  it('applies the default cap of 500 bps when the user set none: 500 passes, 501 does not', () => {
    expect(DEFAULT_MAX_SLIPPAGE_BPS).toBe(500);
    expect(at('47500000', 500).problems).toEqual([]);
    expectProblem(at('47495000', 501), /slippage 501 bps is more than the 500 bps allowed/);
  });
  it('refuses slippage 10000 with a minimum of 0 when nothing was set', () => {
    const result = check({ slippageBps: 10_000, minimumOutputLamports: '0', message: `Sell ${AMOUNT} raw units of ${MINT}, minimum 0 lamports` });
    expectProblem(result, /slippage 10000 bps is more than the 500 bps allowed/);
  });
  it('holds a typed or profile limit: at the limit passes, one bp over is refused', () => {
    expect(at('49500000').problems).toEqual([]);
    expect(check({}, { allowedSlippageBps: 100 }).problems).toEqual([]);
    expectProblem(check({}, { allowedSlippageBps: 99 }), /slippage 100 bps is more than the 99 bps allowed/);
  });
  it('refuses a slippage that is not a number of basis points', () => {
    expectProblem(check({ slippageBps: 20_000 }), /not a number of basis points/);
    expectProblem(check({ slippageBps: 1.5 }), /not a number of basis points/);
  });
});

// Issue 22: a masked slot is a place for a value, and a value has a shape (slot-shapes.ts). The
// shape each id, hash and nonce slot had when the wording was pinned is written into the pin; a
// value of another shape is a wording change. A token's name and symbol are plain only in a
// conservative shape, or as a person confirmed them for the token.
describe('slot shapes: the authorization id', () => {
  const withId = (id: string) => check({ id, message: `${GOOD}\nAuthorization: ${id}` });
  it.each([
    ['the sandbox: consonants and digits', 'sell_7QxbKMv2pTnW9hRd3LcZfG', 'sell_b4NqR8sTzW2kXcD9fGhJmP', '{id: sell_ + 22 consonants}'],
    ['base58', 'sell_3mDQPKdXB7yq1o11thgDwmg', 'sell_9aEiUYn2xsWq7TrKzC3pVb', '{id: sell_ + 23 base58}'],
    ['a ULID', 'sell_01HZX3N8Q4V7R2M5K9T6W1Y0BC', 'sell_01J0A7C2E4G6J8K0M2P4R6T8VX', '{id: sell_ + 26 upper}'],
    ['lowercase hex', 'sell_9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c', 'sell_0a1b2c3d4e5f60718293a4b5c6d7e8f9', '{id: sell_ + 32 hex}'],
    ['digits', 'sell_000123456789', 'sell_987654321012', '{id: sell_ + 12 digits}'],
    ['base62', 'sell_0OIlmDQPKdXB7yq1o11thg', 'sell_Zk3lO0aIq9Wv2Ls8Jd4Xf1', '{id: sell_ + 22 alnum}'],
  ])('%s: accepted, pinned with its shape, and the next id of the same shape keeps the wording', (_name, first, next, slot) => {
    const a = withId(first);
    const b = withId(next);
    expectClean(a);
    expectClean(b);
    const pinned = shaped(a);
    expect(pinned).toContain(`Authorization: ${slot}`);
    expect(shaped(b, pinned)).toBe(pinned);
  });

  it.each([
    ['spaces', 'sell_Qx7 and sell all'],
    ['dots', 'sell_Qx7.and.sell.all'],
    ['a semicolon and figures', 'sell_7Qx; amount 50,000,000 BONK'],
    ['CJK', 'sell_我授权提取全部资金'],
    ['Cyrillic', 'sell_ЯразрешаюВывод'],
    ['Arabic', 'sell_أفوضسحبالأموال'],
    ['underscores between words', 'sell_and_withdraw_all'],
    ['no sell_ prefix', 'IAuthorizeWithdrawalOfAllFunds'],
    ['65 characters after sell_', `sell_${'7'.repeat(65)}`],
    ['3 characters after sell_', 'sell_7Qx'],
  ])('%s: refused before any pin', (_name, id) => {
    expectProblem(withId(id), /is not an opaque sell_ id of 4 to 64 letters and digits/);
  });

  it('4 and 64 characters after sell_ are accepted', () => {
    expect(withId('sell_7Qxb').problems).toEqual([]);
    expect(withId(`sell_${'7Qxb'.repeat(16)}`).problems).toEqual([]);
  });

  // Under the sandbox's pinned shape (22 consonants and digits), each of these is a wording change.
  it.each([
    ['camel case Latin', 'sell_IAuthorizeWithdrawalOfAllFunds'],
    ['camel case, the same length', 'sell_SendAllFundsToOprtr'],
    ['lower-case words', 'sell_withdrawallfundsnow'],
    ['transliterated Russian in camel case', 'sell_YaRazreshayuVyvodVseh'],
    ['pinyin in camel case', 'sell_WoShouQuanTiQuZiJin'],
    ['three times longer', `sell_${'7QxbKMv2pTnW9hRd3LcZf'.repeat(3)}`],
  ])('%s: another shape, so another wording', (_name, id) => {
    const pinned = shaped(withId('sell_7QxbKMv2pTnW9hRd3LcZfG'));
    const now = shaped(withId(id), pinned);
    expect(now).not.toBe(pinned);
    expect(now).toMatch(/Authorization: \{id: sell_ \+ \d+ \w+\}/);
  });

  it('letters where base58 stood (0, O, I, l) are another shape', () => {
    const pinned = shaped(withId('sell_3mDQPKdXB7yq1o11thgDwmg'));
    expect(shaped(withId('sell_3mDQPKdXB7yq1o11thgDwmO'), pinned)).toBe(pinned.replace('23 base58', '23 alnum'));
    expect(shaped(withId('sell_AllFundsToOperator12'), pinned)).not.toBe(pinned);
  });

  it('the length may move a quarter of the pinned length either way: 20 pinned, 15 and 25 fit, 14 and 26 do not', () => {
    const id = (n: number) => `sell_${'3mDQPKdXB7yq1o1thgDwmg3mDQPK'.slice(0, n)}`;
    const pinned = shaped(withId(id(20)));
    expect(pinned).toContain('{id: sell_ + 20 base58}');
    expect(shaped(withId(id(15)), pinned)).toBe(pinned);
    expect(shaped(withId(id(25)), pinned)).toBe(pinned);
    expect(shaped(withId(id(14)), pinned)).toContain('{id: sell_ + 14 base58}');
    expect(shaped(withId(id(26)), pinned)).toContain('{id: sell_ + 26 base58}');
  });
});

describe('slot shapes: hashes and nonces', () => {
  const HEX64 = 'db1552c1206339a9cf2b7afde2b9128a6689a95a549ef8fa805e1934fa2fbc1b';
  it('honest hashes and nonces of several shapes keep a pinned wording from one sell to the next', () => {
    const pairs: Array<[string, string]> = [
      [`${GOOD}\nQuote: ${HEX64}`, `${GOOD}\nQuote: ${HEX64.split('').reverse().join('')}`],
      [`${GOOD}\nQuote: ${HASH}`, `${GOOD}\nQuote: ${HASH.slice(1)}5`],
      [`${GOOD}\nRequest: 0x9f8e7d6c5b4a3f2e`, `${GOOD}\nRequest: 0x0123456789abcdef`],
      [`${GOOD}\nNonce: 582910374`, `${GOOD}\nNonce: 100293847`],
      [`${GOOD}\nnonce = 8f3a9c2e71b4d05e`, `${GOOD}\nnonce = 00aa11bb22cc33dd`],
    ];
    for (const [first, next] of pairs) {
      const pinned = shaped(check({ message: first }));
      expect(pinned).toMatch(/\{(hash|nonce): /);
      expectClean(check({ message: next }));
      expect(shaped(check({ message: next }), pinned), next).toBe(pinned);
    }
  });

  it.each([
    ['a hash three times longer', `${GOOD}\nQuote: ${HEX64}`, `${GOOD}\nQuote: ${HEX64.repeat(3)}`],
    ['base58 where hex stood', `${GOOD}\nQuote: ${HEX64}`, `${GOOD}\nQuote: ${HASH}`],
    ['a nonce of letters and digits where digits stood', `${GOOD}\nNonce: 582910374`, `${GOOD}\nNonce: 5829a0374`],
    ['a hash in camel-case words', `${GOOD}\nQuote: ${HEX64}`, `${GOOD}\nQuote: IAuthorizeWithdrawalOfAllFundsToTheOperatorNow`],
    ['a hash in CJK', `${GOOD}\nQuote: ${HEX64}`, `${GOOD}\nQuote: 我授权将所有资金提取给运营商`],
    ['a hash in Cyrillic', `${GOOD}\nQuote: ${HEX64}`, `${GOOD}\nQuote: ЯРазрешаюВыводВсехСредств`],
    ['a nonce in Latin words', `${GOOD}\nNonce: 582910374`, `${GOOD}\nNonce: SendAllFunds`],
    ['a nonce in CJK', `${GOOD}\nNonce: 582910374`, `${GOOD}\nNonce: 我授权提取全部资金`],
    ['a nonce in Cyrillic', `${GOOD}\nNonce: 582910374`, `${GOOD}\nNonce: РазрешаюВывод`],
  ])('%s: another wording', (_name, first, next) => {
    const pinned = shaped(check({ message: first }));
    expect(shaped(check({ message: next }), pinned)).not.toBe(pinned);
  });

  it('a pin made before shapes were pinned holds the same wording without them', () => {
    const now = shaped(check({ message: `${GOOD}\nQuote: ${HEX64}` }));
    expect(withoutShapes(now)).toBe(`Sell {amount.tokens} {symbol} ({mint}) for at least {minimum.sol} SOL\nQuote: {hash}`);
  });
});

describe('slot shapes: the token symbol and name', () => {
  const token = (symbol: string, name: string) => ({ token: { symbol, decimals: 5, name }, knownTokens: [{ mint: MINT, symbol }] });
  const message = (symbol: string, name: string) => `Sell 1,234.5 ${symbol} (${name}, ${MINT}) for at least 0.0495 SOL`;
  const tokenFindings = (r: SellCheck) => r.findings.filter((f) => f.token).map((f) => f.text);

  it.each([
    ['BONK', 'Bonk'],
    ['WIF', 'dogwifhat'],
    ['USDC', 'USD Coin'],
    ['JUP', 'Jupiter'],
    ['stSOL', 'Lido Staked SOL'],
    ['POPCAT', 'Popcat'],
    ['ABCDEFGHIJ', 'Dog Wif Hat'],
    ['PEPE2', 'Pepe Two'],
    ['B0NK', 'BabyDoge Coin'],
    ['WOOF', 'Wrapped Solana Staked'],
  ])('%s / %s: plain, masked, nothing to confirm', (symbol, name) => {
    const r = check({ message: message(symbol, name) }, token(symbol, name));
    expect(tokenFindings(r)).toEqual([]);
    expect(r.wording).toBe('Sell {amount.tokens} {symbol} ({name}, {mint}) for at least {minimum.sol} SOL');
  });

  it('the limits: a symbol of 10 characters is plain, 11 is not; a name of 3 words is plain, 4 is not; 32 characters plain, 33 not', () => {
    expect(tokenFindings(check({ message: message('ABCDEFGHIJ', 'Bonk') }, token('ABCDEFGHIJ', 'Bonk')))).toEqual([]);
    expect(tokenFindings(check({ message: message('ABCDEFGHIJK', 'Bonk') }, token('ABCDEFGHIJK', 'Bonk')))).toEqual(['ABCDEFGHIJK']);
    expect(tokenFindings(check({ message: message('BONK', 'Big Dog Hat') }, token('BONK', 'Big Dog Hat')))).toEqual([]);
    expect(tokenFindings(check({ message: message('BONK', 'Big Dog Hat Now') }, token('BONK', 'Big Dog Hat Now')))).toEqual(['Big Dog Hat Now']);
    const n32 = `${'a'.repeat(15)} ${'b'.repeat(16)}`;
    const n33 = `${'a'.repeat(16)} ${'b'.repeat(16)}`;
    expect(tokenFindings(check({ message: message('BONK', n32) }, token('BONK', n32)))).toEqual([]);
    expect(tokenFindings(check({ message: message('BONK', n33) }, token('BONK', n33)))).toEqual([n33]);
  });

  it.each([
    ['four English words', 'BONK', 'Owner Gets All Proceeds'],
    ['a sentence in camel case', 'BONK', 'IAuthorizeWithdrawalOfAllFunds'],
    ['a Chinese sentence', 'BONK', '我授权将所有资金提取给运营商'],
    ['a Russian sentence', 'BONK', 'Я разрешаю вывод всех средств оператору'],
    ['an Arabic sentence', 'BONK', 'أفوض سحب جميع الأموال إلى المشغل'],
    ['a Chinese word', 'BONK', '狗狗币'],
    ['a symbol that is a Chinese statement', '全部提现', 'Bonk'],
    ['a symbol that is a Russian statement', 'ВЫВОДВСЕГО', 'Bonk'],
    ['a symbol in camel case', 'SendAllNow', 'Bonk'],
    ['a symbol of 11 Latin letters', 'WITHDRAWALL', 'Bonk'],
    ['a name with a number for a word (round 2 made it not plain)', 'PEPE2', 'Pepe 2024'],
  ])('%s: a token finding, in any script', (_name, symbol, name) => {
    const r = check({ message: message(symbol, name) }, token(symbol, name));
    expect(tokenFindings(r).length, JSON.stringify(r.findings)).toBeGreaterThan(0);
    expect(r.findings.find((f) => f.token)!.reason).toMatch(/comes from the service alone: neither plain .* nor the one confirmed for this token/);
  });

  it('a name or symbol a person confirmed for this token is signed as it stands; another one is not', () => {
    const name = '我授权将所有资金提取给运营商';
    const r = check({ message: message('全部提现', name) }, { ...token('全部提现', name), confirmedToken: { symbol: '全部提现', name } });
    expectClean(r);
    expect(r.wording).toBe('Sell {amount.tokens} {symbol} ({name}, {mint}) for at least {minimum.sol} SOL');
    const other = check({ message: message('全部提现', name) }, { ...token('全部提现', name), confirmedToken: { symbol: '全部提现', name: 'Bonk' } });
    expect(tokenFindings(other)).toEqual([name]);
  });
});

describe('a sale for nothing is not a quote', () => {
  const sale = (expected: string, minimum: string, slippageBps = 100) =>
    check({ expectedOutputLamports: expected, minimumOutputLamports: minimum, slippageBps, message: `Sell ${AMOUNT} raw units of ${MINT}, minimum ${minimum} lamports` }, { allowedSlippageBps: 10_000 });
  it('a minimum of 0 is refused, even where the slippage allowed would reach it', () => {
    expectProblem(sale('50000000', '0', 10_000), /the minimum output is 0 lamports: a sale with no floor/);
  });
  it('an expected output of 0 is refused', () => {
    expectProblem(sale('0', '0', 0), /the expected output is 0 lamports: a sale for nothing/);
  });
  it('a dust quote is still a quote: 1 lamport expected and minimum passes', () => {
    expectClean(sale('1', '1', 0));
    expectClean(sale('6', '5'));
  });
});

describe('the times a message may state, at their edges', () => {
  const withTime = (line: string) => check({ message: `${GOOD}\n${line}` });
  it('the expiry plus 60 s is the authorization’s own time; plus 61 s is after it expires', () => {
    expectClean(withTime('Expires: 2030-01-01T00:03:00.000Z'));
    expectProblem(withTime('Expires: 2030-01-01T00:03:01.000Z'), /states the time 2030-01-01T00:03:01.000Z, after the authorization expires/);
  });
  it('the creation minus 60 s is its own time; minus 61 s is a time the tool cannot explain', () => {
    expectClean(withTime('Created: 2029-12-31T23:59:00.000Z'));
    expect(withTime('Created: 2029-12-31T23:58:59.000Z').findings.map((f) => f.text)).toContain('2029-12-31T23:58:59.000Z');
  });
});

describe('shapes of another protocol', () => {
  it.each(['Withdraw all balances', 'withdrawal of all balances', 'WITHDRAW everything'])('%j reads as a withdrawal', (text) => {
    expectProblem(check({ message: `${GOOD}. ${text}` }), /reads as a withdrawal/);
  });
});

// Honest services word their messages their own way; once a person pinned the wording, the next
// sell (a new id, nonce, hash and expiry) has the same shaped wording, no problem and nothing
// about the token to confirm: it trades unattended.
describe('honest wordings still trade unattended once pinned', () => {
  interface Sale {
    id: string;
    nonce: string;
    hash: string;
  }
  const sales: [Sale, Sale] = [
    { id: 'sell_7QxbKMv2pTnW9hRd3LcZfG', nonce: '582910374', hash: 'db1552c1206339a9cf2b7afde2b9128a6689a95a549ef8fa805e1934fa2fbc1b' },
    { id: 'sell_b4NqR8sTzW2kXcD9fGhJmP', nonce: '100293847', hash: '0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9' },
  ];
  it.each([
    ['the sandbox layout', (s: Sale) => sandboxWording.replace('sell_01HZX3', s.id)],
    ['one line with the id', (s: Sale) => `Sell 1,234.5 BONK (${MINT}) for at least 0.0495 SOL, authorization ${s.id}`],
    ['key = value with a nonce', (s: Sale) => `action = sell\nmint = ${MINT}\namount = 123450000\nmin_out_lamports = 49500000\nnonce = ${s.nonce}\nid = ${s.id}`],
    ['JSON with an id', (s: Sale) => `{"id":"${s.id}","action":"sell","mint":"${MINT}","amount":"123450000","minOutLamports":"49500000"}`],
    ['the id first', (s: Sale) => `Authorization ${s.id}\nSell 1,234.5 BONK (Bonk Inu)\nMinimum proceeds: 0.0495 SOL\nMint: ${MINT}`],
    ['a quote hash', (s: Sale) => `Sell 1,234.5 BONK for at least 0.0495 SOL\nMint: ${MINT}\nQuote: ${s.hash}`],
    ['raw units and lamports', (s: Sale) => `Sell ${AMOUNT} raw units of ${MINT} for at least 49500000 lamports (ref ${s.id})`],
    ['expected, minimum and slippage', (s: Sale) => `Sell 1,234.5 BONK (${MINT}). Expected 0.05 SOL, minimum 0.0495 SOL (1% slippage). Nonce: ${s.nonce}`],
    ['the name and symbol with the owner', (s: Sale) => `Seller ${OWNER} sells 1,234.5 BONK (Bonk Inu) for >= 0.0495 SOL\nID: ${s.id}`],
    ['tabs and a hash', (s: Sale) => `Sell\t1,234.5\tBONK\tmin\t49,500,000 lamports\t${MINT}\t${s.hash}`],
    ['the minimum after its figure', (s: Sale) => `Sell 1,234.5 BONK (${MINT}): 0.0495 SOL minimum. Sale ${s.id}`],
  ])('%s', (_name, words) => {
    const [first, next] = sales.map((s) => check({ id: s.id, message: words(s) }));
    expect(first!.problems).toEqual([]);
    const pinned = shaped(first!);
    expect(next!.problems).toEqual([]);
    expect(next!.findings.filter((f) => f.token)).toEqual([]);
    expect(shaped(next!, pinned)).toBe(pinned);
  });
});

// Figures and times are slots whose only shape is the trade's own value: a quantity or a time in
// words, in any script, is no value of the trade and never signed unattended.
describe('slot shapes: figures and times take only the trade’s own values', () => {
  it.each([
    ['a quantity in Latin words', `${GOOD}. Also one million more`],
    ['a quantity in camel case', `${GOOD}. AlsoOneMillionMore`],
    ['a quantity in CJK', `${GOOD}。另外再卖一百万`],
    ['a quantity in Cyrillic', `${GOOD}. Ещё миллион`],
    ['a time in Latin words', `${GOOD}. Valid forever`],
    ['a time in CJK', `${GOOD}. 有效期至2099年`],
    ['a time in Cyrillic', `${GOOD}. Действует бессрочно`],
    ['a time in camel case', `${GOOD}. ValidUntilRevoked`],
  ])('%s', (_name, message) => {
    const r = check({ message });
    expect(r.problems.length + r.findings.length, JSON.stringify(r)).toBeGreaterThan(0);
  });
});

// Issue 22, second round: what a black-box red team got signed under --yes, each closed here
// (/work/redteam-findings.json). An id, hash or nonce that reads as words is a slot finding that
// stands under a pinned wording; a name or symbol with a figure or a label word of the wording
// is not plain; a symbol or name that renames SOL or lamports is refused outright.
describe('red team, round 2: values that read as words', () => {
  const slotFindings = (r: SellCheck) => r.findings.filter((f) => f.slot).map((f) => f.text);
  const withId = (id: string) => check({ id, message: `${GOOD}\nAuthorization: ${id}` });

  it.each([
    'sell_SendAllFundsToOperatr',
    'sell_NoMinimumOnThisSale',
    'sell_SendEverythingToTheService',
    'sell_WithdrawEverythingToOperatorWallet',
    'sell_Pay100SOLFeeToOperator',
    'sell_SendAllFundsToTheServiceOperatorNow',
    'sell_NoMinimumAppliesToThisSale',
    'sell_QuanbuZhuanGeiYunyingShang',
  ])('the id %s is a slot finding (never signed unattended, whatever the pinned wording)', (id) => {
    const r = withId(id);
    expect(slotFindings(r)).toEqual([id]);
    expect(r.findings.find((f) => f.slot)!.reason).toBe('an authorization id that reads as words, not as random data');
    expect(shaped(r)).toMatch(/Authorization: \{id: sell_ \+ \d+ \w+\}/);
  });

  it('ids that read as data are no finding: the sandbox’s, base58, a ULID, hex, digits', () => {
    for (const id of ['sell_zrXQtWCN3fNPB2QRF87kN4', 'sell_4wCLHnnXp4VrPtwFpGq7s6', 'sell_3mDQPKdXB7yq1o11thgDwmg', 'sell_01HZX3N8Q4V7R2M5K9T6W1Y0BC', 'sell_9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c', 'sell_000123456789']) {
      expectClean(withId(id));
    }
  });

  it.each([
    ['a base58 hash first used', 'GiveEveryTokenAndSoLToTheServiceWaLLetForever999'],
    ['a base58 hash where an honest one was pinned', 'GiveEveryTokenAndSoLToTheServiceWaLLetForeverAndSignNothingEsLse9999'],
  ])('%s that reads as words is a slot finding', (_name, hash) => {
    const r = check({ message: `${GOOD}\nHash: ${hash}` });
    expect(slotFindings(r)).toEqual([hash]);
    expect(r.wording).toContain('Hash: {hash}');
  });

  it('a base58 nonce that reads as words is a slot finding; one with a letter outside base58 stays unexplained figures', () => {
    expect(slotFindings(check({ message: `${GOOD}\nnonce: NoMinimum4ThisSaLe99` }))).toEqual(['NoMinimum4ThisSaLe99']);
    const other = check({ message: `${GOOD}\nnonce: TransferALL2Operator4Ever` });
    expect(other.findings.length).toBeGreaterThan(0);
  });

  it('an honest random base58 nonce (five letters in a row) is a nonce, and the next one keeps the pinned wording', () => {
    const first = check({ message: `${GOOD}\nnonce: cDP51VwocyB8opvRTS4zDi` });
    expectClean(first);
    const pinned = shaped(first);
    expect(pinned).toContain('nonce: {nonce: 22 base58}');
    const next = check({ message: `${GOOD}\nnonce: hWqTzkPMbRr7NxJ4fGvcXd` });
    expectClean(next);
    expect(shaped(next, pinned)).toBe(pinned);
  });

  it('a base58 nonce of 16 characters needs no digit; of 15 it needs two', () => {
    expectClean(check({ message: `${GOOD}\nnonce: hWqTzkPMbRrNxJfG` }));
    expect(check({ message: `${GOOD}\nnonce: hWqTzkPMbRrNxJf` }).findings.length).toBeGreaterThan(0);
    expectClean(check({ message: `${GOOD}\nnonce: hWqTzkPMbRrN4J7` }));
  });
});

describe('red team, round 2: names and symbols', () => {
  const token = (symbol: string, name: string) => ({ token: { symbol, decimals: 5, name }, knownTokens: [{ mint: MINT, symbol }] });
  const message = (symbol: string, name: string) => `Sell 1,234.5 ${symbol} (${name}, ${MINT}) for at least 0.0495 SOL`;
  const tokenFindings = (r: SellCheck) => r.findings.filter((f) => f.token).map((f) => f.text);
  const checkToken = (symbol: string, name: string) => check({ message: message(symbol, name) }, token(symbol, name));

  it.each([
    ['NoMinimumApplies'],
    ['Fee 50 Percent'],
    ['Zero Minimum Proceeds'],
    ['Proceeds To Operator'],
    ['Also Sell Everything'],
    ['Min 0 Lamports'],
    ['Price 1000 USD'],
    ['Sell 100 Percent'],
  ])('the name "%s" is not plain: a token finding', (name) => {
    expect(tokenFindings(checkToken('SGLD', name))).toEqual([name]);
  });

  it.each([['SellAll'], ['MINIMUM'], ['X1000'], ['SOLANA']])('the symbol %s is not plain: a token finding', (symbol) => {
    expect(tokenFindings(checkToken(symbol, 'Sandbox Gold'))).toContain(symbol);
  });

  it.each([
    ['sol', 'SOL'],
    ['Sol', 'SOL'],
    ['SOL', 'SOL'],
    ['WSOL', 'SOL'],
    ['wSol', 'SOL'],
    ['LAMPORTS', 'lamports'],
    ['Lamport', 'lamports'],
    ['WLAMPORTS', 'lamports'],
  ])('the symbol %s renames %s: refused outright', (symbol, currency) => {
    expectProblem(checkToken(symbol, 'Sandbox Gold'), new RegExp(`the token's symbol "${symbol}" names ${currency}, the currency the message's figures are read in`));
  });

  it('a name that is the currency alone is refused too; one that mentions it among other words is not', () => {
    expectProblem(checkToken('SGLD', 'Lamports'), /the token's name "Lamports" names lamports/);
    // Round 2 of the second red team: "Wrapped" before it is the wrapper prefix spelt out (wrapped SOL is SOL).
    expectProblem(checkToken('SGLD', 'Wrapped SOL'), /the token's name "Wrapped SOL" names SOL/);
    expect(checkToken('SGLD', 'Jito Staked SOL').problems).toEqual([]);
    expect(checkToken('SGLD', 'Wrapped Gold SOL').problems).toEqual([]);
  });

  it.each([
    ['SGLD', 'Sandbox Gold'],
    ['WOOF', 'Woof Sandbox Dog'],
    ['BONK', 'Bonk'],
    ['WIF', 'dogwifhat'],
    ['JUP', 'Jupiter'],
    ['PYTH', 'Pyth Network'],
    ['RAY', 'Raydium'],
    // Decision: "SOL" inside a longer name or symbol is how staked and wrapped SOL are named; it stays plain.
    ['JitoSOL', 'Jito Staked SOL'],
    ['stSOL', 'Lido Staked SOL'],
    ['W', 'Wormhole'],
    // "X99" was here: after a figure it reads as a multiplier (scalesFigure), refused since the second red team.
    ['P99', 'Pepe Two'],
  ])('%s / %s: still plain', (symbol, name) => {
    const r = checkToken(symbol, name);
    expect(r.problems).toEqual([]);
    expect(tokenFindings(r)).toEqual([]);
  });

  it('the limits: 3 digits in a row in a symbol are plain, 4 are not; a word of 2 digits in a name is plain, of 3 is not', () => {
    expect(tokenFindings(checkToken('S568T3', 'Bonk'))).toEqual([]);
    expect(tokenFindings(checkToken('X5683', 'Bonk'))).toEqual(['X5683']);
    expect(tokenFindings(checkToken('BONK', 'Test Coin 12'))).toEqual([]);
    expect(tokenFindings(checkToken('BONK', 'Test Coin 120'))).toEqual(['Test Coin 120']);
    expect(tokenFindings(checkToken('BONK', 'Pepe2024 Coin'))).toEqual([]);
  });
});
