// Which fee limit counts: --max-fee-lamports over the profile's maxFeeLamports over the default
// (there is no environment variable for it). The sandbox's deposit implies a network fee of
// 5,500 lamports, so a limit of 5,500 passes and 5,499 refuses; each pair is run both ways, so a
// profile that took priority over the flag (or was ignored) fails a case. Dry runs: nothing is signed.
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trusted } from '../helpers/trust.js';
import { lastJsonError } from '../helpers/cli-assert.js';
import { freshHome, runCli } from '../helpers/cli.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb?.close());

function envWithProfile(maxFeeLamports: string | null): Record<string, string> {
  const env = trusted({
    ...freshHome(),
    TRADER_BASE_URL: sb.url,
    TRADER_API_KEY: sb.apiKey,
    TRADER_KEYPAIR: sb.keypairPath,
    // The chain the token's risks are read from: an unattended buy with risks unread is refused.
    TRADER_RPC_URL: sb.rpcUrl,
  });
  const profile = maxFeeLamports === null ? {} : { maxFeeLamports };
  writeFileSync(env.TRADER_CONFIG, JSON.stringify({ profiles: { default: profile } }), { mode: 0o600 });
  return env;
}

describe.concurrent('the network-fee limit: flag > profile > default', () => {
  it.each([
    { name: 'flag 5499 over profile 100000 refuses', flag: '5499', profile: '100000', code: 6, limit: '5,499' },
    { name: 'flag 5500 over profile 5499 passes', flag: '5500', profile: '5499', code: 0, limit: null },
    { name: 'profile 5499 over the default refuses', flag: null, profile: '5499', code: 6, limit: '5,499' },
    { name: 'profile 5500 over the default passes', flag: null, profile: '5500', code: 0, limit: null },
    { name: 'flag 5499 alone refuses', flag: '5499', profile: null, code: 6, limit: '5,499' },
    { name: 'the default (100,000) alone passes', flag: null, profile: null, code: 0, limit: null },
  ])('$name', async ({ flag, profile, code, limit }) => {
    const args = [
      'buy',
      sb.tokens[0]!.mint,
      '0.01sol',
      '--dry-run',
      '--json',
      ...(flag === null ? [] : ['--max-fee-lamports', flag]),
    ];
    const r = await runCli(args, { env: envWithProfile(profile) });
    expect(r.code, r.stderr).toBe(code);
    if (limit !== null) {
      expect(lastJsonError(r).message).toContain(`network fee would be 5,500 lamports, above the limit of ${limit}`);
    } else {
      expect(JSON.parse(r.stdout)).toMatchObject({ dryRun: true, ok: true });
    }
  });
});
