// A trade no MCP client can put to the person (no elicitation): checked as a dry run, never signed.
import { randomUUID } from 'node:crypto';
import { errorReport, ExitCode, UsageError } from '../domain/errors.js';
import { NOTHING_SIGNED } from '../domain/outcome-words.js';
import type { CommandRun } from './run-command.js';
import { fallbackError, tradeFacts } from './tool-results.js';
import { toolArgv, type Tool } from './tools.js';

/**
 * A trade no one can confirm (a client without elicitation) is checked as a dry run, on a quote
 * of its own key (the agent's stays unused, to resume the trade later): a refusal — above all a
 * trust only a person grants — is what the agent is told first, since a person who turned
 * confirmation off would still meet it; only a trade that passes every check is CONFIRMATION_REQUIRED.
 */
export async function unconfirmable(
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
