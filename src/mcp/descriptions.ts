// What the MCP server says of itself and its tools: the instructions an agent gets at the
// start (what it may do, and why trading is off when it is) and each tool's description.
import type { McpOptions } from './mcp-options.js';
import { MCP_NOT_CONFIGURED_HINT } from '../cli/context.js';
import type { Tool } from './tools.js';
import type { TradingGate } from './trading-gate.js';
import { presence } from '../domain/presence.js';

/** Who is here when an agent runs a command: nobody who may grant trust (domain/presence.ts). */
const agentPresence = presence({ yes: true, dryRun: false, json: true, interactive: false, agent: true });

/** What the server tells the agent at the start. */
export function instructions(
  gate: TradingGate,
  opts: McpOptions,
  configured = true,
  lock: { words: string } | null = null,
): string {
  const trading = gate.allowed
    ? `Trading is on: buy, sell and cancel run every check the command line makes before it signs, within the profile's limits (maxBuyLamports ${gate.maxBuyLamports}, maxSlippageBps ${gate.maxSlippageBps}; per rolling 24 hours, counted by this tool's journal across every process: maxDailyBuyLamports ${gate.maxDailyBuyLamports}, maxDailySellLamports ${gate.maxDailySellLamports}). ${
        opts.confirm
          ? 'Each trade shows its review to the person through the client and goes on only on their yes.'
          : 'No confirmation is asked (--no-confirm).'
      } That yes approves a trade within these limits; it never grants trust (${agentPresence.why}): a treasury, a sell wording or a token's facts no person has approved refuse the trade (category refused_to_sign, code TREASURY_NOT_PINNED, WORDING_NOT_APPROVED, WORDING_CHANGED or TOKEN_FACTS_UNCONFIRMED), and error.command names what a person runs at their own terminal after reading it: ask the person to run it; it is theirs to run, never yours. Such a refusal comes before any question of confirmation. Pass your own idempotencyKey to retry a trade safely.`
    : `Trading is off: ${gate.reason}.`;
  const brake =
    `${lock ? `Now ${lock.words}: every buy and sell is refused (exit 6, TRADING_LOCKED) until a person at a terminal runs \`trader unlock\`. ` : ''}` +
    `The brake: the lock tool stops every trader process from signing (no tool lifts it); ${brakeLimits(gate)}; trading_status says what holds now.`;
  return [
    'Tools of trader, a Solana trading command-line tool: each returns what `trader <command> --json` prints (lists as {items, pagination}).',
    ...(configured ? [] : [`Not configured: every tool fails until ${MCP_NOT_CONFIGURED_HINT}.`]),
    trading,
    brake,
    'A failed call has isError and structuredContent.error {code, message, status, requestId, category, retryable}: repeat it only when retryable is true (a trade with the same idempotencyKey).',
  ].join('\n');
}

/** The brake's limits in force, in words. */
function brakeLimits(gate: TradingGate): string {
  const mints = gate.allowedMints ? `only the allowedMints ${gate.allowedMints.join(', ')}` : 'any mint';
  const denied = gate.deniedMints ? `, never the deniedMints ${gate.deniedMints.join(', ')}` : '';
  return `unattended trades in ${mints}${denied} (MINT_NOT_ALLOWED); maxTradesPerHour ${gate.maxTradesPerHour ?? 'not set'} (OVER_HOURLY_TRADES); maxDailyLossLamports ${gate.maxDailyLossLamports ?? 'not set'}, past which buys stop and sells go on (LOSS_STOP)`;
}

/** A tool's description: what it does, for an agent; for a trade, what holds it and who approves it. */
export function description(tool: Tool, gate: TradingGate, opts: McpOptions): string {
  if (!tool.spec.trade) return `${tool.spec.does}. Read-only.`;
  if (!tool.spec.signs) return `${tool.spec.does}.`;
  const limits =
    `Held to the profile's limits: maxBuyLamports ${gate.maxBuyLamports} per buy, maxSlippageBps ${gate.maxSlippageBps}; per rolling 24 hours maxDailyBuyLamports ${gate.maxDailyBuyLamports} and maxDailySellLamports ${gate.maxDailySellLamports}; ` +
    'a call past one is refused before anything is sent (OVER_LIMIT; OVER_DAILY_LIMIT, naming when room frees up)';
  const who = opts.confirm
    ? 'The person approves its review through the client first'
    : 'No one is asked (the server runs with --no-confirm)';
  return `${tool.spec.does}. Moves money. Every check runs before anything is signed. ${limits}. ${who}. dryRun: true checks everything and signs nothing.`;
}
