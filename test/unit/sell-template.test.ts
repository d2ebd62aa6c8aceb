// The sell guard, table-driven: honest wordings are approved once and then signed unattended
// on three further trades with other values; every hostile message of every earlier attack is
// refused outright or needs a person; each notation, each outright refusal and each field
// check at its edge.
import { PublicKey, SystemProgram, TransactionMessage, VersionedTransaction } from '@solana/web3.js';
import bs58 from 'bs58';
import { describe, expect, it } from 'vitest';
import { judgeSell, type Verdict } from '../../src/wallet/sell-template/guard.js';
import { extract } from '../../src/wallet/sell-template/extract.js';
import { match } from '../../src/wallet/sell-template/match.js';
import { fingerprint, isTemplate, type Template } from '../../src/wallet/sell-template/template.js';
import { alphabetOf, ALPHABETS, messageProblems } from '../../src/wallet/sell-template/text-rules.js';
import { markedMessage, quotedRows, templateText } from '../../src/views/wording.js';
import type { SellFacts } from '../../src/wallet/sell-template/facts.js';
import { RED_TEAM_2 } from './redteam2-fixtures.js';
import {
  authorization,
  dec,
  good,
  HONEST,
  HOSTILE,
  input,
  LATER,
  OWNER,
  sandbox,
  STRANGER,
  T1,
  type Trade,
} from './sell-template-fixtures.js';

const judge = (t: Trade, message: string, approved: Template | 'earlier-version' | null = null, over = {}) =>
  judgeSell(input(t, message, approved, over));

/** The template a person approves for this message of T1 (its first sell). */
function approve(message: string, t: Trade = T1): Template {
  const v = judge(t, message);
  expect(v.kind, JSON.stringify(v)).toBe('person');
  expect((v as Extract<Verdict, { kind: 'person' }>).code).toBe('WORDING_NOT_APPROVED');
  return (v as Extract<Verdict, { kind: 'person' }>).template!;
}

const facts = (t: Trade): SellFacts => ({
  mint: t.mint,
  owner: OWNER,
  id: t.id,
  symbol: t.symbol,
  name: t.name,
  decimals: t.decimals,
  amount: t.amount,
  minimum: t.minimum,
  expected: t.expected,
  slippageBps: t.bps,
  createdAt: t.createdAt,
  expiresAt: t.expiresAt,
});

/** The notations of the one slot of `fact` that a one-figure message holds. */
function notations(message: string, t: Trade, fact: string): string[] {
  const found = extract(message, facts(t));
  if (!('template' in found)) throw new Error(JSON.stringify(found));
  return found.template.parts.flatMap((p) =>
    typeof p !== 'string' && 'fact' in p && p.fact === fact ? [p.notations] : [],
  )[0]!;
}

describe('honest wordings: approved once, then signed unattended on three further trades', () => {
  it('there are at least 12 of them', () => expect(HONEST.length).toBeGreaterThanOrEqual(12));

  it.each(HONEST)('%s', (_name, wording) => {
    const template = approve(wording(T1));
    // Signed on the first trade once approved, and on three more with other tokens and values.
    for (const t of [T1, ...LATER]) {
      const v = judge(t, wording(t), template);
      expect(v.kind, `${t.id}: ${JSON.stringify(v)}\n${wording(t)}\n${templateText(template)}`).toBe('sign');
    }
  });

  it('the sandbox’s template labels each slot with its fact', () => {
    const template = approve(sandbox(T1));
    expect(templateText(template, facts(T1))).toBe(
      [
        'trader sandbox: authorize a token sale',
        'Token: ⟦the symbol⟧ (⟦the name⟧)',
        'Mint: ⟦the mint⟧',
        'Amount: ⟦amount in whole tokens (5 decimals)⟧ ⟦the symbol⟧ (⟦amount in raw units⟧ raw units)',
        'Minimum proceeds: ⟦minimum in SOL⟧ SOL (⟦minimum in lamports⟧ lamports)',
        'Authorization: ⟦the authorization id (sell_ + base58 22)⟧',
        'Expires: ⟦expires (as given and ISO alike)⟧',
      ].join('\n'),
    );
    expect(fingerprint(template)).toMatch(/^[0-9a-f]{16}$/);
    // At the prompt each value stands marked where it is: the message, its slots' values in ⟦…⟧.
    const v = judge(T1, sandbox(T1)) as Extract<Verdict, { kind: 'person' }>;
    const marked = markedMessage(v.slots!.template, v.slots!.values);
    expect(marked).toContain('Amount: ⟦1234.5⟧ ⟦BONK⟧ (⟦123450000⟧ raw units)');
    expect(marked.replace(/[⟦⟧]/g, '')).toBe(sandbox(T1));
  });
});

describe('notations: a slot keeps the set consistent with what was seen', () => {
  const t = { ...T1, decimals: 6 };
  const at = (amount: bigint) => ({ ...t, amount });
  it.each([
    ['1.5', 1_500_000n, ['tokens']],
    ['1.500000', 1_500_000n, ['tokens .']],
    ['1.234567', 1_234_567n, ['tokens', 'tokens .']],
    ['12', 12_000_000n, ['tokens', 'tokens ,']],
    ['1,234.5', 1_234_500_000n, ['tokens ,']],
    ['234.5', 234_500_000n, ['tokens', 'tokens ,']],
  ])('whole tokens %s', (text, amount, expected) => {
    const n = notations(`Sell ${text} of ${t.mint} for at least 49500000 lamports`, at(amount), 'amount');
    // Each notation seen is kept, grouped or not where the figure cannot tell.
    for (const e of expected) expect(n).toContain(e);
    expect(n.every((x) => x.startsWith('tokens'))).toBe(true);
    if (text === '1.5') expect(n).toEqual(['tokens', 'tokens ,']);
    if (text === '1,234.5') expect(n).toEqual(['tokens ,']);
  });

  it('a rounded figure is not a rendering: its digits are literal, refused outright', () => {
    const v = judge(T1, `Sell 1,234.5 BONK (${T1.mint}) for at least 0.049 SOL`);
    expect(v.kind).toBe('refused');
    expect(v.kind === 'refused' && v.reasons.join()).toMatch(
      /line 1, column \d+: "0", a figure that is not one of this trade's facts/,
    );
  });

  it('a notation never seen is a change: trimmed at approval, every decimal later', () => {
    const template = approve(good(T1));
    const t = LATER[0]!;
    const full = `Sell ${dec(t.amount, t.decimals, { full: true, grouped: true })} WIF (${t.mint}) for at least ${dec(t.minimum, 9)} SOL`;
    expect(judge(t, full, template)).toMatchObject({ kind: 'person', code: 'WORDING_CHANGED' });
    expect(judge(t, good(t), template).kind).toBe('sign');
  });

  it('times in each notation: ISO, ISO to the second, UTC, Unix seconds and ms', () => {
    const f = facts(LATER[1]!);
    const slot = (text: string) => {
      const found = extract(`${good(LATER[1]!)} until ${text}`, f);
      if (!('template' in found)) throw new Error(JSON.stringify(found));
      return found.template.parts.find((p) => typeof p !== 'string' && 'fact' in p && p.fact === 'expiresAt');
    };
    expect(slot('2030-01-01T01:02:00.250Z')).toEqual({ fact: 'expiresAt', notations: ['field', 'iso'] });
    expect(slot('2030-01-01T01:02:00Z')).toEqual({ fact: 'expiresAt', notations: ['iso-s'] });
    expect(slot('2030-01-01 01:02:00 UTC')).toEqual({ fact: 'expiresAt', notations: ['utc'] });
    expect(slot('1893459720')).toEqual({ fact: 'expiresAt', notations: ['unix-s'] });
    expect(slot('1893459720250')).toEqual({ fact: 'expiresAt', notations: ['unix-ms'] });
    // One second off is no time of this authorization: a figure.
    expect(judge(LATER[1]!, `${good(LATER[1]!)} until 1893459721`).kind).toBe('refused');
  });

  it('slippage in bps and percent, the expected output in lamports and SOL, the owner and the id', () => {
    const f = facts(T1);
    const found = extract(
      `Sell 123450000 of ${T1.mint} by ${OWNER} (${T1.id}): expected 0.05 SOL = 50000000 lamports, min 49500000, 100 bps = 1%`,
      f,
    );
    expect(
      'template' in found &&
        found.template.parts
          .filter((p) => typeof p !== 'string')
          .map((p) => ('fact' in p ? `${p.fact}:${p.notations.join('|')}` : 'opaque')),
    ).toEqual([
      'amount:raw',
      'mint:exact',
      'owner:exact',
      'id:base58 22',
      'expected:SOL|SOL ,',
      'expected:lamports',
      'minimum:lamports',
      'slippage:bps|bps ,',
      'slippage:%|% ,',
    ]);
  });
});

describe('one figure for two facts: the template cannot tell which is meant', () => {
  it('minimum = expected at 0 slippage is refused, saying a fresh quote tells them apart', () => {
    const t = { ...T1, minimum: T1.expected, bps: 0 };
    const v = judge(t, `Sell 1,234.5 BONK (${T1.mint}) for at least 0.05 SOL`);
    expect(v.kind).toBe('refused');
    expect(v.kind === 'refused' && v.reasons[0]).toMatch(
      /"0\.05" is both the minimum and the expected of this trade.*a fresh quote/,
    );
  });

  it('50 tokens and 50 bps', () => {
    const t = { ...T1, amount: 5_000_000n, bps: 50, minimum: 49_750_000n };
    expect(judge(t, `Sell 50 BONK (${T1.mint}) for at least 0.04975 SOL`).kind).toBe('refused');
    // A fresh quote with another amount tells them apart.
    const other = { ...t, amount: 5_100_000n };
    expect(judge(other, `Sell 51 BONK (${T1.mint}) for at least 0.04975 SOL (50 bps)`)).toMatchObject({
      kind: 'person',
      code: 'WORDING_NOT_APPROVED',
    });
  });
});

describe('refused outright, with the line, column and reason', () => {
  const base = good(T1);
  it.each([
    ['a tab', base.replace(' for', '\tfor'), /line 1, column 65: U\+0009/],
    ['non-ASCII in literal text', `${base} \u2014 once`, /line 1, column 90: U\+2014/],
    ['a figure that is not the trade’s', `${base}, fee 5`, /"5", a figure/],
    [
      'an address that is neither the mint nor the wallet',
      `${base}\nTo: HLxAr4s3KjAJXKLmbGkXbBWRCYFxQ74thgZg9dxHxcAw`,
      /line 2, column 5: the address HLxA/,
    ],
    ['no token', 'Sell 1,234.5 for at least 0.0495 SOL', /does not state the token/],
    ['no amount', `Sell BONK (${T1.mint}) for at least 0.0495 SOL`, /does not state the amount/],
    ['no minimum', `Sell 1,234.5 BONK (${T1.mint})`, /does not state the minimum/],
    ['two blank lines in a row', `${base}\n\n\nSell all`, /line 3, column 1: two blank lines in a row/],
    ['a blank first line', `\n${base}`, /line 1, column 1: a blank first line/],
    ['whitespace at a line end', `${base} \nOK`, /line 1, column 1: whitespace at the end/],
    ['the off-chain preamble', `\u00ffsolana offchain${base}`, /off-chain message/],
    ['a sign-in message', `example.com wants you to sign in\n${base}`, /Sign-In-With-Solana/],
    ['two SIWS labels', `${base}\nURI: x\nVersion: one`, /Sign-In-With-Solana/],
  ])('%s', (_name, message, reason) => {
    const v = judge(T1, message);
    expect(v.kind, JSON.stringify(v)).toBe('refused');
    expect((v as Extract<Verdict, { kind: 'refused' }>).reasons.join('\n')).toMatch(reason);
  });

  it('one SIWS label alone ("Version:") is ordinary wording', () => {
    expect(judge(T1, `${good(T1)}\nVersion: one`).kind).toBe('person');
  });

  it('a symbol shared by another token held names no token', () => {
    const v = judge(T1, 'Sell 1,234.5 BONK for at least 0.0495 SOL', null, { otherSymbols: ['bonk'] });
    expect(v.kind === 'refused' && v.reasons[0]).toMatch(/BONK is shared by another token held/);
    expect(judge(T1, 'Sell 1,234.5 BONK for at least 0.0495 SOL').kind).toBe('person');
  });

  it('a message of 20 lines is read on one screen, 21 are refused outright (whether it fits this terminal is the prompt’s)', () => {
    const sell = `Sell 1,234.5 BONK (${T1.mint})\nfor at least 0.0495 SOL`;
    const lines = (n: number) => [sell, ...Array.from({ length: n - 2 }, () => 'ok')].join('\n');
    expect(judge(T1, lines(20)).kind).toBe('person');
    expect(judge(T1, lines(21))).toMatchObject({
      kind: 'refused',
      reasons: [expect.stringMatching(/the message is 21 lines, more than the 20 a person reads on one screen/)],
    });
    expect(messageProblems(Array(20).fill('ok').join('\n'))).toEqual([]);
  });

  it('quoted for a person: every row behind the gutter (│ a line, ┆ its continuation), none wider than the terminal, broken before a space or inside a run', () => {
    const run = 'x'.repeat(87);
    expect(quotedRows(`Request: ${run}\nok`, 80)).toEqual([
      `  │ Request: ${run.slice(0, 67)}`,
      `  ┆ ${run.slice(67)}`,
      '  │ ok',
    ]);
    expect(quotedRows(`Request: ${run.slice(0, 75)}`, 80)).toEqual(['  │ Request:', `  ┆  ${run.slice(0, 75)}`]);
    expect(quotedRows(`Request: ${run.slice(0, 76)}`, 80)).toEqual([
      `  │ Request: ${run.slice(0, 67)}`,
      `  ┆ ${run.slice(67, 76)}`,
    ]);
    // The space a row is broken at opens the next row: put back together, the rows are the line.
    expect(quotedRows('a b c d', 8)).toEqual(['  │ a b', '  ┆  c d']);
    // Anything not ASCII (only a bound name or symbol) counts two columns, never fewer than it takes.
    expect(quotedRows('\u0939'.repeat(39), 80)).toEqual([`  │ ${'\u0939'.repeat(38)}`, '  ┆ \u0939']);
    expect(quotedRows('', 80)).toEqual(['  │ ']);
    const text = `${T1.hash} and ${T1.hash}${T1.hash} for the ${T1.mint} only`;
    for (const columns of [40, 57, 80, 123]) {
      const rows = quotedRows(text, columns);
      for (const row of rows) expect([...row].length).toBeLessThanOrEqual(columns);
      expect(rows.map((r) => r.slice(4)).join('')).toBe(text);
    }
  });

  it('1,280 bytes fit, 1,281 do not (reached within 16 rows only by characters of several bytes)', () => {
    const message = (n: number) =>
      `${Array(11).fill('\u0939'.repeat(38)).join('\n')}\n${'a'.repeat(n - 11 * 114 - 11)}`;
    expect(new TextEncoder().encode(message(1280)).length).toBe(1280);
    expect(messageProblems(message(1280))).toEqual([]);
    expect(messageProblems(message(1281))).toEqual([expect.stringMatching(/1281 bytes, more than the 1280/)]);
  });

  it('a serialized transaction carried as the message, as text, base64 or base58', () => {
    const key = (c: string) => new PublicKey(Buffer.from(c.repeat(32)));
    const message = new TransactionMessage({
      payerKey: key('P'),
      recentBlockhash: key('H').toBase58(),
      instructions: [SystemProgram.transfer({ fromPubkey: key('P'), toPubkey: key('T'), lamports: 0x41414141 })],
    }).compileToLegacyMessage();
    const bytes = message.serialize();
    for (const text of [
      new TextDecoder('utf-8', { fatal: true }).decode(bytes),
      Buffer.from(new VersionedTransaction(message).serialize()).toString('base64'),
      bs58.encode(bytes),
    ]) {
      expect(judge(T1, text)).toMatchObject({
        kind: 'refused',
        reasons: expect.arrayContaining([expect.stringMatching(/decodes as a Solana transaction/)]),
      });
    }
  });

  it('non-ASCII only inside a bound name or symbol slot', () => {
    const t = { ...T1, name: '狗狗币 Inu' };
    const template = approve(sandbox(t), t);
    expect(judge(t, sandbox(t), template).kind).toBe('sign');
    // The same name unbound (the chain has none, no person confirmed it): its letters are literal.
    expect(
      judge(t, sandbox(t), null, {
        token: { symbol: 'BONK', name: null, decimals: 5, problems: [], unbound: [], symbolBound: true },
      }).kind,
    ).toBe('refused');
  });
});

describe('hostile messages of every earlier attack are never signed unattended', () => {
  const approvedSandbox = approve(sandbox(T1));
  const approvedGood = approve(good(T1));
  it.each(HOSTILE)('%s', (_name, message) => {
    for (const approved of [null, approvedSandbox, approvedGood, 'earlier-version'] as const) {
      const v = judge(T1, message, approved);
      expect(
        v.kind,
        JSON.stringify({ approved: approved && typeof approved === 'object' ? templateText(approved) : approved, v }),
      ).not.toBe('sign');
    }
  });

  it('the issue’s classes are refused outright (circled letters, Braille, micro-lamports, blank lines), not offered for approval', () => {
    for (const label of [
      'circled letters after the minimum',
      'the micro-lamports minimum',
      'Braille',
      'a statement below blank lines',
      'a statement below 150 empty lines',
    ]) {
      const message = HOSTILE.find(([l]) => l === label)![1];
      expect(judge(T1, message).kind, label).toBe('refused');
    }
  });

  it('the second red team’s exact messages (a service’s symbol or name where the chain’s stands) need a person', () => {
    expect(RED_TEAM_2.length).toBeGreaterThan(20);
    for (const c of RED_TEAM_2) {
      const t: Trade = {
        ...T1,
        id: c.id,
        mint: c.mint,
        symbol: 'SGLD',
        name: 'Sandbox Gold',
        decimals: c.decimals,
        amount: BigInt(c.amount),
        minimum: BigInt(c.minimumLamports),
        expected: (BigInt(c.minimumLamports) * 100n) / 98n,
        bps: 300,
        expiresAt: c.expiresAt,
        createdAt: new Date(Date.parse(c.expiresAt) - 120_000).toISOString(),
      };
      const honest = approve(sandbox(t), t);
      expect(judge(t, c.message, honest).kind, c.label).not.toBe('sign');
    }
  });

  it('an id or nonce spelling words: asked at the prompt (never pinned), refused unattended; a random one signs', () => {
    const withNonce = (nonce: string) => `${good(T1)}\nnonce = ${nonce}`;
    const template = approve(withNonce('8f3a9c2e71b4d05e'));
    expect(judge(T1, withNonce('7e3fa91c0b2d45e8'), template).kind).toBe('sign');
    const withId = (id: string) => `${good(T1)}\nid: ${id}`;
    const hostileId = (id: string, approved: Template) =>
      judgeSell(input(T1, withId(id), approved, { authorization: authorization(T1, withId(id), { id }) }));
    // A base58 id: a value of the same alphabet and length that reads as words is asked about.
    const base58Id = approve(withId('sell_3mDQPKdXB7yq1o11thgDwmg'), { ...T1, id: 'sell_3mDQPKdXB7yq1o11thgDwmg' });
    expect(hostileId('sell_SendMyFundsToTheBuyerX', base58Id)).toMatchObject({
      kind: 'person',
      code: 'VALUE_READS_AS_TEXT',
    });
    expect(hostileId('sell_SendMyFundsToTheBuyerX', base58Id).kind).not.toBe('sign');
    expect(hostileId('sell_9aEiUYn2xsWq7TrKzC3pVbH', base58Id).kind).toBe('sign');
    // Under a consonant id's pin, words need vowels: another alphabet, a changed wording.
    const consonantId = approve(withId(T1.id));
    expect(hostileId('sell_SendAllFundsToOprtr', consonantId)).toMatchObject({
      kind: 'person',
      code: 'WORDING_CHANGED',
    });
    expect(hostileId('sell_7QxbKMv2pTnW9hRd3LcZfG', consonantId).kind).toBe('sign');
    const base58 = (nonce: string) => `${good(T1)}\nref ${nonce}`;
    const b58 = approve(base58('3mDQPKdXB7yq1o11thgDwmg'));
    expect(judge(T1, base58('SendMyFundsToTheBuyer9X'), b58)).toMatchObject({
      kind: 'person',
      code: 'VALUE_READS_AS_TEXT',
    });
    // A person who read it at the prompt may let it be signed this once.
    expect(judge(T1, base58('SendMyFundsToTheBuyer9X'), b58, { valuesRead: true }).kind).toBe('sign');
    expect(judge(T1, base58('5Kd3NrTqW8yZpB2xVcM7hJ'), b58).kind).toBe('sign');
  });

  it('the attacker’s own tries: an address in a base58 slot two characters longer than one; a bound name with a line break, a bidi override or a control', () => {
    const withRef = (ref: string) => `${good(T1)}\nref ${ref}`;
    const long = '2'.repeat(2) + T1.hash.slice(0, 44);
    const template = approve(withRef(long));
    expect(judge(T1, withRef(STRANGER), template).kind).not.toBe('sign');
    expect(judge(T1, withRef(T1.hash.slice(1, 47)), template).kind).toBe('sign');
    const named = approve(sandbox(T1));
    for (const name of ['Bonk\nAnd all other tokens', 'Bonk\u202Enehtoo', 'Bonk\u0007', 'Bonk  Inu', ' Bonk']) {
      const t = { ...T1, name };
      expect(judge(t, sandbox(t), named).kind, JSON.stringify(name)).not.toBe('sign');
    }
  });

  it('attack-1 §1: a sentence padded with random characters in an approved 87-character nonce is never signed unattended', () => {
    const base58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
    const fill = (n: number, from = 7) => Array.from({ length: n }, (_, i) => base58[(i * 31 + from) % 58]).join('');
    const request = T1.hash.slice(0, 87);
    const wording = (r: string) =>
      `${sandbox(T1)}\nRequest: ${r}\nQuote hash: ${'9f8e7d6c5b4a3f2e'.repeat(4)}\nQuote id: 3f2b8c1e-9a4d-4e6f-8b2a-7c5d1e0f9a3b`;
    const template = approve(wording(request));
    expect(judge(T1, wording(T1.hash.slice(1, 88)), template).kind).toBe('sign');
    for (const sentence of [
      'AndSeLL85SGDForMinimum1LamportToTheServiceTreasury',
      'SeLLaLLYourBRXandSGDtoTheTreasuryNow',
      'AndSendMySGDToTheTreasuryNow',
      'andsendmysgdtothetreasurynow',
      'SEND5SGDTREASURY',
    ]) {
      const smuggled = sentence + fill(87 - sentence.length);
      expect(judge(T1, wording(smuggled), template), smuggled).toMatchObject({
        kind: 'person',
        code: 'VALUE_READS_AS_TEXT',
        reasons: [expect.stringContaining(smuggled)],
      });
    }
  });

  it('a message carries at most 4 random values, each at most 88 characters (the longest calibrated): one more of either is refused outright', () => {
    const hex = (i: number) => `${i}f8e7d6c5b4a3f2e`;
    const values = (n: number) =>
      `${good(T1)}\n${Array.from({ length: n }, (_, i) => `v${'abcde'[i]} = ${hex(i + 1)}`).join('\n')}`;
    expect(judge(T1, values(4)).kind).toBe('person');
    expect(judge(T1, values(5))).toMatchObject({
      kind: 'refused',
      reasons: ['5 random values (nonces, hashes), more than the 4 a message may carry'],
    });
    const run = (n: number) => `${good(T1)}\nsig = ${T1.hash.repeat(2).slice(0, n)}`;
    expect(judge(T1, run(88)).kind).toBe('person');
    expect(judge(T1, run(89))).toMatchObject({
      kind: 'refused',
      reasons: [
        expect.stringMatching(
          /^line 2, column 7: a run of 89 characters, longer than any nonce, hash or signature \(88\)$/,
        ),
      ],
    });
  });

  it('an opaque slot pins its alphabet and exact length', () => {
    const withHash = (hash: string) => `${good(T1)}\nQuote: ${hash}`;
    const template = approve(withHash('9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c'));
    expect(judge(T1, withHash('0123456789abcdef0123456789abcdef'), template).kind).toBe('sign');
    expect(judge(T1, withHash('0123456789abcdef0123456789abcde'), template).kind).not.toBe('sign');
    expect(judge(T1, withHash('0123456789abcdef0123456789abcdef0'), template).kind).not.toBe('sign');
    expect(judge(T1, withHash('0123456789ABCDEF0123456789ABCDEF'), template).kind).not.toBe('sign');
  });
});

describe('the alphabets a slot pins: only the standard ones', () => {
  it('hex, HEX, base58, alnum (base62) and uuid, narrowest first; none made up to fit one service (no "consonants")', () => {
    expect(Object.keys(ALPHABETS)).toEqual(['hex', 'HEX', 'base58', 'alnum', 'uuid']);
    expect(
      ['9f8e7d6c', '9F8E7D6C', 'zrXQtWCN', 'zrXQ0lOI', '3f2b8c1e-9a4d-4e6f-8b2a-7c5d1e0f9a3b', 'zr-XQ'].map(alphabetOf),
    ).toEqual(['hex', 'HEX', 'base58', 'alnum', 'uuid', null]);
    expect(isTemplate({ parts: ['Quote: ', { opaque: 'consonants', length: 22 }] })).toBe(false);
    expect(isTemplate({ parts: ['Quote: ', { opaque: 'base58', length: 22 }] })).toBe(true);
  });

  it('the id pins the narrowest standard alphabet of its random part: the sandbox’s base58, else alnum', () => {
    const ids = (id: string) => {
      const found = extract(sandbox({ ...T1, id }), facts({ ...T1, id }));
      return 'template' in found
        ? found.template.parts.flatMap((p) =>
            typeof p !== 'string' && 'fact' in p && p.fact === 'id' ? p.notations : [],
          )
        : found.refused;
    };
    expect(ids('sell_zrXQtWCN3fNPB2QRF87kN4')).toEqual(['base58 22']);
    expect(ids('sell_zrXQtWCN3fNPB2QRF87kN0')).toEqual(['alnum 22']);
  });
});

describe('templates and the trust they need', () => {
  it('a changed wording after an approval needs a person, with the old template to compare', () => {
    const template = approve(good(T1));
    const v = judge(T1, sandbox(T1), template);
    expect(v).toMatchObject({ kind: 'person', code: 'WORDING_CHANGED', previous: template });
  });

  it('a wording pinned by an earlier version (masked text) is not rendered from: asked once, saying why', () => {
    const v = judge(T1, sandbox(T1), 'earlier-version');
    expect(v).toMatchObject({ kind: 'person', code: 'WORDING_NOT_APPROVED' });
    expect(v.kind === 'person' && v.reasons[0]).toMatch(
      /the wording pinned by an earlier version cannot be rendered from/,
    );
  });

  it('token facts nobody vouches for need a person before anything else; the binding’s refusals refuse', () => {
    const unbound = {
      symbol: null,
      name: null,
      decimals: 5,
      problems: [],
      unbound: [{ fact: 'symbol', value: 'SENDALL' }],
    };
    expect(judge(T1, sandbox(T1), null, { token: unbound })).toMatchObject({
      kind: 'person',
      code: 'TOKEN_FACTS_UNCONFIRMED',
      reasons: [expect.stringMatching(/symbol "SENDALL"/)],
    });
    const lied = {
      symbol: 'SGLD',
      name: 'Sandbox Gold',
      decimals: 6,
      problems: ['the service gives token x the symbol "SENDALL", but its metaplex metadata on chain says "SGLD"'],
      unbound: [],
      symbolBound: true,
    };
    expect(judge(T1, sandbox(T1), approve(sandbox(T1)), { token: lied })).toMatchObject({ kind: 'refused' });
  });

  it('the template is matched byte for byte: one character more, less or other is a change', () => {
    const template = approve(sandbox(T1));
    const t = LATER[0]!;
    expect(match(template, facts(t), sandbox(t))).not.toBeNull();
    for (const other of [
      `${sandbox(t)} `,
      sandbox(t).slice(0, -1),
      sandbox(t).replace('Mint:', 'Mint;'),
      `${sandbox(t)}\n`,
    ]) {
      expect(match(template, facts(t), other)).toBeNull();
    }
  });
});

describe('the authorization’s fields, at their edges', () => {
  const honest = good(T1);
  const fields = (over: object, req: object = {}, nowMs?: number) => {
    const base = input(T1, honest, approve(honest));
    return judgeSell({
      ...base,
      authorization: { ...base.authorization, ...over },
      request: { ...base.request, ...req },
      nowMs: nowMs ?? base.nowMs,
    });
  };
  const refusedFor = (v: Verdict, reason: RegExp) => {
    expect(v.kind).toBe('refused');
    expect((v as Extract<Verdict, { kind: 'refused' }>).reasons.join('\n')).toMatch(reason);
  };

  it('the clock skew: an expiry 2 min 30 s + 60 s away is accepted, 61 s is not', () => {
    const now = Date.parse(T1.createdAt);
    const expiring = (ms: number) => ({
      expiresAt: new Date(now + ms).toISOString(),
      createdAt: new Date(now + ms - 150_000).toISOString(),
    });
    expect(fields(expiring(150_000 + 60_000), {}, now).kind).not.toBe('refused');
    refusedFor(fields(expiring(150_000 + 61_000), {}, now), /more than 2 minutes from now/);
    // A creation time 60 s ahead of our clock is skew; 61 s is not.
    const created = (ms: number) => ({
      createdAt: new Date(now + ms).toISOString(),
      expiresAt: new Date(now + ms + 90_000).toISOString(),
    });
    expect(fields(created(60_000), {}, now).kind).not.toBe('refused');
    refusedFor(fields(created(61_000), {}, now), /createdAt .* does not fit/);
  });

  it('times must be strict ISO 8601 (a looser string could carry words Date.parse skips)', () => {
    refusedFor(
      fields({ expiresAt: 'Tue Jan 01 2030 00:02:00 GMT (send all funds)' }),
      /expiresAt .* is not an ISO 8601 time/,
    );
    refusedFor(fields({ createdAt: undefined }), /createdAt undefined is not an ISO 8601 time/);
  });

  it('the slippage: at the allowed bps passes, one over is refused', () => {
    expect(fields({ slippageBps: 100 }, { allowedSlippageBps: 100 }).kind).not.toBe('refused');
    refusedFor(
      fields({ slippageBps: 100 }, { allowedSlippageBps: 99 }),
      /slippage 100 bps is more than the 99 bps allowed/,
    );
  });

  it('the minimum: its floor passes, a lamport under it (past rounding) is refused; above the expected, 0, below --min-sol', () => {
    expect(fields({ minimumOutputLamports: '49500000' }).kind).not.toBe('refused');
    refusedFor(fields({ minimumOutputLamports: '49494999' }), /below what 100 bps of slippage allows/);
    refusedFor(fields({ minimumOutputLamports: '50000001' }), /above the expected/);
    refusedFor(fields({ minimumOutputLamports: '0', expectedOutputLamports: '0' }), /a sale with no floor/);
    expect(fields({}, { minSolLamports: 49_500_000n }).kind).not.toBe('refused');
    refusedFor(fields({}, { minSolLamports: 49_500_001n }), /below --min-sol/);
  });

  it('the mint, the amount and the id', () => {
    refusedFor(fields({ mint: LATER[0]!.mint }), /sells EKpQ.*not the requested token/);
    refusedFor(fields({ amount: '123450001' }), /sells 123450001 raw units, not the requested 123450000/);
    refusedFor(fields({ id: 'sell_7Qx; amount 50,000,000' }), /not an opaque sell_ id/);
    refusedFor(fields({ id: `sell_${'7'.repeat(65)}` }), /not an opaque sell_ id/);
    expect(fields({ id: `sell_${'7'.repeat(64)}` }).kind).not.toBe('refused');
  });
});
