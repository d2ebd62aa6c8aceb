// The signature of a signed transaction (its first one: the fee payer's), which is also its id on
// chain: what the tool looks up later to know whether its deposit landed.
import bs58 from 'bs58';

/** Base58 of the first signature of a base64 serialized transaction (one signature: count byte 1). */
export function firstSignature(signedBase64: string): string {
  const bytes = Buffer.from(signedBase64, 'base64');
  // The signature count is a compact-u16; a deposit has one signer, so it is the single byte 1.
  if (bytes.length < 65 || bytes[0] === 0 || bytes[0]! > 0x7f) throw new Error('not a signed transaction');
  return bs58.encode(bytes.subarray(1, 65));
}
