// What every part of `trader mcp` shares while it serves: the context, the tools offered, the
// audit log and the SDK server; and the facts read afresh on each call (the lock, the gate).
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { McpOptions } from './mcp-options.js';
import type { ProgramFacts } from '../cli/definition.js';
import type { Context } from '../cli/context.js';
import type { AuditEntry, AuditLog } from './audit-log.js';
import type { Tool } from './tools.js';
import { brakePath, readBrake } from '../config/brake-file.js';
import { lockWords } from '../domain/brake-rules.js';
import { tradingGate, type TradingGate } from './trading-gate.js';

/** The tool that says what this server allows (trading on or off, and why; the limits). */
export const STATUS_TOOL = 'trading_status';

/** The server's state, handed to each of its parts. */
export interface McpSession {
  ctx: Context;
  opts: McpOptions;
  program: ProgramFacts;
  /** The key read at the start, handed to each run in this process only. */
  apiKey: string | null;
  /** The gate as it was at the start: it decides which tools are offered. */
  gate: TradingGate;
  tools: Map<string, Tool>;
  audit: AuditLog;
  server: Server;
  /** A message for people on stderr. */
  log: (line: string) => void;
}

/** The lock as it is when a lock file names it. */
export interface LockNow {
  locked: true;
  words: string;
  at?: string;
  reason?: string | null;
  by?: string;
}

/** The lock as its file is now (trader lock), or null. */
export function lockNow(ctx: Context): LockNow | null {
  try {
    const lock = readBrake(brakePath(ctx.config.path));
    return lock ? { locked: true, words: lockWords(lock), ...lock } : null;
  } catch (err) {
    return { locked: true, words: `the lock file cannot be read: ${(err as Error).message}` };
  }
}

/** The gate as the profile is now: a person may have changed the limits since the start. */
export function currentGate(session: McpSession): TradingGate {
  return tradingGate(session.ctx.settingsNow(), session.opts.allowTrading);
}

/** An outcome line: one that cannot be written is said on stderr (the call has ended either way). */
export function writeAudit(session: McpSession, entry: AuditEntry): void {
  try {
    session.audit.write(entry);
  } catch (err) {
    session.ctx.output.warn(`trader mcp: cannot write the audit log ${session.audit.path}: ${(err as Error).message}`);
  }
}

/** The time of an audit line, by the context's clock. */
export function auditTime(session: McpSession): string {
  return new Date(session.ctx.clock.now()).toISOString();
}
