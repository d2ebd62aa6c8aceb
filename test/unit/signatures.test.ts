import { Keypair, VersionedTransaction } from '@solana/web3.js';
import bs58 from 'bs58';
import nacl from 'tweetnacl';
import { describe, expect, it } from 'vitest';
import { RefusedToSignError } from '../../src/domain/errors.js';
import { inspectDeposit } from '../../src/wallet/deposit-inspection.js';
import { signDepositTransaction, signMessage } from '../../src/wallet/signatures.js';
import { decodeTransaction } from '../../src/wallet/transaction-decoder.js';
import {
  AMOUNT,
  MINT,
  base64Of,
  build,
  bytesOf,
  goodDeposit,
  intent,
  owner,
  stranger,
  transfer,
  treasury,
} from './tx-fixtures.js';

describe('signMessage', () => {
  it('signs the exact UTF-8 bytes; the signature verifies with nacl', () => {
    const message = 'Sell 1,234.5 BONK 🐶 for at least 0.0495 SOL\nnonce: é';
    const signature = bs58.decode(signMessage(message, owner.secretKey));
    expect(signature).toHaveLength(64);
    expect(nacl.sign.detached.verify(new TextEncoder().encode(message), signature, owner.publicKey.toBytes())).toBe(
      true,
    );
    expect(
      nacl.sign.detached.verify(new TextEncoder().encode(`${message} `), signature, owner.publicKey.toBytes()),
    ).toBe(false);
    expect(nacl.sign.detached.verify(new TextEncoder().encode(message), signature, stranger.publicKey.toBytes())).toBe(
      false,
    );
  });
  it('refuses a lone surrogate, whose UTF-8 bytes are not the text', () => {
    expect(() => signMessage('abc\uD800', owner.secretKey)).toThrow(RefusedToSignError);
  });
});

describe('signDepositTransaction', () => {
  it.each([['legacy' as const], [0 as const]])('fills the owner slot of a %s deposit; web3 verifies it', (version) => {
    const unsigned = goodDeposit(version);
    const inspection = inspectDeposit({
      transactionBase64: unsigned,
      owner: owner.publicKey.toBase58(),
      intent: intent(),
      requestedMint: MINT,
      typedLamports: AMOUNT,
      maxFeeLamports: 100_000n,
      treasury: treasury.toBase58(),
    });
    expect(inspection.ok).toBe(true);

    const signed = signDepositTransaction(unsigned, owner.secretKey);
    const before = decodeTransaction(bytesOf(unsigned));
    const after = decodeTransaction(bytesOf(signed));
    // The message bytes are untouched: exactly what was inspected.
    expect(Buffer.from(after.messageBytes).equals(Buffer.from(before.messageBytes))).toBe(true);
    expect(bytesOf(signed)).toHaveLength(bytesOf(unsigned).length);

    const tx = VersionedTransaction.deserialize(bytesOf(signed));
    expect(tx.version).toBe(version);
    expect(tx.signatures).toHaveLength(1);
    expect(nacl.sign.detached.verify(tx.message.serialize(), tx.signatures[0]!, owner.publicKey.toBytes())).toBe(true);
    // The same result as web3's own signer.
    const reference = VersionedTransaction.deserialize(bytesOf(unsigned));
    reference.sign([owner]);
    expect(base64Of(reference.serialize())).toBe(signed);
  });

  it('refuses to sign for a key that is not a required signer', () => {
    expect(() => signDepositTransaction(goodDeposit(), stranger.secretKey)).toThrow(RefusedToSignError);
    const notSigner = build([transfer(AMOUNT, stranger.publicKey)]);
    const someone = Keypair.fromSecretKey(stranger.secretKey);
    expect(() => signDepositTransaction(notSigner, someone.secretKey)).toThrow(/not a required signer/);
  });

  // The signer's own check, behind the deposit inspection (which these bypass): each half of it
  // is needed, as the decoder lets the signature slots and the header's count disagree.
  it('refuses a wallet that has a signature slot but is not a required signer by the header', () => {
    // Paid by a stranger; the owner only receives (index 1), yet the wire carries two signature slots.
    const paidByStranger = bytesOf(
      build([transfer(AMOUNT, owner.publicKey, stranger.publicKey)], { payer: stranger.publicKey }),
    );
    const decoded = decodeTransaction(paidByStranger);
    expect(decoded.message.header.numRequiredSignatures).toBe(1);
    expect(decoded.message.staticAccountKeys.indexOf(owner.publicKey.toBase58())).toBe(1);
    const twoSlots = new Uint8Array([2, ...new Uint8Array(128), ...decoded.messageBytes]);
    expect(decodeTransaction(twoSlots).signatures).toHaveLength(2);
    expect(() => signDepositTransaction(base64Of(twoSlots), owner.secretKey)).toThrow(RefusedToSignError);
    expect(() => signDepositTransaction(base64Of(twoSlots), owner.secretKey)).toThrow(/not a required signer/);
  });

  it('refuses a required signer that has no signature slot on the wire', () => {
    // The owner pays (index 0, required by the header) but the wire has no signature slot at all.
    const noSlots = new Uint8Array([0, ...decodeTransaction(bytesOf(goodDeposit())).messageBytes]);
    expect(decodeTransaction(noSlots).message.header.numRequiredSignatures).toBe(1);
    expect(() => signDepositTransaction(base64Of(noSlots), owner.secretKey)).toThrow(/not a required signer/);
  });

  it('refuses malformed input rather than signing something else', () => {
    expect(() => signDepositTransaction('not base64', owner.secretKey)).toThrow(/malformed/);
    const trailing = base64Of(new Uint8Array([...bytesOf(goodDeposit()), 1]));
    expect(() => signDepositTransaction(trailing, owner.secretKey)).toThrow(/trailing/);
  });
});
