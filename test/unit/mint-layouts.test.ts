// Token-2022 extension layouts, the base mint's authorities and the metadata's mutability, decoded
// from bytes built here per the programs' layouts (spl-token-2022 extension/*, mpl-token-metadata);
// and the risk levels and fingerprint read from them.
import { describe, expect, it } from 'vitest';
import bs58 from 'bs58';
import {
  decodeExtension,
  decodeMintBase,
  metaplexAuthority,
  tokenMetadataAuthority,
} from '../../src/chain/mint-layouts.js';
import { tokenRisks, tokenRisksFingerprint } from '../../src/domain/token-risks.js';
import type { MintFacts } from '../../src/domain/mint-facts.js';

const A = 'GFmFPooguQpNXADJ6Dd42rWt69m57SA6oFk3QwEcWqCd';
const B = '4kezffhjYn1FXi3oCeBqPiSwbioCnSyUH5hF3WwpATYt';
const key = (k: string) => Buffer.from(bs58.decode(k));
const none = () => Buffer.alloc(32);
const u64 = (n: bigint) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(n);
  return b;
};
const u16 = (n: number) => Buffer.from([n & 0xff, n >> 8]);
const fee = (epoch: bigint, max: bigint, bps: number) => Buffer.concat([u64(epoch), u64(max), u16(bps)]);

describe('Token-2022 extensions', () => {
  it('TransferFeeConfig (1): authorities, withheld, older then newer fee', () => {
    const value = Buffer.concat([key(A), none(), u64(7n), fee(0n, 10n, 50), fee(600n, 5_000n, 250)]);
    expect(value.length).toBe(108);
    expect(decodeExtension(1, value)).toEqual({
      type: 'transfer-fee',
      code: 1,
      name: 'TransferFeeConfig',
      configAuthority: A,
      withdrawAuthority: null,
      older: { epoch: 0n, maximumFee: 10n, bps: 50 },
      newer: { epoch: 600n, maximumFee: 5_000n, bps: 250 },
    });
  });
  it('PermanentDelegate (12), TransferHook (14), MintCloseAuthority (3), MetadataPointer (18)', () => {
    expect(decodeExtension(12, key(A))).toMatchObject({ type: 'permanent-delegate', delegate: A });
    expect(decodeExtension(12, none())).toMatchObject({ type: 'permanent-delegate', delegate: null });
    expect(decodeExtension(14, Buffer.concat([none(), key(B)]))).toMatchObject({
      type: 'transfer-hook',
      authority: null,
      program: B,
    });
    expect(decodeExtension(3, key(B))).toMatchObject({ type: 'mint-close-authority', authority: B });
    expect(decodeExtension(18, Buffer.concat([key(A), key(B)]))).toMatchObject({
      type: 'metadata-pointer',
      authority: A,
      address: B,
    });
  });
  it('DefaultAccountState (6), NonTransferable (9), Pausable (26)', () => {
    expect(decodeExtension(6, Buffer.from([2]))).toMatchObject({ type: 'default-account-state', state: 'frozen' });
    expect(decodeExtension(6, Buffer.from([1]))).toMatchObject({ type: 'default-account-state', state: 'initialized' });
    expect(decodeExtension(6, Buffer.from([3]))).toMatchObject({ type: 'malformed', name: 'DefaultAccountState' });
    expect(decodeExtension(9, Buffer.alloc(0))).toEqual({ type: 'non-transferable', code: 9, name: 'NonTransferable' });
    expect(decodeExtension(26, Buffer.concat([key(A), Buffer.from([1])]))).toMatchObject({
      type: 'pausable',
      authority: A,
      paused: true,
    });
    expect(decodeExtension(26, Buffer.concat([key(A), Buffer.from([2])]))).toMatchObject({ type: 'malformed' });
  });
  it('a known extension of the wrong length is malformed; any other is named; an unknown number too', () => {
    expect(decodeExtension(12, Buffer.alloc(31))).toEqual({ type: 'malformed', code: 12, name: 'PermanentDelegate' });
    expect(decodeExtension(1, Buffer.alloc(107))).toMatchObject({ type: 'malformed', name: 'TransferFeeConfig' });
    expect(decodeExtension(10, Buffer.alloc(52))).toEqual({ type: 'other', code: 10, name: 'InterestBearingConfig' });
    expect(decodeExtension(25, Buffer.alloc(56))).toEqual({ type: 'other', code: 25, name: 'ScaledUiAmount' });
    expect(decodeExtension(99, Buffer.alloc(0))).toEqual({ type: 'other', code: 99, name: 'Unknown(99)' });
  });
});

describe('the base mint and metadata authorities', () => {
  it('mint and freeze authority COptions and the supply', () => {
    const b = Buffer.alloc(82);
    b.writeUInt32LE(1, 0);
    key(A).copy(b, 4);
    b.writeBigUInt64LE(123n, 36);
    b[44] = 6;
    b[45] = 1;
    expect(decodeMintBase(b)).toEqual({ mintAuthority: A, supply: 123n, freezeAuthority: null });
    b.writeUInt32LE(1, 46);
    key(B).copy(b, 50);
    expect(decodeMintBase(b)).toEqual({ mintAuthority: A, supply: 123n, freezeAuthority: B });
  });
  it("Metaplex isMutable past the strings and creators; Token-2022's update authority", () => {
    const str = (s: string) => Buffer.concat([Buffer.from([s.length, 0, 0, 0]), Buffer.from(s)]);
    const head = Buffer.concat([Buffer.from([4]), key(A), key(B), str('Name'), str('SYM'), str('uri'), u16(0)]);
    const creators = Buffer.concat([Buffer.from([1, 1, 0, 0, 0]), key(B), Buffer.from([1, 100])]);
    expect(metaplexAuthority(Buffer.concat([head, Buffer.from([0]), Buffer.from([0, 1])]))).toEqual({
      updateAuthority: A,
      mutable: true,
    });
    expect(metaplexAuthority(Buffer.concat([head, creators, Buffer.from([1, 0])]))).toEqual({
      updateAuthority: A,
      mutable: false,
    });
    expect(metaplexAuthority(Buffer.concat([head, creators]))).toBeNull();
    expect(tokenMetadataAuthority(Buffer.concat([none(), key(B)]))).toBeNull();
    expect(tokenMetadataAuthority(Buffer.concat([key(A), key(B)]))).toBe(A);
  });
});

describe('risk levels', () => {
  const facts = (extensions: MintFacts['extensions'], more: Partial<MintFacts> = {}): MintFacts => ({
    mint: A,
    program: 'token-2022',
    decimals: 6,
    supply: 1n,
    mintAuthority: null,
    freezeAuthority: null,
    metadata: null,
    extensions,
    ...more,
  });
  const feeExt = (bps: number) =>
    decodeExtension(1, Buffer.concat([none(), none(), u64(0n), fee(0n, 1n, bps), fee(0n, 1n, bps)]));
  it('a transfer fee at the threshold warns, one past it refuses', () => {
    expect(tokenRisks(facts([feeExt(100)]), 100).map((r) => r.level)).toEqual(['warn']);
    expect(tokenRisks(facts([feeExt(101)]), 100).map((r) => r.level)).toEqual(['refuse']);
  });
  it('each refuse-level extension; authorities warn; a delegate or hook of none is no risk', () => {
    const refuse = [
      decodeExtension(12, key(B)),
      decodeExtension(9, Buffer.alloc(0)),
      decodeExtension(6, Buffer.from([2])),
      decodeExtension(26, Buffer.concat([key(B), Buffer.from([0])])),
      decodeExtension(14, Buffer.concat([none(), key(B)])),
      decodeExtension(12, Buffer.alloc(3)),
    ];
    expect(
      tokenRisks(facts(refuse, { mintAuthority: B, freezeAuthority: B }), 100).map((r) => `${r.level} ${r.kind}`),
    ).toEqual([
      'refuse permanent-delegate',
      'refuse non-transferable',
      'refuse default-frozen',
      'refuse pausable',
      'refuse transfer-hook',
      'refuse unreadable-extension',
      'warn mint-authority',
      'warn freeze-authority',
    ]);
    expect(
      tokenRisks(
        facts([
          decodeExtension(12, none()),
          decodeExtension(14, Buffer.concat([key(A), none()])),
          decodeExtension(6, Buffer.from([1])),
        ]),
        100,
      ),
    ).toEqual([]);
  });
  it('the fingerprint changes when an authority is re-enabled, an extension appears or a fee changes; not with the supply', () => {
    const base = facts([feeExt(250)]);
    const fp = tokenRisksFingerprint(base);
    expect(tokenRisksFingerprint({ ...base, supply: 999n })).toBe(fp);
    expect(tokenRisksFingerprint({ ...base, mintAuthority: B })).not.toBe(fp);
    expect(tokenRisksFingerprint({ ...base, extensions: [...base.extensions, decodeExtension(12, key(B))] })).not.toBe(
      fp,
    );
    expect(tokenRisksFingerprint(facts([feeExt(251)]))).not.toBe(fp);
  });
});
