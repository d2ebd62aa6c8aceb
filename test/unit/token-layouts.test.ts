// The chain's token layouts, decoded from byte fixtures built here by hand (offsets written out,
// not taken from the decoder or the sandbox's encoders): an SPL Token mint, a Token-2022 mint
// with MetadataPointer and TokenMetadata extensions, a Metaplex metadata account; and for each,
// what is not that account (short, long, uninitialized, garbage, out of bounds) is null.
import { describe, expect, it } from 'vitest';
import bs58 from 'bs58';
import { PublicKey } from '@solana/web3.js';
import type { ChainReader } from '../../src/chain/chain-reader.js';
import { ChainUnavailableError } from '../../src/chain/chain-reader.js';
import { readTokenFacts } from '../../src/chain/chain-token-facts.js';
import {
  decodeMetaplexMetadata,
  decodeSplMint,
  decodeToken2022Mint,
  decodeTokenMetadata,
  tlvEntries,
} from '../../src/chain/token-layouts.js';

const MINT = 'GFmFPooguQpNXADJ6Dd42rWt69m57SA6oFk3QwEcWqCd';
const OTHER = 'F9EMmE5iFqHwzksCWVoGG21SuqD9iFXtkRdKG9ENeRwo';
const AUTHORITY = 'HfN7ZkA5rSuKREztxSha9cVyXcVrMEeF8Fj5ia9vV3GC';
const key = (address: string) => Buffer.from(bs58.decode(address));

/** An 82-byte base mint: COption mint authority (tag u32 at 0, key at 4), supply u64 at 36, decimals at 44, initialized at 45, COption freeze authority (tag at 46, key at 50). */
function baseMint(
  decimals: number,
  opts: { initialized?: number; authorityTag?: number; freezeTag?: number } = {},
): Buffer {
  const b = Buffer.alloc(82);
  b.writeUInt32LE(opts.authorityTag ?? 1, 0);
  key(AUTHORITY).copy(b, 4);
  b.writeBigUInt64LE(1_000_000_000_000n, 36);
  b[44] = decimals;
  b[45] = opts.initialized ?? 1;
  b.writeUInt32LE(opts.freezeTag ?? 0, 46);
  return b;
}

const u16 = (n: number) => {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(n);
  return b;
};
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n);
  return b;
};
const str = (s: string | Buffer) => {
  const bytes = typeof s === 'string' ? Buffer.from(s, 'utf8') : s;
  return Buffer.concat([u32(bytes.length), bytes]);
};
const tlv = (type: number, value: Buffer) => Buffer.concat([u16(type), u16(value.length), value]);

/** TokenMetadata (type 19) value: update authority, mint, name, symbol, uri, additional metadata. */
function tokenMetadata(mint: string, name: string, symbol: string, extra: Array<[string, string]> = []): Buffer {
  return Buffer.concat([
    key(AUTHORITY),
    key(mint),
    str(name),
    str(symbol),
    str('https://example.com/t.json'),
    u32(extra.length),
    ...extra.flatMap(([k, v]) => [str(k), str(v)]),
  ]);
}
/** MetadataPointer (type 18) value: authority, metadata address (32 zero bytes: none). */
const pointer = (address: string | null) => Buffer.concat([key(AUTHORITY), address ? key(address) : Buffer.alloc(32)]);

/** A Token-2022 mint with extensions: base, zero padding to 165, account type, TLV entries. */
function mint2022(decimals: number, entries: Buffer[], opts: { accountType?: number; padding?: number } = {}): Buffer {
  const padding = Buffer.alloc(165 - 82, 0);
  if (opts.padding !== undefined) padding[10] = opts.padding;
  return Buffer.concat([baseMint(decimals), padding, Buffer.from([opts.accountType ?? 1]), ...entries]);
}

/** A Metaplex MetadataV1 account: key 4, update authority, mint, then name/symbol/uri padded with NULs to 32/10/200 as older programs wrote them. */
function metaplex(
  mint: string,
  name: string,
  symbol: string,
  opts: { key?: number; pad?: boolean; nameBytes?: Buffer } = {},
): Buffer {
  const padded = (s: string, n: number) =>
    opts.pad === false ? Buffer.from(s) : Buffer.concat([Buffer.from(s), Buffer.alloc(n - Buffer.byteLength(s))]);
  return Buffer.concat([
    Buffer.from([opts.key ?? 4]),
    key(AUTHORITY),
    key(mint),
    str(opts.nameBytes ?? padded(name, 32)),
    str(padded(symbol, 10)),
    str(padded('https://example.com/woof.json', 200)),
    u16(0), // seller fee bps
    Buffer.from([0]), // no creators
    Buffer.from([0, 1]), // primary sale, mutable
  ]);
}

describe('SPL Token mint (82 bytes)', () => {
  it('reads the decimals at offset 44 of an initialized mint, with or without authorities', () => {
    expect(decodeSplMint(baseMint(5))).toEqual({ decimals: 5, metadataPointer: null, metadata: null });
    expect(decodeSplMint(baseMint(0, { authorityTag: 0 }))?.decimals).toBe(0);
    expect(decodeSplMint(baseMint(9, { freezeTag: 1 }))?.decimals).toBe(9);
  });

  it('is null one byte short or long, uninitialized, or with a COption tag that is neither 0 nor 1', () => {
    expect(decodeSplMint(baseMint(5).subarray(0, 81))).toBeNull();
    expect(decodeSplMint(Buffer.concat([baseMint(5), Buffer.alloc(1)]))).toBeNull();
    expect(decodeSplMint(baseMint(5, { initialized: 0 }))).toBeNull();
    expect(decodeSplMint(baseMint(5, { initialized: 2 }))).toBeNull();
    expect(decodeSplMint(baseMint(5, { authorityTag: 2 }))).toBeNull();
    expect(decodeSplMint(baseMint(5, { freezeTag: 256 }))).toBeNull();
    expect(decodeSplMint(new Uint8Array(0))).toBeNull();
  });

  it('an SPL token account (165 bytes) is not a mint', () => {
    expect(decodeSplMint(Buffer.alloc(165, 1))).toBeNull();
  });
});

describe('Token-2022 mint', () => {
  it('without extensions is the 82-byte base', () => {
    expect(decodeToken2022Mint(baseMint(8))).toEqual({ decimals: 8, metadataPointer: null, metadata: null });
  });

  it('reads MetadataPointer (18) and TokenMetadata (19) from the TLV entries after the account type at 165', () => {
    const data = mint2022(8, [
      tlv(18, pointer(MINT)),
      tlv(19, tokenMetadata(MINT, 'Moon Sandbox', 'MOON', [['site', 'moon.example']])),
    ]);
    expect(data[165]).toBe(1);
    expect(decodeToken2022Mint(data)).toEqual({
      decimals: 8,
      metadataPointer: MINT,
      metadata: { mint: MINT, name: 'Moon Sandbox', symbol: 'MOON' },
    });
  });

  it('other extensions are skipped; a type-0 entry ends the list (the rest is zeros)', () => {
    const closeAuthority = tlv(3, key(AUTHORITY));
    const data = mint2022(6, [closeAuthority, tlv(19, tokenMetadata(MINT, 'N', 'S')), Buffer.alloc(12)]);
    expect(decodeToken2022Mint(data)).toEqual({
      decimals: 6,
      metadataPointer: null,
      metadata: { mint: MINT, name: 'N', symbol: 'S' },
    });
  });

  it('a pointer to no address (32 zero bytes) is no pointer', () => {
    expect(decodeToken2022Mint(mint2022(6, [tlv(18, pointer(null))]))?.metadataPointer).toBeNull();
  });

  it('is null for a token account type (2), non-zero padding, no type byte, a TLV entry that overruns, a repeated entry, or a pointer of the wrong size', () => {
    expect(decodeToken2022Mint(mint2022(6, [], { accountType: 2 }))).toBeNull();
    expect(decodeToken2022Mint(mint2022(6, [], { padding: 7 }))).toBeNull();
    expect(decodeToken2022Mint(Buffer.concat([baseMint(6), Buffer.alloc(83)]))).toBeNull(); // 165 bytes: no type byte
    expect(decodeToken2022Mint(Buffer.concat([baseMint(6), Buffer.alloc(10)]))).toBeNull();
    const overrun = mint2022(6, [Buffer.concat([u16(19), u16(200), Buffer.alloc(10)])]);
    expect(decodeToken2022Mint(overrun)).toBeNull();
    expect(decodeToken2022Mint(mint2022(6, [tlv(18, pointer(MINT)), tlv(18, pointer(OTHER))]))).toBeNull();
    expect(decodeToken2022Mint(mint2022(6, [tlv(18, pointer(MINT).subarray(0, 63))]))).toBeNull();
    expect(decodeToken2022Mint(mint2022(6, [], {}).fill(0, 45, 46))).toBeNull(); // uninitialized
  });

  it('a TLV entry exactly at the end of the data is read; one byte more is an overrun', () => {
    const value = Buffer.alloc(5, 9);
    const exact = Buffer.concat([u16(40), u16(5), value]);
    expect(tlvEntries(exact)?.map((e) => ({ type: e.type, value: [...e.value] }))).toEqual([
      { type: 40, value: [9, 9, 9, 9, 9] },
    ]);
    expect(tlvEntries(Buffer.concat([u16(40), u16(6), value]))).toBeNull();
    // Fewer than 4 bytes left cannot hold a header: the list ends.
    expect(tlvEntries(Buffer.concat([exact, Buffer.from([1, 0, 0])]))).toHaveLength(1);
  });

  it('a malformed TokenMetadata is no metadata (the mint itself still reads)', () => {
    const good = tokenMetadata(MINT, 'Moon Sandbox', 'MOON', [['a', 'b']]);
    expect(decodeToken2022Mint(mint2022(8, [tlv(19, good.subarray(0, good.length - 1))]))?.metadata).toBeNull();
    expect(decodeTokenMetadata(good.subarray(0, 63))).toBeNull();
    // Invalid UTF-8 in the name.
    const badUtf8 = Buffer.concat([
      key(AUTHORITY),
      key(MINT),
      str(Buffer.from([0xc3, 0x28])),
      str('S'),
      str('u'),
      u32(0),
    ]);
    expect(decodeTokenMetadata(badUtf8)).toBeNull();
    // A name length past the value.
    expect(decodeTokenMetadata(Buffer.concat([key(AUTHORITY), key(MINT), u32(1000), Buffer.from('x')]))).toBeNull();
    // No additional-metadata count.
    expect(decodeTokenMetadata(Buffer.concat([key(AUTHORITY), key(MINT), str('N'), str('S'), str('u')]))).toBeNull();
  });

  it('TokenMetadata names the mint it belongs to (the caller compares it)', () => {
    expect(decodeTokenMetadata(tokenMetadata(OTHER, 'Woof Sandbox Dog', 'WOOF'))).toEqual({
      mint: OTHER,
      name: 'Woof Sandbox Dog',
      symbol: 'WOOF',
    });
    expect(decodeTokenMetadata(tokenMetadata(MINT, 'Ünïcode 月', '月'))).toEqual({
      mint: MINT,
      name: 'Ünïcode 月',
      symbol: '月',
    });
  });
});

describe('Metaplex token metadata', () => {
  it('reads key 4, the mint at 33, name and symbol with their NUL padding stripped', () => {
    const data = metaplex(MINT, 'Woof Sandbox Dog', 'WOOF');
    expect(data[0]).toBe(4);
    expect(data.readUInt32LE(65)).toBe(32); // the name's length prefix: padded to 32
    expect(decodeMetaplexMetadata(data)).toEqual({ mint: MINT, name: 'Woof Sandbox Dog', symbol: 'WOOF' });
    expect(decodeMetaplexMetadata(metaplex(MINT, 'Woof Sandbox Dog', 'WOOF', { pad: false }))).toEqual({
      mint: MINT,
      name: 'Woof Sandbox Dog',
      symbol: 'WOOF',
    });
  });

  it('a name of 32 bytes is read; 33 is not what the program writes', () => {
    expect(decodeMetaplexMetadata(metaplex(MINT, 'x'.repeat(32), 'X'))?.name).toBe('x'.repeat(32));
    expect(decodeMetaplexMetadata(metaplex(MINT, '', 'X', { nameBytes: Buffer.from('x'.repeat(33)) }))).toBeNull();
  });

  it('is null for another key (an edition), a truncated account, or a name that is not UTF-8', () => {
    expect(decodeMetaplexMetadata(metaplex(MINT, 'W', 'W', { key: 6 }))).toBeNull();
    const data = metaplex(MINT, 'Woof Sandbox Dog', 'WOOF');
    expect(decodeMetaplexMetadata(data.subarray(0, 65 + 4 + 32 + 4 + 10 + 4 + 199))).toBeNull();
    expect(decodeMetaplexMetadata(data.subarray(0, 64))).toBeNull();
    expect(decodeMetaplexMetadata(metaplex(MINT, '', 'X', { nameBytes: Buffer.from([0xff, 0xfe]) }))).toBeNull();
    expect(decodeMetaplexMetadata(Buffer.alloc(679))).toBeNull(); // an empty (key 0) account
  });

  it('the metadata of another mint says so', () => {
    expect(decodeMetaplexMetadata(metaplex(OTHER, 'Woof Sandbox Dog', 'WOOF'))?.mint).toBe(OTHER);
  });
});

const TOKEN = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
const TOKEN_2022 = 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb';
const METAPLEX = 'metaqbxxUerdq28cj1RbAWkYQm3ybzjb6a8bt518x1s';
/** The Metaplex PDA, by web3.js itself: ["metadata", program, mint]. */
const pda = (mint: string) =>
  PublicKey.findProgramAddressSync(
    [Buffer.from('metadata'), new PublicKey(METAPLEX).toBuffer(), new PublicKey(mint).toBuffer()],
    new PublicKey(METAPLEX),
  )[0].toBase58();

/** A chain of accounts by address; the addresses read are kept. */
function chainOf(
  accounts: Record<string, { owner: string; data: Buffer }>,
  down = false,
): ChainReader & { read: string[] } {
  const read: string[] = [];
  return {
    read,
    getAccountInfo: async (address: string) => {
      read.push(address);
      if (down)
        throw new ChainUnavailableError(
          'reading account from rpc.example.com failed: connection refused (ECONNREFUSED)',
        );
      const a = accounts[address];
      return a ? { owner: a.owner, data: new Uint8Array(a.data), lamports: 1_461_600n } : null;
    },
  } as unknown as ChainReader & { read: string[] };
}

describe('readTokenFacts', () => {
  const woofMetadata = { owner: METAPLEX, data: metaplex(MINT, 'Woof Sandbox Dog', 'WOOF') };

  it('an SPL Token mint with Metaplex metadata at its PDA: decimals, symbol, name', async () => {
    const chain = chainOf({ [MINT]: { owner: TOKEN, data: baseMint(5) }, [pda(MINT)]: woofMetadata });
    expect(await readTokenFacts(chain, MINT)).toEqual({
      mint: MINT,
      program: 'spl-token',
      decimals: 5,
      symbol: 'WOOF',
      name: 'Woof Sandbox Dog',
      metadataSource: 'metaplex',
    });
    expect(chain.read.sort()).toEqual([MINT, pda(MINT)].sort());
  });

  it('a mint with no metadata: decimals only', async () => {
    expect(await readTokenFacts(chainOf({ [MINT]: { owner: TOKEN, data: baseMint(5) } }), MINT)).toEqual({
      mint: MINT,
      program: 'spl-token',
      decimals: 5,
      symbol: null,
      name: null,
      metadataSource: null,
    });
  });

  it('metadata not owned by the Metaplex program, or naming another mint, or not at the PDA, is no metadata', async () => {
    const none = { mint: MINT, program: 'spl-token', decimals: 5, symbol: null, name: null, metadataSource: null };
    const mintAccount = { owner: TOKEN, data: baseMint(5) };
    expect(
      await readTokenFacts(chainOf({ [MINT]: mintAccount, [pda(MINT)]: { ...woofMetadata, owner: AUTHORITY } }), MINT),
    ).toEqual(none);
    expect(
      await readTokenFacts(
        chainOf({
          [MINT]: mintAccount,
          [pda(MINT)]: { owner: METAPLEX, data: metaplex(OTHER, 'Woof Sandbox Dog', 'WOOF') },
        }),
        MINT,
      ),
    ).toEqual(none);
    // WOOF's real metadata account, for another mint (its PDA is another address).
    expect(await readTokenFacts(chainOf({ [MINT]: mintAccount, [pda(OTHER)]: woofMetadata }), MINT)).toEqual(none);
  });

  it('an empty (blank) symbol or name on chain is none', async () => {
    const chain = chainOf({
      [MINT]: { owner: TOKEN, data: baseMint(5) },
      [pda(MINT)]: { owner: METAPLEX, data: metaplex(MINT, '  ', '') },
    });
    expect(await readTokenFacts(chain, MINT)).toMatchObject({ symbol: null, name: null, metadataSource: 'metaplex' });
  });

  it('no account, an account of another program, or bytes that are not a mint: not a token mint (null)', async () => {
    expect(await readTokenFacts(chainOf({}), MINT)).toBeNull();
    expect(await readTokenFacts(chainOf({ [MINT]: { owner: AUTHORITY, data: baseMint(5) } }), MINT)).toBeNull();
    expect(
      await readTokenFacts(
        chainOf({ [MINT]: { owner: '11111111111111111111111111111111', data: Buffer.alloc(0) } }),
        MINT,
      ),
    ).toBeNull();
    expect(await readTokenFacts(chainOf({ [MINT]: { owner: TOKEN, data: Buffer.alloc(165) } }), MINT)).toBeNull();
    // A Token-2022 layout under the SPL Token program is not an SPL Token mint.
    expect(
      await readTokenFacts(chainOf({ [MINT]: { owner: TOKEN, data: mint2022(6, [tlv(18, pointer(MINT))]) } }), MINT),
    ).toBeNull();
  });

  it('a Token-2022 mint whose pointer names itself reads its TokenMetadata extension', async () => {
    const data = mint2022(8, [tlv(18, pointer(MINT)), tlv(19, tokenMetadata(MINT, 'Moon Sandbox', 'MOON'))]);
    expect(await readTokenFacts(chainOf({ [MINT]: { owner: TOKEN_2022, data } }), MINT)).toEqual({
      mint: MINT,
      program: 'token-2022',
      decimals: 8,
      symbol: 'MOON',
      name: 'Moon Sandbox',
      metadataSource: 'token-2022',
    });
    // Without a pointer the extension is the mint's own all the same.
    const bare = mint2022(8, [tlv(19, tokenMetadata(MINT, 'Moon Sandbox', 'MOON'))]);
    expect(await readTokenFacts(chainOf({ [MINT]: { owner: TOKEN_2022, data: bare } }), MINT)).toMatchObject({
      symbol: 'MOON',
      metadataSource: 'token-2022',
    });
  });

  it('Token-2022: a pointer elsewhere, or metadata naming another mint, is no metadata; a pointer at the Metaplex PDA reads Metaplex', async () => {
    const none = { symbol: null, name: null, metadataSource: null };
    const elsewhere = mint2022(8, [tlv(18, pointer(OTHER)), tlv(19, tokenMetadata(MINT, 'Moon Sandbox', 'MOON'))]);
    expect(
      await readTokenFacts(
        chainOf({ [MINT]: { owner: TOKEN_2022, data: elsewhere }, [pda(MINT)]: woofMetadata }),
        MINT,
      ),
    ).toMatchObject(none);
    const foreign = mint2022(8, [tlv(18, pointer(MINT)), tlv(19, tokenMetadata(OTHER, 'Woof Sandbox Dog', 'WOOF'))]);
    expect(await readTokenFacts(chainOf({ [MINT]: { owner: TOKEN_2022, data: foreign } }), MINT)).toMatchObject(none);
    const toMetaplex = mint2022(8, [tlv(18, pointer(pda(MINT)))]);
    expect(
      await readTokenFacts(
        chainOf({ [MINT]: { owner: TOKEN_2022, data: toMetaplex }, [pda(MINT)]: woofMetadata }),
        MINT,
      ),
    ).toMatchObject({ program: 'token-2022', symbol: 'WOOF', metadataSource: 'metaplex' });
    // A pointer at the mint with no extension there: nothing, and Metaplex is not consulted.
    const empty = mint2022(8, [tlv(18, pointer(MINT))]);
    expect(
      await readTokenFacts(chainOf({ [MINT]: { owner: TOKEN_2022, data: empty }, [pda(MINT)]: woofMetadata }), MINT),
    ).toMatchObject(none);
  });

  it('a chain that cannot be read throws ChainUnavailableError (the caller says the facts are unconfirmed)', async () => {
    await expect(readTokenFacts(chainOf({}, true), MINT)).rejects.toBeInstanceOf(ChainUnavailableError);
  });
});
