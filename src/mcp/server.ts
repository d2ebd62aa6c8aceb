// `trader mcp`: the commands as MCP tools over stdio, with the official SDK. Each call runs the
// command in this process exactly as `trader <command> … --json` (trades: `--yes`) would, so an
// agent gets every check the CLI makes and no other path to a signature. Stdout carries only
// the protocol; every message for people goes to stderr.
import { randomUUID } from 'node:crypto';
import type { Readable, Writable } from 'node:stream';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { McpOptions } from './mcp-options.js';
import { loadCatalog } from '../commands/catalog.js';
import type { ProgramFacts } from '../commands/definition.js';
import { MCP_NOT_CONFIGURED_HINT, readFrom, type Context } from '../commands/context.js';
import { errorReport, ExitCode, exitCodeOf, InterruptedError, keyedRetry, UsageError } from '../domain/errors.js';
import { safeForTerminal } from '../io/terminal-text.js';
import { AuditLog, auditLogPath, type AuditEntry } from './audit-log.js';
import { description, instructions } from './descriptions.js';
import { runCommand, type CommandRun } from './run-command.js';
import { failure, fallbackError, success, tradeFacts } from './tool-results.js';
import { toolArgv, toolsFrom, BRAKE_TOOLS, READ_TOOLS, TRADE_TOOLS, type Tool } from './tools.js';
import { brakePath, readBrake } from '../config/brake-file.js';
import { lockWords } from '../domain/brake.js';
import { tradingGate, type TradingGate } from './trading-gate.js';
import { NOTHING_SENT, NOTHING_SIGNED } from '../domain/outcome-words.js';

/** The tool that says what this server allows (trading on or off, and why; the limits). */
const STATUS_TOOL = 'trading_status';

/** How long a person has to answer a trade's review in the client. */
const APPROVAL_TIMEOUT_MS = 5 * 60_000;

/** Serves until the client closes stdin or the process is signalled; each tool runs through the entry's program.runCaptured. */
export async function serveMcp(ctx: Context, opts: McpOptions, program: ProgramFacts): Promise<void> {
  refuseStdinSecrets(ctx);
  const apiKey = await ctx.apiKey();
  const catalog = await loadCatalog(program.commands, ctx.version);
  const gate = tradingGate(ctx.settings, opts.allowTrading);
  const tools = new Map<string, Tool>();
  for (const tool of toolsFrom(catalog, [...READ_TOOLS, ...BRAKE_TOOLS])) tools.set(tool.spec.name, tool);
  if (gate.allowed) for (const tool of toolsFrom(catalog, TRADE_TOOLS)) tools.set(tool.spec.name, tool);
  const audit = new AuditLog(auditLogPath(ctx.config.path), apiKey ? [apiKey] : []);
  // Messages for people on stderr (none with --json, whose stderr holds only JSON lines).
  const log = (line: string) => ctx.output.note(`trader mcp: ${line}`);

  // A service URL and a key (or where to read it) are what every tool needs.
  const configured = Boolean(ctx.settings.baseUrl && (ctx.settings.apiKey || ctx.settings.apiKeyInput));
  const server = new Server(
    { name: 'trader', version: ctx.version },
    { capabilities: { tools: {} }, instructions: instructions(gate, opts, configured, lockNow()) },
  );

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [
      ...[...tools.values()].map((tool) => ({
        name: tool.spec.name,
        title: `trader ${tool.command.name}`,
        description: description(tool, gate, opts),
        inputSchema: tool.inputSchema,
        annotations: tool.spec.trade
          ? {
              readOnlyHint: false,
              destructiveHint: true,
              idempotentHint: tool.spec.idempotent === true,
              openWorldHint: true,
            }
          : BRAKE_TOOLS.includes(tool.spec)
            ? { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false }
            : { readOnlyHint: true, openWorldHint: true },
      })),
      {
        name: STATUS_TOOL,
        title: 'trading status',
        description:
          'whether this server offers buy, sell and cancel, why not when it does not, whether `trader lock` stops every signature now, and the profile limits every trade is held to',
        inputSchema: { type: 'object' as const, properties: {}, additionalProperties: false },
        annotations: { readOnlyHint: true, openWorldHint: false },
      },
    ],
  }));

  const inFlight = new Set<Promise<unknown>>();
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const name = request.params.name;
    const input = (request.params.arguments ?? {}) as Record<string, unknown>;
    // A tool tools/list does not name is the protocol's error (as the SDK's McpServer answers), not a tool result.
    if (name !== STATUS_TOOL && !tools.has(name)) {
      writeAudit({
        time: new Date(ctx.clock.now()).toISOString(),
        tool: name,
        arguments: input,
        outcome: 'usage',
        code: 'UNKNOWN_TOOL',
        exitCode: ExitCode.usage,
      });
      const offered = TRADE_TOOLS.some((t) => t.name === name) ? ` (${name} is not offered: ${gate.reason})` : '';
      throw new McpError(ErrorCode.InvalidParams, `Tool ${name} not found${offered}; tools/list names the tools`);
    }
    const call = handleCall(name, input, extra.signal);
    inFlight.add(call);
    try {
      return await call;
    } finally {
      inFlight.delete(call);
    }
  });

  /** One tool call, audited whatever its end. */
  async function handleCall(
    name: string,
    input: Record<string, unknown>,
    requestSignal: AbortSignal,
  ): Promise<CallToolResult> {
    const entry: AuditEntry = {
      time: new Date(ctx.clock.now()).toISOString(),
      tool: name,
      arguments: input,
      outcome: 'ok',
      exitCode: 0,
    };
    let result: CallToolResult;
    try {
      if (name === STATUS_TOOL) {
        const now = currentGate();
        const lock = lockNow();
        const text = lock
          ? `${lock.words}; nothing is signed until a person at a terminal runs \`trader unlock\``
          : now.allowed
            ? 'trading is on'
            : `trading is off: ${now.reason}`;
        result = { content: [{ type: 'text', text }], structuredContent: { ...now, lock } };
      } else {
        const run = await runTool(name, input, entry, requestSignal);
        const error = run.error ?? fallbackError(run);
        // A buy or sell is retryable only with its key: the error carries it, to pass back.
        result =
          run.exitCode === ExitCode.ok
            ? success(name, run)
            : failure(tools.get(name)?.spec.signs ? keyedRetry(error) : error, run.exitCode, run.data);
        Object.assign(entry, { exitCode: run.exitCode }, tradeFacts(run.data));
        if (run.exitCode !== ExitCode.ok) {
          Object.assign(entry, { outcome: run.error?.category ?? 'internal', code: run.error?.code });
          if (run.error?.idempotencyKey) entry.idempotencyKey = run.error.idempotencyKey;
          if (run.error?.tradeId) entry.tradeId = run.error.tradeId;
        }
      }
    } catch (err) {
      const report = errorReport(err);
      const exitCode = exitCodeOf(err);
      result = failure(report, exitCode, null);
      Object.assign(entry, { outcome: report.category, code: report.code, exitCode });
    }
    // The outcome line has its own time: when the call ended, not when it started.
    writeAudit({ ...entry, time: new Date(ctx.clock.now()).toISOString() });
    return result;
  }

  /** An outcome line: one that cannot be written is said on stderr (the call has ended either way). */
  function writeAudit(entry: AuditEntry): void {
    try {
      audit.write(entry);
    } catch (err) {
      ctx.output.warn(`trader mcp: cannot write the audit log ${audit.path}: ${(err as Error).message}`);
    }
  }

  /** The lock as its file is now (trader lock), or null. */
  function lockNow(): { locked: true; words: string; at?: string; reason?: string | null; by?: string } | null {
    try {
      const lock = readBrake(brakePath(ctx.config.path));
      return lock ? { locked: true, words: lockWords(lock), ...lock } : null;
    } catch (err) {
      return { locked: true, words: `the lock file cannot be read: ${(err as Error).message}` };
    }
  }

  /** The gate as the profile is now: a person may have changed the limits since the start. */
  function currentGate(): TradingGate {
    return tradingGate(ctx.settingsNow(), opts.allowTrading);
  }

  /**
   * Runs the tool's command in-process; throws a UsageError for a call refused before it runs.
   * A trade is first logged as started, with its idempotency key (made here when the agent gave
   * none): a trade that cannot be logged is not run.
   */
  async function runTool(
    name: string,
    input: Record<string, unknown>,
    entry: AuditEntry,
    requestSignal: AbortSignal,
  ): Promise<CommandRun> {
    // Offered: the call handler answers any other name with the protocol's error.
    const tool = tools.get(name)!;
    const keyed = tool.options.some((o) => o.name === 'idempotencyKey');
    const callInput =
      keyed && (input.idempotencyKey === undefined || input.idempotencyKey === null)
        ? { ...input, idempotencyKey: randomUUID() }
        : input;
    const argv = toolArgv(tool, callInput);
    let approve: ((review: string, question: string) => Promise<boolean>) | undefined;
    let cannotAsk = false;
    if (tool.spec.trade) {
      const now = currentGate();
      if (!now.allowed) throw new UsageError(`${name} refused: ${now.reason}`, 'TRADING_NOT_ALLOWED');
      // A dry run signs nothing: no one need approve it.
      if (tool.spec.signs && opts.confirm && input.dryRun !== true) {
        if (server.getClientCapabilities()?.elicitation?.form)
          approve = (review, question) => askPerson(review, question, requestSignal);
        else cannotAsk = true;
      }
    }
    if (tool.spec.trade) {
      const key = typeof callInput.idempotencyKey === 'string' ? callInput.idempotencyKey : undefined;
      if (key) entry.idempotencyKey = key;
      try {
        audit.write({
          ...entry,
          time: new Date(ctx.clock.now()).toISOString(),
          outcome: 'started',
          exitCode: undefined,
        });
      } catch (err) {
        throw new UsageError(
          `${name} refused: cannot write the audit log ${audit.path}: ${(err as Error).message}; ${NOTHING_SENT}`,
          'AUDIT_LOG_UNWRITABLE',
        );
      }
    }
    const controller = new AbortController();
    const stop = (reason: unknown) => controller.abort(reason);
    const onRequestAbort = () => stop(new InterruptedError('SIGINT', [], 'the MCP client cancelled the call'));
    const onServerAbort = () => stop(ctx.signal.reason);
    requestSignal.addEventListener('abort', onRequestAbort, { once: true });
    ctx.signal.addEventListener('abort', onServerAbort, { once: true });
    const run = (commandArgv: string[]) =>
      runCommand(program.runCaptured, [...(tool.spec.trade ? ['--yes'] : []), ...globalArgv(ctx), ...commandArgv], {
        // In this process only: the key read from a file reaches each run without a command line.
        env: apiKey ? { ...ctx.env, TRADER_API_KEY: apiKey } : ctx.env,
        home: ctx.home,
        clock: ctx.clock,
        signal: controller.signal,
        version: ctx.version,
        fetch: ctx.facts.fetch,
        approve,
        agent: true,
      });
    try {
      if (cannotAsk) return await unconfirmable(name, tool, callInput, run);
      return await run(argv);
    } finally {
      requestSignal.removeEventListener('abort', onRequestAbort);
      ctx.signal.removeEventListener('abort', onServerAbort);
    }
  }

  /**
   * A trade no one can confirm (a client without elicitation) is checked as a dry run, on a quote
   * of its own key (the agent's stays unused, to resume the trade later): a refusal — above all a
   * trust only a person grants — is what the agent is told first, since a person who turned
   * confirmation off would still meet it; only a trade that passes every check is CONFIRMATION_REQUIRED.
   */
  async function unconfirmable(
    name: string,
    tool: Tool,
    input: Record<string, unknown>,
    run: (argv: string[]) => Promise<CommandRun>,
  ): Promise<CommandRun> {
    const checked = await run(toolArgv(tool, { ...input, dryRun: true, idempotencyKey: randomUUID() }));
    const key = typeof input.idempotencyKey === 'string' ? { idempotencyKey: input.idempotencyKey } : {};
    const quote = tradeFacts(checked.data).tradeId;
    const checkedAs = `checked as a dry run, as this MCP client cannot ask the person${quote ? ` (its quote, ${quote}, signs nothing)` : ''}`;
    if (checked.exitCode !== ExitCode.ok) {
      // The dry run's own result, quote and key are not the trade's: the agent's key resumes the trade.
      const { tradeId: _quote, idempotencyKey: _dryRunKey, ...error } = checked.error ?? fallbackError(checked);
      // A refusal before any quote (a limit) is the trade's own, word for word.
      return {
        ...checked,
        data: null,
        error: { ...error, ...key, message: quote ? `${error.message} (${checkedAs})` : error.message },
      };
    }
    const message =
      `${name} passed every check, but it needs the person's yes and this MCP client cannot ask them (no elicitation); ` +
      `two ways out, each the person's choice: an MCP client that can ask them (elicitation), or, for unattended trading within the profile's limits, ` +
      `a restart of the server with \`trader mcp --allow-trading --no-confirm\`; ${checkedAs}; ${NOTHING_SIGNED}`;
    return {
      ...checked,
      data: null,
      exitCode: ExitCode.usage,
      error: { ...errorReport(new UsageError(message, 'CONFIRMATION_REQUIRED')), ...key },
    };
  }

  /** Shows the person a trade's review through the client; true only on their explicit yes. */
  async function askPerson(review: string, question: string, signal: AbortSignal): Promise<boolean> {
    try {
      const answer = await server.elicitInput(
        {
          // The review quotes the service (token names): no escapes or bidi controls reach the person.
          message: safeForTerminal(`${review}\n\n${question}`),
          requestedSchema: {
            type: 'object',
            properties: {
              approve: {
                type: 'boolean',
                title: question,
                description: 'yes signs it; anything else signs nothing',
                default: false,
              },
            },
            required: ['approve'],
          },
        },
        { signal, timeout: APPROVAL_TIMEOUT_MS },
      );
      return answer.action === 'accept' && answer.content?.approve === true;
    } catch (err) {
      log(`no answer from the person: ${(err as Error).message}; nothing is signed`);
      return false;
    }
  }

  const transport = new StdioServerTransport(ctx.facts.stdin as Readable, ctx.facts.stdout as Writable);
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
  });
  await server.connect(transport);
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
    `serving ${tools.size + 1} tools over stdio; ${gate.allowed ? `trading on (${opts.confirm ? 'each trade asks the person where the client can' : 'no confirmation asked'})` : `trading off: ${gate.reason}`}; audit log ${audit.path}`,
  );
  const end = () => void server.close();
  ctx.facts.stdin.once('end', end);
  ctx.facts.stdin.once('close', end);
  ctx.signal.addEventListener('abort', end, { once: true });
  await closed;
  // A call under way (a trade waiting for its end) finishes and is audited before the process exits.
  await Promise.allSettled([...inFlight]);
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

/** The global options of every run: the server's resolved service, wallet, profile and waits. */
function globalArgv(ctx: Context): string[] {
  const s = ctx.settings;
  return [
    `--profile=${s.profileName}`,
    ...(s.baseUrl ? [`--base-url=${s.baseUrl}`] : []),
    `--keypair=${s.keypair}`,
    ...(s.passwordFile ? [`--password-file=${s.passwordFile}`] : []),
    ...(s.rpcUrl ? [`--rpc-url=${s.rpcUrl}`] : []),
    ...(s.treasury ? [`--treasury=${s.treasury}`] : []),
    `--timeout=${s.timeoutSeconds}`,
    `--request-timeout=${s.requestTimeoutSeconds}`,
    ...(s.insecure ? ['--insecure'] : []),
  ];
}
