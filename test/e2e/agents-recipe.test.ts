// docs/agents.md's sandbox recipe for MCP clients, run as written: its shell lines in a user's
// shell (`trader` on PATH, a fresh HOME), then each client's JSON configuration started the way a
// client starts a server: its command and args, and nothing but its own environment (HOME and
// PATH, never the shell's TRADER_* variables). Each must reach the sandbox and may trade.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, describe, expect, it } from 'vitest';
import { stopBackgroundSandboxes, userShell } from '../helpers/shell.js';
import { tokenFactsFingerprint } from '../../src/domain/token-binding.js';

afterAll(() => stopBackgroundSandboxes());

const DOC = readFileSync(fileURLToPath(new URL('../../docs/agents.md', import.meta.url)), 'utf8');

/** The fenced blocks of one section (from its heading to the next heading of its level or above). */
function blocksOf(heading: string): Array<{ lang: string; text: string }> {
  const start = DOC.indexOf(`\n${heading}\n`);
  expect(start, heading).toBeGreaterThan(0);
  const rest = DOC.slice(start + heading.length + 2);
  const section = rest.slice(0, rest.search(/\n#{1,3} /) === -1 ? undefined : rest.search(/\n#{1,3} /));
  return [...section.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1]!, text: m[2]! }));
}

interface ServerConfig {
  command: string;
  args?: string[];
  env?: Record<string, string>;
}

describe('docs/agents.md: the sandbox for an MCP client', () => {
  it("the shell lines, then each client configuration as written, with only the client's own environment: the server reaches the sandbox and offers trading", async () => {
    const blocks = blocksOf('### With the sandbox');
    const sh = blocks.filter((b) => b.lang === 'sh');
    const configs = blocks
      .filter((b) => b.lang === 'json')
      .map(
        (b) =>
          JSON.parse(b.text) as {
            mcpServers?: Record<string, ServerConfig>;
            servers?: Record<string, ServerConfig & { type?: string }>;
          },
      );
    expect(sh).toHaveLength(1);
    // Claude Desktop / Claude Code (mcpServers) and VS Code (servers, type stdio).
    expect(configs.map((c) => Object.keys(c))).toEqual([['mcpServers'], ['servers']]);
    expect(configs[1]!.servers!.trader!.type).toBe('stdio');

    const shell = userShell();
    // Line by line, each to the exit code its `# exit N` comment names (else 0).
    const ran: string[] = [];
    for (const line of sh[0]!.text.split('\n').filter((l) => l.trim() !== '')) {
      const run = await shell.run(line);
      expect(run.code, `${line}\n${run.stderr}`).toBe(Number(/# exit (\d+)/.exec(line)?.[1] ?? 0));
      ran.push(run.stderr);
    }
    expect(ran[0]).toMatch(
      /saved in profile "sandbox" of .*config\.json: an MCP client reaches this sandbox with "args": \["--profile", "sandbox", "mcp"\]/,
    );
    expect(ran[2]).toMatch(/no sell wording is approved/);
    // The command it names for the person carries the profile it ran under, so it runs as printed.
    expect(ran[2]).toContain('trader --profile sandbox config trust accept-wording 156b2aa4f89edc87');
    // The profile says how to reach the sandbox, never which treasury to pay: a person pinned it.
    const saved = JSON.parse(readFileSync(`${shell.home}/.config/trader/config.json`, 'utf8')).profiles.sandbox;
    expect(Object.keys(saved).sort()).toEqual([
      'apiKey',
      'baseUrl',
      'keypair',
      'maxBuyLamports',
      'maxDailyBuyLamports',
      'maxDailySellLamports',
      'maxSlippageBps',
      'rpcUrl',
    ]);

    for (const config of configs) {
      const server = (config.mcpServers ?? config.servers)!.trader!;
      // What a client gives the process it starts: its own HOME and PATH, the config's env; no TRADER_* of the shell.
      const env = { HOME: shell.home, PATH: shell.env.PATH!, TMPDIR: shell.env.TMPDIR!, ...server.env };
      expect(Object.keys(env).some((k) => k.startsWith('TRADER_'))).toBe(false);
      const transport = new StdioClientTransport({ command: server.command, args: server.args, env, stderr: 'pipe' });
      const client = new Client({ name: 'recipe', version: '0' }, {});
      await client.connect(transport);
      try {
        const me = (await client.callTool({ name: 'me', arguments: {} })) as any;
        expect(me.isError, JSON.stringify(me.content)).toBeFalsy();
        expect(me.structuredContent.walletAddress).toMatch(/^\w{32,44}$/);
        const status = (await client.callTool({ name: 'trading_status', arguments: {} })) as any;
        expect(status.structuredContent).toMatchObject({
          allowed: true,
          maxBuyLamports: '100000000',
          maxSlippageBps: 100,
          maxDailyBuyLamports: '500000000',
          maxDailySellLamports: '1000000000',
        });
        // By the mint, as an agent names a token: a symbol only the service's lists tie to a mint needs a person (SYMBOL_NOT_BOUND).
        const woof = ((await client.callTool({ name: 'holdings', arguments: {} })) as any).structuredContent.items.find(
          (h: { symbol: string }) => h.symbol === 'WOOF',
        ).mint;
        const bySymbol = (await client.callTool({
          name: 'buy',
          arguments: { token: 'WOOF', amount: '0.05sol', dryRun: true },
        })) as any;
        const kept = tokenFactsFingerprint(woof, { symbol: 'WOOF', name: 'Woof Sandbox Dog', decimals: 5 });
        expect(bySymbol.structuredContent.error).toMatchObject({
          code: 'SYMBOL_NOT_BOUND',
          command: `trader --profile sandbox config trust accept-token ${woof} ${kept}`,
          fingerprint: kept,
        });
        const dry = (await client.callTool({
          name: 'buy',
          arguments: { token: woof, amount: '0.05sol', dryRun: true },
        })) as any;
        expect(dry.isError, JSON.stringify(dry.content)).toBeFalsy();
        expect(dry.structuredContent).toMatchObject({ dryRun: true, ok: true });
        // The wording the person approved: the agent's sell passes every check.
        const sell = (await client.callTool({
          name: 'sell',
          arguments: { token: woof, amount: '1.5woof', dryRun: true },
        })) as any;
        expect(sell.isError, JSON.stringify(sell.content)).toBeFalsy();
        expect(sell.structuredContent).toMatchObject({ dryRun: true, ok: true });
      } finally {
        await client.close();
      }
    }
    expect((await shell.run('trader sandbox stop')).code).toBe(0);
  }, 60_000);

  it('without a profile or the variables, `trader mcp` says in its instructions and every call that the client must pass them (an eval in a shell cannot reach it)', async () => {
    const shell = userShell();
    const transport = new StdioClientTransport({
      command: 'trader',
      args: ['mcp'],
      env: { HOME: shell.home, PATH: shell.env.PATH!, TMPDIR: shell.env.TMPDIR! },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'bare', version: '0' }, {});
    await client.connect(transport);
    try {
      expect(client.getInstructions()).toMatch(
        /Not configured: every tool fails until the MCP client starts `trader mcp` with its own environment/,
      );
      const me = (await client.callTool({ name: 'me', arguments: {} })) as any;
      expect(me.structuredContent.error).toMatchObject({ code: 'NOT_CONFIGURED', category: 'usage' });
      expect(me.structuredContent.error.message).toMatch(
        /pass TRADER_BASE_URL, TRADER_API_KEY and TRADER_KEYPAIR in the server's "env", or a profile in its "args" .*--write-profile sandbox/,
      );
      expect(me.structuredContent.error.message).not.toContain('eval');
      // Which file the client's environment made it read: a TRADER_CONFIG the shell sets is not the client's.
      expect(me.structuredContent.error.message).toContain(
        `read profile "default" of ${shell.home}/.config/trader/config.json (TRADER_CONFIG or XDG_CONFIG_HOME in the server's "env" name another file)`,
      );
    } finally {
      await client.close();
    }
  });
});
