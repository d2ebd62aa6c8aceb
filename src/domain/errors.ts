// Typed errors. Code below main.ts throws these; only main.ts turns them into exit codes
// (the table of shared/cli-contract.md). Every layer imports this file; it imports nothing.

export const ExitCode = {
  ok: 0,
  internal: 1,
  usage: 2,
  service: 3,
  tradeFailed: 4,
  pending: 5,
  refusedToSign: 6,
  sigint: 130,
  sigterm: 143,
} as const;
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/** Base of every error the tool expects; `code` is a stable machine-readable word for --json. */
export abstract class TraderError extends Error {
  abstract readonly exitCode: ExitCodeValue;
  /** Stable code shown in `{"error":{"code":…}}`. */
  readonly code: string;
  /** Extra lines for human mode (how to follow or fix). */
  readonly hints: string[];
  /**
   * A command the message (or its last hint) ends with that the user may copy (follow, resume,
   * accept): in human mode it goes on a line of its own when its line would pass the terminal's width.
   */
  command: string | null = null;
  /** How a machine routes it, for an error class that says so itself (the chain's); else classifyError decides by class. */
  readonly routing?: { category: ErrorCategory; retryable: boolean };
  constructor(message: string, code: string, hints: string[] = []) {
    super(message);
    this.name = new.target.name;
    this.code = code;
    this.hints = hints;
  }

  /** Marks the command the message (or its last hint) ends with as one to copy; returns the error. */
  endingWith(command: string | null): this {
    this.command = command;
    return this;
  }
}

/** Bad argument, missing configuration, unreadable keypair, over a limit: exit 2. */
export class UsageError extends TraderError {
  readonly exitCode = ExitCode.usage;
  constructor(message: string, code = 'USAGE', hints: string[] = []) {
    super(message, code, hints);
  }
}

/**
 * The service refused a create as invalid input (HTTP 400/422), before anything was signed: the
 * user's to change, like any bad argument (exit 2), with the service's reason, status and request id.
 */
export class ServiceRejectedError extends UsageError {
  readonly status: number;
  readonly requestId: string | null;
  constructor(message: string, opts: { code: string; status: number; requestId: string | null; hints?: string[] }) {
    super(message, opts.code, opts.hints ?? []);
    this.status = opts.status;
    this.requestId = opts.requestId;
  }
}

/** The HTTP status and request id of an error that came with an answer from the service, else nulls. */
export function answerOf(err: unknown): { status: number | null; requestId: string | null } {
  if (err instanceof ApiError || err instanceof ServiceRejectedError)
    return { status: err.status, requestId: err.requestId };
  return { status: null, requestId: null };
}

/** The service refused, failed, was unreachable or answered something unexpected: exit 3. */
/** The code of the error a self-contradicting service gets (exit 3). */
export const SERVICE_CONTRADICTION = 'SERVICE_CONTRADICTION';

export class ApiError extends TraderError {
  readonly exitCode = ExitCode.service;
  /** HTTP status, or null when no response arrived. */
  readonly status: number | null;
  readonly requestId: string | null;
  /** What the service's Retry-After asked for on the last attempt, in ms (polling honours it). */
  readonly retryAfterMs: number | null;
  constructor(
    message: string,
    opts: {
      code?: string;
      status?: number | null;
      requestId?: string | null;
      hints?: string[];
      retryAfterMs?: number | null;
    } = {},
  ) {
    super(message, opts.code ?? 'SERVICE_ERROR', opts.hints ?? []);
    this.status = opts.status ?? null;
    this.requestId = opts.requestId ?? null;
    this.retryAfterMs = opts.retryAfterMs ?? null;
  }

  /** The same failure with what else is known appended (a new error; the original is left as it was). */
  withNote(note: string): ApiError {
    return new ApiError(`${this.message}; ${note}`, {
      code: this.code,
      status: this.status,
      requestId: this.requestId,
      hints: this.hints,
      retryAfterMs: this.retryAfterMs,
    });
  }
}

/** The trade ended without success (failed, refunded, expired, cancelled, declined): exit 4. */
export class TradeFailedError extends TraderError {
  readonly exitCode = ExitCode.tradeFailed;
  constructor(message: string, code: string, hints: string[] = []) {
    super(message, code, hints);
  }
}

/**
 * The user said no at the prompt: exit 4 like any trade that did not happen, but their choice,
 * not an error, so it is printed as a plain line.
 */
export class DeclinedError extends TradeFailedError {
  /** What else the user should know (a cancel that failed, an authorization left to expire), or null. */
  readonly detail: string | null;
  /** `message`: the sentence the flow says (domain/outcome-words.ts DECLINED, with the detail). */
  constructor(message: string, detail: string | null = null) {
    super(message, 'DECLINED');
    this.detail = detail;
  }
}

/** Gave up waiting; the trade may still finish: exit 5. */
export class PendingError extends TraderError {
  readonly exitCode = ExitCode.pending;
  constructor(message: string, hints: string[] = []) {
    super(message, 'TIMEOUT', hints);
  }
}

/**
 * What only a person may grant before a refused trade can be signed (domain/presence.ts): its
 * stable code (WORDING_NOT_APPROVED, WORDING_CHANGED, TOKEN_FACTS_UNCONFIRMED,
 * TREASURY_NOT_PINNED, VALUE_READS_AS_TEXT, SYMBOL_NOT_BOUND), the command that grants it, the
 * fingerprint of what it grants (a wording, a token's facts) and, for token facts, those facts in words.
 */
export interface NeededTrust {
  code: string;
  command: string | null;
  fingerprint?: string;
  facts?: string;
}

/** A token fact bound to a mint (domain/token-binding.ts) that the chain now states otherwise. */
export interface BoundFactChange {
  mint: string;
  fact: 'decimals' | 'symbol' | 'name';
  bound: number | string;
  chain: number | string | null;
  /** Who bound it: a person ('prompt', 'accept-command', 'setting'), or the chain at a trade a person signed. */
  by: string;
}

/** A safety check failed, or trust only a person may grant is missing; nothing was signed: exit 6. */
export class RefusedToSignError extends TraderError {
  readonly exitCode = ExitCode.refusedToSign;
  /** Every check that failed, one line each. */
  readonly problems: string[];
  readonly trust: NeededTrust | null;
  /** Bound token facts the chain contradicts (BOUND_FACTS_CHANGED), for the --json error line. */
  readonly facts: readonly BoundFactChange[];
  constructor(
    problems: string[],
    hints: string[] = [],
    trust: NeededTrust | null = null,
    facts: readonly BoundFactChange[] = [],
  ) {
    super(`refused to sign: ${problems.join('; ')}`, trust?.code ?? 'REFUSED_TO_SIGN', hints);
    this.problems = problems;
    this.trust = trust;
    this.command = trust?.command ?? null;
    this.facts = facts;
  }
}

/** SIGINT or SIGTERM while waiting: exit 130 / 143; the trade goes on. */
export class InterruptedError extends TraderError {
  readonly exitCode: ExitCodeValue;
  readonly signal: 'SIGINT' | 'SIGTERM';
  /** `note`: what became of the trade, said in the message itself so --json's error line carries it. */
  constructor(signal: 'SIGINT' | 'SIGTERM', hints: string[] = [], note?: string) {
    super(note ? `interrupted (${signal}); ${note}` : `interrupted (${signal})`, 'INTERRUPTED', hints);
    this.signal = signal;
    this.exitCode = signal === 'SIGINT' ? ExitCode.sigint : ExitCode.sigterm;
  }
}

/**
 * Where an error sends a program that reads it: what kind of failure, by the exit code's family
 * and, for the service's errors, by the HTTP status. Documented in docs/agents.md.
 */
export const ERROR_CATEGORIES = [
  'usage',
  'auth',
  'network',
  'rate_limit',
  'service',
  'refused_to_sign',
  'trade_failed',
  'timeout',
  'interrupted',
  'internal',
] as const;
export type ErrorCategory = (typeof ERROR_CATEGORIES)[number];

/** The error as `--json` prints it and an MCP tool returns it. */
export interface ErrorReport {
  code: string;
  message: string;
  /** HTTP status, or null when no response (or no HTTP) was involved. */
  status: number | null;
  requestId: string | null;
  category: ErrorCategory;
  /**
   * True only where running the same command again, with the same idempotency key, is safe and
   * may succeed: a transient failure of the service or the network, a wait given up, an
   * interruption. A trade resumes from the service's state for that key; nothing runs twice.
   * For a buy or sell: retry with the `idempotencyKey` given here, never without it.
   */
  retryable: boolean;
  /**
   * A buy's or sell's errors: the key that resumes this same trade (`--idempotency-key`, the
   * tools' `idempotencyKey`), so a retry cannot create and sign a second one.
   */
  idempotencyKey?: string;
  /** The buy intent or sell authorization, once created. */
  tradeId?: string;
  /** A refusal for want of a person's trust: the command that grants it, and a wording's fingerprint. */
  command?: string;
  fingerprint?: string;
  /** BOUND_FACTS_CHANGED: each bound token fact and what the chain says now. */
  facts?: BoundFactChange[];
}

/** The trade an error of a buy or sell belongs to (trade/trade-tracker.ts marks it, once). */
export interface TradeTag {
  idempotencyKey: string;
  id: string | null;
  /**
   * The --json result a trade stopped by a refusal or a decline still owes stdout (its last intent
   * or authorization and the key): the entry (run.ts) writes it, before the error line.
   */
  result?: unknown;
}

const TRADE_TAG = Symbol('trade');

/** Marks an error as a trade's (keeping a mark already there); returns it to be thrown. */
export function tagTrade(err: unknown, tag: TradeTag): unknown {
  if (err !== null && typeof err === 'object' && !(TRADE_TAG in err))
    Object.defineProperty(err, TRADE_TAG, { value: { ...tag } });
  return err;
}

/** The trade an error belongs to, if a buy's or sell's. */
export function tradeTagOf(err: unknown): TradeTag | null {
  return err !== null && typeof err === 'object' && TRADE_TAG in err
    ? ((err as Record<symbol, unknown>)[TRADE_TAG] as TradeTag)
    : null;
}

/** The category and retryability of an error: the one table, by class, then status and code. */
export function classifyError(err: unknown): { category: ErrorCategory; retryable: boolean } {
  if (err instanceof ApiError) {
    const status = err.status;
    if (status === 401 || status === 403) return { category: 'auth', retryable: false };
    if (status === 429 || err.code === 'RATE_LIMITED') return { category: 'rate_limit', retryable: true };
    // No answer at all, or an answer that never finished: the network (the retries ran out).
    if (err.code === 'NETWORK_ERROR' || (err.code === 'REQUEST_TIMEOUT' && (status === null || status < 300)))
      return { category: 'network', retryable: true };
    // 5xx: the service failed; with the same key a repeat cannot do the work twice.
    if (status !== null && status >= 500) return { category: 'service', retryable: true };
    return { category: 'service', retryable: false };
  }
  if (err instanceof UsageError) return { category: 'usage', retryable: false };
  // A failed, refunded, expired or declined trade: the same key would only replay its end.
  if (err instanceof TradeFailedError) return { category: 'trade_failed', retryable: false };
  if (err instanceof PendingError) return { category: 'timeout', retryable: true };
  if (err instanceof RefusedToSignError) return { category: 'refused_to_sign', retryable: false };
  if (err instanceof InterruptedError) return { category: 'interrupted', retryable: true };
  // Classes defined elsewhere (src/chain/chain-errors.ts) say their own routing.
  if (err instanceof TraderError && err.routing) return err.routing;
  return { category: 'internal', retryable: false };
}

/**
 * What an error says, each sentence once: the message with no clause repeated (a note that says
 * again what the message said), and the hints that the message does not already say, in one.
 */
export function errorTail(err: unknown): { message: string; hint: string } {
  const known = err instanceof TraderError ? err : null;
  const message = onceEach(
    (known ? known.message : `internal error: ${(err as Error)?.message ?? String(err)}`).split('; '),
  ).join('; ');
  const hints = onceEach(known?.hints ?? []).filter((h) => !message.includes(h));
  return { message, hint: hints.join('; ') };
}

/** The texts without one that repeats an earlier one. */
function onceEach(texts: readonly string[]): string[] {
  return texts.filter((t, i) => t !== '' && texts.indexOf(t) === i);
}

/** The error as one machine-readable report; hints not already in the message are appended to it. */
export function errorReport(err: unknown): ErrorReport {
  const known = err instanceof TraderError ? err : null;
  // The report has no field for hints (how to follow the trade, what to fix): they go in the message.
  const { message, hint } = errorTail(err);
  const trade = tradeTagOf(err);
  return {
    code: known?.code ?? 'INTERNAL',
    message: hint ? `${message}; ${hint}` : message,
    ...answerOf(err),
    ...classifyError(err),
    ...(trade ? { idempotencyKey: trade.idempotencyKey, ...(trade.id ? { tradeId: trade.id } : {}) } : {}),
    ...(err instanceof RefusedToSignError && err.trust?.command ? { command: err.trust.command } : {}),
    ...(err instanceof RefusedToSignError && err.trust?.fingerprint ? { fingerprint: err.trust.fingerprint } : {}),
    ...(err instanceof RefusedToSignError && err.facts.length > 0 ? { facts: [...err.facts] } : {}),
  };
}

/**
 * A buy's or sell's error as an agent gets it: retryable only when it gives the idempotency key a
 * retry must pass, since a retry without it would create and sign a second trade.
 */
export function keyedRetry(report: ErrorReport): ErrorReport {
  return report.retryable && !report.idempotencyKey ? { ...report, retryable: false } : report;
}

/** The exit code of an error (1 for one the tool did not expect). */
export function exitCodeOf(err: unknown): ExitCodeValue {
  return err instanceof TraderError ? err.exitCode : ExitCode.internal;
}
