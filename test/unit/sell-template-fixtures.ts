// Trades and messages for the sell-template tests: four trades of different tokens and values,
// honest wordings a real service might use (each a function of a trade, formatted here by hand,
// not by the renderer under test), and the hostile messages of every earlier attack.
import type { SellAuthorization } from '../../src/api/types.js';
import type { GuardInput } from '../../src/wallet/sell-template/guard.js';
import type { Template } from '../../src/wallet/sell-template/template.js';

export const MINT = 'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263';
export const OTHER_MINT = 'EKpQGSJtjMFqKZ9KQanSqYXRcF8fBopzLHYxdM65zcjm';
export const OWNER = 'F8Sc651uJsuRdU8PSrVvCB99stm48Hdt6RiDnxQ7EPfH';
export const TREASURY = 'Ex1vp9AqsjvjZip3ai3SQEVqretUdF3QsuZKLWo4Z5V9';
export const STRANGER = 'HLxAr4s3KjAJXKLmbGkXbBWRCYFxQ74thgZg9dxHxcAw';

export interface Trade {
  id: string;
  mint: string;
  symbol: string;
  name: string;
  decimals: number;
  amount: bigint;
  expected: bigint;
  minimum: bigint;
  bps: number;
  createdAt: string;
  expiresAt: string;
  /** A 16-digit hex nonce and a base58 hash of this trade's own. */
  nonce: string;
  hash: string;
}

/** The trade of the old unit tables: 1,234.5 BONK (5 decimals), expected 0.05 SOL, minimum 0.0495 SOL, 100 bps. */
export const T1: Trade = {
  id: 'sell_3BcDfGh7JkLmNp9QrStVwX',
  mint: MINT,
  symbol: 'BONK',
  name: 'Bonk Inu',
  decimals: 5,
  amount: 123_450_000n,
  expected: 50_000_000n,
  minimum: 49_500_000n,
  bps: 100,
  createdAt: '2030-01-01T00:00:00.000Z',
  expiresAt: '2030-01-01T00:02:00.000Z',
  nonce: '8f3a9c2e71b4d05e',
  hash: '61ENncBqfPr91HKmeoLBb5NizmMEj4yp98MimUQbTfzxtAgMJLHhANmfzuC8tJNQYgTM2rh1F4z143LL436R2AQt',
};

/** Three more trades: other tokens, decimals, sizes, slippage and times. */
export const LATER: Trade[] = [
  {
    id: 'sell_7QxbKMv2pTnW9hRd3LcZfG',
    mint: OTHER_MINT,
    symbol: 'WIF',
    name: 'Dog Hat',
    decimals: 6,
    amount: 2_500_000n,
    expected: 12_000_000n,
    minimum: 11_880_000n,
    bps: 100,
    createdAt: '2030-01-01T00:05:00.000Z',
    expiresAt: '2030-01-01T00:07:00.000Z',
    nonce: '00aa11bb22cc33dd',
    hash: '3mDQPKdXB7yq1o11thgDwmg9aEiUYn2xsWq7TrKzC3pVbHLxAr4s3KjAJXKLmbGkXbBWRCYFxQ74thgZg9dxHxc',
  },
  {
    id: 'sell_b4NqR8sTzW2kXcD9fGhJmP',
    mint: MINT,
    symbol: 'BONK',
    name: 'Bonk Inu',
    decimals: 5,
    amount: 98_765_432_100n,
    expected: 1_234_567_890_123n,
    minimum: 1_222_222_211_221n,
    bps: 100,
    createdAt: '2030-01-01T01:00:00.250Z',
    expiresAt: '2030-01-01T01:02:00.250Z',
    nonce: '9b8a7c6d5e4f3021',
    hash: '4kezffhjYn1FXi3oCeBqPiSwbioCnSyUH5hF3WwpATYt7QxbKMv2pTnW9hRd3LcZfGb4NqR8sTzW2kXcD9fGhJ',
  },
  {
    id: 'sell_9zRtWn2xsWq7TrKzC3pVbG',
    mint: 'GFmFPooguQpNXADJ6Dd42rWt69m57SA6oFk3QwEcWqCd',
    symbol: 'WOOF',
    name: 'Woof Sandbox Dog',
    decimals: 9,
    amount: 1_000_000_000n,
    expected: 7_777_777n,
    minimum: 7_738_888n,
    bps: 50,
    createdAt: '2030-01-02T12:30:45.999Z',
    expiresAt: '2030-01-02T12:32:45.999Z',
    nonce: 'f0e1d2c3b4a59687',
    hash: '5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW',
  },
];

/** The authorization of a trade with `message`. */
export function authorization(t: Trade, message: string, over: Partial<SellAuthorization> = {}): SellAuthorization {
  return {
    id: t.id,
    status: 'awaiting_signature',
    mint: t.mint,
    amount: t.amount.toString(),
    positionId: null,
    expectedOutputLamports: t.expected.toString(),
    minimumOutputLamports: t.minimum.toString(),
    slippageBps: t.bps,
    message,
    expiresAt: t.expiresAt,
    authorizedAt: null,
    signatureVerifiedAt: null,
    executionStarted: false,
    failureCode: null,
    failureReason: null,
    createdAt: t.createdAt,
    ...over,
  };
}

/** The guard's input for a trade and message: its token's facts bound (the chain's, its symbol pinned by a person), WIF held too. */
export function input(
  t: Trade,
  message: string,
  approved: Template | 'earlier-version' | null,
  over: Partial<GuardInput> = {},
): GuardInput {
  return {
    authorization: authorization(t, message),
    request: { mint: t.mint, amount: t.amount, minSolLamports: null, allowedSlippageBps: 500 },
    owner: OWNER,
    nowMs: Date.parse(t.createdAt) + 1_000,
    token: { symbol: t.symbol, name: t.name, decimals: t.decimals, problems: [], unbound: [], symbolBound: true },
    otherSymbols: t.symbol === 'WIF' ? ['BONK'] : ['WIF'],
    approved,
    ...over,
  };
}

// Formatting by hand, independent of the renderer under test.
const group = (digits: string) => digits.replace(/\B(?=(\d{3})+$)/g, ',');
/** `units` at `decimals`: trailing zeros trimmed (or all `decimals` digits when `full`), grouped or not. */
export function dec(units: bigint, decimals: number, opts: { grouped?: boolean; full?: boolean } = {}): string {
  const s = units.toString().padStart(decimals + 1, '0');
  const whole = s.slice(0, s.length - decimals);
  const frac = opts.full ? s.slice(whole.length) : s.slice(whole.length).replace(/0+$/, '');
  return (opts.grouped ? group(whole) : whole) + (frac ? `.${frac}` : '');
}
const sol = (l: bigint, grouped = false) => dec(l, 9, { grouped });
const secs = (iso: string) => Math.floor(Date.parse(iso) / 1000);
const utc = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;

/** The sandbox's own wording (src/sandbox/sells.ts), written out. */
export const sandbox = (t: Trade) =>
  [
    'trader sandbox: authorize a token sale',
    `Token: ${t.symbol} (${t.name})`,
    `Mint: ${t.mint}`,
    `Amount: ${dec(t.amount, t.decimals)} ${t.symbol} (${t.amount} raw units)`,
    `Minimum proceeds: ${sol(t.minimum)} SOL (${t.minimum} lamports)`,
    `Authorization: ${t.id}`,
    `Expires: ${t.expiresAt}`,
  ].join('\n');

/** `Sell 1,234.5 BONK (<mint>) for at least 0.0495 SOL`: the old tables' one line. */
export const good = (t: Trade) =>
  `Sell ${dec(t.amount, t.decimals, { grouped: true })} ${t.symbol} (${t.mint}) for at least ${sol(t.minimum)} SOL`;

/** Honest wordings: each is approved once, then signed unattended on the later trades. */
export const HONEST: Array<[string, (t: Trade) => string]> = [
  ['the sandbox’s own', sandbox],
  [
    'multi-line key = value',
    (t) =>
      `action = sell\nmint = ${t.mint}\namount = ${t.amount}\nmin_out_lamports = ${t.minimum}\nslippage_bps = ${t.bps}\nexpires_at = ${t.expiresAt}`,
  ],
  [
    'one-line prose',
    (t) => `I authorize the sale of ${dec(t.amount, t.decimals)} ${t.symbol} for no less than ${sol(t.minimum)} SOL.`,
  ],
  [
    'whole tokens with thousands separators',
    (t) =>
      `Sell ${dec(t.amount, t.decimals, { grouped: true })} tokens of ${t.mint}, minimum ${sol(t.minimum, true)} SOL`,
  ],
  [
    'whole tokens with every decimal',
    (t) =>
      `Sell ${dec(t.amount, t.decimals, { full: true })} of ${t.mint} for at least ${dec(t.minimum, 9, { full: true })} SOL`,
  ],
  ['with a nonce', (t) => `${good(t)}\nnonce = ${t.nonce}`],
  ['with a hash', (t) => `${good(t)}\nQuote: ${t.hash}`],
  [
    'with the symbol and the name',
    (t) => `Sell ${dec(t.amount, t.decimals)} ${t.symbol} (${t.name}) for at least ${sol(t.minimum)} SOL`,
  ],
  [
    'with the expected output and slippage in bps',
    (t) =>
      `Sell ${t.amount} raw units of ${t.mint}\nExpected: ${t.expected} lamports\nMinimum: ${t.minimum} lamports (${t.bps} bps)`,
  ],
  [
    'with the expected output and slippage in %',
    (t) =>
      `Sell ${dec(t.amount, t.decimals)} ${t.symbol}: expected ${sol(t.expected)} SOL, at least ${sol(t.minimum)} SOL (slippage ${dec(BigInt(t.bps), 2)}%)`,
  ],
  [
    'times in ISO without milliseconds',
    (t) => `${good(t)}\nValid from ${t.createdAt.slice(0, 19)}Z to ${t.expiresAt.slice(0, 19)}Z`,
  ],
  ['times in UTC', (t) => `${good(t)}\nCreated ${utc(t.createdAt)}, expires ${utc(t.expiresAt)}`],
  ['times in Unix seconds', (t) => `${good(t)} exp=${secs(t.expiresAt)}`],
  ['times in Unix ms', (t) => `${good(t)} (created ${Date.parse(t.createdAt)}, expires ${Date.parse(t.expiresAt)})`],
  ['raw units only', (t) => `Sell ${t.amount} raw units of ${t.mint} for at least ${t.minimum} lamports`],
  [
    'JSON',
    (t) =>
      `{"action":"sell","mint":"${t.mint}","amount":"${t.amount}","minOutLamports":"${t.minimum}","slippageBps":${t.bps},"id":"${t.id}","expiresAt":"${t.expiresAt}"}`,
  ],
  [
    'a request UUID and the wallet',
    (t) =>
      `Seller ${OWNER} sells ${dec(t.amount, t.decimals)} ${t.symbol} for >= ${sol(t.minimum)} SOL\nRequest: ${t.nonce.slice(0, 8)}-4f89-41d3-9a0c-${t.nonce.slice(4)}`,
  ],
];

const GOOD = good(T1);
const SANDBOX = sandbox(T1);
const AMOUNT = T1.amount;
const line = (from: string, to: string) => SANDBOX.replace(from, to);
const MIN_LINE = 'Minimum proceeds: 0.0495 SOL (49500000 lamports)';
const AMOUNT_LINE = `Amount: 1234.5 BONK (${AMOUNT} raw units)`;
const EXPIRES = 'Expires: 2030-01-01T00:02:00.000Z';
const circled = (text: string) =>
  [...text]
    .map((ch) =>
      /[a-z]/.test(ch)
        ? String.fromCodePoint(0x24d0 + ch.charCodeAt(0) - 97)
        : /[A-Z]/.test(ch)
          ? String.fromCodePoint(0x24b6 + ch.charCodeAt(0) - 65)
          : ch,
    )
    .join('');
const braille = (text: string) =>
  [...text]
    .map((ch) => (/[a-z]/i.test(ch) ? String.fromCodePoint(0x2800 + ch.toLowerCase().charCodeAt(0) - 96) : ch))
    .join('');

/**
 * Hostile messages of every earlier attack (issue 25's and the unit tables of issues 13-22), for
 * trade T1. None may be signed unattended: each is refused outright or needs a person, whatever
 * template was approved before.
 */
export const HOSTILE: Array<[string, string]> = [
  // Issue 25.
  [
    'circled letters after the minimum',
    `${SANDBOX.replace(MIN_LINE, `${MIN_LINE} ${circled('and all other tokens')}`)}\n${circled('SEND ALL TOKENS TO OPERATOR')}`,
  ],
  [
    'the micro-lamports minimum',
    line(MIN_LINE, `Minimum proceeds: 0.0495 SOL\u2030 (49500 ${circled('micro')}-lamports)`),
  ],
  ['the micro-lamports minimum in ASCII', line(MIN_LINE, 'Minimum proceeds: 0.0495 SOL (49500000 micro-lamports)')],
  ['Braille', `${SANDBOX}\n${braille('send all tokens to operator')}`],
  ['regional-indicator letters', `${SANDBOX}\n\u{1F1F8}\u{1F1EA}\u{1F1F3}\u{1F1E9} \u{1F1E6}\u{1F1F1}\u{1F1F1}`],
  ['parenthesized letters', `${SANDBOX}\n\u24AE\u24A0\u24A9\u249F \u249C\u24A7\u24A7`],
  ['a plain sentence of sell words', `${SANDBOX}\nSell all tokens and sell any amount at any price`],
  ['a statement below blank lines', `${SANDBOX}\n\n\nAlso sell all other tokens at any price`],
  ['a statement below 150 empty lines', `${SANDBOX}${'\n'.repeat(150)}Also sell all other tokens`],
  ['a blank first line', `\n${SANDBOX}`],
  ['whitespace at the end of a line', SANDBOX.replace('Mint:', 'Mint:   \nMint:')],
  // The old tables: other protocols and shapes.
  [
    'a Sign-In-With-Solana login',
    `example.com wants you to sign in with your Solana account:\n${OWNER}\n\n${GOOD}\n\nURI: https://example.com/login\nVersion: 1\nChain ID: mainnet\nNonce: 8f3a9c2e71b4\nIssued At: 2030-01-01T00:00:00Z`,
  ],
  [
    'EIP-4361 fields without the opening line',
    `${GOOD}\nURI: https://example.com\nChain ID: 1\nIssued At: 2030-01-01T00:00:00Z`,
  ],
  ['SIWS labels holding no figure', `${GOOD}\nURI: https://example.com\nVersion: one`],
  ['the off-chain message preamble', `\u00ffsolana offchain ${GOOD}`],
  ['the off-chain preamble as text', `Solana off-chain message: ${GOOD}`],
  [
    'a withdrawal to another address',
    `I authorize withdrawal of ALL balances to ${STRANGER}. ref ${MINT} ${AMOUNT} 49500000`,
  ],
  ['a transfer to someone', `${GOOD}; transfer the proceeds to my other account`],
  ['an approval', `${GOOD}. I approve unlimited spending`],
  ['a delegation', `${GOOD}. Delegate BONK`],
  ['a log-in', `Log in to trader.example. ${GOOD}`],
  ['an address that is not the mint or the owner', `${GOOD}. Settle with ${STRANGER}`],
  ['the treasury named', `${GOOD}\nWallet: ${TREASURY}`],
  [
    'another mint, the requested one in passing',
    `Sell 1,234.5 of ${OTHER_MINT} for at least 0.0495 SOL (ref BONK ${MINT})`,
  ],
  ['another token’s symbol', `Sell 1,234.5 WIF (BONK ${MINT}) for at least 0.0495 SOL`],
  ['the symbol only as an ordinary lowercase word', 'Sell 1,234.5 bonk for at least 0.0495 SOL'],
  [
    'a thousand times the amount, the real one as a reference',
    `Sell 1,234,500 BONK for at least 0 SOL. Reference: 1,234.5 BONK, 0.0495 SOL, ${MINT}`,
  ],
  ['U+034F inside a number', `Sell 1,234.5\u034F BONK (${MINT}) for at least 0.0495 SOL`],
  ['U+2007 figure space grouping', `Sell 1,234.5 BONK (${MINT}) for at least 49\u2007500\u2007000 lamports`],
  ['a no-break space', `Sell 1,234.5\u00A0BONK (${MINT}) for at least 0.0495 SOL`],
  ['Arabic-Indic digits', `Sell \u0661\u066C\u0662\u0663\u0664\u066B\u0665 BONK (${MINT}) for at least 0.0495 SOL`],
  ['fullwidth digits', `Sell \uFF11234.5 BONK (${MINT}) for at least 0.0495 SOL`],
  ['a bidi override', `Sell 1,234.5 BONK (${MINT}) for at least \u202E5940.0 SOL`],
  ['a combining strike through a digit', `Sell 1,234.5 BONK (${MINT}) for at least 0.0495\u0336 SOL`],
  ['a tab', `Sell\t1,234.5 BONK (${MINT}) for at least 0.0495 SOL`],
  ['a carriage return', `${GOOD}\r\nSell all`],
  ['an escape sequence', `${GOOD}\u001b[2K`],
  ['a zero-width space', `${GOOD}\u200B`],
  ['a SOL figure labelled lamports', `Sell 1,234.5 BONK (${MINT}) for at least 0.0495 lamports`],
  ['a lamport figure labelled SOL', `Sell 1,234.5 BONK (${MINT}) for at least 49500000 SOL`],
  ['a raw figure labelled as whole tokens', `Sell ${AMOUNT} BONK (${MINT}) for at least 0.0495 SOL`],
  ['whole tokens labelled raw', `Sell 1234.5 raw units of BONK (${MINT}) for at least 0.0495 SOL`],
  ['the amount with a scaling suffix', `Sell 123450000k of BONK (${MINT}) for at least 0.0495 SOL`],
  ['a look-alike symbol mixing alphabets', `Sell 1,234.5 B\u039FNK for at least 0.0495 SOL`],
  ['no amount', `Sell your BONK (${MINT}) for at least 0.0495 SOL`],
  ['no minimum', `Sell 1,234.5 BONK (${MINT}) at the market price`],
  ['a signed figure', `${GOOD}, fee -5 SOL`],
  ['a dollar figure', `${GOOD}, worth $100`],
  ['an exponent', `${GOOD}, cap 1e9`],
  ['a leading-dot fraction', `${GOOD}, or .0001 SOL`],
  ['a duration that is not the lifetime', `${GOOD}. Expires in 3 minutes`],
  ['a percentage that is not the slippage', `${GOOD}. Fee 0.3%`],
  ['another SOL figure', `${GOOD}. Network fee 0.000005 SOL`],
  ['a quantity in words', `${GOOD}. Also sell one million more`],
  ['a link', `${GOOD}. Terms: https://example.com/terms`],
  ['a scaled figure that is none of the values', `${GOOD}. Limit 5k`],
  // Later red-team runs: roles, signs, holders, lifetimes.
  ['a second order', `${SANDBOX}\nValid for: this order and a second order`],
  ['the proceeds shared with the service', `${SANDBOX}\nProceeds: ${OWNER} and trader sandbox`],
  [
    'the expiry given as the issue time',
    SANDBOX.replace(EXPIRES, 'Issued: 2030-01-01T00:02:00.000Z\nValid: 2 minutes'),
  ],
  ['the creation given as the expiry', SANDBOX.replace(EXPIRES, 'Expires: 2030-01-01T00:00:00.000Z')],
  ['a date alone', SANDBOX.replace(EXPIRES, 'Expires: 2030-01-01')],
  ['the raw amount labelled in whole tokens', line(AMOUNT_LINE, `Amount in BONK: ${AMOUNT}`)],
  ['the minimum in SOL with no unit', line(MIN_LINE, 'Minimum proceeds: 0.0495')],
  ['an estimated minimum', line(MIN_LINE, `Estimated ${MIN_LINE.toLowerCase()}`)],
  ['proceeds to the treasury', line(MIN_LINE, `${MIN_LINE}\nProceeds to treasury: 0.05 SOL (50000000 lamports)`)],
  ['the slippage applied to the minimum', line(MIN_LINE, `${MIN_LINE} with slippage tolerance 100 bps`)],
  ['the expiry counted from the expiry', line(EXPIRES, 'Expires: 2 minutes from 2030-01-01T00:02:00.000Z')],
  ['zero as the minimum, the real one in brackets', `Sell 1,234.5 BONK (${MINT}) for at least 0 SOL (min 0.0495 SOL)`],
  ['minimum minus the expected output', line(MIN_LINE, 'Minimum proceeds: 49500000 lamports - 50000000 lamports')],
  ['minimum minus 1%', line(MIN_LINE, 'Minimum proceeds: 0.0495 SOL - 1%')],
  ['below the minimum', line(MIN_LINE, 'Minimum proceeds: < 0.0495 SOL')],
  [
    'an empty minimum, the figure relabelled',
    line(MIN_LINE, 'Minimum proceeds: -; proceeds: 0.0495 SOL (49500000 lamports)'),
  ],
  ['the minimum struck out', line(MIN_LINE, `~~${MIN_LINE}~~`)],
  ['the minimum commented out', line(MIN_LINE, `# ${MIN_LINE}`)],
  [
    'the proceeds as a 32-byte hex value',
    `${SANDBOX}\nProceeds: 0xdb1552c1206339a9cf2b7afde2b9128a6689a95a549ef8fa805e1934fa2fbc1b`,
  ],
  ['the proceeds to the mint address', `${SANDBOX}\nProceeds: ${MINT}`],
  ['an expiry plus two minutes', line(EXPIRES, 'Expires: 2030-01-01T00:02:00.000Z + 2 minutes')],
  ['the direction reversed', `Sell 0.0495 SOL for at least 1,234.5 BONK\nMint: ${MINT}`],
  ['a percentage of the minimum', line('Minimum proceeds: 0.0495 SOL', 'Minimum proceeds: 1% of 0.0495 SOL')],
  ['the minimum negated', `${GOOD}\nThe "minimum" is only a quote`],
  ['the expected output sold', `Sell 0.05 SOL of BONK (${MINT}); minimum 0.0495 SOL; amount ${AMOUNT} raw units`],
  ['an alternative with no floor', `${GOOD} or the quote`],
  ['a second sale of everything', `${GOOD} and sell your tokens`],
  ['a standing delegation to the treasury', `${GOOD}\nYou authorize ${TREASURY} to sell your tokens`],
  ['ownership passed to the service', `${GOOD}\nThe owner of your tokens is the service`],
  ['a minimum in an unknown unit', GOOD.replace('0.0495 SOL', '49500000 microlamports')],
  ['a minimum in USD', GOOD.replace('SOL', 'USD')],
  ['another sale appended', `${GOOD}. Then sell another 1,234.5 BONK for at least 0.0495 SOL.`],
  ['the amount multiplied', `Sell 1,234.5 * 1,234.5 BONK (${MINT}) for at least 0.0495 SOL`],
  [
    'a JSON transfer',
    `{"action":"transfer","mint":"${MINT}","amount":"${AMOUNT}","recipient":"${TREASURY}","minOut":"49500000"}`,
  ],
  ['a buy', `Buy 1,234.5 BONK (${MINT}) for at most 0.0495 SOL.`],
  ['Spanish', `${GOOD}. Adem\u00e1s autorizo transferir todos mis tokens a la tesorer\u00eda.`],
  ['Russian', `${GOOD}. \u0422\u0430\u043a\u0436\u0435 \u0440\u0430\u0437\u0440\u0435\u0448\u0430\u044e.`],
  ['a hyphenated order reference spelling a second sale', `${GOOD}. Order ref ALSO-SELL-1000000-BONK-AT-MIN-0-SOL.`],
  ['a nonce that is words', `${GOOD}. nonce: PLUS-ALL-REMAINING-BONK-AT-ANY-PRICE`],
  ['a nonce followed by a unit', `${GOOD}. nonce: 1000000000 BONK`],
  ['an expiry far in the future', `${GOOD}. Valid until 2099-12-31T00:00:00Z.`],
  ['a lifetime of a year', `${GOOD}. This authorization is valid for 525600 minutes.`],
  ['a daily repeat', `Sell 1,234.5 BONK (${MINT}) daily for at least 0.0495 SOL, until my balance is empty.`],
  ['a hash in camel-case words', `${GOOD}\nQuote: IAuthorizeWithdrawalOfAllFundsToTheOperatorNow`],
  ['a hash in CJK', `${GOOD}\nQuote: \u6211\u6388\u6743\u5c06\u6240\u6709\u8d44\u91d1`],
  ['a figure hidden in a long hex run', `${GOOD}; sell 0x0000000000000000 SOL`],
  ['a sentence in a base58-shaped reference', `${GOOD}. Ref NoMinimumAnyPriceAcceptedSendEverythingToBuyerXyzAbc`],
  ['a token name that is a sentence', SANDBOX.replace('(Bonk Inu)', '(Owner Is The Service)')],
  ['a sentence passed off as the name', SANDBOX.replace('(Bonk Inu)', '(Bonk Inu) x 1000 (minimum 0 SOL)')],
  ['the service’s name for the token', SANDBOX.replace('Token: BONK (Bonk Inu)', 'Token: SENDALL (Send All Funds)')],
];
