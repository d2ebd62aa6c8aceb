// What the MCP server says of itself and its tools: the instructions an agent gets at the
// start (what it may do, and why trading is off when it is) and each tool's description.
import type { McpOptions } from '../commands/mcp.js';
import type { Tool } from './tools.js';
import type { TradingGate } from './trading-gate.js';
import { presence } from '../domain/presence.js';

/** Who is here when an agent runs a command: nobody who may grant trust (domain/presence.ts). */
const agentPresence = presence({ yes: true, dryRun: false, json: true, interactive: false, agent: true });

/** What the server tells the agent at the start. */
export function instructions(gate: TradingGate, opts: McpOptions): string {
  const trading = gate.allowed
    ? `Trading is on: buy, sell and cancel run every check of the CLI under --yes, within the profile's limits (maxBuyLamports ${gate.maxBuyLamports}, maxSlippageBps ${gate.maxSlippageBps}; per rolling 24 hours, counted by this tool's journal across every process: maxDailyBuyLamports ${gate.maxDailyBuyLamports}, maxDailySellLamports ${gate.maxDailySellLamports}). ${
        opts.confirm ? 'Each trade shows its review to the person through the client and goes on only on their yes.' : 'No confirmation is asked (--no-confirm).'
      } That yes approves a trade within these limits; it never grants trust (${agentPresence.why}): a treasury, a sell wording or a token's facts no person has approved refuse the trade (category refused_to_sign, code TREASURY_NOT_PINNED, WORDING_NOT_APPROVED, WORDING_CHANGED or TOKEN_FACTS_UNCONFIRMED), and error.command names what a person runs at their own terminal after reading it. Pass your own idempotencyKey to retry a trade safely.`
    : `Trading is off: ${gate.reason}.`;
  return [
    'Tools of trader, a Solana trading command-line tool: each returns what `trader <command> --json` prints (lists as {items, pagination}).',
    trading,
    'A failed call has isError and structuredContent.error {code, message, status, requestId, category, retryable}: repeat it only when retryable is true (a trade with the same idempotencyKey).',
  ].join('\n');
}

export function description(tool: Tool, gate: TradingGate, opts: McpOptions): string {
  const base = `${tool.command.summary} (as \`trader ${tool.command.name} --json\`)`;
  if (!tool.spec.trade) return `${base}. Read-only.`;
  return `${base}. Moves money: runs every check before signing, as under --yes; limits maxBuyLamports ${gate.maxBuyLamports}, maxSlippageBps ${gate.maxSlippageBps}, per rolling 24 hours maxDailyBuyLamports ${gate.maxDailyBuyLamports} and maxDailySellLamports ${gate.maxDailySellLamports} (a trade past one is refused, naming when room frees up)${
    opts.confirm ? '; the person approves the review through the client' : ''
  }. dryRun checks everything and signs nothing.`;
}
