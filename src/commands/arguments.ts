// Turns raw argument strings into checked values at the command's edge, before any request.
import { ACTIVITY_TYPES, POSITION_STATUSES, type ActivityType } from '../api/types.js';
import { UsageError } from '../errors.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A uuid id (buy intents, positions). */
export function parseUuid(value: string, what: string): string {
  if (!UUID.test(value)) throw new UsageError(`${what} must be a uuid like 3f0c2a9e-…, got "${printable(value)}"`);
  return value.toLowerCase();
}

/**
 * A trade id: a buy uuid, a `sell_…` authorization id, or a sell group key (whose format the
 * API does not show, so only what can never be an id is refused).
 */
export function parseTradeId(value: string): string {
  if (value.startsWith('sell_')) {
    if (!/^sell_[A-Za-z0-9_-]{1,128}$/.test(value)) throw new UsageError(`sell id must be sell_ followed by letters or digits, got "${printable(value)}"`);
    return value;
  }
  if (!/^[A-Za-z0-9][A-Za-z0-9_:.-]{0,199}$/.test(value)) {
    throw new UsageError(`trade id must be a buy id (uuid), a sell_… id or a trade id of letters, digits and _ : . -, got "${printable(value)}"`);
  }
  return value;
}

/** `--type buy,sell`: each value one of the documented activity types. */
export function parseActivityTypes(value: string): ActivityType[] {
  const types = value.split(',').map((t) => t.trim());
  for (const t of types) {
    if (!(ACTIVITY_TYPES as readonly string[]).includes(t)) {
      throw new UsageError(`--type must be a comma-separated list of ${ACTIVITY_TYPES.join(', ')}; "${printable(t)}" is not one`);
    }
  }
  return [...new Set(types)] as ActivityType[];
}

/** `--status` of positions: one of the documented statuses. */
export function parsePositionStatus(value: string): string {
  if (!(POSITION_STATUSES as readonly string[]).includes(value)) {
    throw new UsageError(`--status must be one of ${POSITION_STATUSES.join(', ')}; got "${printable(value)}"`);
  }
  return value;
}

/** `--csv`: one output format per run, so never with --json (checked before any request). */
export function parseCsvFlag(csv: unknown, json: boolean): boolean {
  if (!csv) return false;
  if (json) throw new UsageError('--csv and --json cannot be used together: choose one output format');
  return true;
}

/** `--cursor`: opaque, but never empty and never with control characters. */
export function parseCursor(value: string): string {
  if (value === '' || value.length > 2048 || /[\u0000-\u001f\u007f]/.test(value)) {
    throw new UsageError('--cursor must be the nextCursor value from a previous page');
  }
  return value;
}

/** A value safe to echo in an error message: control characters removed, length bounded. */
export function printable(value: string): string {
  const clean = value.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');
  return clean.length > 80 ? `${clean.slice(0, 77)}...` : clean;
}
