// The audit log of the MCP server: one JSON line per tool call (time, tool, arguments, outcome,
// trade id) in mcp-audit.jsonl beside the config file, mode 0600. The API key never reaches it:
// no tool takes one, and any text equal to it is masked before a line is written.
import { chmodSync, closeSync, fstatSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface AuditEntry {
  time: string;
  tool: string;
  arguments: Record<string, unknown>;
  /** `ok`, or the error's category (`refused_to_sign`, `usage`, …). */
  outcome: string;
  exitCode: number;
  /** The error code, when the call failed. */
  code?: string;
  /** The buy intent or sell authorization the call made or touched. */
  tradeId?: string;
  idempotencyKey?: string;
}

/** The audit log beside this config file. */
export function auditLogPath(configFile: string): string {
  return join(dirname(configFile), 'mcp-audit.jsonl');
}

/** Appends entries to the log; `secrets` are masked wherever they appear. */
export class AuditLog {
  constructor(
    readonly path: string,
    private readonly secrets: readonly string[],
  ) {}

  /** Appends one line (creating the file 0600, and its folder 0700, if need be). */
  write(entry: AuditEntry): void {
    let line = JSON.stringify(entry);
    for (const secret of this.secrets) if (secret) line = line.split(secret).join('[redacted]');
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    const fd = openSync(this.path, 'a', 0o600);
    try {
      // A file made by someone else with wider permissions is narrowed: it names trades.
      if ((fstatSync(fd).mode & 0o077) !== 0) chmodSync(this.path, 0o600);
      writeSync(fd, line + '\n');
    } finally {
      closeSync(fd);
    }
  }
}
