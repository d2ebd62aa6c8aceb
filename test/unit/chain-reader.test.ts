// The RPC client's bounds: each call has a timeout, transient failures are retried a bounded
// number of times with the injected clock's backoff, and a refused connection is not retried.
import { describe, expect, it } from 'vitest';
import { ChainUnavailableError, openChain } from '../../src/chain/chain-reader.js';
import type { Clock } from '../../src/domain/clock.js';
import { exactLamports, parseJsonExact } from '../../src/chain/exact-json.js';

const OWNER = 'HfN7ZkA5rSuKREztxSha9cVyXcVrMEeF8Fj5ia9vV3GC';

function fakeClock(): Clock & { sleeps: number[] } {
  const sleeps: number[] = [];
  return { sleeps, now: () => 0, sleep: async (ms) => void sleeps.push(ms) };
}

const networkError = (code: string) =>
  Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error(`connect ${code}`), { code }) });

/** A fetch that fails with `failures` in turn, then answers getBalance with 42 lamports. */
function scripted(failures: unknown[]) {
  const calls: string[] = [];
  const fetch = (async (_url: string, init: RequestInit) => {
    const body = JSON.parse(String(init.body)) as { id: string; method: string };
    calls.push(body.method);
    const next = failures.shift();
    if (next === 'hang') {
      return new Promise((_resolve, reject) =>
        init.signal!.addEventListener('abort', () => reject(init.signal!.reason), { once: true }),
      );
    }
    if (next) throw next;
    return new Response(JSON.stringify({ jsonrpc: '2.0', id: body.id, result: { context: { slot: 1 }, value: 42 } }), {
      headers: { 'content-type': 'application/json' },
    });
  }) as unknown as typeof globalThis.fetch;
  return { fetch, calls };
}

const open = (fetch: typeof globalThis.fetch, clock: Clock, timeoutMs = 5_000) =>
  openChain({
    url: 'https://rpc.example.com/',
    fetch,
    clock,
    signal: new AbortController().signal,
    env: {},
    timeoutMs,
  });

describe('openChain', () => {
  it('retries a reset connection twice with backoff (250, 750 ms on the injected clock), then answers', async () => {
    const clock = fakeClock();
    const { fetch, calls } = scripted([networkError('ECONNRESET'), networkError('ECONNRESET')]);
    expect(await (await open(fetch, clock)).balance(OWNER)).toBe(42n);
    expect(calls).toEqual(['getBalance', 'getBalance', 'getBalance']);
    expect(clock.sleeps).toEqual([250, 750]);
  });

  it('gives up after 3 attempts, naming the endpoint and the cause', async () => {
    const clock = fakeClock();
    const { fetch, calls } = scripted([
      networkError('ECONNRESET'),
      networkError('ECONNRESET'),
      networkError('ECONNRESET'),
      undefined,
    ]);
    const err = await (await open(fetch, clock)).balance(OWNER).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ChainUnavailableError);
    expect((err as Error).message).toBe(
      'reading the balance from rpc.example.com failed: connection reset (ECONNRESET)',
    );
    expect(calls).toHaveLength(3);
  });

  it('a refused connection is not retried (it would be refused again at once), and later calls of the run fail at once', async () => {
    const clock = fakeClock();
    const { fetch, calls } = scripted([networkError('ECONNREFUSED'), undefined]);
    const chain = await open(fetch, clock);
    await expect(chain.balance(OWNER)).rejects.toThrow(/connection refused \(ECONNREFUSED\)/);
    expect(calls).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
    await expect(chain.blockHeight()).rejects.toThrow(
      /reading the balance from rpc.example.com failed: connection refused/,
    );
    expect(calls).toHaveLength(1);
  });

  it('each attempt has the timeout: a silent endpoint is "no answer within" it', async () => {
    const clock = fakeClock();
    const { fetch, calls } = scripted(['hang', 'hang', 'hang']);
    await expect((await open(fetch, clock, 20)).balance(OWNER)).rejects.toThrow(
      'reading the balance from rpc.example.com failed: no answer within 0.02 s',
    );
    expect(calls).toHaveLength(3);
  });

  it("Ctrl-C ends a call that hangs at once, with the run's reason, and it is not retried", async () => {
    const clock = fakeClock();
    const { fetch, calls } = scripted(['hang', 'hang', 'hang']);
    const run = new AbortController();
    const chain = await openChain({
      url: 'https://rpc.example.com/',
      fetch,
      clock,
      signal: run.signal,
      env: {},
      timeoutMs: 60_000,
    });
    const read = chain.balance(OWNER);
    await Promise.resolve();
    run.abort(new Error('interrupted (SIGINT)'));
    await expect(read).rejects.toThrow('interrupted (SIGINT)');
    expect(calls).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
  });

  it('an RPC URL that is not one is a usage error before anything is sent', async () => {
    const { fetch, calls } = scripted([]);
    await expect(
      openChain({
        url: 'ftp://x/',
        fetch,
        clock: fakeClock(),
        signal: new AbortController().signal,
        env: {},
        timeoutMs: 1,
      }),
    ).rejects.toThrow(/scheme ftp: is not supported/);
    expect(calls).toEqual([]);
  });
});

describe('token balances', () => {
  it('sums the parsed token accounts per mint over both token programs; an account of an unknown shape is skipped', async () => {
    const MINT = 'So11111111111111111111111111111111111111112';
    const account = (amount: string, decimals: number, program: string) => ({
      pubkey: '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM',
      account: {
        executable: false,
        lamports: 2039280,
        owner: program,
        rentEpoch: 18446744073709552000,
        space: 165,
        data: {
          program: 'spl-token',
          space: 165,
          parsed: {
            type: 'account',
            info: {
              isNative: false,
              mint: MINT,
              owner: OWNER,
              state: 'initialized',
              tokenAmount: { amount, decimals, uiAmount: null, uiAmountString: '' },
            },
          },
        },
      },
    });
    const programs: string[] = [];
    const fetch = (async (_url: string, init: RequestInit) => {
      const body = JSON.parse(String(init.body)) as { id: string; params: [string, { programId: string }] };
      const program = body.params[1].programId;
      programs.push(program);
      const value = program.startsWith('Tokenkeg')
        ? [account('1500', 6, program), account('x', 6, program)]
        : [account('500', 6, program)];
      return new Response(JSON.stringify({ jsonrpc: '2.0', id: body.id, result: { context: { slot: 1 }, value } }));
    }) as unknown as typeof globalThis.fetch;
    const held = await (await open(fetch, fakeClock())).tokenBalances(OWNER);
    expect(held).toEqual(new Map([[MINT, { amount: 2000n, decimals: 6 }]]));
    expect(programs).toEqual([
      'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
      'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb',
    ]);
  });

  it('isBlockhashValid: the value as the RPC answers it; an RPC without the method fails that call only, at once', async () => {
    const clock = fakeClock();
    const calls: string[] = [];
    const fetch = (async (_url: string, init: RequestInit) => {
      const body = JSON.parse(String(init.body)) as { id: string; method: string; params: unknown[] };
      calls.push(`${body.method} ${JSON.stringify(body.params[1] ?? null)}`);
      const answer =
        body.method === 'isBlockhashValid'
          ? body.params[0] === 'GHtXQBsoZHVnNFa9YevAzFr17DJjgHXk3ycTKD5xD3Zi'
            ? { result: { context: { slot: 1 }, value: true } }
            : { error: { code: -32601, message: 'Method not found' } }
          : { result: { context: { slot: 1 }, value: 42 } };
      return new Response(JSON.stringify({ jsonrpc: '2.0', id: body.id, ...answer }), {
        headers: { 'content-type': 'application/json' },
      });
    }) as unknown as typeof globalThis.fetch;
    const chain = await open(fetch, clock);
    expect(await chain.blockhashValid('GHtXQBsoZHVnNFa9YevAzFr17DJjgHXk3ycTKD5xD3Zi', 'finalized')).toBe(true);
    expect(calls).toEqual(['isBlockhashValid {"commitment":"finalized"}']);
    await expect(chain.blockhashValid('11111111111111111111111111111111', 'processed')).rejects.toThrow(
      'checking the blockhash from rpc.example.com failed: the RPC does not answer isBlockhashValid',
    );
    expect(calls).toHaveLength(2);
    expect(clock.sleeps).toEqual([]);
    expect(await chain.balance(OWNER)).toBe(42n);
  });

  it('attack-log-2 E: "invalid params" (-32602) is about one request, not the endpoint: getTransaction reads it as no such transaction, another read fails alone; neither is retried nor marks the endpoint down', async () => {
    const clock = fakeClock();
    const calls: string[] = [];
    const fetch = (async (_url: string, init: RequestInit) => {
      const body = JSON.parse(String(init.body)) as { id: string; method: string; params: unknown[] };
      calls.push(body.method);
      const bad = body.params[0] === 'bad';
      const answer = bad
        ? { error: { code: -32602, message: 'Invalid params: Invalid param: WrongSize' } }
        : { result: { context: { slot: 1 }, value: 42 } };
      return new Response(JSON.stringify({ jsonrpc: '2.0', id: body.id, ...answer }), {
        headers: { 'content-type': 'application/json' },
      });
    }) as unknown as typeof globalThis.fetch;
    const chain = await open(fetch, clock);
    expect(await chain.transaction('bad')).toBeNull();
    await expect(chain.balance('bad')).rejects.toThrow(
      'reading the balance from rpc.example.com failed: getBalance: Invalid params: Invalid param: WrongSize',
    );
    expect(calls).toEqual(['getTransaction', 'getBalance']);
    expect(clock.sleeps).toEqual([]);
    // The endpoint answers the run's other reads.
    expect(await chain.balance(OWNER)).toBe(42n);
    expect(calls).toHaveLength(3);
  });
});

describe('isBlockhashValid answers', () => {
  it('a value that is not true or false fails the read; a missing value too', async () => {
    for (const result of [{ context: { slot: 1 }, value: 'true' }, { context: { slot: 1 } }, true]) {
      const fetch = (async (_url: string, init: RequestInit) => {
        const { id } = JSON.parse(String(init.body)) as { id: number };
        return new Response(JSON.stringify({ jsonrpc: '2.0', id, result }));
      }) as unknown as typeof globalThis.fetch;
      await expect(
        (await open(fetch, fakeClock())).blockhashValid('11111111111111111111111111111111', 'finalized'),
        JSON.stringify(result),
      ).rejects.toThrow(/isBlockhashValid: the RPC answered no (true or false|value)/);
    }
  });
});

describe('getAccountInfo', () => {
  /** A fetch answering getAccountInfo with `value`; the request's params are kept. */
  function answering(value: unknown) {
    const params: unknown[] = [];
    const fetch = (async (_url: string, init: RequestInit) => {
      const body = JSON.parse(String(init.body)) as { id: string; method: string; params: unknown };
      params.push(body.method, body.params);
      return new Response(JSON.stringify({ jsonrpc: '2.0', id: body.id, result: { context: { slot: 1 }, value } }), {
        headers: { 'content-type': 'application/json' },
      });
    }) as unknown as typeof globalThis.fetch;
    return { fetch, params };
  }

  it('asks base64 at finalized commitment and returns owner, bytes and lamports', async () => {
    const { fetch, params } = answering({
      owner: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
      data: [Buffer.from([1, 2, 255]).toString('base64'), 'base64'],
      lamports: 1461600,
      executable: false,
      rentEpoch: 0,
      space: 3,
    });
    const info = await (await open(fetch, fakeClock())).getAccountInfo(OWNER);
    expect(params).toEqual(['getAccountInfo', [OWNER, { encoding: 'base64', commitment: 'finalized' }]]);
    expect(info).toEqual({
      owner: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
      data: new Uint8Array([1, 2, 255]),
      lamports: 1461600n,
    });
  });

  it("the rent-exempt minimum: the RPC's figure exactly; an RPC error fails the read (web3.js would answer 0)", async () => {
    const answer = (reply: object) =>
      (async (_url: string, init: RequestInit) => {
        const { id } = JSON.parse(String(init.body)) as { id: number };
        return new Response(JSON.stringify({ jsonrpc: '2.0', id, ...reply }), {
          headers: { 'content-type': 'application/json' },
        });
      }) as unknown as typeof globalThis.fetch;
    const clock = fakeClock();
    expect(await (await open(answer({ result: 890_880 }), clock)).rentExemptMinimum()).toBe(890_880n);
    const failing = await open(answer({ error: { code: -32005, message: 'node is behind' } }), clock);
    await expect(failing.rentExemptMinimum()).rejects.toThrow(
      /reading the rent-exempt minimum from rpc\.example\.com failed: .*node is behind/,
    );
    await expect(failing.rentExemptMinimum()).rejects.toBeInstanceOf(ChainUnavailableError);
    const none = await open(answer({ result: null }), clock);
    await expect(none.rentExemptMinimum()).rejects.toThrow(/answered no amount/);
  });

  it('an answer of another shape fails the read (no guessing): bad owner, data not base64, lamports not a whole number', async () => {
    const good = { owner: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA', data: ['AQL/', 'base64'], lamports: 1 };
    const shapes = [
      { ...good, owner: 'not-an-address' },
      { ...good, data: ['AQL/', 'base58'] },
      { ...good, data: ['AQL', 'base64'] },
      { ...good, data: ['AQ*/', 'base64'] },
      { ...good, data: 'AQL/' },
      { ...good, lamports: -1 },
      { ...good, lamports: 1.5 },
      'an account',
    ];
    for (const value of shapes) {
      const chain = await open(answering(value).fetch, fakeClock());
      await expect(chain.getAccountInfo(OWNER), JSON.stringify(value)).rejects.toThrow(
        /reading accounts from rpc\.example\.com failed: getAccountInfo: the RPC answered an account of another shape/,
      );
    }
    // The same answer in its honest shape reads.
    expect(await (await open(answering(good).fetch, fakeClock())).getAccountInfo(OWNER)).toEqual({
      owner: good.owner,
      data: new Uint8Array([1, 2, 255]),
      lamports: 1n,
    });
  });

  it('an address that is not one is never sent (a caller bug, not an unreachable chain)', async () => {
    const { fetch, params } = answering(null);
    const chain = await open(fetch, fakeClock());
    await expect(chain.getAccountInfo('0OIl')).rejects.toThrow(new TypeError('not an address: 0OIl'));
    await expect(chain.tokenBalances('1111111111111111111111111111111')).rejects.toBeInstanceOf(TypeError);
    expect(params).toEqual([]);
    // Not marked down: the next read goes out.
    expect(await chain.getAccountInfo(OWNER)).toBeNull();
  });

  it('block height: a whole number at the commitment asked; anything else fails the read', async () => {
    const heights = (result: unknown) => {
      const params: unknown[] = [];
      const fetch = (async (_url: string, init: RequestInit) => {
        const body = JSON.parse(String(init.body)) as { id: number; method: string; params: unknown };
        params.push(body.method, body.params);
        return new Response(JSON.stringify({ jsonrpc: '2.0', id: body.id, result }));
      }) as unknown as typeof globalThis.fetch;
      return { fetch, params };
    };
    const ok = heights(300_000_123);
    expect(await (await open(ok.fetch, fakeClock())).blockHeight('finalized')).toBe(300_000_123);
    expect(ok.params).toEqual(['getBlockHeight', [{ commitment: 'finalized' }]]);
    expect(await (await open(heights(0).fetch, fakeClock())).blockHeight()).toBe(0);
    for (const bad of [-1, 1.5, '5', null, { value: 5 }]) {
      await expect((await open(heights(bad).fetch, fakeClock())).blockHeight(), String(bad)).rejects.toThrow(
        /answered no block height/,
      );
    }
  });

  it('an account that does not exist is null', async () => {
    expect(await (await open(answering(null).fetch, fakeClock())).getAccountInfo(OWNER)).toBeNull();
  });
});

describe('exact lamports', () => {
  const BIG = 9_007_199_254_740_993n; // 2^53 + 1: a float rounds it to 2^53
  it('parseJsonExact keeps integers past 2^53 as digits, digits inside strings as text, and everything else as JSON.parse does', () => {
    const text = `{"a":${BIG},"b":[-${BIG},12,1.5e3,-0.25],"c":"${BIG} \\" ${BIG}","d":9007199254740991,"e":null,"f":true}`;
    expect(parseJsonExact(text)).toEqual({
      a: BIG.toString(),
      b: [`-${BIG}`, 12, 1500, -0.25],
      c: `${BIG} " ${BIG}`,
      d: 9007199254740991,
      e: null,
      f: true,
    });
    expect(exactLamports(BIG.toString())).toBe(BIG);
    expect(exactLamports(12)).toBe(12n);
    expect([exactLamports(-1), exactLamports(1.5), exactLamports(`-${BIG}`), exactLamports(2 ** 53)]).toEqual([
      null,
      null,
      null,
      null,
    ]);
  });

  it('getBalance and getTransaction above 2^53 read to the lamport', async () => {
    const OTHER = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';
    const SIG = '5'.repeat(88);
    const methods: string[] = [];
    const fetch = (async (_url: string, init: RequestInit) => {
      const body = JSON.parse(String(init.body)) as { id: number; method: string };
      methods.push(body.method);
      const result =
        body.method === 'getBalance'
          ? `{"context":{"slot":1},"value":${BIG}}`
          : `{"slot":7,"blockTime":null,"meta":{"err":null,"fee":5000,"preBalances":[${BIG + 10_000n},1],"postBalances":[5000,${BIG + 1n}],"loadedAddresses":{"writable":[],"readonly":[]}},"transaction":{"message":{"accountKeys":["${OWNER}","${OTHER}"],"header":{"numRequiredSignatures":1}}}}`;
      return new Response(`{"jsonrpc":"2.0","id":${body.id},"result":${result}}`, {
        headers: { 'content-type': 'application/json' },
      });
    }) as unknown as typeof globalThis.fetch;
    const chain = await open(fetch, fakeClock());
    expect(await chain.balance(OWNER)).toBe(BIG);
    const tx = (await chain.transaction(SIG))!;
    expect(tx.preBalances).toEqual([BIG + 10_000n, 1n]);
    expect(tx.postBalances).toEqual([5000n, BIG + 1n]);
    expect(methods).toEqual(['getBalance', 'getTransaction']);
  });
});
