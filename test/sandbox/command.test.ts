import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runSandboxCommand } from '../../src/commands/sandbox.js';
import { shellQuote } from '../../src/shell-quote.js';

function collect(stream: PassThrough): () => string {
  let text = '';
  stream.on('data', (c: Buffer) => (text += c.toString('utf8')));
  return () => text;
}

describe('trader sandbox command', () => {
  it('prints eval-able exports and # comments, serves, and stops cleanly on abort', async () => {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const out = collect(stdout);
    const err = collect(stderr);
    const ac = new AbortController();
    const running = runSandboxCommand({ port: 0, balanceLamports: 2_500_000_000n, history: false }, { stdout, stderr }, ac.signal);
    // Printed when it is up: wait for the output itself, not a timer.
    await new Promise<void>((resolve) => {
      const check = () => out().includes('control surface') && (stdout.off('data', check), resolve());
      stdout.on('data', check);
      check();
    });
    const lines = out().trim().split('\n');
    expect(lines[0]).toMatch(/^export TRADER_BASE_URL=http:\/\/127\.0\.0\.1:\d+$/);
    expect(lines[1]).toMatch(/^export TRADER_API_KEY=sk_sandbox_\w+$/);
    expect(lines[2]).toMatch(/^export TRADER_KEYPAIR=\/\S+id\.json$/);
    expect(lines.slice(3).every((l) => l.startsWith('#'))).toBe(true);
    expect(lines[3]).toMatch(/^# trader sandbox: wallet \w+ \(2\.5 SOL\), treasury \w+$/);
    const keypairFile = lines[2]!.split('=')[1]!;
    expect(existsSync(keypairFile)).toBe(true);
    expect(lines.filter((l) => l.startsWith('# token '))).toHaveLength(4);
    const url = lines[0]!.split('=')[1]!;
    const key = lines[1]!.split('=')[1]!;
    const me = await fetch(`${url}/api/v1/me`, { headers: { 'x-api-key': key } });
    expect(me.status).toBe(200);
    expect(err()).toContain('listening');
    ac.abort();
    await running;
    expect(err()).toContain('stopped');
    // The private key it generated does not outlive it.
    expect(existsSync(keypairFile)).toBe(false);
    expect(existsSync(dirname(keypairFile))).toBe(false);
    await expect(fetch(`${url}/api/v1/me`)).rejects.toThrow();
  });

  it('quotes only values that need it', () => {
    expect(shellQuote('http://127.0.0.1:8787')).toBe('http://127.0.0.1:8787');
    expect(shellQuote("/tmp/it's here")).toBe(`'/tmp/it'\\''s here'`);
  });
});
