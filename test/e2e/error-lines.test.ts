// Real failures of the built binary, each as the last stderr line of --json: code, message,
// status, requestId, and the category and retryable bit a program routes on (docs/agents.md).
import { describe, expect, it } from 'vitest';
import { expectJsonError } from '../helpers/cli-assert.js';
import { runCli } from '../helpers/cli.js';
import { sandboxForFile } from '../helpers/file-sandbox.js';
import type { TestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox;
const { envFor } = sandboxForFile((started) => (sb = started));

describe.concurrent('--json error lines carry category and retryable', () => {
  it('a bad amount: usage, not retryable, exit 2, nothing sent', async () => {
    const r = await runCli(['buy', sb.tokens[0]!.mint, '-5', '--json'], { env: envFor(sb.url) });
    const err = expectJsonError(r, 2);
    expect(err).toMatchObject({ category: 'usage', retryable: false, status: null });
  });

  it('a key the service does not know: auth, not retryable, exit 3', async () => {
    const r = await runCli(['me', '--json'], {
      env: { ...envFor(sb.url), TRADER_API_KEY: 'sk_not_a_real_key_000000' },
    });
    const err = expectJsonError(r, 3);
    expect(err).toMatchObject({ category: 'auth', retryable: false, status: 401 });
  });

  it('a trade that does not exist: service, not retryable, exit 3', async () => {
    const r = await runCli(['trades', '00000000-0000-4000-8000-000000000000', '--json'], { env: envFor(sb.url) });
    const err = expectJsonError(r, 3);
    expect(err).toMatchObject({ category: 'service', retryable: false, status: 404 });
  });

  it('a service that stays unavailable: service, retryable, exit 3', async () => {
    await sb.control('/faults', [{ match: { method: 'GET', path: '/points' }, status: 503, retryAfter: 0, count: 4 }]);
    const r = await runCli(['points', '--json'], { env: envFor(sb.url) });
    const err = expectJsonError(r, 3);
    expect(err).toMatchObject({ category: 'service', retryable: true, status: 503 });
  });

  it('a buy over maxBuyLamports: usage, not retryable, exit 2', async () => {
    const env = envFor(sb.url);
    expect((await runCli(['config', 'set', 'maxBuyLamports', '100000000'], { env })).code).toBe(0);
    const r = await runCli(['buy', sb.tokens[0]!.mint, '100000001', '--yes', '--json'], { env });
    const err = expectJsonError(r, 2);
    expect(err).toMatchObject({ code: 'OVER_LIMIT', category: 'usage', retryable: false });
  });
});

describe('human error tails', () => {
  it('one line for the error, one for the hint with the request id, never glued, never said twice', async () => {
    const r = await runCli(['me'], { env: { ...envFor(sb.url), TRADER_API_KEY: 'sk_not_a_real_key_000000' } });
    expect(r.code).toBe(3);
    expect(r.stderr.split('\n')).toEqual([
      'error: HTTP 401: the API key is not valid',
      expect.stringMatching(
        /^check the API key: TRADER_API_KEY, or `trader config list` for the profile's \(request id: req_\w+\)$/,
      ),
      '',
    ]);
  });
});
