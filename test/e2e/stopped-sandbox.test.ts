// A command run with the variables of a sandbox that was stopped: the refused connection on this
// machine says what is missing and how to start one. Run in-process with a clock that does not
// wait, so the retries' backoff is recorded, not slept.
import net from 'node:net';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Clock } from '../../src/domain/clock.js';
import { lastJsonError, lines } from '../helpers/cli-assert.js';
import { runInProcess } from '../helpers/in-process.js';
import { runTrader } from '../../src/run.js';

/** A clock whose sleeps return at once (the delays asked are kept). */
function instantClock(): Clock & { sleeps: number[] } {
  let now = Date.parse('2026-01-01T00:00:00Z');
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    sleep: async (ms) => {
      sleeps.push(ms);
      now += ms;
    },
  };
}

/** A loopback port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

const HINT = (host: string) =>
  `no sandbox or local service is running at ${host}; start one with \`eval "$(trader sandbox --background)"\``;
const KEY = 'sk_sandbox_' + 'k'.repeat(32);

/** A fetch that fails as undici does when the connection is refused. */
const refused: typeof fetch = async () => {
  throw new TypeError('fetch failed', {
    cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
  });
};

describe('a stopped sandbox', () => {
  it('127.0.0.1, nothing listening: the error after the retries, then how to start a sandbox; --json keeps the one error line', async () => {
    const port = await closedPort();
    const env = { HOME: '/nonexistent', TRADER_BASE_URL: `http://127.0.0.1:${port}`, TRADER_API_KEY: KEY };
    const clock = instantClock();
    const r = await runInProcess(['trades'], env, { clock });
    expect(r.code, r.stderr).toBe(3);
    expect(lines(r.stderr)).toEqual([
      `error: could not connect to 127.0.0.1:${port}: connection refused (after 4 attempts)`,
      HINT(`127.0.0.1:${port}`),
    ]);
    expect(clock.sleeps.length).toBeGreaterThanOrEqual(3); // the backoff was asked of the clock, not slept (3 per request)
    expect(r.stderr).not.toContain(KEY);
    const j = await runInProcess(['trades', '--json'], env, { clock: instantClock() });
    expect(j.code).toBe(3);
    expect(lastJsonError(j)).toMatchObject({ code: 'NETWORK_ERROR' });
  });

  it.each([
    ['localhost', 'http://localhost:8899', 'localhost:8899'],
    ['[::1]', 'http://[::1]:8899', '[::1]:8899'],
    ['127.1.2.3', 'http://127.1.2.3:8899', '127.1.2.3:8899'],
  ])('%s refused: the hint names it', async (_name, url, host) => {
    const r = await runInProcess(
      ['trades'],
      { HOME: '/nonexistent', TRADER_BASE_URL: url, TRADER_API_KEY: KEY },
      { clock: instantClock(), fetch: refused },
    );
    expect(r.code, r.stderr).toBe(3);
    expect(lines(r.stderr)).toEqual([
      `error: could not connect to ${host}: connection refused (after 4 attempts)`,
      HINT(host),
    ]);
  });

  it.each([
    ['another machine', 'https://api.example.com', 'api.example.com'],
    ['a name that only starts like loopback', 'https://127.0.0.1.example.com', '127.0.0.1.example.com'],
  ])('%s refused: no sandbox hint', async (_name, url, host) => {
    const r = await runInProcess(
      ['trades'],
      { HOME: '/nonexistent', TRADER_BASE_URL: url, TRADER_API_KEY: KEY },
      { clock: instantClock(), fetch: refused },
    );
    expect(r.code, r.stderr).toBe(3);
    expect(lines(r.stderr)).toEqual([`error: could not connect to ${host}: connection refused (after 4 attempts)`]);
  });
});

describe('the same error on a terminal 60 columns wide', () => {
  it('wrapped at spaces, each line within 60 columns, the command to start a sandbox whole on its line; the words unchanged', async () => {
    const stderr = Object.assign(new PassThrough(), { isTTY: true, columns: 60 });
    const stdout = new PassThrough();
    const stdin = new PassThrough();
    stdin.end();
    let text = '';
    stderr.on('data', (d: Buffer) => (text += d.toString('utf8')));
    const env = { NO_COLOR: '1', HOME: '/nonexistent', TRADER_BASE_URL: 'http://127.0.0.1:8899', TRADER_API_KEY: KEY };
    const code = await runTrader(['trades'], {
      env,
      home: '/nonexistent',
      clock: instantClock(),
      signal: new AbortController().signal,
      version: '0.0.0-test',
      fetch: refused,
      stdout,
      stderr,
      stdin,
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(code).toBe(3);
    const shown = text.trimEnd().split('\n');
    for (const line of shown) expect(line.length, line).toBeLessThanOrEqual(60);
    expect(
      shown.some((l) => l.endsWith('`eval "$(trader sandbox --background)"`')),
      shown.join('\n'),
    ).toBe(true);
    expect(shown.length).toBeGreaterThan(2);
    // Wrapping only replaced spaces with line ends: the two lines a pipe gets, word for word.
    const piped = [
      'error: could not connect to 127.0.0.1:8899: connection refused (after 4 attempts)',
      HINT('127.0.0.1:8899'),
    ];
    expect(shown.join(' ')).toBe(piped.join(' '));
  });
});
