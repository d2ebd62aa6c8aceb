// A service's sell-message wording (its message with the trade's values masked) is named by a
// short fingerprint the user can type to accept it; domain/wording-diff.ts shows how two differ.
import { createHash } from 'node:crypto';

/** A short, stable name for a wording, typed by the user to accept it. */
export function wordingFingerprint(wording: string): string {
  return createHash('sha256').update(wording, 'utf8').digest('hex').slice(0, 16);
}
