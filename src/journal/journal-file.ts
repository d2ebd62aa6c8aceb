// The trade journal: what this tool signed, one JSON line per record, appended to journal.jsonl
// beside the config file (mode 0600), never rewritten. Every append happens under the file's lock
// (locked-file.ts), so processes trading at once see each other's records, and a caller can
// check what is on disk and append in one step (the daily limits, the evidence claims). Each
// record is fsynced before append returns: before the step it records. A line that does not
// parse is reported (once, by its number) and skipped, never trusted. The file is created
// exclusively and opened without following a symlink; one that others can write is refused.
// What the records mean is records.ts.
import { closeSync, constants, fchmodSync, fstatSync, fsyncSync, readSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseRecord, type JournalRecord, type NewRecord } from './records.js';
import {
  assertOwnPrivate,
  ensureDir,
  LockedFileError,
  ownershipProblem,
  withLock,
  type LockTiming,
} from '../config/locked-file.js';
import { NotRegularFileError, openRegular } from '../config/regular-file.js';

/** Thrown when the journal cannot be read or written; no trade may be signed without it. */
export class JournalError extends Error {}

/** The journal beside this config file. */
export function journalPath(configFile: string): string {
  return join(dirname(configFile), 'journal.jsonl');
}

/** The file operations that can fail on a full disk; a test injects its own. */
export interface JournalIo {
  write(fd: number, data: Buffer, offset: number): number;
  fsync(fd: number): void;
}

const FS_IO: JournalIo = {
  write: (fd, data, offset) => writeSync(fd, data, offset),
  fsync: (fd) => fsyncSync(fd),
};

const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;
const APPEND = constants.O_WRONLY | constants.O_APPEND | NO_FOLLOW;
/** A new journal only: never an existing file, never through a symlink. */
const CREATE = APPEND | constants.O_CREAT | constants.O_EXCL;

/** The records read, and the lines that could not be trusted (1-based). */
export interface JournalRead {
  records: JournalRecord[];
  damaged: Array<{ line: number; reason: string }>;
}

/** The journal, writing as one service and wallet (every record names both). */
export class Journal {
  private readonly reported = new Set<number>();

  constructor(
    readonly path: string,
    private readonly owner: { service: string; wallet: string },
    private readonly timing: LockTiming,
    /** Told once of each damaged line. */
    private readonly warn: (message: string) => void = () => {},
    private readonly io: JournalIo = FS_IO,
  ) {}

  /**
   * Makes sure records can be appended: the folder and the file the user's own and not writable
   * by others, the file a regular one (created, 0600, if missing). Throws JournalError saying why not.
   */
  check(): void {
    this.guard(() => {
      ensureDir(dirname(this.path));
      assertOwnPrivate('config folder', dirname(this.path));
      closeSync(this.openForAppend());
    });
  }

  /** Every record on disk now. A line still being written (the last, unterminated) is left for later. */
  read(): JournalRecord[] {
    return this.guard(() => this.readRecords(false));
  }

  /** Appends one record under the lock (fsynced before it returns); nothing is read. */
  append(record: NewRecord): void {
    this.guard(() => withLock(this.path, this.timing, () => this.write([record])));
  }

  /**
   * Under the lock: `decide` sees every record on disk and returns those to append (it may throw
   * to refuse: nothing is written); they are appended and fsynced before update returns.
   */
  update(decide: (records: JournalRecord[]) => NewRecord[]): void {
    // What `decide` throws (a limit passed) is its own refusal, passed on as it is.
    let refused: { error: unknown } | null = null;
    this.guard(() =>
      withLock(this.path, this.timing, () => {
        let fresh: NewRecord[];
        try {
          fresh = decide(this.readRecords(true));
        } catch (error) {
          refused = { error };
          return;
        }
        if (fresh.length > 0) this.write(fresh);
      }),
    );
    if (refused) throw (refused as { error: unknown }).error;
  }

  /**
   * Under the lock: `step` sees every record on disk, and each record it appends is on disk
   * (fsynced) before `append` returns, so a step can record, act, and record again as one. What
   * `step` throws is passed on as it is, once the lock is released.
   */
  exclusive<T>(step: (records: readonly JournalRecord[], append: (record: NewRecord) => void) => T): T {
    // What `step` throws (a refusal, a contradiction) is not a file error: guard passes it on as it is.
    return this.guard(() =>
      withLock(this.path, this.timing, () => step(this.readRecords(true), (record) => this.write([record]))),
    );
  }

  private write(records: NewRecord[]): void {
    const at = new Date(this.timing.now()).toISOString();
    const lines = records.map((r) =>
      JSON.stringify({ v: 1, at, service: this.owner.service, wallet: this.owner.wallet, ...r }),
    );
    // The journal never writes what its reader would call damaged (and warn of at every run after).
    for (const line of lines) {
      const parsed = parseRecord(line);
      if ('damaged' in parsed)
        throw new JournalError(`a record the journal would not read back (${parsed.damaged}) was not written`);
    }
    const text = lines.map((line) => `${line}\n`).join('');
    const fd = this.openForAppend();
    try {
      // A line a crash left unterminated is ended first, so no record is glued to it.
      const data = Buffer.from(this.endsOpen(fd) ? `\n${text}` : text, 'utf8');
      for (let done = 0; done < data.length;) done += this.io.write(fd, data, done);
      this.io.fsync(fd);
    } catch (err) {
      throw new JournalError(`cannot write the journal ${this.path}: ${(err as Error).message}`);
    } finally {
      closeSync(fd);
    }
  }

  private readRecords(locked: boolean): JournalRecord[] {
    const text = this.readText();
    if (text === null) return [];
    const lines = text.split('\n');
    // The text after the last newline: a record being written now (another process, outside the
    // lock), or, under the lock, one a crash cut short.
    const tail = lines.pop()!;
    if (locked && tail !== '') lines.push(tail);
    const records: JournalRecord[] = [];
    lines.forEach((line, i) => {
      if (line.trim() === '') return;
      const parsed = parseRecord(line);
      if ('record' in parsed) records.push(parsed.record);
      else this.report(i + 1, parsed.damaged);
    });
    return records;
  }

  private report(line: number, reason: string): void {
    if (this.reported.has(line)) return;
    this.reported.add(line);
    this.warn(`journal ${this.path} line ${line} is damaged (${reason}); skipped, not trusted`);
  }

  private readText(): string | null {
    let fd: number;
    try {
      fd = openRegular(this.path, constants.O_RDONLY | NO_FOLLOW, 'the journal');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      if (err instanceof NotRegularFileError) throw new JournalError(err.message);
      throw refusal(this.path, err);
    }
    try {
      this.assertSafe(fd);
      const size = fstatSync(fd).size;
      const buffer = Buffer.alloc(size);
      let got = 0;
      while (got < size) {
        const n = readSync(fd, buffer, got, size - got, got);
        if (n === 0) break;
        got += n;
      }
      return buffer.subarray(0, got).toString('utf8');
    } finally {
      closeSync(fd);
    }
  }

  /** Opens for appending, creating the file exclusively (0600) when it is missing. */
  private openForAppend(): number {
    // Never waited on: a pipe at its name is refused at once (regular-file.ts).
    const open = (flags: number) => openRegular(this.path, flags, 'the journal', 0o600);
    let fd: number;
    try {
      fd = open(APPEND);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw refusal(this.path, err);
      try {
        fd = open(CREATE);
      } catch (createError) {
        // Another process created it meanwhile: open that one, with the same checks.
        if ((createError as NodeJS.ErrnoException).code !== 'EEXIST') throw refusal(this.path, createError);
        fd = open(APPEND);
      }
    }
    try {
      this.assertSafe(fd);
    } catch (err) {
      closeSync(fd);
      throw err;
    }
    return fd;
  }

  /** A regular file of this user that no one else can write; one others can read is narrowed (it names trades). */
  private assertSafe(fd: number): void {
    const facts = fstatSync(fd);
    if (!facts.isFile()) throw new JournalError(`the journal ${this.path} is not a regular file`);
    const problem = ownershipProblem(
      'journal',
      this.path,
      facts,
      typeof process.getuid === 'function' ? process.getuid() : null,
    );
    if (problem) throw new JournalError(problem);
    if ((facts.mode & 0o077) !== 0) fchmodSync(fd, 0o600);
  }

  private endsOpen(fd: number): boolean {
    const size = fstatSync(fd).size;
    if (size === 0) return false;
    const last = Buffer.alloc(1);
    const reader = openRegular(this.path, constants.O_RDONLY | NO_FOLLOW, 'the journal');
    try {
      readSync(reader, last, 0, 1, size - 1);
    } finally {
      closeSync(reader);
    }
    return last[0] !== 0x0a;
  }

  /** Runs `work`, turning every failure to read, lock or write into a JournalError. */
  private guard<T>(work: () => T): T {
    try {
      return work();
    } catch (err) {
      if (err instanceof JournalError) throw err;
      if (err instanceof LockedFileError || err instanceof NotRegularFileError) throw new JournalError(err.message);
      // A file system error (it has a syscall); anything else is a bug, thrown on.
      if (err instanceof Error && 'syscall' in err) throw refusal(this.path, err);
      throw err;
    }
  }
}

function refusal(path: string, err: unknown): JournalError {
  if (err instanceof NotRegularFileError) return new JournalError(err.message);
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ELOOP')
    return new JournalError(`the journal ${path} is a symbolic link; it must be a file of its own (remove the link)`);
  return new JournalError(`cannot use the journal ${path}: ${(err as Error).message}`);
}
