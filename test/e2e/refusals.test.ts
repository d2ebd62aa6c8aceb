// Every refusal of the contract's "What the tool checks before it signs anything", end to end:
// a tampering proxy in front of the sandbox hands the built binary a hostile deposit
// transaction (built with @solana/web3.js from the real intent) or a lying sell authorization,
// and each test asserts exit 6, a message naming the problem, and that the server never got a
// deposit or an authorize (for buys: and that the intent was cancelled). The cases of the two
// tables run in-process (src/run.ts, the code the binary runs), every fourth through the built
// binary; the single tests below them run the binary.
import { Keypair, PublicKey, SystemProgram, TransactionInstruction, TransactionMessage, VersionedTransaction } from '@solana/web3.js';
import bs58 from 'bs58';
import { writeFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { lastJsonError } from '../helpers/cli-assert.js';
import { freshHome, json, runCli, type CliResult } from '../helpers/cli.js';
import { computeBudget, lookupTable, randomBlockhash, unsignedTransaction, type UnsignedOptions } from '../helpers/deposit-transactions.js';
import { sandboxForFile } from '../helpers/file-sandbox.js';
import { runInProcess } from '../helpers/in-process.js';
import { completeBuy, type TestSandbox } from '../helpers/sandbox.js';
import { expectEachRefused, expectHonestControl, startRewordingService, type HostileCase } from '../helpers/rewording-service.js';
import { pinsFor } from '../helpers/trust.js';

let sb: TestSandbox;
const { envFor, tamperProxy: proxy, closeAfterAll } = sandboxForFile((started) => (sb = started));
const stranger = Keypair.generate();
const TOKEN_PROGRAM = new PublicKey('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA');
/** The holding sells are made from (never reduced: every sell here but one is refused). */
let held: { mint: string; symbol: string; decimals: number };

beforeAll(async () => {
  const token = sb.tokens[0]!;
  await completeBuy(sb, { mint: token.mint, amountLamports: '500000000' });
  held = { mint: token.mint, symbol: token.symbol, decimals: token.decimals };
});

/** Case `i` of a table: in-process, or through the built binary for every fourth. */
function trader(i: number, args: string[], env: Record<string, string>): Promise<CliResult> {
  return i % 4 === 0 ? runCli(args, { env }) : runInProcess(args, env);
}

// ---------------------------------------------------------------------------------------------
// Buy: hostile deposit transactions

interface Real {
  owner: PublicKey;
  treasury: PublicKey;
  lamports: bigint;
  blockhash: string;
}

function tx(real: Real, instructions: TransactionInstruction[], opts: { payer?: PublicKey; lookupTables?: UnsignedOptions['lookupTables'] } = {}): string {
  return unsignedTransaction(instructions, { payer: opts.payer ?? real.owner, blockhash: real.blockhash, lookupTables: opts.lookupTables });
}

const pay = (real: Real, lamports = real.lamports, to = real.treasury, from = real.owner) =>
  SystemProgram.transfer({ fromPubkey: from, toPubkey: to, lamports });
const budget = (price = 50_000) => computeBudget(10_000, price);

function u64(n: bigint): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(n);
  return b;
}

interface BuyCase {
  name: string;
  args?: string[];
  /** Mutates the create response's `data` (intent and deposit). */
  tamper(data: any, real: Real): void;
  problem: RegExp;
}

const BUY_CASES: BuyCase[] = [
  {
    name: 'the transfer differs from the intent amount',
    tamper: (d, r) => (d.deposit.transaction = tx(r, [...budget(), pay(r, r.lamports - 1n)])),
    problem: /the transfer moves 0\.099999999 SOL \(99999999 lamports\), not the intent's 0\.1 SOL/,
  },
  {
    name: 'the transfer is more than the amount typed',
    tamper: (d, r) => (d.deposit.transaction = tx(r, [...budget(), pay(r, r.lamports * 10n)])),
    problem: /the transfer moves 1 SOL, more than the 0\.1 SOL you asked for/,
  },
  {
    name: "the intent's amount was changed (and the transfer matches it)",
    tamper: (d, r) => {
      d.intent.amountLamports = (r.lamports * 3n).toString();
      d.deposit.transaction = tx(r, [...budget(), pay(r, r.lamports * 3n)]);
    },
    problem: /the intent amount 0\.3 SOL \(300000000 lamports\) is not the requested 0\.1 SOL/,
  },
  {
    name: 'a second transfer',
    tamper: (d, r) => (d.deposit.transaction = tx(r, [...budget(), pay(r), pay(r, 1_000n, stranger.publicKey)])),
    problem: /second System transfer/,
  },
  {
    name: 'a transfer to another address while a treasury is pinned',
    args: ['--treasury', 'PINNED'],
    tamper: (d, r) => (d.deposit.transaction = tx(r, [...budget(), pay(r, r.lamports, stranger.publicKey)])),
    problem: new RegExp(`pays ${stranger.publicKey.toBase58()}, not the pinned treasury .*re-pin`),
  },
  {
    name: 'an SPL Token approve',
    tamper: (d, r) =>
      (d.deposit.transaction = tx(r, [
        ...budget(),
        pay(r),
        new TransactionInstruction({
          programId: TOKEN_PROGRAM,
          keys: [
            { pubkey: Keypair.generate().publicKey, isSigner: false, isWritable: true },
            { pubkey: stranger.publicKey, isSigner: false, isWritable: false },
            { pubkey: r.owner, isSigner: true, isWritable: false },
          ],
          data: Buffer.concat([Buffer.from([4]), u64(2n ** 64n - 1n)]),
        }),
      ])),
    problem: /calls SPL Token \(TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA\)/,
  },
  {
    name: 'a System assign of the wallet',
    tamper: (d, r) => (d.deposit.transaction = tx(r, [...budget(), pay(r), SystemProgram.assign({ accountPubkey: r.owner, programId: stranger.publicKey })])),
    problem: /System Program Assign instruction/,
  },
  {
    name: 'a huge compute-unit price',
    tamper: (d, r) => (d.deposit.transaction = tx(r, [...budget(1_000_000_000_000), pay(r)])),
    problem: /network fee would be 10,000,005,000 lamports, above the limit of 100,000/,
  },
  {
    name: "the service's own fee over a lower --max-fee-lamports",
    args: ['--max-fee-lamports', '5000'],
    tamper: () => {},
    problem: /network fee would be 5,500 lamports, above the limit of 5,000 \(raise it with --max-fee-lamports\)/,
  },
  {
    name: 'an address lookup table',
    tamper: (d, r) => {
      d.deposit.transaction = tx(r, [...budget(), pay(r)], { lookupTables: [lookupTable([r.treasury])] });
    },
    problem: /address lookup table/,
  },
  {
    name: 'a second signer',
    tamper: (d, r) => {
      const ix = pay(r);
      ix.keys[1]!.isSigner = true; // the treasury would have to sign too
      d.deposit.transaction = tx(r, [...budget(), ix]);
    },
    problem: /needs 2 signatures; only your wallet's may be required/,
  },
  {
    name: 'a fee payer other than the wallet',
    tamper: (d, r) => (d.deposit.transaction = tx(r, [...budget(), pay(r)], { payer: stranger.publicKey })),
    problem: new RegExp(`the fee payer is ${stranger.publicKey.toBase58()}, not your wallet`),
  },
  {
    name: "the intent's outputMint differs",
    tamper: (d) => (d.intent.outputMint = stranger.publicKey.toBase58()),
    problem: new RegExp(`the intent buys ${stranger.publicKey.toBase58()}, not the requested mint`),
  },
  {
    name: 'bytes that are not a transaction',
    tamper: (d) => (d.deposit.transaction = Buffer.from('not a transaction at all, just text').toString('base64')),
    problem: /the deposit transaction is malformed/,
  },
];

describe.concurrent('buy: refuses to sign a hostile deposit (exit 6, intent cancelled, no deposit sent)', () => {
  it.each(BUY_CASES.map((c, i) => ({ ...c, i })))('$name', async (c) => {
    const p = await proxy();
    let intentId: string | undefined;
    p.rewrite('POST', /^\/api\/v1\/trade\/buys$/, (body) => {
      const data = body.data;
      intentId = data.intent.id;
      const decoded = VersionedTransaction.deserialize(Buffer.from(data.deposit.transaction, 'base64'));
      const real: Real = {
        owner: new PublicKey(sb.walletAddress),
        treasury: new PublicKey(sb.treasury),
        lamports: BigInt(data.intent.amountLamports),
        blockhash: decoded.message.recentBlockhash,
      };
      c.tamper(data, real);
      return body;
    });
    const args = (c.args ?? []).map((a) => (a === 'PINNED' ? sb.treasury : a));
    const r = await trader(c.i, ['buy', held.mint, '0.1sol', '--yes', '--json', ...args], envFor(p.url));
    expect(r.code, r.stderr).toBe(6);
    const err = lastJsonError(r);
    expect(err.code).toBe('REFUSED_TO_SIGN');
    expect(err.message).toMatch(c.problem);
    expect(intentId).toBeDefined();
    // --json still answers with the intent, as cancelled, and the key.
    expect(json(r)).toMatchObject({ intent: { id: intentId, status: 'cancelled' }, trade: null, idempotencyKey: expect.any(String) });
    // Nothing reached the service but the create and the cancel.
    expect(p.seen.filter((s) => s.method === 'POST').map((s) => s.path)).toEqual(['/api/v1/trade/buys', `/api/v1/trade/buys/${intentId}/cancel`]);
    const log = await sb.requests();
    expect(log.filter((e) => e.path.endsWith(`${intentId}/deposit`))).toEqual([]);
    expect((await sb.call('GET', `/trade/buys/${intentId}`)).body.data.intent.status).toBe('cancelled');
  });
});

describe('buy: the quote against the slippage allowed', () => {
  it('a quote with slippage 10000 when no limit was set (the default cap of 500 bps): exit 6, intent cancelled, no deposit', async () => {
    const p = await proxy();
    let intentId: string | undefined;
    p.rewrite('POST', /^\/api\/v1\/trade\/buys$/, (body) => ((intentId = body.data.intent.id), body));
    p.rewrite('GET', /^\/api\/v1\/trades\/[^/]+$/, (body) => ((body.data.slippageBps = 10_000), body));
    const r = await runCli(['buy', held.mint, '0.1sol', '--yes', '--json'], { env: envFor(p.url) });
    expect(r.code, r.stderr).toBe(6);
    expect(lastJsonError(r).message).toContain("the quote's slippage 10000 bps is more than the 500 bps allowed");
    expect(p.seen.filter((s) => s.method === 'POST' && s.path.endsWith('/deposit'))).toEqual([]);
    expect((await sb.call('GET', `/trade/buys/${intentId}`)).body.data.intent.status).toBe('cancelled');
  });
});

describe('buy: the refusal in human mode', () => {
  it('lists every problem, says nothing was signed and that the intent was cancelled', async () => {
    const p = await proxy();
    p.rewrite('POST', /^\/api\/v1\/trade\/buys$/, (body) => {
      const real: Real = {
        owner: new PublicKey(sb.walletAddress),
        treasury: new PublicKey(sb.treasury),
        lamports: BigInt(body.data.intent.amountLamports),
        blockhash: VersionedTransaction.deserialize(Buffer.from(body.data.deposit.transaction, 'base64')).message.recentBlockhash,
      };
      body.data.deposit.transaction = tx(real, [...budget(), pay(real), SystemProgram.assign({ accountPubkey: real.owner, programId: stranger.publicKey }), pay(real, 1n, stranger.publicKey)]);
      return body;
    });
    const r = await runCli(['buy', held.mint, '0.1sol', '--yes'], { env: envFor(p.url) });
    expect(r.code, r.stderr).toBe(6);
    expect(r.stderr).toMatch(/^error: refused to sign: .*Assign.*; .*second System transfer/m);
    expect(r.stderr).toContain('the buy intent was cancelled; nothing was signed');
    expect(r.stdout).toBe('');
    expect(p.seen.some((s) => s.path.endsWith('/deposit'))).toBe(false);
  });
});

// ---------------------------------------------------------------------------------------------
// Sell: lying authorizations

const SELL_AMOUNT = 123_450_000n; // 1,234.5 tokens of a 5-decimal token

/** Whole-token decimal with thousands separators: 123450000 (5 decimals) → "1,234.5". */
function tokens(raw: bigint, decimals: number): string {
  const whole = (raw / 10n ** BigInt(decimals)).toLocaleString('en-US');
  const frac = (raw % 10n ** BigInt(decimals)).toString().padStart(decimals, '0').replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : whole;
}
const sol = (lamports: string | bigint) => tokens(BigInt(lamports), 9);
/** An honest wording of the authorization as it now stands (after a tamper changed its fields). */
const honest = (a: any) => `Sell ${tokens(BigInt(a.amount), 5)} WOOF (${a.mint}) for at least ${sol(a.minimumOutputLamports)} SOL`;

interface SellCase {
  name: string;
  args?: string[];
  /** The default profile's settings, written to the config file first. */
  profile?: Record<string, unknown>;
  /** Mutates the authorization of the create response. */
  tamper(auth: any): void;
  problem: RegExp;
}

const SELL_CASES: SellCase[] = [
  {
    name: 'the mint differs',
    tamper: (a) => (a.mint = stranger.publicKey.toBase58()),
    problem: new RegExp(`sells ${stranger.publicKey.toBase58()}, not the requested token`),
  },
  {
    name: 'the amount differs',
    tamper: (a) => (a.amount = (BigInt(a.amount) * 2n).toString()),
    problem: /the authorization sells 2,469 WOOF \(246900000 raw units\), not the requested 1,234\.5 WOOF/,
  },
  {
    name: 'the minimum is above the expected proceeds',
    tamper: (a) => (a.minimumOutputLamports = (BigInt(a.expectedOutputLamports) + 1n).toString()),
    problem: /the minimum [0-9.]+ SOL is above the expected [0-9.]+ SOL/,
  },
  {
    name: 'the message does not name the token',
    tamper: (a) => (a.message = `Sell ${a.amount} raw units for at least ${a.minimumOutputLamports} lamports.`),
    problem: /the message does not name the token: neither its mint \S+ nor its symbol WOOF appears in it/,
  },
  {
    name: 'the message does not state the amount',
    tamper: (a) => (a.message = `Sell WOOF (${a.mint}) for at least ${sol(a.minimumOutputLamports)} SOL.`),
    problem: /the message does not state the amount 1,234\.5 WOOF \(123450000 raw units\)/,
  },
  {
    name: 'the message does not state the minimum',
    tamper: (a) => (a.message = `Sell 1,234.5 WOOF (${a.mint}) at the market price.`),
    problem: /the message does not state the minimum [0-9.]+ SOL \(\d+ lamports\)/,
  },
  // Each class of hostile message the signing-guard issue found signed (the unit table in
  // test/unit/sell-authorization-check.test.ts holds many more of each class).
  {
    name: 'a Sign-In-With-Solana login for another site carrying the trade',
    tamper: (a) =>
      (a.message = `example.com wants you to sign in with your Solana account:\n${sb.walletAddress}\n\n${honest(a)}\n\nURI: https://example.com/login\nVersion: 1\nChain ID: mainnet\nNonce: 8f3a9c2e71b4\nIssued At: ${a.createdAt}`),
    problem: /reads as a Sign-In-With-Solana \/ EIP-4361 login/,
  },
  {
    name: 'the Solana off-chain message preamble',
    tamper: (a) => (a.message = `\u00ffsolana offchain\n${honest(a)}`),
    problem: /reads as a Solana off-chain message/,
  },
  {
    name: 'a withdrawal of everything to another address, the trade as a reference',
    tamper: (a) => (a.message = `I authorize withdrawal of ALL balances to ${stranger.publicKey.toBase58()}. ref ${a.mint} ${a.amount} ${a.minimumOutputLamports}`),
    problem: new RegExp(`reads as a withdrawal.*names the address ${stranger.publicKey.toBase58()}`),
  },
  {
    name: 'a transfer of the proceeds to someone else',
    tamper: (a) => (a.message = `${honest(a)}; transfer the proceeds to my savings`),
    problem: /reads as a transfer to someone/,
  },
  {
    name: 'a thousand times the amount for 0 SOL, the real figures as a reference',
    tamper: (a) => (a.message = `Sell ${tokens(BigInt(a.amount) * 1000n, 5)} WOOF for at least 0 SOL. Reference: ${honest(a)}`),
    problem: /states "1,234,500": not the amount 1,234\.5 WOOF/,
  },
  {
    name: 'another mint sold, the requested one named in passing',
    tamper: (a) => (a.message = `Sell ${tokens(BigInt(a.amount), 5)} of ${sb.tokens[1]!.mint} for at least ${sol(a.minimumOutputLamports)} SOL (ref WOOF ${a.mint})`),
    problem: /names the address \S+, which is not the token, your wallet or the pinned treasury/,
  },
  // Classes the second red-team run got signed (the unit table holds every message it used).
  {
    name: 'the direction reversed: SOL sold for at least the token amount',
    tamper: (a) => (a.message = `Sell ${sol(a.minimumOutputLamports)} SOL for at least ${tokens(BigInt(a.amount), 5)} WOOF\nMint: ${a.mint}`),
    problem: /the minimum is stated as what is sold/,
  },
  {
    name: 'the minimum presented as the tolerated loss',
    tamper: (a) =>
      (a.message = `Sell ${tokens(BigInt(a.amount), 5)} WOOF (${a.mint})\nExpected proceeds: ${sol(a.expectedOutputLamports)} SOL\nSlippage tolerance: ${sol(a.minimumOutputLamports)} SOL`),
    problem: /the minimum is not introduced as a minimum/,
  },
  {
    name: 'a floor of 1% of the minimum',
    tamper: (a) => (a.message = honest(a).replace('at least ', `at least ${a.slippageBps / 100}% of `)),
    problem: /a percentage of a figure/,
  },
  {
    name: 'the raw amount labelled in whole tokens (100,000 times the sale)',
    tamper: (a) => (a.message = `Sell WOOF (${a.mint})\nAmount (WOOF): ${a.amount}\nMinimum proceeds: ${sol(a.minimumOutputLamports)} SOL`),
    problem: /written in tokens/,
  },
  {
    name: 'the proceeds given to the treasury in words',
    tamper: (a) => (a.message = `${honest(a)}\nProceeds: treasury`),
    problem: /the proceeds given to something other than your wallet/,
  },
  {
    name: 'the symbol only as an ordinary lowercase word',
    tamper: (a) => (a.message = `Sell ${tokens(BigInt(a.amount), 5)} woof for at least ${sol(a.minimumOutputLamports)} SOL`),
    problem: /does not name the token/,
  },
  ...(
    [
      ['U+034F', '\u034F'],
      ['U+FE0F', '\uFE0F'],
      ['U+17B5', '\u17B5'],
    ] as const
  ).map(([name, ch]) => ({
    name: `${name} inside the minimum`,
    tamper: (a: any) => (a.message = honest(a).replace(/(\d)(\d) SOL$/, `$1${ch}$2 SOL`)),
    problem: /invisible \(default-ignorable\) character/,
  })),
  {
    name: 'U+2007 figure spaces grouping the minimum',
    tamper: (a) => (a.message = `${honest(a)} (${BigInt(a.minimumOutputLamports).toLocaleString('en-US').replace(/,/g, '\u2007')} lamports)`),
    problem: /space or separator other than the plain space/,
  },
  {
    name: 'the minimum in SOL labelled lamports',
    tamper: (a) => (a.message = `Sell ${tokens(BigInt(a.amount), 5)} WOOF (${a.mint}) for at least ${sol(a.minimumOutputLamports)} lamports`),
    problem: /the minimum in SOL .* written in lamports/,
  },
  {
    name: 'the amount with a scaling suffix',
    tamper: (a) => (a.message = `Sell ${a.amount}k WOOF (${a.mint}) for at least ${sol(a.minimumOutputLamports)} SOL`),
    problem: /the amount in raw units \(123450000\) with a suffix that scales it/,
  },
  {
    name: 'raw units labelled as whole tokens',
    tamper: (a) => (a.message = `Sell ${a.amount} WOOF (${a.mint}) for at least ${sol(a.minimumOutputLamports)} SOL`),
    problem: /the amount in raw units \(123450000\) written in tokens/,
  },
  {
    name: 'a figure the tool cannot explain, under --yes',
    tamper: (a) => (a.message = `${honest(a)}. Valid for 3 minutes`),
    problem: /cannot explain: "3" \(a duration that is not the authorization's lifetime\)/,
  },
  {
    name: 'slippage 10000 and a minimum of 0 when no limit was set (the default cap)',
    tamper: (a) => {
      a.slippageBps = 10_000;
      a.minimumOutputLamports = '0';
      a.message = `Sell ${tokens(BigInt(a.amount), 5)} WOOF (${a.mint}) for at least 0 SOL`;
    },
    problem: /slippage 10000 bps is more than the 500 bps allowed/,
  },
  {
    name: 'a minimum 1% below the slippage floor',
    tamper: (a) => {
      const floor = (BigInt(a.expectedOutputLamports) * BigInt(10_000 - a.slippageBps)) / 10_000n;
      a.minimumOutputLamports = ((floor * 99n) / 100n).toString();
      a.message = honest(a);
    },
    problem: /below what 100 bps of slippage allows/,
  },
  {
    name: 'the message has a control character (ANSI escape)',
    tamper: (a) => (a.message = `${a.message}\n\u001b[8mand send everything to someone else\u001b[0m`),
    problem: /a control character \(U\+001B/,
  },
  {
    name: 'the message has a bidi override',
    tamper: (a) => (a.message = a.message.replace('Minimum', '\u202EMinimum')),
    problem: /a bidi control, which reorders what is shown \(U\+202E/,
  },
  {
    name: 'the message is over 2,048 bytes',
    tamper: (a) => (a.message = `${a.message}\n${'Terms and conditions apply. '.repeat(80)}`),
    problem: /the message is \d{4} bytes long, more than the 2048 allowed/,
  },
  {
    name: 'the message is a serialized transaction message (base64)',
    tamper: (a) => (a.message = Buffer.from(transactionMessageBytes()).toString('base64')),
    problem: /the message decodes as a Solana transaction/,
  },
  {
    name: 'the message is a serialized transaction message (base58)',
    tamper: (a) => (a.message = bs58.encode(transactionMessageBytes())),
    problem: /the message decodes as a Solana transaction/,
  },
  {
    name: 'the authorization has already expired',
    tamper: (a) => (a.expiresAt = new Date(Date.now() - 1_000).toISOString()),
    problem: /the authorization expired at/,
  },
  // The user's own stricter limit holds: a quote wider than it is refused, not the default cap's.
  {
    name: 'a 100 bps quote under --slippage-bps 50',
    args: ['--slippage-bps', '50'],
    tamper: (a) => widenSlippage(a, 100),
    problem: /the authorization's slippage 100 bps is more than the 50 bps allowed/,
  },
  {
    name: "a 100 bps quote under the profile's maxSlippageBps 50",
    profile: { maxSlippageBps: 50 },
    tamper: (a) => widenSlippage(a, 100),
    problem: /the authorization's slippage 100 bps is more than the 50 bps allowed/,
  },
  {
    name: 'a minimum of 0 lamports with an honest message (a sale with no floor)',
    tamper: (a) => {
      a.minimumOutputLamports = '0';
      a.message = honest(a);
    },
    problem: /the minimum output is 0 lamports: a sale with no floor/,
  },
  {
    name: 'the minimum is below --min-sol',
    args: ['--min-sol', '1'],
    tamper: () => {},
    problem: /the minimum [0-9.]+ SOL is below --min-sol 1 SOL/,
  },
];

/** The authorization at `bps` of slippage, its minimum that slippage's floor, worded honestly. */
function widenSlippage(a: any, bps: number): void {
  a.slippageBps = bps;
  a.minimumOutputLamports = ((BigInt(a.expectedOutputLamports) * BigInt(10_000 - bps)) / 10_000n).toString();
  a.message = honest(a);
}

/** A legacy transaction message moving SOL out of the wallet. */
function transactionMessageBytes(): Uint8Array {
  const owner = new PublicKey(sb.walletAddress);
  return new TransactionMessage({
    payerKey: owner,
    recentBlockhash: randomBlockhash(),
    instructions: [SystemProgram.transfer({ fromPubkey: owner, toPubkey: stranger.publicKey, lamports: 1_000_000_000n })],
  })
    .compileToLegacyMessage()
    .serialize();
}

describe.concurrent('sell: refuses to sign a lying authorization (exit 6, no authorize sent)', () => {
  it.each(SELL_CASES.map((c, i) => ({ ...c, i })))('$name', async (c) => {
    const p = await proxy();
    let authId: string | undefined;
    p.rewrite('POST', /^\/api\/v1\/trade\/sells$/, (body) => {
      authId = body.data.authorization.id;
      c.tamper(body.data.authorization);
      return body;
    });
    const env = envFor(p.url);
    if (c.profile) writeFileSync(env.TRADER_CONFIG, JSON.stringify({ profiles: { default: c.profile } }), { mode: 0o600 });
    const r = await trader(c.i, ['sell', held.mint, SELL_AMOUNT.toString(), '--yes', '--json', ...(c.args ?? [])], env);
    expect(r.code, r.stderr).toBe(6);
    const err = lastJsonError(r);
    expect(err.code).toBe('REFUSED_TO_SIGN');
    expect(err.message).toMatch(c.problem);
    expect(authId).toBeDefined();
    expect(json(r)).toMatchObject({ authorization: { id: authId }, sell: null, trade: null, idempotencyKey: expect.any(String) });
    expect(p.seen.filter((s) => s.method === 'POST').map((s) => s.path)).toEqual(['/api/v1/trade/sells']);
    const log = await sb.requests();
    expect(log.filter((e) => e.path.endsWith(`${authId}/authorize`))).toEqual([]);
    expect((await sb.call('GET', `/trade/sells/${authId}`)).body.data.authorization.status).toBe('awaiting_signature');
  });
});

// ---------------------------------------------------------------------------------------------
// Tolerance: a service that words its message differently

describe('sell: tolerant of the wording of the message', () => {
  it('"Selling 1,234.5 WOOF for at least 0.0016 SOL" passes the checks, is signed as shown, and the sell completes', async () => {
    const service = await startRewordingService(sb, (a) => `Selling ${tokens(BigInt(a.amount), held.decimals)} ${held.symbol} for at least ${sol(a.minimumOutputLamports)}0 SOL`);
    closeAfterAll(() => service.close());
    const before = (await sb.call('GET', '/holdings')).body.data.find((h: any) => h.mint === held.mint).amount;
    const r = await runCli(['sell', held.symbol, SELL_AMOUNT.toString(), '--yes', '--json'], { env: envFor(service.url) });
    expect(r.code, r.stderr).toBe(0);
    const out = json(r);
    expect(out.authorization.message).toMatch(/^Selling 1,234\.5 WOOF for at least 0\.\d+0 SOL$/);
    expect(service.signedReworded).toEqual([out.authorization.message]);
    expect(out.sell.status).toBe('completed');
    const after = (await sb.call('GET', '/holdings')).body.data.find((h: any) => h.mint === held.mint).amount;
    expect(BigInt(before) - BigInt(after)).toBe(SELL_AMOUNT);
  });
});

// ---------------------------------------------------------------------------------------------
// Issue 22: slots are data. A hostile service first gets an honest sell pinned (unattended, and
// signed), then puts a statement inside a masked slot: the authorization id, or a token's name
// or symbol for a token not sold here before. Each is refused under --yes (exit 6, naming the
// command that accepts it), and the service never receives an authorize request for it; the
// honest control sell is signed and completed in the same test.

describe('sell: a statement inside a masked slot is refused unattended after an honest pinned sell', () => {
  /**
   * A hostile service whose honest first sell (unattended, signed, completed) pinned the
   * sandbox's wording with its id's shape; SGLD is bought so a token not sold here before is held.
   */
  async function afterHonestPin() {
    const other = sb.tokens[1]!; // SGLD, not sold here before
    await completeBuy(sb, { mint: other.mint, amountLamports: '500000000' });
    const home = freshHome();
    const service = await startRewordingService(sb, (a) => a.message);
    closeAfterAll(() => service.close());
    const env = envFor(service.url, home);
    const sellHeld = () => runCli(['sell', held.mint, SELL_AMOUNT.toString(), '--yes', '--json'], { env });
    const sellOther = () => runCli(['sell', other.mint, '1000000', '--yes', '--json'], { env });
    const first = await sellHeld();
    expect(first.code, first.stderr).toBe(0);
    expect(json(first).sell.status).toBe('completed');
    expect(pinsFor(home, service.url).sellWording?.text).toMatch(/^Authorization: \{id: sell_ \+ 22 consonants\}$/m);
    expect(service.authorized).toHaveLength(1);
    return { other, home, service, sellHeld, sellOther };
  }

  it('ids, names and symbols of another shape: exit 6, no authorize; the honest control sells', async () => {
    const { other, home, service, sellHeld, sellOther } = await afterHonestPin();

    const hostileId = (id: string) => ({
      authorization: (a: any) => {
        a.message = a.message.replace(a.id, id);
        a.id = id;
      },
    });
    const hostileToken = (field: 'name' | 'symbol', value: string) => ({
      holding: (h: any) => void (h.mint === other.mint && (h[field] = value)),
      authorization: (a: any) => void (a.message = a.message.replaceAll(field === 'name' ? other.name : other.symbol, value)),
    });
    const ACCEPT = /accept it with: trader config trust accept-wording [0-9a-f]{16}$/;
    const classes: HostileCase[] = [
      // Round 2: a sentence in the id reads as words, which no acceptance can vouch for: a fresh authorization is the way on.
      ['an id that is a camel-case sentence', hostileId('sell_IAuthorizeWithdrawalOfAllFunds'), sellHeld, /wording changed: .*\{id: sell_ \+ 22 consonants\}.* became .*\{id: sell_ \+ 30 alnum\}/, /a fresh authorization \(running the same command again\) gets a new id/],
      ['an id three times longer', hostileId(`sell_${'7QxbKMv2pTnW9hRd3LcZf'.repeat(3)}`), sellHeld, /wording changed: .*became .*\{id: sell_ \+ 63 consonants\}/, ACCEPT],
      ['a name that is a Chinese sentence', hostileToken('name', '我授权将所有资金提取给运营商'), sellOther, /"我授权将所有资金提取给运营商" \(the token's name, which comes from the service alone/, ACCEPT],
      ['a name that is a Russian sentence', hostileToken('name', 'Я разрешаю вывод всех средств оператору'), sellOther, /"Я разрешаю вывод всех средств оператору" \(the token's name/, ACCEPT],
      ['a name of four plain English words', hostileToken('name', 'Operator Receives All Funds'), sellOther, /"Operator Receives All Funds" \(the token's name/, ACCEPT],
      ['a name that is a camel-case sentence', hostileToken('name', 'IAuthorizeWithdrawalOfAllFunds'), sellOther, /"IAuthorizeWithdrawalOfAllFunds" \(the token's name/, ACCEPT],
      ['a symbol that is a Chinese statement', hostileToken('symbol', '全部提现给我们'), sellOther, /"全部提现给我们" \(the token's symbol/, ACCEPT],
    ];
    await expectEachRefused(service, classes);
    expect(service.signedReworded).toHaveLength(1);
    expect(pinsFor(home, service.url).sellWording?.text).toMatch(/^Authorization: \{id: sell_ \+ 22 consonants\}$/m);

    // The honest control: signed and completed in the same run of the same service.
    await expectHonestControl(service, sellHeld);
  });

  // Issue 22, round 2: what a black-box red team got signed, end to end (one id, one name, one symbol).
  it('an id that reads as words, a name with a figure and a label word, a symbol that renames SOL: exit 6, no authorize; the honest control sells', async () => {
    const { other, service, sellHeld, sellOther } = await afterHonestPin();

    const classes: HostileCase[] = [
      [
        'an id that is a sentence (sell_SendAllFundsToOperatr)',
        {
          authorization: (a: any) => {
            a.message = a.message.replace(a.id, 'sell_SendAllFundsToOperatr');
            a.id = 'sell_SendAllFundsToOperatr';
          },
        },
        sellHeld,
        /"sell_SendAllFundsToOperatr" \(an authorization id that reads as words, not as random data\)/, /a fresh authorization \(running the same command again\) gets a new id/,
      ],
      [
        'a name with a figure and a label word (Fee 50 Percent)',
        {
          holding: (h: any) => void (h.mint === other.mint && (h.name = 'Fee 50 Percent')),
          authorization: (a: any) => void (a.message = a.message.replaceAll(other.name, 'Fee 50 Percent')),
        },
        sellOther,
        /"Fee 50 Percent" \(the token's name, which comes from the service alone/, /accept it with:? `?trader config trust accept-wording [0-9a-f]{16}/,
      ],
      [
        'a symbol that renames SOL (sol)',
        {
          holding: (h: any) => void (h.mint === other.mint && (h.symbol = 'sol')),
          authorization: (a: any) => void (a.message = a.message.replaceAll(other.symbol, 'sol')),
        },
        sellOther,
        /the token's symbol "sol" names SOL, the currency the message's figures are read in/,
      ],
    ];
    await expectEachRefused(service, classes);

    await expectHonestControl(service, sellHeld);
  });

  it('a name no one vouched for is signed after the user reads it and accepts it with the command the refusal names', async () => {
    const other = sb.tokens[2]!; // BRIX, not sold here before
    await completeBuy(sb, { mint: other.mint, amountLamports: '500000000' });
    const home = freshHome();
    const service = await startRewordingService(sb, (a) => a.message);
    closeAfterAll(() => service.close());
    const env = envFor(service.url, home);
    const sellOther = () => runCli(['sell', other.mint, '1000000000', '--yes', '--json'], { env });
    const name = 'Кирпичный протокол';
    service.tamper({
      holding: (h: any) => void (h.mint === other.mint && (h.name = name)),
      authorization: (a: any) => void (a.message = a.message.replace(other.name, name)),
    });

    const refused = await sellOther();
    expect(refused.code, refused.stderr).toBe(6);
    const fingerprint = /accept-wording ([0-9a-f]{16})/.exec(lastJsonError(refused).message)?.[1];
    expect(fingerprint).toBeDefined();
    const show = await runCli(['config', 'trust'], { env });
    expect(show.stdout).toContain(`Accepting it also confirms token ${other.mint} as symbol "${other.symbol}", name "${name}".`);
    expect((await runCli(['config', 'trust', 'accept-wording', fingerprint!], { env })).code).toBe(0);
    expect(pinsFor(home, service.url).tokens?.[other.mint]).toMatchObject({ name, confirmed: true });

    const signed = await sellOther();
    expect(signed.code, signed.stderr).toBe(0);
    expect(json(signed).sell.status).toBe('completed');
    expect(service.authorized).toHaveLength(1);
  });
});
