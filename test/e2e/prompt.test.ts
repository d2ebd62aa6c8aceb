// The confirmation prompt in a real pseudo-terminal (tmux): what the screen shows before
// anything is signed, and what each answer does — yes signs and completes, no (or Enter, the
// default) cancels and signs nothing, Ctrl-C signs nothing and exits 130.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pinsFor, trusted, writePins } from '../helpers/trust.js';
import { freshHome } from '../helpers/cli.js';
import { hasTmux, shiftedClock, startInTmux, type PtySession } from '../helpers/pty.js';
import { completeBuy, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

const TMUX = hasTmux();
if (!TMUX)
  console.warn('prompt tests skipped: tmux is not installed, and they need it to give the binary a real terminal');

let sb: TestSandbox;
const sessions: PtySession[] = [];

beforeAll(async () => {
  if (!TMUX) return;
  sb = await startTestSandbox();
  await sb.setDelays({ confirmSeconds: 0, swapSeconds: 0, payoutSeconds: 0, refundSeconds: 0 });
  await completeBuy(sb, { mint: sb.tokens[0]!.mint, amountLamports: '500000000' });
});
afterAll(async () => {
  await Promise.all(sessions.map((s) => s.close()));
  await sb?.close();
});

async function trader(...args: string[]): Promise<PtySession> {
  return traderOn(null, ...args);
}

/** The home of each session (its trust store is read after the answer). */
const homes = new Map<PtySession, { TRADER_CONFIG: string }>();

/** `trader` on a clock the test moves (`clock.set(ms)`), or the real binary when `clock` is null. */
async function traderOn(clock: ReturnType<typeof shiftedClock> | null, ...args: string[]): Promise<PtySession> {
  const home = freshHome();
  const env = {
    ...home,
    NO_COLOR: '1',
    TRADER_BASE_URL: sb.url,
    TRADER_API_KEY: sb.apiKey,
    TRADER_KEYPAIR: sb.keypairPath,
    TRADER_RPC_URL: sb.rpcUrl,
    ...clock?.env,
  };
  // Sells here run with the sandbox's wording approved (a first sell's approval: screens-80x24.test.ts); buys are first uses.
  if (args[0] === 'sell') trusted(env);
  const s = await startInTmux(args, env, clock ? { entry: clock.entry } : {});
  sessions.push(s);
  homes.set(s, home);
  return s;
}

const BUY_PROMPT = 'Sign and send this deposit? (y/N)';
const SELL_PROMPT = 'Sign this message and sell? (y/N)';

/** The buy id shown on the review screen. */
function buyIdOn(screen: string): string {
  const id = /^Buy id\s+([0-9a-f-]{36})$/m.exec(screen)?.[1];
  expect(id, screen).toBeTruthy();
  return id!;
}

async function requestsFor(id: string) {
  const log = await sb.requests();
  return {
    deposits: log.filter((r) => r.method === 'POST' && r.path.endsWith(`/${id}/deposit`)),
    authorizes: log.filter((r) => r.method === 'POST' && r.path.endsWith(`/${id}/authorize`)),
  };
}

const buyStatus = async (id: string) => (await sb.call('GET', `/trade/buys/${id}`)).body.data.intent.status;

describe.skipIf(!TMUX).concurrent('buy at the prompt', () => {
  it('a token traded before, by its symbol: token, deposit, fees, total, expected and minimum in whole tokens, price, applied slippage, recipient, deadline, and that the symbol is only the service\'s word; "y" completes and binds the symbol', async () => {
    const token = sb.tokens[0]!;
    // By symbol: the account has traded it, but only the service's lists tie the symbol to its mint.
    const s = await trader('buy', token.symbol, '0.1sol', '--slippage-bps', '150');
    const review = await s.waitFor(BUY_PROMPT);
    const id = buyIdOn(review);
    const quote = (await sb.call('GET', `/trades/${id}`)).body.data;
    const whole = (raw: string) => {
      const units = BigInt(raw);
      const frac = (units % 100_000n).toString().padStart(5, '0').replace(/0+$/, '');
      return `${(units / 100_000n).toLocaleString('en-US')}${frac ? `.${frac}` : ''}`.replace(/[.,]/g, (c) => `\\${c}`);
    };
    expect(review).toMatch(new RegExp(`^Buy\\s+${token.symbol} \\(${token.name}\\) ${token.mint}$`, 'm'));
    expect(review).toMatch(/^Deposit\s+0\.1 SOL \(100000000 lamports\)$/m);
    expect(review).toMatch(/^Platform fee\s+0\.001 SOL, taken from the deposit$/m);
    expect(review).toMatch(/^Network fee\s+at most 0\.0000055 SOL \(5500 lamports\), paid on top$/m);
    expect(review).toMatch(/^Total\s+at most 0\.1000055 SOL$/m);
    expect(review).toMatch(new RegExp(`^Expected out\\s+${whole(quote.expectedOutputAmount)} ${token.symbol}$`, 'm'));
    expect(review).toMatch(new RegExp(`^Minimum out\\s+${whole(quote.minimumOutputAmount)} ${token.symbol}$`, 'm'));
    expect(review).toMatch(
      new RegExp(`^Price\\s+0\\.0000001\\d{3} SOL per ${token.symbol} \\(deposit ÷ expected out\\)$`, 'm'),
    );
    expect(review).toMatch(/^Slippage\s+150 bps \(1\.5%\), as the service applied it$/m);
    expect(review).toMatch(
      new RegExp(
        `^Symbol\\s+only the service's lists say "${token.symbol}" is this mint; yes binds ${token.symbol} to it$`,
        'm',
      ),
    );
    expect(review).not.toContain('raw units');
    expect(review).toMatch(new RegExp(`^Recipient\\s+${sb.treasury} \\(first use: a yes pins it\\)$`, 'm'));
    // The time to answer is the deposit blockhash's (150 blocks on the sandbox's chain), not the intent's 10 minutes.
    expect(review).toMatch(
      /^Time left\s+(1m 0s|[1-5]?\ds), an estimate: 1[0-5]\d blocks of its blockhash left, ~400 ms each$/m,
    );
    // The question counts it down.
    expect(review).toMatch(/^\? \d{1,2}s left · Sign and send this deposit\? \(y\/N\)/m);
    // Nothing is sent while the question is open.
    expect((await requestsFor(id)).deposits).toEqual([]);

    await s.keys('y', 'Enter');
    expect(await s.exitCode()).toBe(0);
    const end = await s.screen();
    expect(end).toMatch(/^Status\s+completed$/m);
    expect(await buyStatus(id)).toBe('completed');
    expect((await requestsFor(id)).deposits).toHaveLength(1);
    expect(pinsFor(homes.get(s)!, sb.url).symbols?.[token.symbol.toLowerCase()]).toMatchObject({
      mint: token.mint,
      by: 'prompt',
    });
  });

  it('a new token bought by its mint: named as the chain names it, in whole tokens by its decimals, said to be new; "n" declines: exit 4, the intent is cancelled, no deposit', async () => {
    const fresh = await sb.control('/tokens', { symbol: 'NEWT', name: 'Never Traded', decimals: 6, usdPrice: 0.5 });
    const s = await trader('buy', fresh.mint, '0.1sol');
    const review = await s.waitFor(BUY_PROMPT);
    const id = buyIdOn(review);
    const quote = (await sb.call('GET', `/trades/${id}`)).body.data;
    const whole = (units: string) => {
      const raw = BigInt(units);
      return `${(raw / 1_000_000n).toLocaleString('en-US')}.${(raw % 1_000_000n).toString().padStart(6, '0')}`.replace(
        /\.?0+$/,
        '',
      );
    };
    expect(review).toMatch(new RegExp(`^Buy\\s+NEWT \\(Never Traded\\) ${fresh.mint}$`, 'm'));
    expect(review).toMatch(/^Token facts\s+new to this account; decimals, symbol and name from the chain$/m);
    expect(review).toMatch(/^Platform fee\s+0\.001 SOL, taken from the deposit$/m);
    expect(review).toContain(`Expected out  ${whole(quote.expectedOutputAmount)} NEWT`);
    expect(review).toContain(`Minimum out   ${whole(quote.minimumOutputAmount)} NEWT`);
    expect(review).toMatch(/^Price\s+[\d.]+ SOL per NEWT \(deposit ÷ expected out\)$/m);
    expect(review).not.toContain('Not known');
    expect(review).not.toContain('raw units');
    await s.keys('n', 'Enter');
    expect(await s.exitCode()).toBe(4);
    // The user's choice, not an error: one plain line.
    const end = await s.screen();
    expect(end).toMatch(/^Declined; nothing was signed; the buy intent was cancelled\.$/m);
    expect(end).not.toContain('error:');
    expect(await buyStatus(id)).toBe('cancelled');
    expect((await requestsFor(id)).deposits).toEqual([]);
  });

  it('Enter alone takes the default, No: exit 4, cancelled, no deposit', async () => {
    const s = await trader('buy', sb.tokens[0]!.mint, '0.1sol');
    const id = buyIdOn(await s.waitFor(BUY_PROMPT));
    await s.keys('Enter');
    expect(await s.exitCode()).toBe(4);
    expect(await buyStatus(id)).toBe('cancelled');
    expect((await requestsFor(id)).deposits).toEqual([]);
  });

  it('Ctrl-C at the prompt signs nothing: exit 130, no deposit, and says how to pick it up again', async () => {
    const s = await trader('buy', sb.tokens[0]!.mint, '0.1sol');
    const id = buyIdOn(await s.waitFor(BUY_PROMPT));
    await s.keys('C-c');
    expect(await s.exitCode()).toBe(130);
    const end = await s.screen();
    expect(end).toContain('nothing was signed');
    expect(end).toMatch(/^trader buy \S+ 0\.1sol --idempotency-key \S+$/m);
    expect((await requestsFor(id)).deposits).toEqual([]);
    expect(await buyStatus(id)).toBe('awaiting_deposit');
  });
});

describe.skipIf(!TMUX)('sell at the prompt', () => {
  it('the screen shows the token, amounts, slippage, the exact message and the time left; "y" completes', async () => {
    const token = sb.tokens[0]!;
    const s = await trader('sell', token.symbol, '1000000');
    const review = await s.waitFor(SELL_PROMPT);
    const id = /^Sell id\s+(sell_\S+)$/m.exec(review)?.[1];
    expect(id, review).toBeTruthy();
    const { authorization } = (await sb.call('GET', `/trade/sells/${id}`)).body.data;
    expect(review).toMatch(new RegExp(`^Sell\\s+10 ${token.symbol} \\(1000000 raw\\)$`, 'm'));
    expect(review).toMatch(new RegExp(`^Token\\s+${token.name} ${token.mint}$`, 'm'));
    expect(review).toMatch(/^Expected\s+0\.\d+ SOL$/m);
    expect(review).toContain(`(${authorization.minimumOutputLamports} lamports, signed floor)`);
    expect(review).toMatch(/^Slippage\s+100 bps \(1%\)$/m);
    expect(review).toMatch(/^Time left\s+(1m \d{1,2}|2m \d{1,2})s, until \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/m);
    // The question counts down: a second later it shows less time left than the review did.
    const left = (text: string) =>
      [...text.matchAll(/^\? (\d+)m (\d+)s left · Sign this message and sell\?/gm)]
        .map((m) => Number(m[1]) * 60 + Number(m[2]))
        .at(-1)!;
    const first = left(review);
    expect(
      left(
        await s.waitFor(
          new RegExp(`^\\? (?!${Math.floor(first / 60)}m ${first % 60}s)\\d+m \\d+s left · Sign this message`, 'm'),
        ),
      ),
    ).toBeLessThan(first);
    // The exact message, line by line.
    for (const line of authorization.message.split('\n')) expect(review).toContain(`│ ${line}`);
    expect((await requestsFor(id!)).authorizes).toEqual([]);

    await s.keys('y', 'Enter');
    expect(await s.exitCode()).toBe(0);
    expect(await s.screen()).toMatch(/^Status\s+completed$/m);
    expect((await requestsFor(id!)).authorizes).toHaveLength(1);
    expect((await sb.call('GET', `/trade/sells/${id}`)).body.data.sell.status).toBe('completed');
  });

  it('by a symbol only the holdings tie to its mint: the review says so; "y" sells and binds the symbol', async () => {
    const token = sb.tokens[0]!;
    const home = freshHome();
    const env = trusted({
      ...home,
      NO_COLOR: '1',
      TRADER_BASE_URL: sb.url,
      TRADER_API_KEY: sb.apiKey,
      TRADER_KEYPAIR: sb.keypairPath,
      TRADER_RPC_URL: sb.rpcUrl,
    });
    writePins(home, sb.url, { symbols: {} });
    const s = await startInTmux(['sell', token.symbol, '1000000'], env);
    sessions.push(s);
    const review = await s.waitFor(SELL_PROMPT);
    expect(review).toContain(
      `Symbol: only the service's lists say "${token.symbol}" is this mint; yes binds ${token.symbol} to it.`,
    );
    await s.keys('y', 'Enter');
    expect(await s.exitCode()).toBe(0);
    expect(pinsFor(home, sb.url).symbols?.[token.symbol.toLowerCase()]).toMatchObject({
      mint: token.mint,
      by: 'prompt',
    });
  });

  it('"n" declines: exit 4, no authorize', async () => {
    const s = await trader('sell', sb.tokens[0]!.mint, '1000000');
    const review = await s.waitFor(SELL_PROMPT);
    const id = /^Sell id\s+(sell_\S+)$/m.exec(review)![1]!;
    await s.keys('n', 'Enter');
    expect(await s.exitCode()).toBe(4);
    expect(await s.screen()).toContain('nothing was signed');
    expect((await requestsFor(id)).authorizes).toEqual([]);
  });

  it('Ctrl-C at the prompt: exit 130, nothing signed, no authorize', async () => {
    const s = await trader('sell', sb.tokens[0]!.mint, '1000000');
    const review = await s.waitFor(SELL_PROMPT);
    const id = /^Sell id\s+(sell_\S+)$/m.exec(review)![1]!;
    await s.keys('C-c');
    expect(await s.exitCode()).toBe(130);
    expect(await s.screen()).toContain('nothing was signed; the authorization expires unused');
    expect((await requestsFor(id)).authorizes).toEqual([]);
  });

  it('an answer after the quote expired is not signed: it says so once and a fresh quote follows, whose one question completes it', async () => {
    // The user decides for three minutes on the tool's clock (moved, not waited for); the quote lives two.
    const clock = shiftedClock();
    const s = await traderOn(clock, 'sell', sb.tokens[0]!.mint, '1000000');
    const review = await s.waitFor(SELL_PROMPT);
    const first = /^Sell id\s+(sell_\S+)$/m.exec(review)![1]!;
    // The service's clock moves with the tool's, so the fresh quote is judged on one time line
    // (resetting the tool's clock after the keys raced the tool's reading of the answer).
    clock.set(3 * 60_000);
    await sb.advance(3 * 60);
    await s.keys('y', 'Enter');
    await s.waitFor('The quote expired before your yes, so nothing was signed.');
    // A second review with a new authorization.
    const again = await s.waitFor(
      /Sell id\s+sell_\S+[\s\S]*Sell id\s+sell_\S+[\s\S]*Sign this message and sell\? \(y\/N\)/,
    );
    const second = [...again.matchAll(/^Sell id\s+(sell_\S+)$/gm)].map((m) => m[1]).find((x) => x !== first)!;
    expect(again).not.toContain('Get a fresh quote?');
    await s.keys('y', 'Enter');
    expect(await s.exitCode()).toBe(0);
    expect((await requestsFor(first)).authorizes).toEqual([]);
    expect((await requestsFor(second)).authorizes).toHaveLength(1);
  });
});

describe.skipIf(!TMUX)('--timeout and the prompt', () => {
  it('--timeout counts from the signature, not from the time spent at the prompt', async () => {
    // The user spends a minute at the prompt (on the tool's clock, moved, not waited for),
    // twice the --timeout of 30 s. The deposit confirms only once the test moves the sandbox's
    // clock, after the tool's first read: from then on the buy completes at its next read,
    // within the 30 s only if they count from the signature.
    await sb.setDelays({ confirmSeconds: 300, swapSeconds: 0 });
    try {
      const clock = shiftedClock();
      const s = await traderOn(clock, 'buy', sb.tokens[0]!.mint, '0.1sol', '--timeout', '30');
      const id = buyIdOn(await s.waitFor(BUY_PROMPT));
      clock.set(60_000);
      await s.keys('y', 'Enter');
      await s.waitFor('confirming deposit');
      await sb.advance(301);
      expect(await s.exitCode()).toBe(0);
      expect(await buyStatus(id)).toBe('completed');
    } finally {
      await sb.setDelays({ confirmSeconds: 0, swapSeconds: 0 });
    }
  });
});
