// Signing with the owner wallet. The deposit is signed over the message bytes exactly as
// received (the same bytes inspectDeposit decoded), and the signature is written into its slot
// of a copy of the received wire bytes, so nothing but that slot can change.

import { createHash } from 'node:crypto';
import bs58 from 'bs58';
import nacl from 'tweetnacl';
import { RefusedToSignError } from '../domain/errors.js';
import {
  DecodeError,
  SIGNATURE_LENGTH,
  decodeBase64Strict,
  decodeTransaction,
  type DecodedTransaction,
} from './transaction-decoder.js';

function publicKeyOf(secretKey: Uint8Array): string {
  if (secretKey.length !== 64) throw new TypeError('secret key must be 64 bytes');
  return bs58.encode(secretKey.subarray(32));
}

/**
 * Signs the base64 wire transaction with the owner's key: fills the owner's signature slot and
 * returns the signed transaction as base64. Throws RefusedToSignError when the bytes do not
 * decode or the owner is not a required signer.
 */
export function signDepositTransaction(transactionBase64: string, secretKey: Uint8Array): string {
  const owner = publicKeyOf(secretKey);
  let wire: Uint8Array;
  let tx: DecodedTransaction;
  try {
    wire = decodeBase64Strict(transactionBase64);
    tx = decodeTransaction(wire);
  } catch (e) {
    if (e instanceof DecodeError) throw new RefusedToSignError([`the deposit transaction is malformed: ${e.message}`]);
    throw e;
  }
  const slot = tx.message.staticAccountKeys.indexOf(owner);
  if (slot < 0 || slot >= tx.message.header.numRequiredSignatures || slot >= tx.signatures.length) {
    throw new RefusedToSignError([`your wallet ${owner} is not a required signer of the deposit transaction`]);
  }
  const signature = nacl.sign.detached(tx.messageBytes, secretKey);
  const signed = Uint8Array.from(wire);
  signed.set(signature, tx.signaturesOffset + slot * SIGNATURE_LENGTH);
  return Buffer.from(signed).toString('base64');
}

/** Ed25519 signature over the exact UTF-8 bytes of `message`, base58-encoded. */
export function signMessage(message: string, secretKey: Uint8Array): string {
  publicKeyOf(secretKey);
  // A lone surrogate would be encoded as U+FFFD: the signed bytes would not be the text shown.
  if (/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(message)) {
    throw new RefusedToSignError(['the message contains an unpaired surrogate, so its UTF-8 bytes are ambiguous']);
  }
  return bs58.encode(nacl.sign.detached(new TextEncoder().encode(message), secretKey));
}

/** sha256 (hex) of the bytes a signature covers: a deposit's message, or a sell message's UTF-8. */
export function signedBytesSha256(
  what: { kind: 'deposit'; transaction: string } | { kind: 'sell'; message: string },
): string {
  const hash = createHash('sha256');
  if (what.kind === 'sell') return hash.update(what.message, 'utf8').digest('hex');
  try {
    return hash.update(decodeTransaction(decodeBase64Strict(what.transaction)).messageBytes).digest('hex');
  } catch (e) {
    if (e instanceof DecodeError) throw new RefusedToSignError([`the deposit transaction is malformed: ${e.message}`]);
    throw e;
  }
}
