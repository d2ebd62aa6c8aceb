// One sandbox for all the tests of a file. Every step delay is zero, so a trade finishes on its
// first reads and no test moves the clock or waits; after the last test the proxies and
// services the tests put in front of it are closed, then the sandbox.
import { afterAll, beforeAll } from 'vitest';
import { freshHome } from './cli.js';
import { startTestSandbox, type TestSandbox } from './sandbox.js';
import { startTamperProxy, type TamperProxy } from './tamper-proxy.js';
import { trustSandbox } from './trust.js';

export const ZERO_DELAYS = { confirmSeconds: 0, swapSeconds: 0, payoutSeconds: 0, refundSeconds: 0 };

export type Home = { HOME: string; TRADER_CONFIG: string };
type Delays = Parameters<TestSandbox['setDelays']>[0];

export interface FileSandbox {
  /**
   * The environment of a trader run against `url` (the sandbox or something in front of it) with
   * the sandbox's key and wallet, in `home` (default a fresh one), whose trust store holds what a
   * person grants the sandbox (its treasury and sell wording) unless `untrusted`.
   */
  envFor(url: string, home?: Home, opts?: { untrusted?: boolean }): Record<string, string>;
  /** A tamper proxy in front of the sandbox, closed after all tests. */
  tamperProxy(): Promise<TamperProxy>;
  /** Run `close` (of a server, a terminal session) after all tests, before the sandbox closes. */
  closeAfterAll(close: () => Promise<void>): void;
  /** Run `fn` with some delays set, then set every delay back to zero. */
  withDelays<T>(delays: Delays, fn: () => Promise<T>): Promise<T>;
}

/**
 * Registers the file's beforeAll (start the sandbox, zero delays, hand it to `started`) and
 * afterAll (close what the tests opened, then the sandbox). Call it at the top of the file.
 */
export function sandboxForFile(started: (sb: TestSandbox) => void): FileSandbox {
  let sb: TestSandbox | undefined;
  const closers: Array<() => Promise<void>> = [];
  const running = (): TestSandbox => {
    if (!sb) throw new Error('the file sandbox is not started yet (use it inside tests or hooks)');
    return sb;
  };

  beforeAll(async () => {
    sb = await startTestSandbox();
    await sb.setDelays(ZERO_DELAYS);
    started(sb);
  });
  afterAll(async () => {
    await Promise.all(closers.map((close) => close()));
    await sb?.close();
  });

  return {
    envFor: (url, home = freshHome(), opts = {}) => {
      if (!opts.untrusted) trustSandbox(home, url);
      return {
        ...home,
        TRADER_BASE_URL: url,
        TRADER_API_KEY: running().apiKey,
        TRADER_KEYPAIR: running().keypairPath,
        TRADER_RPC_URL: running().rpcUrl,
      };
    },
    tamperProxy: async () => {
      const proxy = await startTamperProxy(running().url);
      closers.push(() => proxy.close());
      return proxy;
    },
    closeAfterAll: (close) => void closers.push(close),
    withDelays: async (delays, fn) => {
      await running().setDelays(delays);
      try {
        return await fn();
      } finally {
        await running().setDelays(ZERO_DELAYS);
      }
    },
  };
}
