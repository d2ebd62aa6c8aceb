// A transaction signature as text: base58 of exactly 64 bytes, the only form that can name a
// transaction on chain. What the service names in another form names none.
import bs58 from 'bs58';

/** True when `value` is base58 of exactly 64 bytes (a transaction signature). */
export function isSignatureText(value: string): boolean {
  // 64 bytes are 64 to 88 base58 characters (88 at most; fewer with leading zero bytes, as "1"s).
  if (!/^[1-9A-HJ-NP-Za-km-z]{64,88}$/.test(value)) return false;
  try {
    return bs58.decode(value).length === 64;
  } catch {
    return false;
  }
}
