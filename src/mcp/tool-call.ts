// tools/call: each call to an offered tool runs and is audited whatever its end; the status tool
// answers from the gate and the lock as they are now; any other name is the protocol's error.
import { ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { errorReport, ExitCode, exitCodeOf, keyedRetry } from '../domain/errors.js';
import type { AuditEntry } from './audit-log.js';
import { runTool } from './run-tool.js';
import { auditTime, currentGate, lockNow, STATUS_TOOL, writeAudit, type McpSession } from './session.js';
import { failure, fallbackError, success, tradeFacts } from './tool-results.js';
import { TRADE_TOOLS } from './tools.js';

/** A tool tools/list does not name is the protocol's error (as the SDK's McpServer answers), not a tool result. */
export function refuseUnknownTool(session: McpSession, name: string, input: Record<string, unknown>): void {
  if (name === STATUS_TOOL || session.tools.has(name)) return;
  writeAudit(session, {
    time: auditTime(session),
    tool: name,
    arguments: input,
    outcome: 'usage',
    code: 'UNKNOWN_TOOL',
    exitCode: ExitCode.usage,
  });
  const offered = TRADE_TOOLS.some((t) => t.name === name) ? ` (${name} is not offered: ${session.gate.reason})` : '';
  throw new McpError(ErrorCode.InvalidParams, `Tool ${name} not found${offered}; tools/list names the tools`);
}

/** One tool call, audited whatever its end. */
export async function handleCall(
  session: McpSession,
  name: string,
  input: Record<string, unknown>,
  requestSignal: AbortSignal,
): Promise<CallToolResult> {
  const entry: AuditEntry = { time: auditTime(session), tool: name, arguments: input, outcome: 'ok', exitCode: 0 };
  let result: CallToolResult;
  try {
    result =
      name === STATUS_TOOL ? statusResult(session) : await commandResult(session, name, input, entry, requestSignal);
  } catch (err) {
    const report = errorReport(err);
    const exitCode = exitCodeOf(err);
    result = failure(report, exitCode, null);
    Object.assign(entry, { outcome: report.category, code: report.code, exitCode });
  }
  // The outcome line has its own time: when the call ended, not when it started.
  writeAudit(session, { ...entry, time: auditTime(session) });
  return result;
}

/** The status tool: the lock and the gate as they are now. */
function statusResult(session: McpSession): CallToolResult {
  const now = currentGate(session);
  const lock = lockNow(session.ctx);
  const text = lock
    ? `${lock.words}; nothing is signed until a person at a terminal runs \`trader unlock\``
    : now.allowed
      ? 'trading is on'
      : `trading is off: ${now.reason}`;
  return { content: [{ type: 'text', text }], structuredContent: { ...now, lock } };
}

/** A command tool's run as the tool's result, its outcome noted in the audit entry. */
async function commandResult(
  session: McpSession,
  name: string,
  input: Record<string, unknown>,
  entry: AuditEntry,
  requestSignal: AbortSignal,
): Promise<CallToolResult> {
  const run = await runTool(session, name, input, entry, requestSignal);
  const error = run.error ?? fallbackError(run);
  // A buy or sell is retryable only with its key: the error carries it, to pass back.
  const result =
    run.exitCode === ExitCode.ok
      ? success(name, run)
      : failure(session.tools.get(name)?.spec.signs ? keyedRetry(error) : error, run.exitCode, run.data);
  Object.assign(entry, { exitCode: run.exitCode }, tradeFacts(run.data));
  if (run.exitCode !== ExitCode.ok) {
    Object.assign(entry, { outcome: run.error?.category ?? 'internal', code: run.error?.code });
    if (run.error?.idempotencyKey) entry.idempotencyKey = run.error.idempotencyKey;
    if (run.error?.tradeId) entry.tradeId = run.error.tradeId;
  }
  return result;
}
