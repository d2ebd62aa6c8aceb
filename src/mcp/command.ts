// `trader mcp`: serve the commands as MCP tools over stdio (mcp/server.ts). It lives beside the
// server, not in commands/: the agent door sits above the commands it offers, and the command
// table (src/command-table.ts) is the one place that names it. The SDK is loaded only when it runs.
import type { Context } from '../cli/context.js';
import { UsageError } from '../domain/errors.js';
import { defineCommand, optionFlag, type ProgramFacts } from '../cli/definition.js';
import type { McpOptions } from './mcp-options.js';

/** How an MCP client is told to start this server (the same snippet as docs/agents.md). */
export const REGISTER_SNIPPET = `{"mcpServers": {"trader": {
    "command": "trader", "args": ["--profile", "default", "mcp"]}}}`;

const HELP_AFTER = `
The client starts it with its own environment: name a profile in its args.
Its JSON config (Claude Desktop, Claude Code; VS Code: docs/agents.md):

  ${REGISTER_SNIPPET}

Trades run every check as under --yes, ask you through the client where it can,
and are logged to mcp-audit.jsonl beside the config. More: docs/agents.md.
`;

export const mcp = defineCommand<McpOptions>({
  options: [
    {
      flags: '--allow-trading',
      help: 'offer buy, sell and cancel (the profile must set maxBuyLamports and maxSlippageBps)',
    },
    { flags: '--no-confirm', help: 'with --allow-trading: never ask the person (unattended)' },
  ],
  helpAfter: HELP_AFTER,
  examples: ['trader mcp', 'trader --profile agent mcp --allow-trading'],
  parse: (raw) => {
    const allowTrading = optionFlag(raw, 'allowTrading');
    const confirm = raw.options.confirm !== false;
    if (!confirm && !allowTrading)
      throw new UsageError('--no-confirm is for trading: give it with --allow-trading', 'INVALID_ARGUMENT');
    return { allowTrading, confirm };
  },
  run,
});

/** Serves until the client closes stdin. */
async function run(ctx: Context, opts: McpOptions, program: ProgramFacts): Promise<void> {
  const { serveMcp } = await import('./server.js');
  await serveMcp(ctx, opts, program);
}
