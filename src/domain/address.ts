// Solana addresses and transaction signatures as text: base58 that decodes to exactly 32 bytes
// (an address, as typed by people) or 64 bytes (a signature, the only form that names a transaction
// on chain; what the service names in another form names none).
import bs58 from 'bs58';

/** True when `value` is base58 of exactly `bytes` bytes, written in `chars` characters at most (fewer with leading zero bytes). */
function isBase58Of(value: string, bytes: number, chars: { min: number; max: number }): boolean {
  if (!new RegExp(`^[1-9A-HJ-NP-Za-km-z]{${chars.min},${chars.max}}$`).test(value)) return false;
  try {
    return bs58.decode(value).length === bytes;
  } catch {
    return false;
  }
}

/** True when `value` is base58 of exactly 32 bytes. */
export function isAddress(value: string): boolean {
  return isBase58Of(value, 32, { min: 32, max: 44 });
}

/** True when `value` is base58 of exactly 64 bytes (a transaction signature). */
export function isSignatureText(value: string): boolean {
  return isBase58Of(value, 64, { min: 64, max: 88 });
}

/** The mint of wrapped SOL, the chain's coin as a token. */
export const WRAPPED_SOL_MINT = 'So11111111111111111111111111111111111111112';
