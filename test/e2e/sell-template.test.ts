// The sell guard end to end, through a service that words its messages its own way
// (test/helpers/rewording-service.ts): a first sell is refused unattended with the command that
// approves its wording, which a person runs; then it signs, with other values too; a changed
// wording is refused; what cannot be a template (a statement set apart by blank lines), a
// service's name the chain contradicts and an impostor mint are refused outright, beside the
// honest control; token facts nobody vouches for need a person once; at the prompt the whole
// message stands labelled above the question, and a changed wording shows word by word.
import { randomBytes } from 'node:crypto';
import bs58 from 'bs58';
import { writeFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { lastJsonError } from '../helpers/cli-assert.js';
import { freshHome, json, runCli } from '../helpers/cli.js';
import { sandboxForFile } from '../helpers/file-sandbox.js';
import { hasTmux, startInTmux } from '../helpers/pty.js';
import { startMcp } from '../helpers/mcp-client.js';
import {
  expectEachRefused,
  expectHonestControl,
  startRewordingService,
  type HostileCase,
  type RewordingService,
} from '../helpers/rewording-service.js';
import { completeBuy, type TestSandbox } from '../helpers/sandbox.js';
import { pinsFor, writePins } from '../helpers/trust.js';
import { tokenFactsFingerprint } from '../../src/domain/token-binding.js';

let sb: TestSandbox;
const { envFor, closeAfterAll } = sandboxForFile((started) => (sb = started));
let service: RewordingService;
const mintOf = (symbol: string) => sb.tokens.find((t: { symbol: string }) => t.symbol === symbol)!.mint;

/** The service's own wording: `key = value` lines and a fresh nonce. */
const wording = (a: any) =>
  `Token sale authorization\nmint = ${a.mint}\namount = ${a.amount}\nmin_out_lamports = ${a.minimumOutputLamports}\nslippage_bps = ${a.slippageBps}\nexpires = ${a.expiresAt}\nnonce = ${randomBytes(8).toString('hex')}${a.appendix ?? ''}`;
/** The same facts worded otherwise. */
const reworded = (a: any) => `Sell ${a.amount} raw units of ${a.mint} for at least ${a.minimumOutputLamports} lamports`;

beforeAll(async () => {
  for (const symbol of ['WOOF', 'SGLD']) await completeBuy(sb, { mint: mintOf(symbol), amountLamports: '500000000' });
  service = await startRewordingService(sb, wording);
  closeAfterAll(() => service.close());
});

describe('a service with its own wording', () => {
  const home = freshHome();
  const env = () => envFor(service.url, home, { untrusted: true });
  const sell = (amount = '10%', json = true) =>
    runCli(['sell', mintOf('WOOF'), amount, '--yes', ...(json ? ['--json'] : [])], { env: env() });

  it('the first sell unattended: exit 6, its fingerprint and the command that approves it, no authorize; a person runs it; then the sell signs, and again with other values', async () => {
    expect((await runCli(['config', 'trust', 'accept-treasury', sb.treasury], { env: env() })).code).toBe(0);
    const human = await sell('10%', false);
    expect(human.code, human.stderr).toBe(6);
    expect(human.stderr).toMatch(
      /^error: refused to sign: no sell wording is approved for this service yet: a person reads it once and approves it; only a person grants that \(at the prompt, or with the command below\), and here --yes asks no one/m,
    );
    const refused = await sell();
    expect(refused.code, refused.stderr).toBe(6);
    const error = lastJsonError(refused);
    expect(error).toMatchObject({
      code: 'WORDING_NOT_APPROVED',
      category: 'refused_to_sign',
      fingerprint: expect.stringMatching(/^[0-9a-f]{16}$/),
    });
    expect(error.command).toBe(`trader config trust accept-wording ${error.fingerprint}`);
    expect(human.stderr).toContain(error.command);
    expect(service.authorized).toEqual([]);

    const accept = await runCli(['config', 'trust', 'accept-wording', error.fingerprint], { env: env() });
    expect(accept.code, accept.stderr).toBe(0);
    for (const line of [
      '│ mint = ⟦the mint⟧',
      '│ amount = ⟦amount in raw units⟧',
      '│ expires = ⟦expires (as given and ISO alike)⟧',
      '│ nonce = ⟦16 hex⟧',
    ])
      expect(accept.stdout).toContain(line);
    expect(pinsFor(home, service.url).sellTemplate).toMatchObject({
      fingerprint: error.fingerprint,
      by: 'accept-command',
    });

    for (const amount of ['10%', '1.5woof', '123456']) {
      const signed = await sell(amount);
      expect(signed.code, signed.stderr).toBe(0);
      expect(json(signed).sell.status).toBe('completed');
    }
    expect(service.signedReworded).toHaveLength(3);
    expect(new Set(service.signedReworded.map((m) => m.split('\n').at(-1))).size).toBe(3);
  });

  it('a changed wording is refused unattended (WORDING_CHANGED), kept for a person, nothing authorized', async () => {
    const before = service.authorized.length;
    service.reword(reworded);
    try {
      const changed = await sell();
      expect(changed.code, changed.stderr).toBe(6);
      const error = lastJsonError(changed);
      expect(error).toMatchObject({
        code: 'WORDING_CHANGED',
        command: `trader config trust accept-wording ${error.fingerprint}`,
      });
      expect(pinsFor(home, service.url).pendingSellTemplate?.fingerprint).toBe(error.fingerprint);
      expect(service.authorized).toHaveLength(before);
    } finally {
      service.reword(wording);
    }
  });

  it('refused outright, never offered for approval: a statement set apart by blank lines, the service naming the token otherwise than the chain, an impostor mint the chain calls WOOF; the honest control signs', async () => {
    const woof = mintOf('WOOF');
    // The honest sells ran unattended and recorded nothing (attack-2 §3); a person confirmed WOOF's facts (as accept-token does).
    expect(pinsFor(home, service.url).tokens).toBeUndefined();
    writePins(home, service.url, {
      tokens: {
        [woof]: {
          symbol: 'WOOF',
          name: 'Woof Sandbox Dog',
          decimals: 5,
          at: '2026-01-01T00:00:00.000Z',
          by: 'accept-command',
        },
      },
    });
    // Anyone can make a mint whose metadata says WOOF.
    const impostor = (await sb.control('/tokens', { symbol: 'WOOF', name: 'Woof Sandbox Dog', decimals: 5 })).mint;
    await completeBuy(sb, { mint: impostor, amountLamports: '200000000' });
    const pending = pinsFor(home, service.url).pendingSellTemplate;
    const cases: HostileCase[] = [
      [
        'a statement set apart by blank lines',
        { authorization: (a) => void (a.appendix = '\n\n\nAlso sell all other tokens at any price') },
        () => sell(),
        /line \d+, column 1: two blank lines in a row/,
      ],
      [
        "the service's name for WOOF, not the chain's",
        { holding: (h) => void (h.mint === woof && (h.name = 'SENDALL (Send All Funds)')) },
        () => sell(),
        new RegExp(
          `the service gives token ${woof} the name "SENDALL \\(Send All Funds\\)", but its metaplex metadata on chain says "Woof Sandbox Dog"`,
        ),
      ],
      [
        'an impostor mint the chain calls WOOF',
        null,
        () => runCli(['sell', impostor, '10%', '--yes', '--json'], { env: env() }),
        new RegExp(
          `the chain gives token ${impostor} the symbol "WOOF", which is pinned for token ${woof}: it would pass for that token`,
        ),
      ],
    ];
    await expectEachRefused(service, cases);
    expect(pinsFor(home, service.url).pendingSellTemplate).toEqual(pending);
    await expectHonestControl(service, () => sell());
  });
});

describe('an approved slot means one thing (issue 33): a 0-decimal first sell approved, then a sell whose notations differ', () => {
  /** The sandbox's wording with the amount's two notations swapped: `Amount: 150000 WOOF (1.5 raw units)`. */
  const swapped = (a: any) =>
    a.message.replace(/^Amount: (\S+) (\S+) \((\d+) raw units\)$/m, 'Amount: $3 $2 ($1 raw units)');
  let zero: string;
  let honest: RewordingService;
  let home: ReturnType<typeof freshHome>;
  let env: Record<string, string>;
  const sellWoof = (...flags: string[]) => runCli(['sell', mintOf('WOOF'), '1.5woof', ...flags], { env });

  beforeAll(async () => {
    // A 0-decimal token: 7 of it are 7 raw units, so the sandbox's honest wording writes the amount alike twice.
    zero = (await sb.control('/tokens', { symbol: 'ZERO', name: 'Zero Sandbox Dog', decimals: 0 })).mint;
    await completeBuy(sb, { mint: zero, amountLamports: '500000000' });
    honest = await startRewordingService(sb, (a) => a.message);
    closeAfterAll(() => honest.close());
    home = freshHome();
    env = envFor(honest.url, home, { untrusted: true });
    expect((await runCli(['config', 'trust', 'accept-treasury', sb.treasury], { env })).code).toBe(0);
    const first = await runCli(['sell', zero, '10%', '--yes', '--json'], { env });
    expect(first.code, first.stderr).toBe(6);
    const accept = await runCli(['config', 'trust', 'accept-wording', lastJsonError(first).fingerprint], { env });
    expect(accept.code, accept.stderr).toBe(0);
    expect(accept.stdout).toContain(
      '│ Amount: ⟦amount in raw units and whole tokens (its decimals) alike⟧ ⟦the symbol⟧ (⟦amount in raw units and whole tokens (its decimals) alike⟧ raw units)',
    );
    const signed = await runCli(['sell', zero, '10%', '--yes', '--json'], { env });
    expect(signed.code, signed.stderr).toBe(0);
    expect(honest.signedReworded.at(-1)).toMatch(/^Amount: (\d+) ZERO \(\1 raw units\)$/m);
  });

  it('unattended (--yes, --dry-run) and at the prompt: 1.5 WOOF written "150000 WOOF (1.5 raw units)" is refused outright, each unit word contradicting its figure, never offered; nothing authorized; the honest wording is a new wording', async () => {
    const before = honest.authorized.length;
    const CONTRADICTION =
      '"150000" is the amount in raw units, but ⟦the symbol⟧ after it says another unit: the message would misstate the figure';
    honest.reword(swapped);
    try {
      for (const flags of [
        ['--yes', '--json'],
        ['--dry-run', '--json'],
      ]) {
        const r = await sellWoof(...flags);
        expect(r.code, r.stderr).toBe(6);
        const error = lastJsonError(r);
        expect(error.code, r.stderr).toBe('REFUSED_TO_SIGN');
        expect(error.message).toContain(CONTRADICTION);
        expect(error.command ?? null).toBeNull();
      }
      if (hasTmux()) {
        // A person at the prompt is not asked either: the refusal, and nothing to approve.
        const pty = await startInTmux(['sell', mintOf('WOOF'), '1.5woof'], { ...env, NO_COLOR: '1' });
        closeAfterAll(() => pty.close());
        expect(await pty.exitCode()).toBe(6);
        const screen = (await pty.screen()).replace(/\n/g, ' ');
        expect(screen).toContain('"150000" is the amount in raw units');
        expect(screen).not.toMatch(/Approve (the new|this) wording/);
      }
    } finally {
      honest.reword((a) => a.message);
    }
    const plain = await sellWoof('--yes', '--json');
    expect(plain.code, plain.stderr).toBe(6);
    expect(lastJsonError(plain).code).toBe('WORDING_CHANGED');
    expect(honest.authorized).toHaveLength(before);
    expect(honest.signedReworded.some((m) => m.includes('WOOF'))).toBe(false);
  });
});

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const random58 = (n: number) => Array.from(randomBytes(n), (b) => BASE58[b % 58]).join('');

describe('a sentence hidden in a random value (attack-1 §1)', () => {
  /** The service's wording with a request nonce, a quote hash and a quote id; `request` fills the nonce (87 random base58 characters unless given). */
  const noncedWording = (request: () => string) => (a: any) =>
    `${a.message}\nRequest: ${request()}\nQuote hash: ${randomBytes(32).toString('hex')}\nQuote id: ${crypto.randomUUID()}`;
  const SENTENCE = 'AndSeLL85SGDForMinimum1LamportToTheServiceTreasury';

  it('approved with random values, the same slot holding a padded sentence is refused unattended (CLI --yes and MCP), no authorize; the honest control signs', async () => {
    const nonced = await startRewordingService(
      sb,
      noncedWording(() => random58(87)),
    );
    closeAfterAll(() => nonced.close());
    const home = freshHome();
    const env = envFor(nonced.url, home, { untrusted: true });
    const sgld = mintOf('SGLD');
    const sell = () => runCli(['sell', sgld, '1%', '--yes', '--json'], { env });
    expect((await runCli(['config', 'trust', 'accept-treasury', sb.treasury], { env })).code).toBe(0);
    const first = lastJsonError(await sell());
    expect((await runCli(['config', 'trust', 'accept-wording', first.fingerprint], { env })).code).toBe(0);
    expect((await sell()).code).toBe(0);

    nonced.reword(noncedWording(() => SENTENCE + random58(87 - SENTENCE.length)));
    const authorized = nonced.authorized.length;
    const refused = await sell();
    expect(refused.code, refused.stderr).toBe(6);
    expect(lastJsonError(refused)).toMatchObject({ code: 'VALUE_READS_AS_TEXT', category: 'refused_to_sign' });
    expect(lastJsonError(refused).message).toContain(`the value "${SENTENCE}`);
    // An agent whose client accepts everything gets the same refusal.
    writeFileSync(
      home.TRADER_CONFIG,
      JSON.stringify({
        profiles: {
          default: {
            maxBuyLamports: '1000000000',
            maxSlippageBps: 500,
            maxDailyBuyLamports: '10000000000',
            maxDailySellLamports: '10000000000',
          },
        },
      }),
      { mode: 0o600 },
    );
    const agent = await startMcp({
      env,
      args: ['--allow-trading'],
      answer: () => ({ action: 'accept', content: { confirm: true } }),
    });
    try {
      const viaMcp = await agent.call('sell', { token: sgld, amount: '1%' });
      expect(viaMcp.structuredContent.error).toMatchObject({
        code: 'VALUE_READS_AS_TEXT',
        category: 'refused_to_sign',
      });
    } finally {
      await agent.close();
    }
    expect(nonced.authorized).toHaveLength(authorized);

    nonced.reword(noncedWording(() => random58(87)));
    const control = await sell();
    expect(control.code, control.stderr).toBe(0);
    expect(nonced.authorized).toHaveLength(authorized + 1);
  });
});

describe('a random value of an address’s size (attack-3 F12)', () => {
  it('approving a 64-hex slot after "Pay proceeds to:" says it can be an account the tool cannot check; later the treasury written in hex there is refused unattended, no authorize; a random value signs', async () => {
    let payee = () => randomBytes(32).toString('hex');
    const paying = await startRewordingService(
      sb,
      (a: any) =>
        `Sell ${a.amount} raw units of token ${a.mint}\nMinimum proceeds: ${a.minimumOutputLamports} lamports\nPay proceeds to: ${payee()}\nAuthorization: ${a.id}`,
    );
    closeAfterAll(() => paying.close());
    const home = freshHome();
    const env = envFor(paying.url, home, { untrusted: true });
    const sell = () => runCli(['sell', mintOf('SGLD'), '1%', '--yes', '--json'], { env });
    expect((await runCli(['config', 'trust', 'accept-treasury', sb.treasury], { env })).code).toBe(0);
    // (At the prompt the value stands marked in place, warned of in one line: test/unit/address-sized.test.ts.)
    const WARNING = 'is 32 bytes: it can be an account address, which the tool cannot check';

    const first = await sell();
    expect(first.code, first.stderr).toBe(6);
    const { fingerprint } = lastJsonError(first);
    const listed = await runCli(['config', 'trust'], { env });
    expect(listed.stdout).toContain('│ Pay proceeds to: ⟦64 hex⟧');
    expect(listed.stdout).toContain(`⟦64 hex⟧ ${WARNING}`);
    const accept = await runCli(['config', 'trust', 'accept-wording', fingerprint!], { env });
    expect(accept.code, accept.stderr).toBe(0);
    expect(accept.stdout).toContain(`⟦64 hex⟧ ${WARNING}`);

    const control = await sell();
    expect(control.code, control.stderr).toBe(0);
    const authorized = paying.authorized.length;
    payee = () => Buffer.from(bs58.decode(sb.treasury)).toString('hex');
    const refused = await sell();
    expect(refused.code, refused.stderr).toBe(6);
    expect(lastJsonError(refused).message).toContain(
      `line 3, column 18: ${payee()}, the service's treasury written in hex: an account, not a random value`,
    );
    expect(paying.authorized).toHaveLength(authorized);
  });
});

describe('token facts nobody vouches for', () => {
  it("a chain that cannot be read: the service's facts need a person once (TOKEN_FACTS_UNCONFIRMED, accept-token prints them), then the sell signs", async () => {
    const home = freshHome();
    const sgld = mintOf('SGLD');
    const env = { ...envFor(sb.url, home), TRADER_RPC_URL: 'http://127.0.0.1:9/' };
    const sell = () => runCli(['sell', sgld, '10%', '--yes', '--json'], { env });
    const refused = await sell();
    expect(refused.code, refused.stderr).toBe(6);
    const kept = tokenFactsFingerprint(sgld, { symbol: 'SGLD', name: 'Sandbox Gold', decimals: 6 });
    expect(lastJsonError(refused)).toMatchObject({
      code: 'TOKEN_FACTS_UNCONFIRMED',
      command: `trader config trust accept-token ${sgld} ${kept}`,
      fingerprint: kept,
    });
    expect(lastJsonError(refused).message).toContain(
      `the service gives token ${sgld} the decimals "6", symbol "SGLD", name "Sandbox Gold", which neither the chain (at --rpc-url) nor you have confirmed`,
    );
    const accept = await runCli(['config', 'trust', 'accept-token', sgld, kept], { env });
    expect(accept.code, accept.stderr).toBe(0);
    expect(accept.stdout).toBe(
      `Confirmed ${sgld.slice(0, 8)}…: SGLD (Sandbox Gold), 6 decimals, SGLD names it; undo:\n  trader config trust forget token ${sgld}\n`,
    );
    const signed = await sell();
    expect(signed.code, signed.stderr).toBe(0);
    expect(json(signed).sell.status).toBe('completed');
  });
});

describe.skipIf(!hasTmux())('at the prompt', () => {
  const APPROVE = 'Approve the new wording and sign this sell? (y/N)';
  it('a changed wording: old against new word by word, then the whole new message, its values marked, default No; Enter signs nothing and the approved wording stays', async () => {
    const home = freshHome();
    const env = { ...envFor(service.url, home, { untrusted: true }), NO_COLOR: '1' };
    expect((await runCli(['config', 'trust', 'accept-treasury', sb.treasury], { env })).code).toBe(0);
    const first = lastJsonError(await runCli(['sell', mintOf('WOOF'), '1%', '--yes', '--json'], { env }));
    expect((await runCli(['config', 'trust', 'accept-wording', first.fingerprint], { env })).code).toBe(0);
    service.reword(reworded);
    try {
      const before = service.authorized.length;
      const pty = await startInTmux(['sell', mintOf('WOOF'), '1%'], env);
      closeAfterAll(() => pty.close());
      const screen = await pty.waitFor(APPROVE);
      expect(screen).toMatch(
        /The service's wording changed since it was approved \([0-9a-f]{16} → [0-9a-f]{16}\), word by word:/,
      );
      expect(screen).toContain('[-Token sale authorization');
      expect(screen).toContain('{+Sell');
      expect(screen).toContain('⟦16 hex⟧-]');
      const rows = await pty.visible();
      const at = rows.findIndex((r) => r.startsWith(MARKED));
      expect(at, rows.join('\n')).toBeGreaterThanOrEqual(0);
      expect(rows[at + 1]).toMatch(/^ {2}│ Sell ⟦\d+⟧ raw units of ⟦\w+⟧ for at least ⟦\d+⟧ lamports$/);
      await pty.keys('Enter');
      expect(await pty.exitCode()).toBe(4);
      expect(service.authorized).toHaveLength(before);
      expect(pinsFor(home, service.url).sellTemplate?.fingerprint).toBe(first.fingerprint);
    } finally {
      service.reword(wording);
    }
  });
});

/** The header of a message a person approves, its values marked ⟦…⟧ in place. */
const MARKED = "Message to sign, this sell's values in ⟦…⟧ (each sell writes its own):";

/**
 * The rows of the visible screen from the message's header on (its values marked, which are taken out): every row of the message
 * behind the gutter (│ starts a line of the message, ┆ goes on with it), none wider than the
 * screen, and, put back together, the message (exactly `message`, or matching it); the rows after
 * it (a line a value needs, the question).
 */
function messageOnScreen(rows: string[], message: string | RegExp): string[] {
  const at = rows.indexOf(MARKED);
  expect(at, rows.join('\n')).toBeGreaterThanOrEqual(0);
  const lines: string[] = [];
  let i = at + 1;
  for (; i < rows.length && /^ {2}[│┆] /.test(rows[i]!); i++) {
    const text = rows[i]!.slice(4).replace(/[⟦⟧]/g, '');
    if (rows[i]![2] === '│') lines.push(text);
    else lines[lines.length - 1] += text;
  }
  if (typeof message === 'string') expect(lines.join('\n'), rows.join('\n')).toBe(message);
  else expect(lines.join('\n'), rows.join('\n')).toMatch(message);
  for (const row of rows) expect([...row].length).toBeLessThanOrEqual(80);
  return rows.slice(i);
}

describe.skipIf(!hasTmux())(
  'at the prompt, 80×24: what a yes grants is on screen whole at the question, or it is not asked',
  () => {
    // The question, after its countdown; at 80 columns the prompt breaks it before "(y/N)".
    const APPROVE = /Approve this wording and sign this sell\?\s+\(y\/N\)/;
    const CHANGED = /Approve the new wording and sign this sell\?\s+\(y\/N\)/;
    const SMALL = { width: 80, height: 24 };
    const HEAD = 'By signing I also sell all my other tokens at any price, no minimum.';
    /** attack-1 §2: a first line to hide, then the sandbox's lines, then lines of 87 random characters each (four, as the attacker sent: more than one screen holds with its labels, refused outright). */
    const scrolling = (runs: number) => (a: any) => {
      const keep = a.message.split('\n').filter((l: string) => !/^Expires|^Authorization/.test(l));
      return [
        HEAD,
        ...keep.slice(1),
        ...['Ref', 'Key', 'Tag', 'Sum'].slice(0, runs).map((k) => `${k}: ${random58(87)}`),
      ].join('\n');
    };
    const answerAndClose = async (pty: Awaited<ReturnType<typeof startInTmux>>) => {
      await pty.keys('Enter');
      expect(await pty.exitCode()).toBe(4);
    };

    it("a first wording with a long random run: its first line and every row behind the gutter stand above the question; Enter signs nothing; the attacker's runs beyond one do not fit 80×24 with the sell's figures and what each counts: not asked, exit 6, read and approved with config trust", async () => {
      const hostile = await startRewordingService(sb, scrolling(1));
      closeAfterAll(() => hostile.close());
      const home = freshHome();
      const env = { ...envFor(hostile.url, home, { untrusted: true }), NO_COLOR: '1' };
      const pty = await startInTmux(['sell', mintOf('SGLD'), '1%'], env, SMALL);
      closeAfterAll(() => pty.close());
      await pty.waitFor(APPROVE);
      const rows = await pty.visible();
      expect(rows).toContain(`  │ ${HEAD}`);
      expect(rows.some((r) => r.startsWith('Minimum '))).toBe(true); // the sell's figures, on the same screen
      const after = rows.slice(rows.indexOf(`  │ ${HEAD}`));
      expect(after.filter((r) => r.startsWith('  ┆ ')).length).toBeGreaterThanOrEqual(1);
      const below = after.slice(after.findIndex((r) => !/^ {2}[│┆] /.test(r)));
      expect(below.join('\n')).toMatch(/^\? .*Approve this wording/m);
      await answerAndClose(pty);
      hostile.reword(scrolling(2));
      const two = await startInTmux(['sell', mintOf('SGLD'), '1%'], env, SMALL);
      closeAfterAll(() => two.close());
      expect(await two.exitCode()).toBe(6);
      const said = (await two.screen()).replace(/\n/g, ' ');
      expect(said).toMatch(/take (2[5-9]|3\d) rows at 80 columns and this terminal shows 24: it was not asked/);
      expect(said).toContain('read it whole with `trader config trust`');
      expect(said).toContain(
        `trader config trust accept-wording ${pinsFor(home, hostile.url).pendingSellTemplate!.fingerprint}`,
      );
      expect(said).not.toMatch(APPROVE);
      expect(hostile.authorized).toEqual([]);
    });

    it('a changed wording: the sell’s figures, the word diff and the new message all stand above the question (30 rows: at 24 it is not asked, the next test)', async () => {
      const home = freshHome();
      const env = { ...envFor(service.url, home, { untrusted: true }), NO_COLOR: '1' };
      expect((await runCli(['config', 'trust', 'accept-treasury', sb.treasury], { env })).code).toBe(0);
      const first = lastJsonError(await runCli(['sell', mintOf('WOOF'), '1%', '--yes', '--json'], { env }));
      expect((await runCli(['config', 'trust', 'accept-wording', first.fingerprint], { env })).code).toBe(0);
      service.reword(reworded);
      try {
        const pty = await startInTmux(['sell', mintOf('WOOF'), '1%'], env, { width: 80, height: 30 });
        closeAfterAll(() => pty.close());
        await pty.waitFor(CHANGED);
        const rows = await pty.visible();
        const diff = rows.findIndex((r) => r.startsWith("The service's wording changed since it was approved"));
        expect(diff, rows.join('\n')).toBeGreaterThanOrEqual(0);
        const header = rows.slice(diff, rows.indexOf(MARKED));
        const diffRows = header.slice(header.findIndex((r) => r.startsWith('  │ ')));
        expect(
          diffRows.every((r) => /^ {2}[│┆] /.test(r)),
          diffRows.join('\n'),
        ).toBe(true);
        expect(diffRows.join('\n')).toContain('[-Token sale authorization');
        expect(diffRows.join('\n')).toContain('⟦16 hex⟧-]');
        expect(diffRows.join('\n')).toContain('{+Sell');
        const rest = messageOnScreen(
          rows,
          new RegExp(`^Sell \\d+ raw units of ${mintOf('WOOF')} for at least \\d+ lamports$`),
        );
        expect(rest.join('\n')).toMatch(/^\? .*Approve the new wording/m);
        await answerAndClose(pty);
      } finally {
        service.reword(wording);
      }
    });

    it('too small to show it whole: not asked, exit 6 naming accept-wording and the rows it needs; nothing authorized; accept-wording prints it and pins it', async () => {
      const home = freshHome();
      const env = { ...envFor(service.url, home, { untrusted: true }), NO_COLOR: '1' };
      expect((await runCli(['config', 'trust', 'accept-treasury', sb.treasury], { env })).code).toBe(0);
      const first = lastJsonError(await runCli(['sell', mintOf('WOOF'), '1%', '--yes', '--json'], { env }));
      expect((await runCli(['config', 'trust', 'accept-wording', first.fingerprint], { env })).code).toBe(0);
      service.reword(scrolling(3));
      try {
        const before = service.authorized.length;
        const pty = await startInTmux(['sell', mintOf('WOOF'), '1%'], env, SMALL);
        closeAfterAll(() => pty.close());
        expect(await pty.exitCode()).toBe(6);
        const screen = (await pty.screen()).replace(/\n/g, ' ');
        const needed = /take (\d+) rows at 80 columns and this terminal shows 24/.exec(screen);
        expect(needed, screen).not.toBeNull();
        expect(Number(needed![1])).toBeGreaterThan(24);
        const pending = pinsFor(home, service.url).pendingSellTemplate!;
        expect(screen).toContain(`trader config trust accept-wording ${pending.fingerprint}`);
        expect(screen).not.toMatch(CHANGED);
        // At the rows it needs it is asked; one row fewer, it is not.
        const rows = Number(needed![1]);
        const tall = await startInTmux(['sell', mintOf('WOOF'), '1%'], env, { width: 80, height: rows });
        closeAfterAll(() => tall.close());
        await tall.waitFor(CHANGED);
        expect((await tall.visible()).join('\n')).toContain("The service's wording changed since it was approved");
        await answerAndClose(tall);
        const short = await startInTmux(['sell', mintOf('WOOF'), '1%'], env, { width: 80, height: rows - 1 });
        closeAfterAll(() => short.close());
        expect(await short.exitCode()).toBe(6);
        expect((await short.screen()).replace(/\n/g, ' ')).toContain(
          `take ${rows} rows at 80 columns and this terminal shows ${rows - 1}`,
        );
        expect(service.authorized).toHaveLength(before);
        const accept = await runCli(['config', 'trust', 'accept-wording', pending.fingerprint], { env });
        expect(accept.code, accept.stderr).toBe(0);
        expect(accept.stdout).toContain(`│ ${HEAD}`);
        expect(pinsFor(home, service.url).sellTemplate?.fingerprint).toBe(pending.fingerprint);
      } finally {
        service.reword(wording);
      }
    });
  },
);
