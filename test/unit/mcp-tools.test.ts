// The MCP tools' schemas and argv, from the catalog: what an agent passes becomes one word per
// option and arguments after `--`, so no value can turn into another option.
import { beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/command-table.js';
import { loadCatalog } from '../../src/cli/catalog.js';
import { READ_TOOLS, toolArgv, toolsFrom, TRADE_TOOLS, type Tool } from '../../src/mcp/tools.js';
import { tradingGate } from '../../src/mcp/trading-gate.js';
import { failure } from '../../src/mcp/tool-results.js';

let tools: Map<string, Tool>;
beforeAll(async () => {
  const catalog = await loadCatalog(COMMANDS, '0.0.0-test');
  tools = new Map(toolsFrom(catalog, [...READ_TOOLS, ...TRADE_TOOLS]).map((t) => [t.spec.name, t]));
});
const tool = (name: string) => tools.get(name)!;

describe('tool argv', () => {
  it('options as --flag=value, then -- and the arguments', () => {
    expect(
      toolArgv(tool('buy'), {
        token: 'WOOF',
        amount: '0.1sol',
        slippageBps: 50,
        idempotencyKey: 'k-1',
        wait: false,
        dryRun: true,
      }),
    ).toEqual(['buy', '--slippage-bps=50', '--idempotency-key=k-1', '--no-wait', '--dry-run', '--', 'WOOF', '0.1sol']);
    expect(toolArgv(tool('buy'), { token: 'WOOF', amount: '100', wait: true, dryRun: false })).toEqual([
      'buy',
      '--',
      'WOOF',
      '100',
    ]);
    expect(toolArgv(tool('trade'), { id: 'sell_abc' })).toEqual(['trades', '--', 'sell_abc']);
    expect(toolArgv(tool('positions'), {})).toEqual(['positions', '--']);
  });

  it('values that look like options stay values', () => {
    expect(toolArgv(tool('sell'), { token: '--yes', amount: '-1', idempotencyKey: '--api-key=x' })).toEqual([
      'sell',
      '--idempotency-key=--api-key=x',
      '--',
      '--yes',
      '-1',
    ]);
  });

  it('a number is accepted for a string or integer; a fraction for an integer is not', () => {
    expect(toolArgv(tool('buy'), { token: 'WOOF', amount: 100000000 })).toEqual(['buy', '--', 'WOOF', '100000000']);
    expect(() => toolArgv(tool('buy'), { token: 'WOOF', amount: 0.1 })).toThrow(/as a string/);
    expect(() => toolArgv(tool('positions'), { limit: 1.5 })).toThrow(/must be an integer/);
    expect(() => toolArgv(tool('positions'), { limit: 2 ** 53 })).toThrow(/must be an integer/);
    expect(() => toolArgv(tool('buy'), { token: 'WOOF', amount: '1', dryRun: 'yes' })).toThrow(/true or false/);
    expect(() => toolArgv(tool('buy'), { token: { mint: 'x' }, amount: '1' })).toThrow(/must be a string/);
  });

  it('unknown inputs, omitted options and missing arguments are refused', () => {
    expect(() => toolArgv(tool('me'), { apiKey: 'x' })).toThrow(/takes no argument "apiKey"/);
    expect(() => toolArgv(tool('buy'), { token: 'WOOF', amount: '1', maxFeeLamports: '999999999' })).toThrow(
      /takes no argument "maxFeeLamports"/,
    );
    expect(() => toolArgv(tool('holdings'), { csv: true })).toThrow(/takes no argument "csv"/);
    expect(() => toolArgv(tool('trade'), { watch: true, id: 'x' })).toThrow(/takes no argument "watch"/);
    expect(() => toolArgv(tool('buy'), { token: 'WOOF' })).toThrow(/needs "amount"/);
  });
});

describe('descriptions for the tool, not the command line', () => {
  const gate = {
    allowed: true,
    reason: null,
    maxBuyLamports: '100',
    maxSlippageBps: 50,
    maxFeeLamports: null,
    maxDailyBuyLamports: '500',
    maxDailySellLamports: '700',
  };
  it('no tool says a flag, an exit code or a follow command; cancel offers no dryRun; slippage is slippageBps', async () => {
    const { description } = await import('../../src/mcp/descriptions.js');
    for (const [name, t] of tools) {
      for (const confirm of [true, false]) {
        const text = description(t, gate, { allowTrading: true, confirm });
        // The server's own start-up flag is how a person runs it, not an argument: the only one said.
        expect(text.replace('--no-confirm', ''), name).not.toMatch(/--[a-z]|\bexit \d|trader trades|--watch/);
      }
      for (const [key, property] of Object.entries(t.inputSchema.properties)) {
        expect(property.description, `${name}.${key}`).not.toMatch(/--[a-z]|\bexit \d|trader trades|`trader/);
      }
    }
    expect(description(tool('cancel'), gate, { allowTrading: true, confirm: true })).not.toMatch(/dryRun/);
    expect(description(tool('buy'), gate, { allowTrading: true, confirm: true })).toMatch(
      /maxBuyLamports 100 per buy, maxSlippageBps 50; per rolling 24 hours maxDailyBuyLamports 500 and maxDailySellLamports 700; a call past one is refused before anything is sent \(OVER_LIMIT; OVER_DAILY_LIMIT/,
    );
    expect(tool('sell').inputSchema.properties.slippageBps!.description).toMatch(/maxSlippageBps/);
    expect(tool('buy').inputSchema.properties.wait!.description).toMatch(
      /^false: return once the deposit is accepted, and follow the buy with the trade tool$/,
    );
  });
});

describe('trading gate', () => {
  const limits = {
    profileName: 'p',
    maxBuyLamports: 1n,
    maxSlippageBps: 10,
    maxFeeLamports: null,
    maxDailyBuyLamports: 5n,
    maxDailySellLamports: 7n,
    maxTradesPerHour: 3,
    maxDailyLossLamports: 9n,
    allowedMints: ['M'],
    deniedMints: null,
  };
  it('on only with --allow-trading and every limit, per trade and per day', () => {
    expect(tradingGate(limits, true)).toMatchObject({
      allowed: true,
      reason: null,
      maxBuyLamports: '1',
      maxSlippageBps: 10,
      maxDailyBuyLamports: '5',
      maxDailySellLamports: '7',
      maxTradesPerHour: 3,
      maxDailyLossLamports: '9',
      allowedMints: ['M'],
      deniedMints: null,
    });
    expect(tradingGate(limits, false)).toMatchObject({
      allowed: false,
      reason: expect.stringMatching(/--allow-trading/),
    });
    expect(tradingGate({ ...limits, maxBuyLamports: null }, true).reason).toMatch(
      /does not set maxBuyLamports, .*config set maxBuyLamports/,
    );
    expect(tradingGate({ ...limits, maxSlippageBps: null }, true).reason).toMatch(/does not set maxSlippageBps/);
    expect(tradingGate({ ...limits, maxBuyLamports: null, maxSlippageBps: null }, true).reason).toMatch(
      /maxBuyLamports and maxSlippageBps/,
    );
    expect(tradingGate({ ...limits, maxDailyBuyLamports: null }, true).reason).toMatch(
      /does not set maxDailyBuyLamports, .*config set maxDailyBuyLamports <value>`, then/,
    );
    expect(tradingGate({ ...limits, maxDailySellLamports: null }, true)).toMatchObject({
      allowed: false,
      reason: expect.stringMatching(/does not set maxDailySellLamports,/),
    });
    expect(tradingGate({ ...limits, maxDailyBuyLamports: null, maxDailySellLamports: null }, true).reason).toMatch(
      /maxDailyBuyLamports and maxDailySellLamports/,
    );
  });
});

describe('a tool error as a client shows it', () => {
  it('names what cannot be seen and drops escapes, in the text and the structured error (attack-log-3 F8)', () => {
    const report = {
      code: 'INVALID_ARGUMENT',
      message: 'got "stop \u202eWOOF\u200b \u001b[2J"',
      category: 'usage',
      retryable: false,
      status: null,
      requestId: null,
    } as const;
    const result = failure(report as never, 2, null);
    const said = 'got "stop <U+202E>WOOF<U+200B> "';
    expect((result.structuredContent as { error: { message: string } }).error.message).toBe(said);
    const text = (result.content[0] as { text: string }).text;
    expect(text.split('\n')[0]).toBe(`error (usage): ${said}`);
    expect(text).not.toMatch(/[\u202e\u200b\u001b]/);
  });
});
