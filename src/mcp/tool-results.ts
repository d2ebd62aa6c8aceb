// A command's run as an MCP tool result: the JSON the CLI prints as structured content (a list as
// {items, pagination}) with a summary line, or the error report as a tool error; and the trade a
// result names, for the audit log.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ErrorReport } from '../domain/errors.js';
import type { AuditEntry } from './audit-log.js';
import type { CommandRun } from './run-command.js';
import { NOTHING_SIGNED } from '../domain/outcome-words.js';
import { safeForTerminal } from '../io/terminal-text.js';

/** The trade a result names, for the audit log. */
export function tradeFacts(data: unknown): Pick<AuditEntry, 'tradeId' | 'idempotencyKey'> {
  if (!data || typeof data !== 'object' || Array.isArray(data)) return {};
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a command's --json document of any shape, read field by field
  const d = data as Record<string, any>;
  const tradeId = d.intent?.id ?? d.authorization?.id;
  return {
    ...(typeof tradeId === 'string' ? { tradeId } : {}),
    ...(typeof d.idempotencyKey === 'string' ? { idempotencyKey: d.idempotencyKey } : {}),
  };
}

/** A line of what a result is, for clients that show text. */
function summary(tool: string, run: CommandRun): string {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above
  const d = run.data as any;
  if (Array.isArray(d)) {
    const more =
      run.pagination?.hasMore && run.pagination.nextCursor
        ? `; more with cursor ${JSON.stringify(run.pagination.nextCursor)}`
        : '';
    return `${d.length} ${tool === 'holdings' ? 'holdings' : 'items'}${more}`;
  }
  if (d?.dryRun) return `${tool} dry run: ${d.ok ? 'every check passed' : 'refused'}; ${NOTHING_SIGNED}`;
  if (d?.intent)
    return `buy ${d.intent.id}: ${d.intent.status}${d.idempotencyKey ? ` (idempotency key ${d.idempotencyKey})` : ''}`;
  if (d?.authorization)
    return `sell ${d.authorization.id}: ${d.sell?.status ?? d.authorization.status}${d.idempotencyKey ? ` (idempotency key ${d.idempotencyKey})` : ''}`;
  // The chain's verdict is said only when the tool made it (top-level `verification`), never the service's.
  if (d?.trade)
    return `${d.trade.side ?? 'trade'} ${d.trade.id}: ${d.trade.stage}${d.trade.terminal ? ' (terminal)' : ''}${d.verification ? `; on chain: ${d.verification.verdict}` : ''}`;
  return `${tool}: done`;
}

export function success(tool: string, run: CommandRun): CallToolResult {
  const structured = Array.isArray(run.data)
    ? { items: run.data, ...(run.pagination ? { pagination: run.pagination } : {}) }
    : ((run.data ?? {}) as Record<string, unknown>);
  const warnings = run.warnings.map((w) => `\nwarning: ${w}`).join('');
  return {
    // The service's strings (statuses, names) reach a client that may show them: what cannot be seen is named.
    content: [{ type: 'text', text: safeForTerminal(`${summary(tool, run)}${warnings}\n${JSON.stringify(run.data)}`) }],
    structuredContent: structured,
  };
}

/**
 * A refusal for want of trust, as an agent is told it: the command that grants it is the person's
 * to run, after reading it, never the agent's (docs/agents.md: an agent with a shell could run it).
 */
export function forAgent(error: ErrorReport): ErrorReport {
  if (error.category !== 'refused_to_sign' || !error.command) return error;
  return {
    ...error,
    message: `${error.message}; ask the person to read this and, if they agree, to run at their own terminal: ${error.command} — that command is for the person, not for you: trust is theirs to grant`,
  };
}

/** A failed call as a tool result: the error report (an agent's words where trust is wanted), its exit code, and any result. */
export function failure(report: ErrorReport, exitCode: number, data: unknown): CallToolResult {
  // A client may show the text to a person: what cannot be seen is named there too, as the CLI's error line does.
  const said = forAgent(report);
  const error = { ...said, message: safeForTerminal(said.message) };
  const retry = error.retryable
    ? error.idempotencyKey
      ? `, retryable with idempotencyKey ${error.idempotencyKey}`
      : ', retryable'
    : '';
  const text = `error (${error.category}${retry}): ${error.message}`;
  return {
    isError: true,
    content: [{ type: 'text', text: safeForTerminal(`${text}\n${JSON.stringify({ error })}`) }],
    structuredContent: { error, exitCode, ...(data !== null && data !== undefined ? { result: data } : {}) },
  };
}

/** A run that failed without an error line (never expected): said as an internal error. */
export function fallbackError(run: CommandRun): ErrorReport {
  return {
    code: 'INTERNAL',
    message: `the command ended with exit ${run.exitCode} and no error`,
    status: null,
    requestId: null,
    category: 'internal',
    retryable: false,
  };
}
