// The brake for anything unattended, as pure rules: the lock a person lifts (its file's text and
// the refusal that names it), which mints an unattended run may trade, whether one more trade
// fits in the hour, and whether a change of a limit loosens it (a person's act) or tightens it
// (anyone's). What the journal's records count (the trades of the hour, the loss realized over
// 24 hours) is journal/brake-counts.ts.
import { RefusedToSignError } from './errors.js';
import { formatLocalTime } from './local-time.js';
import { NOTHING_SIGNED } from './outcome-words.js';

export const HOUR_MS = 60 * 60 * 1000;

/** The lock as its file holds it: when it was pulled, why, and by what kind of run. */
export interface BrakeLock {
  at: string;
  reason: string | null;
  /** `person` (a terminal), `script` (no terminal or --yes) or `agent` (trader mcp). */
  by: string;
}

/** The lock file's text for `lock` (null: unlocked). */
export function brakeText(lock: BrakeLock | null): string {
  return JSON.stringify({ v: 1, locked: lock }, null, 2) + '\n';
}

/** The lock a file's text holds (null: unlocked); throws on text that is not one, so a damaged file never reads as unlocked. */
export function parseBrake(text: string): BrakeLock | null {
  const parsed = JSON.parse(text) as { locked?: unknown };
  const locked = parsed?.locked;
  if (locked === null || locked === undefined) {
    if (typeof parsed === 'object' && parsed !== null && 'locked' in parsed) return null;
    throw new Error('it holds no "locked" field');
  }
  const l = locked as Record<string, unknown>;
  if (typeof l.at !== 'string' || (l.reason !== null && typeof l.reason !== 'string') || typeof l.by !== 'string')
    throw new Error('its "locked" field is not a lock');
  return { at: l.at, reason: l.reason as string | null, by: l.by };
}

/** The lock in words: when and why. */
export function lockWords(lock: BrakeLock): string {
  return `trading is locked (trader lock) since ${formatLocalTime(lock.at)} by ${lock.by === 'agent' ? 'an agent' : `a ${lock.by}`}${lock.reason ? `: "${lock.reason}"` : ' (no reason given)'}`;
}

/** The refusal of every signature while the lock holds (exit 6): only a person at a terminal lifts it. */
export function lockRefusal(lock: BrakeLock, after: string = NOTHING_SIGNED): RefusedToSignError {
  return new RefusedToSignError(
    [lockWords(lock)],
    [`${after}; a person at a terminal lifts the lock with: trader unlock`],
    { code: 'TRADING_LOCKED', command: 'trader unlock' },
  );
}

/** Why an unattended run may not trade `mint` under these lists, or null when it may. */
export function mintRefusedWhy(
  mint: string,
  allowed: readonly string[] | null,
  denied: readonly string[] | null,
  profile: string,
): string | null {
  if (denied?.includes(mint)) return `${mint} is in profile "${profile}"'s deniedMints`;
  if (allowed !== null && !allowed.includes(mint))
    return `${mint} is not in profile "${profile}"'s allowedMints (${allowed.length === 0 ? 'empty' : allowed.join(', ')})`;
  return null;
}

/** Whether one more signature fits under `max` per rolling hour: at the limit it is refused; `freesAtMs` when it fits again. */
export function hourRoom(inHour: readonly number[], max: number): { fits: boolean; freesAtMs: number | null } {
  if (inHour.length < max) return { fits: true, freesAtMs: null };
  // The oldest that must age out for one more to fit.
  const oldest = inHour[inHour.length - max];
  return { fits: false, freesAtMs: oldest === undefined ? null : oldest + HOUR_MS };
}

/** The limits an unattended trader is held to, as a change compares them. */
export const LIMIT_KEYS = [
  'maxBuyLamports',
  'maxSlippageBps',
  'maxFeeLamports',
  'maxDailyBuyLamports',
  'maxDailySellLamports',
  'maxTradesPerHour',
  'maxDailyLossLamports',
  'allowedMints',
  'deniedMints',
] as const;
export type LimitKey = (typeof LIMIT_KEYS)[number];

/** A comma-separated list of mints as a profile stores it. */
export function mintList(value: string | number | undefined): string[] | null {
  if (value === undefined || value === '') return null;
  return String(value)
    .split(',')
    .map((m) => m.trim())
    .filter((m) => m !== '');
}

/**
 * Whether changing `key` from `before` to `after` (undefined: not set) loosens it: a number
 * raised or removed (no limit is the loosest); allowedMints given a mint it lacked or removed;
 * deniedMints losing a mint. Setting a limit where there was none, or lowering one, tightens.
 */
export function loosens(
  key: LimitKey,
  before: string | number | undefined,
  after: string | number | undefined,
): boolean {
  if (key === 'allowedMints') {
    const was = mintList(before);
    const now = mintList(after);
    if (was === null) return false;
    return now === null || now.some((m) => !was.includes(m));
  }
  if (key === 'deniedMints') {
    const was = mintList(before) ?? [];
    const now = mintList(after) ?? [];
    return was.some((m) => !now.includes(m));
  }
  if (before === undefined || before === '') return false;
  // A hand-edited value the tool cannot read enforces nothing (every run refuses it until fixed),
  // and whoever edits the file can write any value: replacing it is no loosening to guard.
  if (!/^\d+$/.test(String(before))) return false;
  if (after === undefined || after === '') return true;
  return BigInt(String(after)) > BigInt(String(before));
}
