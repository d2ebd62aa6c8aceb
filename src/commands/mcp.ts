// `trader mcp`: serve the commands as MCP tools over stdio (src/mcp/). The SDK is loaded only
// when this command runs.
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { defineCommand, optionFlag } from './definition.js';

export interface McpOptions {
  /** Offer buy, sell and cancel (only with the profile's limits set). */
  allowTrading: boolean;
  /** Trade tools proceed without asking the person through the client. */
  confirm: boolean;
}

/** How an MCP client is told to start this server (the same snippet as docs/agents.md). */
export const REGISTER_SNIPPET = `{
  "mcpServers": {
    "trader": {
      "command": "trader",
      "args": ["mcp"],
      "env": { "TRADER_PROFILE": "default" }
    }
  }
}`;

const HELP_AFTER = `
Register it with an MCP client (Claude Desktop, Cursor, …) in its JSON config:

${REGISTER_SNIPPET
  .split('\n')
  .map((l) => `  ${l}`)
  .join('\n')}

Add "--allow-trading" to args to offer buy, sell and cancel, only when the
profile sets maxBuyLamports and maxSlippageBps (trader config set …). Every
trade runs every check as under --yes: a changed sell wording or text the tool
cannot explain is refused. Where the client can ask you, each trade shows you
its review and waits for your yes (--no-confirm: never ask). Every call is
logged to mcp-audit.jsonl beside the config file. Stdout carries only the
protocol; messages go to stderr. More: docs/agents.md.
`;

export const mcp = defineCommand<McpOptions>({
  options: [
    { flags: '--allow-trading', help: 'offer the buy, sell and cancel tools (needs maxBuyLamports and maxSlippageBps in the profile)' },
    { flags: '--no-confirm', help: 'with --allow-trading: trade without asking the person through the client (fully unattended)' },
  ],
  helpAfter: HELP_AFTER,
  examples: ['trader mcp', 'trader --profile agent mcp --allow-trading'],
  parse: (raw) => {
    const allowTrading = optionFlag(raw, 'allowTrading');
    const confirm = raw.options.confirm !== false;
    if (!confirm && !allowTrading) throw new UsageError('--no-confirm is for trading: give it with --allow-trading', 'INVALID_ARGUMENT');
    return { allowTrading, confirm };
  },
  run,
});

/** Serves until the client closes stdin. */
async function run(ctx: Context, opts: McpOptions): Promise<void> {
  const { serveMcp } = await import('../mcp/server.js');
  await serveMcp(ctx, opts);
}
