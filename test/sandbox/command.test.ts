// `trader sandbox` run in-process through src/run.ts (the same parsing and context as the
// binary): what it prints, that it serves, and that it stops cleanly when the run is aborted.
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { systemClock } from '../../src/domain/clock.js';
import { InterruptedError } from '../../src/domain/errors.js';
import { runTrader } from '../../src/run.js';
import { shellQuote } from '../../src/domain/shell-quote.js';
import { freshHome } from '../helpers/cli.js';

function collect(stream: PassThrough): () => string {
  let text = '';
  stream.on('data', (c: Buffer) => (text += c.toString('utf8')));
  return () => text;
}

/** Starts `trader sandbox …` in-process; `stop()` aborts it as Ctrl-C would and resolves to its exit code. */
function startSandboxCommand(args: string[]) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const stdin = new PassThrough();
  stdin.end();
  const out = collect(stdout);
  const err = collect(stderr);
  const ac = new AbortController();
  const env = { ...freshHome(), NO_COLOR: '1' };
  const code = runTrader(['sandbox', ...args], {
    stdout,
    stderr,
    stdin,
    env,
    home: env.HOME,
    clock: systemClock,
    signal: ac.signal,
    version: '0.0.0-test',
    fetch: globalThis.fetch,
  });
  return {
    out,
    err,
    code,
    /** Resolves when the output holds `text`: on the output itself, not a timer. */
    waitFor(text: string): Promise<void> {
      return new Promise((resolve) => {
        const check = () => {
          if (!out().includes(text)) return;
          stdout.off('data', check);
          resolve();
        };
        stdout.on('data', check);
        check();
      });
    },
    stop() {
      ac.abort(new InterruptedError('SIGINT'));
      return code;
    },
  };
}

describe('trader sandbox command', () => {
  it('prints eval-able exports and # comments, serves, and stops cleanly on abort', async () => {
    const run = startSandboxCommand(['--port', '0', '--balance-sol', '2.5', '--no-history']);
    await run.waitFor('control surface');
    const lines = run.out().trim().split('\n');
    expect(lines[0]).toMatch(/^export TRADER_BASE_URL=http:\/\/127\.0\.0\.1:\d+$/);
    expect(lines[1]).toMatch(/^export TRADER_API_KEY=sk_sandbox_\w+$/);
    expect(lines[2]).toMatch(/^export TRADER_KEYPAIR=\/\S+id\.json$/);
    expect(lines[3]).toBe(`export TRADER_RPC_URL=${lines[0]!.split('=')[1]!}/rpc`);
    expect(lines.slice(4).every((l) => l.startsWith('#'))).toBe(true);
    expect(lines[4]).toBe('# trader sandbox: a simulated service and its chain (docs/sandbox.md)');
    expect(lines[5]).toMatch(/^# wallet \w+$/);
    expect(lines[6]).toBe('#   2.5 SOL when the sandbox started');
    expect(lines[7]).toMatch(/^# treasury \w+$/);
    for (const l of lines) expect(l.length, l).toBeLessThanOrEqual(80);
    const keypairFile = lines[2]!.split('=')[1]!;
    expect(existsSync(keypairFile)).toBe(true);
    // The tokens, one a line: symbol, decimals, mint, name.
    expect(lines.filter((l) => /^# {3}[A-Z]+ +\d +\w{32,44} {2}\S/.test(l))).toHaveLength(7);
    const url = lines[0]!.split('=')[1]!;
    const key = lines[1]!.split('=')[1]!;
    const me = await fetch(`${url}/api/v1/me`, { headers: { 'x-api-key': key } });
    expect(me.status).toBe(200);
    expect(run.err()).toContain('listening');
    expect(await run.stop()).toBe(0);
    expect(run.err()).toContain('stopped');
    // The private key it generated does not outlive it.
    expect(existsSync(keypairFile)).toBe(false);
    expect(existsSync(dirname(keypairFile))).toBe(false);
    await expect(fetch(`${url}/api/v1/me`)).rejects.toThrow();
  });

  it('--json: one JSON object on stdout with everything needed to use it; stderr holds no human notes', async () => {
    const run = startSandboxCommand(['--port', '0', '--no-history', '--json']);
    await run.waitFor('\n}\n');
    const details = JSON.parse(run.out()) as Record<string, unknown>;
    expect(Object.keys(details).sort()).toEqual(
      [
        'apiKey',
        'baseUrl',
        'controlUrl',
        'keypairPath',
        'otherApiKey',
        'readOnlyApiKey',
        'rpcUrl',
        'statePath',
        'tokens',
        'treasury',
        'walletAddress',
        'walletLamports',
      ].sort(),
    );
    expect(details).toMatchObject({
      walletLamports: '100000000000',
      statePath: null,
      controlUrl: `${details.baseUrl as string}/_sandbox/`,
    });
    expect(details.tokens).toHaveLength(7);
    const me = await fetch(`${details.baseUrl as string}/api/v1/me`, {
      headers: { 'x-api-key': details.apiKey as string },
    });
    expect(((await me.json()) as { data: { walletAddress: string } }).data.walletAddress).toBe(details.walletAddress);
    expect(existsSync(details.keypairPath as string)).toBe(true);
    expect(await run.stop()).toBe(0);
    expect(run.err()).toBe('');
  });

  it('a port in use is exit 2 saying so', async () => {
    const first = startSandboxCommand(['--port', '0', '--no-history', '--json']);
    await first.waitFor('\n}\n');
    const port = new URL((JSON.parse(first.out()) as { baseUrl: string }).baseUrl).port;
    const second = startSandboxCommand(['--port', port, '--no-history']);
    expect(await second.code).toBe(2);
    expect(second.err()).toMatch(new RegExp(`^error: cannot listen on 127\\.0\\.0\\.1:${port}: the port is in use`));
    expect(second.out()).toBe('');
    expect(await first.stop()).toBe(0);
  });

  it('quotes only values that need it', () => {
    expect(shellQuote('http://127.0.0.1:8787')).toBe('http://127.0.0.1:8787');
    expect(shellQuote("/tmp/it's here")).toBe(`'/tmp/it'\\''s here'`);
  });
});
