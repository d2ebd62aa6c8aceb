// The buy and sell reviews on an 80×24 terminal (tmux): the first line the command printed and
// the prompt are both on the screen, nothing scrolled off; nothing is wrapped by the terminal: a
// command to copy (resume) wider than 80 is laid out as shell lines joined by ` \`, and error
// text is wrapped at spaces; the first sell's
// wording is said compactly when quoting it would not fit, and quoted when it does (120×40).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshHome } from '../helpers/cli.js';
import { hasTmux, startInTmux, type PtySession } from '../helpers/pty.js';
import { completeBuy, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { displayWidth } from '../../src/io/display-width.js';
import { pinsFor, trustSandbox } from '../helpers/trust.js';

const TMUX = hasTmux();
if (!TMUX) console.warn('80×24 screen tests skipped: tmux is not installed');

let sb: TestSandbox;
const sessions: PtySession[] = [];

beforeAll(async () => {
  if (!TMUX) return;
  sb = await startTestSandbox();
  await completeBuy(sb, { mint: sb.tokens[0]!.mint, amountLamports: '500000000' });
});
afterAll(async () => {
  await Promise.all(sessions.map((s) => s.close()));
  await sb?.close();
});

/** `trader …args` on a terminal of the given size, in `home` (default a fresh one: nothing is pinned yet, a first buy, a first sell). */
async function onTerminal(
  size: { width: number; height: number },
  ...argsAndHome: Array<string | Home>
): Promise<PtySession> {
  const home = argsAndHome.find((a): a is Home => typeof a !== 'string') ?? freshHome();
  const args = argsAndHome.filter((a): a is string => typeof a === 'string');
  const env = {
    ...home,
    NO_COLOR: '1',
    TRADER_BASE_URL: sb.url,
    TRADER_API_KEY: sb.apiKey,
    TRADER_KEYPAIR: sb.keypairPath,
    TRADER_RPC_URL: sb.rpcUrl,
  };
  const s = await startInTmux(args, env, size);
  sessions.push(s);
  return s;
}

const BUY_PROMPT = 'Sign and send this deposit? (y/N)';
const SELL_PROMPT = 'Sign this message and sell? (y/N)';
const APPROVE_PROMPT = 'Approve this wording and sign this sell? (y/N)';
type Home = { HOME: string; TRADER_CONFIG: string };
const SMALL = { width: 80, height: 24 };

/** The one idempotency key of those the service was sent on this path (tests run side by side) that `screen` shows. */
async function keySent(path: string, screen: string): Promise<string> {
  const keys = (await sb.requests())
    .filter((r) => r.method === 'POST' && r.path === `/api/v1${path}`)
    .map((r) => (r.body as { idempotencyKey: string }).idempotencyKey)
    .filter((k) => screen.includes(k));
  expect(keys, screen).toHaveLength(1);
  return keys[0]!;
}

/** What the command printed, row by row as the terminal showed it (scroll-back included; tmux's own pane-dead line and the blank rows after the output left out). */
async function printedRows(s: PtySession): Promise<string[]> {
  const rows = (await s.screen()).split('\n').filter((l) => !/^Pane is dead/.test(l));
  while (rows.length > 0 && rows[rows.length - 1]!.trim() === '') rows.pop();
  return rows;
}

/** Nothing the terminal had to wrap: every line, its wrapped rows joined, fits 80 columns, so no value is split across rows. */
function nothingBroken(screen: string): void {
  for (const line of screen.split('\n'))
    expect(displayWidth(line), `a line the terminal wrapped:\n${line}`).toBeLessThanOrEqual(80);
}

/**
 * The terminal wrapped nothing (every line, wrapped rows joined, is at most 80 columns), and the
 * command to copy is on screen as shell lines joined by ` \\` that reassemble to it, each id whole on a line.
 */
function expectCommandLaidOut(joined: string, command: string): void {
  const lines = joined.split('\n');
  for (const line of lines) expect(displayWidth(line), `a line the terminal wrapped:\n${line}`).toBeLessThanOrEqual(80);
  const start = lines.findIndex((l) => l.startsWith(command.split(' ').slice(0, 2).join(' ') + ' '));
  expect(start, joined).toBeGreaterThanOrEqual(0);
  let end = start;
  while (lines[end]!.endsWith(' \\')) end++;
  const laid = lines.slice(start, end + 1);
  expect(laid.length, laid.join('\n')).toBeGreaterThan(1); // the command is wider than 80: it had to be laid out
  expect(
    laid.slice(1).every((l) => l.startsWith('  ')),
    laid.join('\n'),
  ).toBe(true);
  expect(laid.join('\n').replace(/ \\\n */g, ' ')).toBe(command);
  for (const word of command.split(' '))
    expect(
      laid.some((l) => l.split(' ').includes(word)),
      `${word} split:\n${laid.join('\n')}`,
    ).toBe(true);
}

describe.skipIf(!TMUX).concurrent('80×24', () => {
  it('a first buy: the creation line, the whole review and the prompt fit the screen; the resume command is whole on its own line', async () => {
    const token = sb.tokens[1]!;
    const s = await onTerminal(SMALL, 'buy', token.mint, '0.1sol');
    const joined = await s.waitFor(BUY_PROMPT);
    const rows = await s.visible();
    const id = /^Buy ([0-9a-f-]{36}) created\./m.exec(joined)?.[1];
    expect(id, joined).toBeTruthy();
    // Nothing scrolled off: the first line printed is the top row, the prompt is on the screen.
    expect(rows[0]).toBe(`Buy ${id} created. If interrupted, resume with:`);
    // The question, with its time left counting down before it.
    expect(
      rows.some((r) => /^\? (\d+m )?\d+s left · Sign and send this deposit\? \(y\/N\)/.test(r)),
      rows.join('\n'),
    ).toBe(true);
    expect(rows.some((r) => r.startsWith('Buy           ') && r.includes(token.mint))).toBe(true);
    expect(rows.some((r) => r.startsWith('Recipient'))).toBe(true);
    expect(rows.some((r) => r === `Buy id        ${id}`)).toBe(true);
    expect((await s.screen()).split('\n').filter((l) => l.trim() !== '').length).toBeLessThanOrEqual(24);
    const key = await keySent('/trade/buys', joined);
    expectCommandLaidOut(joined, `trader buy ${token.mint} 0.1sol --idempotency-key ${key}`);
    // Its summary: every value whole (the signatures, wider than 80, shown by their start and end).
    await s.keys('y', 'Enter');
    expect(await s.exitCode()).toBe(0);
    const end = await s.screen();
    nothingBroken(end);
    expect(end).toMatch(/^Status\s+completed$/m);
    expect(end).toMatch(/^Deposit sig\s+\w+…\w+$/m);
    expect(end).toMatch(/^Swap sig\s+\w+…\w+$/m);
    expect(end).toMatch(new RegExp(`^Token\\s+${token.symbol} \\(${token.name}\\) ${token.mint}$`, 'm')); // whole, on one line: it fits
  });

  it('a first sell: at the question the sell’s figures and the whole message, its values marked in place, are on one screen; y approves the wording (by the prompt) and signs; the next sell asks only to sign', async () => {
    const token = sb.tokens[0]!;
    const home = freshHome();
    const s = await onTerminal(SMALL, 'sell', token.mint, '123456', '--no-wait', home);
    const joined = await s.waitFor(APPROVE_PROMPT);
    const rows = await s.visible();
    const id = /^Sell id\s+(sell_\w+)$/m.exec(joined)?.[1];
    expect(id, joined).toBeTruthy();
    const { authorization } = (await sb.call('GET', `/trade/sells/${id}`)).body.data;
    // One capture holds the whole approval: the sell's own figures, what a yes grants, the message, the question.
    const figures = rows.findIndex((r) => /^Sell {8}1\.23456 WOOF \(123456 raw\)$/.test(r));
    expect(figures, rows.join('\n')).toBeGreaterThanOrEqual(0);
    for (const label of ['Expected', 'Minimum', 'Worst case', 'Sell id'])
      expect(
        rows.slice(figures).some((r) => r.startsWith(`${label} `)),
        `${label}:\n${rows.join('\n')}`,
      ).toBe(true);
    expect(rows.join(' ')).toMatch(/First sell on this service: yes approves its wording \([0-9a-f]{16}\)/);
    // The message, each of this sell's values marked ⟦…⟧ where it stands; unmarked, it is the message signed.
    const at = rows.indexOf("Message to sign, this sell's values in ⟦…⟧ (each sell writes its own):");
    expect(at, rows.join('\n')).toBeGreaterThan(figures);
    const lines = authorization.message.split('\n');
    const quoted = rows.slice(at + 1, at + 1 + lines.length);
    expect(quoted.map((r) => r.replace(/[⟦⟧]/g, ''))).toEqual(lines.map((l: string) => `  │ ${l}`));
    expect(quoted.join('\n')).toContain(`Amount: ⟦1.23456⟧ ⟦${token.symbol}⟧ (⟦123456⟧ raw units)`);
    expect(quoted.join('\n')).toContain(`⟦${id}⟧`);
    // No numbered legend to match by eye; what each figure counts, by its value, then the question.
    expect(rows.some((r) => /^\[\d+\] /.test(r))).toBe(false);
    const legend = rows.slice(at + 1 + lines.length, at + 3 + lines.length).join(' ');
    expect(legend).toMatch(
      /^Marked figures: ⟦1\.23456⟧ is the amount in whole tokens, ⟦123456⟧ in raw units · ⟦[\d.]+⟧ is the minimum in SOL, ⟦\d+⟧ in lamports$/,
    );
    expect(rows[at + 3 + lines.length], rows.join('\n')).toMatch(/^\? (\d+m )?\d+s left · /);
    expect(rows[at + 3 + lines.length]!.endsWith(APPROVE_PROMPT)).toBe(true);
    for (const r of rows) expect(displayWidth(r)).toBeLessThanOrEqual(80);
    await s.keys('y', 'Enter');
    expect(await s.exitCode()).toBe(0);
    expect(pinsFor(home, sb.url).sellTemplate).toMatchObject({ by: 'prompt' });
    // The next sell is this wording with its own facts: only the trade's question; its summary
    // has every value whole (the payout signature, wider than 80, by its start and end).
    const next = await onTerminal(SMALL, 'sell', token.mint, '100000', home);
    const review = await next.waitFor(SELL_PROMPT);
    expect(review).toMatch(/^Message to sign, exactly \(the approved wording [0-9a-f]{16}\):$/m);
    // Compact: no labels (a person approving reads those); everything printed, from the creation line to the question, on one screen.
    expect(review).not.toMatch(/^\[1\] /m);
    expect(review.replace(/\n {12}/g, ' ')).toMatch(
      new RegExp(`^Signer\\s+${sb.keypairPath} \\(TRADER_KEYPAIR\\)$`, 'm'),
    );
    const printed = await printedRows(next);
    expect(printed.length, printed.join('\n')).toBeLessThanOrEqual(24);
    expect(printed[0]).toMatch(/^Sell sell_\w+ quoted\. If interrupted, resume with:$/);
    expect(
      printed.some((r) => /^Sell {8}1 WOOF \(100000 raw\)$/.test(r)),
      printed.join('\n'),
    ).toBe(true);
    await next.keys('y', 'Enter');
    expect(await next.exitCode()).toBe(0);
    const end = await next.screen();
    nothingBroken(end);
    expect(end).toMatch(/^Sold\s+1 WOOF$/m);
    expect(end).toMatch(/^Payout sig\s+\w+…\w+$/m);
  });

  it('config trust at 80 columns: a wording waiting for a person breaks between words, never inside a ⟦slot⟧, every row behind the gutter', async () => {
    const home = freshHome(); // nothing approved: a sell by the mint under --yes keeps the wording for a person
    const refused = await onTerminal(SMALL, 'sell', sb.tokens[0]!.mint, '123456', '--yes', home);
    expect(await refused.exitCode()).toBe(6); // WORDING_NOT_APPROVED: the wording kept for a person
    const trust = await onTerminal(SMALL, 'config', 'trust', home);
    expect(await trust.exitCode()).toBe(0);
    const rows = await printedRows(trust);
    const quoted = rows.filter((r) => /^ {2}[│┆] /.test(r));
    // The sandbox's amount line is wider than 80 columns: it goes on behind ┆, its slots whole.
    expect(
      quoted.some((r) => r.startsWith('  ┆ ')),
      rows.join('\n'),
    ).toBe(true);
    for (const r of quoted)
      expect([...r].filter((c) => c === '⟦').length, r).toBe([...r].filter((c) => c === '⟧').length);
    // The wording's rows stand together, none without its gutter.
    const first = rows.findIndex((r) => /^ {2}│ /.test(r));
    expect(rows.slice(first, first + quoted.length)).toEqual(quoted);
    nothingBroken(rows.join('\n'));
  });

  it('sell --dry-run fits one screen (24 rows), nothing broken', async () => {
    // A dry run pins nothing: in a home where a person approved the sandbox's wording, it is all checks.
    const home = freshHome();
    trustSandbox(home, sb.url);
    const s = await onTerminal(SMALL, 'sell', sb.tokens[0]!.mint, '50%', '--dry-run', home);
    expect(await s.exitCode()).toBe(0);
    const printed = await printedRows(s);
    expect(printed[0]).toMatch(/^Sell sell_\w+ quoted\.$/);
    expect(printed.length, printed.join('\n')).toBeLessThanOrEqual(24);
    nothingBroken(printed.join('\n'));
  });

  it('a terminal too small for what a yes agrees to: a buy at 60×16 and an approved sell at 80×16 are not asked (exit 2, the rows needed), nothing signed', async () => {
    const home = freshHome();
    trustSandbox(home, sb.url);
    const buy = await onTerminal({ width: 60, height: 16 }, 'buy', sb.tokens[0]!.mint, '0.1sol', home);
    const sell = await onTerminal({ width: 80, height: 16 }, 'sell', sb.tokens[0]!.mint, '100000', home);
    expect(await buy.exitCode()).toBe(2);
    expect(await sell.exitCode()).toBe(2);
    const bought = (await buy.screen()).replace(/\n/g, ' ');
    expect(bought).toMatch(
      /error: the review and the question take \d+ rows at 60 columns and this terminal shows 16: it was not asked; the buy intent was cancelled; nothing was signed/,
    );
    expect(bought).toMatch(
      /run the command again in a terminal of at least \d+ rows, or read it with --dry-run and run it with --yes/,
    );
    expect(bought).not.toContain(BUY_PROMPT);
    const sold = (await sell.screen()).replace(/\n/g, ' ');
    expect(sold).toMatch(
      /error: the review, its message and the question take \d+ rows at 80 columns and this terminal shows 16: it was not asked; nothing was signed/,
    );
    expect(sold).not.toContain(SELL_PROMPT);
    const id = /Sell (sell_\w+) quoted/.exec(sold)![1];
    expect((await sb.call('GET', `/trade/sells/${id}`)).body.data.authorization.status).toBe('awaiting_signature');
  });

  it("help screens: trader --help in at most 40 lines, each command's help within the 24 rows (its usage line still on the screen), none wrapped", async () => {
    const root = await onTerminal(SMALL, '--help');
    expect(await root.exitCode()).toBe(0);
    const rootLines = await printedRows(root);
    expect(rootLines.length).toBeLessThanOrEqual(40);
    nothingBroken(rootLines.join('\n'));
    for (const command of ['buy', 'sell', 'trades', 'pnl', 'mcp', 'sandbox']) {
      const s = await onTerminal(SMALL, command, '--help');
      expect(await s.exitCode()).toBe(0);
      const rows = await printedRows(s);
      expect(rows[0], command).toMatch(new RegExp(`^Usage: trader ${command} `));
      expect(rows.length, command).toBeLessThanOrEqual(24);
      nothingBroken(rows.join('\n'));
    }
  });

  it('an error at 80 columns is wrapped at spaces, a backquoted command whole on one line', async () => {
    const s = await onTerminal(SMALL, 'buy', 'MOON', '0.1sol', '--yes');
    expect(await s.exitCode()).toBe(2);
    const lines = (await s.screen()).split('\n').filter((l) => l.trim() !== '');
    expect(lines.length, lines.join('\n')).toBeGreaterThan(1);
    for (const line of lines)
      expect(displayWidth(line), `a line the terminal wrapped:\n${line}`).toBeLessThanOrEqual(80);
    expect(lines[0]).toMatch(/^error: "MOON" is neither /);
    expect(
      lines.some((l) => l.includes('`trader sandbox --background`')),
      lines.join('\n'),
    ).toBe(true);
    expect(lines.join(' ')).toContain(
      "buy a token new to you by its mint address: with the sandbox, `trader sandbox --background` prints its tokens' mints",
    );
  });

  it('trades <id> at 80 columns shows a signature by its two ends; with --wide whole (the terminal wraps it, the text is all there)', async () => {
    const { intent } = await completeBuy(sb, { mint: sb.tokens[0]!.mint });
    const deposit = (await sb.call('GET', `/trades/${intent.id}`)).body.data.signatures.deposit as string;
    const [short, wide] = await Promise.all([
      onTerminal(SMALL, 'trades', intent.id),
      onTerminal(SMALL, 'trades', intent.id, '--wide'),
    ]);
    expect(await short.exitCode()).toBe(0);
    expect(await wide.exitCode()).toBe(0);
    const shortScreen = (await short.screen()).replace(/\n/g, '');
    expect(shortScreen).not.toContain(deposit);
    expect(shortScreen).toMatch(new RegExp(`Deposit sig +${deposit.slice(0, 16)}\\w*…\\w*${deposit.slice(-16)}`));
    expect((await wide.screen()).replace(/\n/g, '')).toContain(deposit);
  });
});
