// Human output with colour off, as snapshots: a change to what people read is deliberate.
// Values that differ run to run (ids, signatures, times) are replaced by placeholders.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshHome, runCli } from '../helpers/cli.js';
import { completeBuy, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox;
let env: Record<string, string>;
let buyId: string;

beforeAll(async () => {
  sb = await startTestSandbox();
  env = {
    ...freshHome(),
    TRADER_BASE_URL: sb.url,
    TRADER_API_KEY: sb.apiKey,
    TRADER_KEYPAIR: sb.keypairPath,
    TRADER_RPC_URL: sb.rpcUrl,
  };
  ({
    intent: { id: buyId },
  } = await completeBuy(sb, { mint: sb.tokens[0]!.mint, amountLamports: '500000000' }));
  await completeBuy(sb, { mint: sb.tokens[1]!.mint, amountLamports: '250000000' });
});
afterAll(() => sb?.close());

/** Replaces what changes between runs with stable placeholders. */
function normalise(text: string): string {
  return text
    .replace(new RegExp(sb.walletAddress, 'g'), '<wallet>')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>')
    .replace(/\b[0-9a-f]{8,}…/g, '<id>')
    .replace(/sk_sandbox_\w+/g, '<key>')
    .replace(/\b[1-9A-HJ-NP-Za-km-z]{80,90}\b/g, '<signature>')
    .replace(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})?/g, '<time>')
    .replace(/Rank(\s+)\d+ of \d+/, 'Rank$1<rank> of <participants>');
}

async function human(...args: string[]): Promise<string> {
  const r = await runCli(args, { env });
  expect(r.code, r.stderr).toBe(0);
  return normalise(r.stdout);
}

describe('human output (colour off)', () => {
  it.each([
    ['me', ['me']],
    ['points', ['points']],
    ['holdings', ['holdings']],
    ['positions', ['positions']],
    ['activity', ['activity']],
  ])('%s', async (_name, args) => {
    expect(await human(...args)).toMatchSnapshot();
  });

  it('trades <buyId>', async () => {
    expect(await human('trades', buyId)).toMatchSnapshot();
  });

  it('empty lists say so in one line', async () => {
    const r = await runCli(['positions', '--status', 'refunded'], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('No positions.\n');
  });
});
