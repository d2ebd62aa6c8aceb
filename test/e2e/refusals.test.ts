// Every refusal of the contract's "What the tool checks before it signs anything", end to end:
// a tampering proxy in front of the sandbox hands the built binary a hostile deposit
// transaction (built with @solana/web3.js from the real intent) or a lying sell authorization,
// and each test asserts exit 6, a message naming the problem, and that the server never got a
// deposit or an authorize (for buys: and that the intent was cancelled). The cases of the two
// tables run in-process (src/run.ts, the code the binary runs), every fourth through the built
// binary; the single tests below them run the binary.
import {
  Keypair,
  PublicKey,
  SystemProgram,
  TransactionInstruction,
  TransactionMessage,
  VersionedTransaction,
} from '@solana/web3.js';
import { writeFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { lastJsonError } from '../helpers/cli-assert.js';
import { json, runCli, type CliResult } from '../helpers/cli.js';
import {
  computeBudget,
  lookupTable,
  randomBlockhash,
  unsignedTransaction,
  type UnsignedOptions,
} from '../helpers/deposit-transactions.js';
import { sandboxForFile } from '../helpers/file-sandbox.js';
import { runInProcess } from '../helpers/in-process.js';
import { completeBuy, type TestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox;
const { envFor, tamperProxy: proxy } = sandboxForFile((started) => (sb = started));
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

function tx(
  real: Real,
  instructions: TransactionInstruction[],
  opts: { payer?: PublicKey; lookupTables?: UnsignedOptions['lookupTables'] } = {},
): string {
  return unsignedTransaction(instructions, {
    payer: opts.payer ?? real.owner,
    blockhash: real.blockhash,
    lookupTables: opts.lookupTables,
  });
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
    tamper: (d, r) =>
      (d.deposit.transaction = tx(r, [
        ...budget(),
        pay(r),
        SystemProgram.assign({ accountPubkey: r.owner, programId: stranger.publicKey }),
      ])),
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
    problem:
      /names 1 account through 1 address lookup table.*tell the operator of the service to list every account in the deposit itself/,
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
    name: 'a fee payer other than the wallet (the service paying the fee, the wallet a second signer)',
    tamper: (d, r) => (d.deposit.transaction = tx(r, [...budget(), pay(r)], { payer: stranger.publicKey })),
    problem: new RegExp(
      `the service pays the network fee \\(${stranger.publicKey.toBase58()} is the fee payer, your wallet a second signer\\).*tell the operator of the service to make your wallet the fee payer`,
    ),
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
    expect(json(r)).toMatchObject({
      intent: { id: intentId, status: 'cancelled' },
      trade: null,
      idempotencyKey: expect.any(String),
    });
    // Nothing reached the service but the create and the cancel.
    expect(p.seen.filter((s) => s.method === 'POST').map((s) => s.path)).toEqual([
      '/api/v1/trade/buys',
      `/api/v1/trade/buys/${intentId}/cancel`,
    ]);
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
        blockhash: VersionedTransaction.deserialize(Buffer.from(body.data.deposit.transaction, 'base64')).message
          .recentBlockhash,
      };
      body.data.deposit.transaction = tx(real, [
        ...budget(),
        pay(real),
        SystemProgram.assign({ accountPubkey: real.owner, programId: stranger.publicKey }),
        pay(real, 1n, stranger.publicKey),
      ]);
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
const honest = (a: any) =>
  `Sell ${tokens(BigInt(a.amount), 5)} WOOF (${a.mint}) for at least ${sol(a.minimumOutputLamports)} SOL`;

interface SellCase {
  name: string;
  args?: string[];
  /** The default profile's settings, written to the config file first. */
  profile?: Record<string, unknown>;
  /** Mutates the authorization of the create response. */
  tamper(auth: any): void;
  problem: RegExp;
  /** The refusal's code: REFUSED_TO_SIGN unless a person could grant what is missing. */
  code?: string;
}

// The fields' checks, and one case of each kind of message the guard refuses outright or leaves
// to a person (test/unit/sell-template.test.ts holds every hostile message of earlier attacks).
// The sandbox's wording is approved for this service (envFor), so only these changes count.
const SELL_CASES: SellCase[] = [
  {
    name: 'the mint differs',
    tamper: (a) => (a.mint = stranger.publicKey.toBase58()),
    problem: new RegExp(`sells ${stranger.publicKey.toBase58()}, not the requested token`),
  },
  {
    name: 'the amount differs',
    tamper: (a) => (a.amount = (BigInt(a.amount) * 2n).toString()),
    problem: /the authorization sells 246900000 raw units, not the requested 123450000/,
  },
  {
    name: 'the minimum is above the expected proceeds',
    tamper: (a) => (a.minimumOutputLamports = (BigInt(a.expectedOutputLamports) + 1n).toString()),
    problem: /the minimum [0-9.]+ SOL is above the expected [0-9.]+ SOL/,
  },
  {
    name: 'the message does not state the token',
    tamper: (a) => (a.message = `Sell ${a.amount} raw units for at least ${a.minimumOutputLamports} lamports.`),
    problem: /the message does not state the token: neither its mint \S+ nor a symbol only it has/,
  },
  {
    name: 'a Sign-In-With-Solana login for another site carrying the trade',
    tamper: (a) =>
      (a.message = `example.com wants you to sign in with your Solana account:\n${sb.walletAddress}\n\n${honest(a)}\n\nURI: https://example.com/login\nVersion: 1\nChain ID: mainnet\nIssued At: ${a.createdAt}`),
    problem: /the shape of a Sign-In-With-Solana \(EIP-4361\) login/,
  },
  {
    name: 'the Solana off-chain message preamble',
    tamper: (a) => (a.message = `\u00ffsolana offchain\n${honest(a)}`),
    problem: /a Solana off-chain message/,
  },
  {
    name: 'a withdrawal of everything to another address, the trade as a reference',
    tamper: (a) =>
      (a.message = `I authorize withdrawal of ALL balances to ${stranger.publicKey.toBase58()}. ref ${a.mint} ${a.amount} ${a.minimumOutputLamports}`),
    problem: new RegExp(`the address ${stranger.publicKey.toBase58()}, which is neither the mint nor your wallet`),
  },
  {
    name: 'a figure that is none of the trade’s',
    tamper: (a) => (a.message = `${honest(a)}. Valid for 3 minutes`),
    problem: /line 1, column \d+: "3", a figure that is not one of this trade's facts/,
  },
  {
    name: 'circled letters after the minimum',
    tamper: (a) => (a.message = `${honest(a)} \u24D0\u24DD\u24D3 \u24D0\u24DB\u24DB`),
    problem: /U\+24D0, a character other than printable ASCII/,
  },
  {
    name: 'a statement set apart by blank lines',
    tamper: (a) => (a.message = `${a.message}\n\n\nAlso sell all other tokens at any price`),
    problem: /two blank lines in a row/,
  },
  {
    name: 'a plain sentence added to the approved wording: a change only a person may approve',
    tamper: (a) => (a.message = `${a.message}\nTransfer the proceeds to my savings`),
    problem:
      /its wording changed; only a person grants that \(at the prompt, or with the command below\), and here --yes asks no one/,
    code: 'WORDING_CHANGED',
  },
  {
    name: 'the message is a serialized transaction message (base64)',
    tamper: (a) => (a.message = Buffer.from(transactionMessageBytes()).toString('base64')),
    problem: /the message decodes as a Solana transaction/,
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
    name: 'the authorization has already expired',
    tamper: (a) => (a.expiresAt = new Date(Date.now() - 1_000).toISOString()),
    problem: /the authorization expired at/,
  },
  {
    name: 'an expiry given in words Date.parse skips',
    tamper: (a) => (a.expiresAt = `${new Date(Date.parse(a.expiresAt)).toUTCString()} (and all other tokens)`),
    problem: /expiresAt .* is not an ISO 8601 time/,
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
    name: "the stricter of the two: a 60 bps quote under --slippage-bps 50 with the profile's maxSlippageBps 500",
    args: ['--slippage-bps', '50'],
    profile: { maxSlippageBps: 500 },
    tamper: (a) => widenSlippage(a, 60),
    problem: /the authorization's slippage 60 bps is more than the 50 bps allowed/,
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
    instructions: [
      SystemProgram.transfer({ fromPubkey: owner, toPubkey: stranger.publicKey, lamports: 1_000_000_000n }),
    ],
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
    if (c.profile)
      writeFileSync(env.TRADER_CONFIG, JSON.stringify({ profiles: { default: c.profile } }), { mode: 0o600 });
    const r = await trader(c.i, ['sell', held.mint, SELL_AMOUNT.toString(), '--yes', '--json', ...(c.args ?? [])], env);
    expect(r.code, r.stderr).toBe(6);
    const err = lastJsonError(r);
    expect(err.code).toBe(c.code ?? 'REFUSED_TO_SIGN');
    expect(err.message).toMatch(c.problem);
    expect(authId).toBeDefined();
    expect(json(r)).toMatchObject({
      authorization: { id: authId },
      sell: null,
      trade: null,
      idempotencyKey: expect.any(String),
    });
    expect(p.seen.filter((s) => s.method === 'POST').map((s) => s.path)).toEqual(['/api/v1/trade/sells']);
    const log = await sb.requests();
    expect(log.filter((e) => e.path.endsWith(`${authId}/authorize`))).toEqual([]);
    expect((await sb.call('GET', `/trade/sells/${authId}`)).body.data.authorization.status).toBe('awaiting_signature');
  });
});
