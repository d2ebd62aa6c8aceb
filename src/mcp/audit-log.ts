// The audit log of the MCP server: one JSON line per tool call (time, tool, arguments, outcome,
// trade id), and for a trade one more before it runs (`started`, with its idempotency key) in mcp-audit.jsonl beside the config file, mode 0600. The API key never reaches it:
// no tool takes one, and any text equal to it is masked before a line is written.
// The file is opened without following a symlink and must be a regular file of this user: a
// link planted at its name could otherwise make the server append to (and chmod) any file.
import { closeSync, constants, fchmodSync, fstatSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface AuditEntry {
  time: string;
  tool: string;
  arguments: Record<string, unknown>;
  /**
   * `started` (a trade about to run: written before anything is sent), then `ok` or the error's
   * category (`refused_to_sign`, `usage`, …).
   */
  outcome: string;
  /** The exit code, once the call has ended. */
  exitCode?: number;
  /** The error code, when the call failed. */
  code?: string;
  /** The buy intent or sell authorization the call made or touched. */
  tradeId?: string;
  idempotencyKey?: string;
}

/** Append, creating if need be; never through a symlink (ELOOP), never waiting on a pipe (ENXIO, or fstat below). */
const APPEND_NO_FOLLOW =
  constants.O_WRONLY |
  constants.O_APPEND |
  constants.O_CREAT |
  (constants.O_NOFOLLOW ?? 0) |
  (constants.O_NONBLOCK ?? 0);

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
    let fd: number;
    try {
      fd = openSync(this.path, APPEND_NO_FOLLOW, 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENXIO')
        throw new Error(`${this.path} is not a regular file (a pipe)`);
      throw err;
    }
    try {
      const facts = fstatSync(fd);
      if (!facts.isFile()) throw new Error(`${this.path} is not a regular file`);
      const myUid = typeof process.getuid === 'function' ? process.getuid() : null;
      if (myUid !== null && facts.uid !== myUid)
        throw new Error(`${this.path} belongs to another user (uid ${facts.uid}; you are uid ${myUid})`);
      // A file made with wider permissions is narrowed: it names trades.
      if ((facts.mode & 0o077) !== 0) fchmodSync(fd, 0o600);
      writeSync(fd, line + '\n');
    } finally {
      closeSync(fd);
    }
  }
}
