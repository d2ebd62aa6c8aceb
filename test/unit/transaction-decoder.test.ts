import { VersionedTransaction } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import {
  DecodeError,
  decodeBase64Strict,
  decodeMessage,
  decodeTransaction,
  isSigner,
  isWritable,
  looksLikeTransaction,
} from '../../src/wallet/transaction-decoder.js';
import {
  base64Of,
  budget,
  build,
  bytesOf,
  goodDeposit,
  lookupTable,
  owner,
  transfer,
  treasury,
} from './tx-fixtures.js';

describe('decodeTransaction', () => {
  it.each([['legacy' as const], [0 as const]])('decodes a %s transaction like web3 does', (version) => {
    const base64 = goodDeposit(version);
    const bytes = bytesOf(base64);
    const ours = decodeTransaction(bytes);
    const theirs = VersionedTransaction.deserialize(bytes);
    expect(ours.message.version).toBe(theirs.version);
    expect(ours.signatures).toHaveLength(1);
    expect(ours.signatures[0]!.every((b) => b === 0)).toBe(true);
    expect(Buffer.from(ours.messageBytes)).toEqual(Buffer.from(theirs.message.serialize()));
    expect(ours.message.staticAccountKeys).toEqual(theirs.message.staticAccountKeys.map((k) => k.toBase58()));
    expect(ours.message.recentBlockhash).toBe(theirs.message.recentBlockhash);
    expect(ours.message.header).toEqual(theirs.message.header);
    expect(ours.message.instructions.map((ix) => ix.programIdIndex)).toEqual(
      theirs.message.compiledInstructions.map((ix) => ix.programIdIndex),
    );
    expect(ours.message.instructions.map((ix) => Buffer.from(ix.data))).toEqual(
      theirs.message.compiledInstructions.map((ix) => Buffer.from(ix.data)),
    );
    expect(ours.message.addressTableLookups).toEqual([]);
    expect(ours.signaturesOffset).toBe(1);
  });

  it('decodes address table lookups of a v0 message', () => {
    const table = lookupTable([treasury]);
    const tx = decodeTransaction(bytesOf(build([transfer()], { lookupTables: [table] })));
    expect(tx.message.addressTableLookups).toEqual([
      { accountKey: table.key.toBase58(), writableIndexes: [0], readonlyIndexes: [] },
    ]);
  });

  it('knows signers and writable accounts from the header', () => {
    const { message } = decodeTransaction(bytesOf(build([transfer()], { version: 'legacy' })));
    const ownerIndex = message.staticAccountKeys.indexOf(owner.publicKey.toBase58());
    const treasuryIndex = message.staticAccountKeys.indexOf(treasury.toBase58());
    const systemIndex = message.staticAccountKeys.indexOf('11111111111111111111111111111111');
    expect(isSigner(message, ownerIndex) && isWritable(message, ownerIndex)).toBe(true);
    expect(isSigner(message, treasuryIndex)).toBe(false);
    expect(isWritable(message, treasuryIndex)).toBe(true);
    expect(isWritable(message, systemIndex)).toBe(false);
  });

  it('refuses trailing bytes, which web3 ignores', () => {
    const bytes = bytesOf(goodDeposit());
    const longer = new Uint8Array([...bytes, 0]);
    expect(() => VersionedTransaction.deserialize(longer)).not.toThrow();
    expect(() => decodeTransaction(longer)).toThrow(/trailing/);
  });

  it('refuses truncated input at every length', () => {
    const bytes = bytesOf(goodDeposit());
    for (let n = 0; n < bytes.length; n++) {
      expect(() => decodeTransaction(bytes.slice(0, n))).toThrow(DecodeError);
    }
  });

  it('refuses an unknown message version', () => {
    const bytes = bytesOf(goodDeposit(0));
    bytes[1 + 64] = 0x81;
    expect(() => decodeTransaction(bytes)).toThrow(/version 1/);
  });

  it('refuses non-canonical and oversized compact-u16 lengths', () => {
    const bytes = bytesOf(goodDeposit());
    // signature count 1 written as two bytes 0x81 0x00
    const alias = new Uint8Array([0x81, 0x00, ...bytes.slice(1)]);
    expect(() => decodeTransaction(alias)).toThrow(/non-canonical/);
    expect(() => decodeTransaction(new Uint8Array([0xff, 0xff, 0x04]))).toThrow(/exceeds 65535/);
    expect(() => decodeTransaction(new Uint8Array([0x80, 0x80, 0x80, 0x01]))).toThrow(DecodeError);
  });

  it('decodeMessage takes bare message bytes and also insists on exact length', () => {
    const tx = decodeTransaction(bytesOf(goodDeposit()));
    expect(decodeMessage(tx.messageBytes)).toEqual(tx.message);
    expect(() => decodeMessage(new Uint8Array([...tx.messageBytes, 7]))).toThrow(/trailing/);
  });
});

describe('looksLikeTransaction', () => {
  it('is true for messages and transactions, false for text', () => {
    const tx = decodeTransaction(bytesOf(build([...budget(), transfer()], { version: 'legacy' })));
    expect(looksLikeTransaction(tx.messageBytes)).toBe(true);
    expect(looksLikeTransaction(bytesOf(goodDeposit()))).toBe(true);
    expect(looksLikeTransaction(new TextEncoder().encode('Sell 100 BONK for at least 0.05 SOL'))).toBe(false);
    expect(looksLikeTransaction(new Uint8Array())).toBe(false);
  });
});

describe('decodeBase64Strict', () => {
  it('round-trips canonical base64', () => {
    const b64 = goodDeposit();
    expect(base64Of(decodeBase64Strict(b64))).toBe(b64);
  });
  it.each([[''], ['abc'], ['ab!d'], ['YWJj\n'], ['YW Jj'], ['YWJ='], ['YW=='.replace('W', '-')], ['YWJjZA']])(
    'refuses %j',
    (text) => expect(() => decodeBase64Strict(text)).toThrow(DecodeError),
  );
});
