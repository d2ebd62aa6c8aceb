// `trader lock [reason]` and `trader unlock`: the brake for anything unattended. Anyone may pull it
// (a person, a script, a monitoring hook, an agent through `trader mcp`): from then on every
// process refuses to sign (trade/brake-checks.ts). Only a person at a terminal lifts it, at a
// prompt: never --yes, --json, a pipe or an agent. Both are written to the brake's audit log.
import type { Context } from '../cli/context.js';
import { appendBrakeAudit, brakeAuditPath, brakePath, readBrake, writeBrake } from '../config/brake-file.js';
import { LockedFileError } from '../config/locked-file.js';
import { lockWords, type BrakeLock } from '../domain/brake-rules.js';
import { DeclinedError, UsageError } from '../domain/errors.js';
import { printable } from '../domain/printable.js';
import { defineCommand, type NoOptions } from '../cli/definition.js';

/** Who pulled or lifted the brake, as the lock and the audit log name it. */
export function actor(ctx: Context): 'agent' | 'person' | 'script' {
  return ctx.facts.agent ? 'agent' : ctx.presence(false).mayGrantTrust ? 'person' : 'script';
}

export const lock = defineCommand<{ reason: string | null }>({
  arguments: [
    { name: '[reason]', help: 'why, shown by every refusal until a person unlocks (one line, up to 200 characters)' },
  ],
  examples: ['trader lock "price feed down"', 'trader lock --json   # from a cron job or a monitoring hook'],
  lenient: true,
  parse(raw) {
    const reason = raw.args[0]?.trim() ?? '';
    if (reason.length > 200 || /[\u0000-\u001f\u007f]/.test(reason))
      throw new UsageError(
        `the reason must be one line of at most 200 characters, got "${printable(reason.slice(0, 40))}…"`,
        'INVALID_ARGUMENT',
      );
    return { reason: reason === '' ? null : reason };
  },
  run: lockRun,
});

export const unlock = defineCommand<NoOptions>({
  examples: ['trader unlock'],
  lenient: true,
  parse: () => ({}),
  run: unlockRun,
});

/** `trader lock`: writes the lock (a lock in force is replaced by this one: its time and reason are the latest). */
async function lockRun(ctx: Context, { reason }: { reason: string | null }): Promise<void> {
  const path = brakePath(ctx.config.path);
  const now: BrakeLock = { at: new Date(ctx.clock.now()).toISOString(), reason, by: actor(ctx) };
  const before = guard(() => writeBrake(path, now, { now: () => ctx.clock.now() }));
  audit(ctx, { event: 'lock', reason, before });
  ctx.output.result(
    { locked: true, at: now.at, reason, by: now.by, path, replaced: before },
    () =>
      `Locked: ${lockWords(now)}. Every trader process now refuses to sign (exit 6); a person at a terminal lifts it with \`trader unlock\`.`,
  );
}

/** `trader unlock`: only a person at a terminal, who is shown the lock and says yes. */
async function unlockRun(ctx: Context): Promise<void> {
  const path = brakePath(ctx.config.path);
  let current: BrakeLock | null;
  let damaged: string | null = null;
  try {
    current = readBrake(path);
  } catch (err) {
    if (!(err instanceof LockedFileError)) throw err;
    current = null;
    damaged = err.message;
  }
  if (current === null && damaged === null)
    return ctx.output.result({ locked: false, path }, () => 'Trading is not locked.');
  const here = ctx.presence(false);
  if (!here.mayGrantTrust) {
    throw new UsageError(
      `only a person at a terminal lifts the lock, and here ${here.why}: ${current ? lockWords(current) : damaged}; nothing was changed`,
      'PERSON_REQUIRED',
      ['run `trader unlock` at your own terminal (no --yes, no --json, no pipe)'],
    );
  }
  ctx.output.note(current ? `${lockWords(current)[0]!.toUpperCase()}${lockWords(current).slice(1)}.` : damaged!);
  if (!(await ctx.prompter.confirm('Lift the lock, so that trader may sign again (unattended runs included)?', false)))
    throw new DeclinedError('declined: the lock stays');
  guard(() => writeBrake(path, null, { now: () => ctx.clock.now() }));
  audit(ctx, { event: 'unlock', before: current });
  ctx.output.result({ locked: false, path, lifted: current }, () => 'Unlocked: trader may sign again.');
}

function guard<T>(work: () => T): T {
  try {
    return work();
  } catch (err) {
    if (err instanceof LockedFileError) throw new UsageError(err.message, 'LOCK_FILE');
    throw err;
  }
}

/** One line of the brake's audit log; a log that cannot be written is a warning (the lock itself is on disk). */
export function audit(ctx: Context, entry: Record<string, unknown>): void {
  const path = brakeAuditPath(ctx.config.path);
  try {
    appendBrakeAudit(path, {
      time: new Date(ctx.clock.now()).toISOString(),
      profile: ctx.settings.profileName,
      by: actor(ctx),
      ...entry,
    });
  } catch (err) {
    ctx.output.warn(`cannot write the audit log ${path}: ${(err as Error).message}`);
  }
}
