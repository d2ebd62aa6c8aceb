// `trader mcp`: the commands as MCP tools over stdio, with the official SDK. Each call runs the
// command in this process exactly as `trader <command> … --json` (trades: `--yes`) would, so an
// agent gets every check the CLI makes and no other path to a signature. Stdout carries only
// the protocol; every message for people goes to stderr.
import type { Readable, Writable } from 'node:stream';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { McpOptions } from './mcp-options.js';
import { loadCatalog } from '../cli/catalog.js';
import type { ProgramFacts } from '../cli/definition.js';
import { MCP_NOT_CONFIGURED_HINT, readFrom, type Context } from '../cli/context.js';
import { UsageError } from '../domain/errors.js';
import { AuditLog, auditLogPath } from './audit-log.js';
import { instructions } from './descriptions.js';
import { toolsFrom, BRAKE_TOOLS, READ_TOOLS, TRADE_TOOLS, type Tool } from './tools.js';
import { tradingGate, type TradingGate } from './trading-gate.js';
import { lockNow, type McpSession } from './session.js';
import { listTools } from './tool-list.js';
import { handleCall, refuseUnknownTool } from './tool-call.js';

/** Serves until the client closes stdin or the process is signalled; each tool runs through the entry's program.runCaptured. */
export async function serveMcp(ctx: Context, opts: McpOptions, program: ProgramFacts): Promise<void> {
  refuseStdinSecrets(ctx);
  const apiKey = await ctx.apiKey();
  const gate = tradingGate(ctx.settings, opts.allowTrading);
  const tools = await offeredTools(program, ctx.version, gate);
  const audit = new AuditLog(auditLogPath(ctx.config.path), apiKey ? [apiKey] : []);
  // Messages for people on stderr (none with --json, whose stderr holds only JSON lines).
  const log = (line: string) => ctx.output.note(`trader mcp: ${line}`);
  const configured = isConfigured(ctx);
  const server = new Server(
    { name: 'trader', version: ctx.version },
    { capabilities: { tools: {} }, instructions: instructions(gate, opts, configured, lockNow(ctx)) },
  );
  const session: McpSession = { ctx, opts, program, apiKey, gate, tools, audit, server, log };
  const inFlight = handleRequests(session);
  const transport = new StdioServerTransport(ctx.facts.stdin as Readable, ctx.facts.stdout as Writable);
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
  });
  await server.connect(transport);
  noteStart(session, configured);
  const end = () => void server.close();
  ctx.facts.stdin.once('end', end);
  ctx.facts.stdin.once('close', end);
  ctx.signal.addEventListener('abort', end, { once: true });
  await closed;
  // A call under way (a trade waiting for its end) finishes and is audited before the process exits.
  await Promise.allSettled([...inFlight]);
}

/** The read and brake tools always; the trade tools only when the gate allows trading. */
async function offeredTools(program: ProgramFacts, version: string, gate: TradingGate): Promise<Map<string, Tool>> {
  const catalog = await loadCatalog(program.commands, version);
  const tools = new Map<string, Tool>();
  for (const tool of toolsFrom(catalog, [...READ_TOOLS, ...BRAKE_TOOLS])) tools.set(tool.spec.name, tool);
  if (gate.allowed) for (const tool of toolsFrom(catalog, TRADE_TOOLS)) tools.set(tool.spec.name, tool);
  return tools;
}

/** A service URL and a key (or where to read it) are what every tool needs. */
function isConfigured(ctx: Context): boolean {
  return Boolean(ctx.settings.baseUrl && (ctx.settings.apiKey || ctx.settings.apiKeyInput));
}

/** Answers tools/list and tools/call; returns the calls under way, for the end to wait on. */
function handleRequests(session: McpSession): Set<Promise<unknown>> {
  const inFlight = new Set<Promise<unknown>>();
  session.server.setRequestHandler(ListToolsRequestSchema, async () => listTools(session));
  session.server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const name = request.params.name;
    const input = (request.params.arguments ?? {}) as Record<string, unknown>;
    refuseUnknownTool(session, name, input);
    const call = handleCall(session, name, input, extra.signal);
    inFlight.add(call);
    try {
      return await call;
    } finally {
      inFlight.delete(call);
    }
  });
  return inFlight;
}

/** What the person starting the server should know: a keystore without a password file, a missing configuration, what is served. */
function noteStart(session: McpSession, configured: boolean): void {
  const { ctx, gate, opts, log } = session;
  // No person can type a password here: a keystore's comes from its file, or trades are refused.
  if (gate.allowed && /^keystore:/i.test(ctx.settings.keypair) && !ctx.settings.passwordFile) {
    log(
      `the wallet is ${ctx.settings.keypair} and no --password-file (TRADER_KEYSTORE_PASSWORD_FILE) is given: buy and sell will be refused before anything is sent`,
    );
  }
  if (!configured)
    log(
      `not configured (${readFrom(ctx.settings.profileName, ctx.config.path)}: it names no service URL or key): ${MCP_NOT_CONFIGURED_HINT}`,
    );
  log(
    `serving ${session.tools.size + 1} tools over stdio; ${gate.allowed ? `trading on (${opts.confirm ? 'each trade asks the person where the client can' : 'no confirmation asked'})` : `trading off: ${gate.reason}`}; audit log ${session.audit.path}`,
  );
}

/**
 * The protocol comes on standard input: no secret can be typed or piped there. A keystore with
 * its password in a file is the way (docs/agents.md).
 */
function refuseStdinSecrets(ctx: Context): void {
  const how = 'use a keypair file, or keystore:<name> with --password-file (TRADER_KEYSTORE_PASSWORD_FILE)';
  if (/^(-|stdin:.*|prompt:.*|ASK)$/i.test(ctx.settings.keypair)) {
    throw new UsageError(
      `trader mcp reads the protocol on standard input, so the wallet cannot be typed or piped there (--keypair ${ctx.settings.keypair.split('?')[0]}): ${how}`,
      'KEYPAIR',
    );
  }
  if (ctx.settings.apiKeyInput?.kind === 'stdin') {
    throw new UsageError(
      'trader mcp reads the protocol on standard input, so the API key cannot come from it: use --api-key-file or TRADER_API_KEY',
      'USAGE',
    );
  }
}
