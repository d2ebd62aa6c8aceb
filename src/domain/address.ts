// Solana addresses as typed by people: base58 that decodes to exactly 32 bytes.
import bs58 from 'bs58';

/** True when `value` is base58 of exactly 32 bytes. */
export function isAddress(value: string): boolean {
  if (!/^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(value)) return false;
  try {
    return bs58.decode(value).length === 32;
  } catch {
    return false;
  }
}
