// Runs one offered tool's command in this process: the trade checks before it runs (the gate
// now, the person's yes, the started line of the audit log), then the run, cancellable by the
// client or the server's end.
import { randomUUID } from 'node:crypto';
import type { Context } from '../cli/context.js';
import { InterruptedError, UsageError } from '../domain/errors.js';
import { NOTHING_SENT } from '../domain/outcome-words.js';
import type { AuditEntry } from './audit-log.js';
import { askPerson } from './elicitation.js';
import { runCommand, type CommandRun } from './run-command.js';
import { auditTime, currentGate, type McpSession } from './session.js';
import { toolArgv, type Tool } from './tools.js';
import { unconfirmable } from './unconfirmable.js';

type Approve = (review: string, question: string) => Promise<boolean>;

/**
 * Runs the tool's command in-process; throws a UsageError for a call refused before it runs.
 * A trade is first logged as started, with its idempotency key (made here when the agent gave
 * none): a trade that cannot be logged is not run.
 */
export async function runTool(
  session: McpSession,
  name: string,
  input: Record<string, unknown>,
  entry: AuditEntry,
  requestSignal: AbortSignal,
): Promise<CommandRun> {
  // Offered: the call handler answers any other name with the protocol's error.
  const tool = session.tools.get(name)!;
  const callInput = withIdempotencyKey(tool, input);
  // The input's own refusals come before the gate's.
  const argv = toolArgv(tool, callInput);
  const { approve, cannotAsk } = tool.spec.trade
    ? approvalFor(session, name, tool, input, requestSignal)
    : { approve: undefined, cannotAsk: false };
  if (tool.spec.trade) auditStarted(session, name, callInput, entry);
  const controller = new AbortController();
  const detach = followAborts(session.ctx, requestSignal, controller);
  const run = (commandArgv: string[]) => runInProcess(session, tool, commandArgv, controller.signal, approve);
  try {
    if (cannotAsk) return await unconfirmable(name, tool, callInput, run);
    return await run(argv);
  } finally {
    detach();
  }
}

/** The agent's input, with a fresh idempotency key where the command takes one and none was given. */
function withIdempotencyKey(tool: Tool, input: Record<string, unknown>): Record<string, unknown> {
  const keyed = tool.options.some((o) => o.name === 'idempotencyKey');
  return keyed && (input.idempotencyKey === undefined || input.idempotencyKey === null)
    ? { ...input, idempotencyKey: randomUUID() }
    : input;
}

/** A trade runs only while the gate allows it now; one that signs asks the person where the client can. */
function approvalFor(
  session: McpSession,
  name: string,
  tool: Tool,
  input: Record<string, unknown>,
  requestSignal: AbortSignal,
): { approve: Approve | undefined; cannotAsk: boolean } {
  const now = currentGate(session);
  if (!now.allowed) throw new UsageError(`${name} refused: ${now.reason}`, 'TRADING_NOT_ALLOWED');
  // A dry run signs nothing: no one need approve it.
  if (!(tool.spec.signs && session.opts.confirm && input.dryRun !== true))
    return { approve: undefined, cannotAsk: false };
  if (!session.server.getClientCapabilities()?.elicitation?.form) return { approve: undefined, cannotAsk: true };
  const approve: Approve = (review, question) =>
    askPerson(session.server, session.log, review, question, requestSignal);
  return { approve, cannotAsk: false };
}

/** The trade's started line, with its key: one that cannot be written stops the trade before anything is sent. */
function auditStarted(session: McpSession, name: string, callInput: Record<string, unknown>, entry: AuditEntry): void {
  const key = typeof callInput.idempotencyKey === 'string' ? callInput.idempotencyKey : undefined;
  if (key) entry.idempotencyKey = key;
  try {
    session.audit.write({ ...entry, time: auditTime(session), outcome: 'started', exitCode: undefined });
  } catch (err) {
    throw new UsageError(
      `${name} refused: cannot write the audit log ${session.audit.path}: ${(err as Error).message}; ${NOTHING_SENT}`,
      'AUDIT_LOG_UNWRITABLE',
    );
  }
}

/** Stops the run when the client cancels the call or the server is stopped; returns the undo. */
function followAborts(ctx: Context, requestSignal: AbortSignal, controller: AbortController): () => void {
  const stop = (reason: unknown) => controller.abort(reason);
  const onRequestAbort = () => stop(new InterruptedError('SIGINT', [], 'the MCP client cancelled the call'));
  const onServerAbort = () => stop(ctx.signal.reason);
  requestSignal.addEventListener('abort', onRequestAbort, { once: true });
  ctx.signal.addEventListener('abort', onServerAbort, { once: true });
  return () => {
    requestSignal.removeEventListener('abort', onRequestAbort);
    ctx.signal.removeEventListener('abort', onServerAbort);
  };
}

/** `trader <argv> --json` in this process (trades with --yes), with the server's global options. */
function runInProcess(
  session: McpSession,
  tool: Tool,
  commandArgv: string[],
  signal: AbortSignal,
  approve: Approve | undefined,
): Promise<CommandRun> {
  const { ctx, apiKey } = session;
  return runCommand(
    session.program.runCaptured,
    [...(tool.spec.trade ? ['--yes'] : []), ...globalArgv(ctx), ...commandArgv],
    {
      // In this process only: the key read from a file reaches each run without a command line.
      env: apiKey ? { ...ctx.env, TRADER_API_KEY: apiKey } : ctx.env,
      home: ctx.home,
      clock: ctx.clock,
      signal,
      version: ctx.version,
      fetch: ctx.facts.fetch,
      approve,
      agent: true,
    },
  );
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
