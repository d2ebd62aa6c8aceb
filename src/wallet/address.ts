// Solana addresses as typed by people: base58 that decodes to exactly 32 bytes.
import bs58 from 'bs58';
import { UsageError } from '../errors.js';

/** True when `value` is base58 of exactly 32 bytes. */
export function isAddress(value: string): boolean {
  if (!/^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(value)) return false;
  try {
    return bs58.decode(value).length === 32;
  } catch {
    return false;
  }
}

/** Checks an address argument; `what` names it in the error. */
export function parseAddress(value: string, what: string): string {
  if (!isAddress(value)) {
    const shown = value.length > 60 ? `${value.slice(0, 57)}...` : value.replace(/[^\x20-\x7e]/g, '?');
    throw new UsageError(`${what} must be a base58 address of 32 bytes, got "${shown}"`);
  }
  return value;
}
