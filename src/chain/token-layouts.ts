// Pure decoders of the accounts that state a token's facts on chain: the mint (SPL Token and
// Token-2022, with Token-2022's TLV extensions) and its metadata (Metaplex token metadata, or
// Token-2022's TokenMetadata extension). Each returns null for bytes that are not that account
// (too short, uninitialized, out of bounds, not UTF-8): a decoder that guesses would let garbage
// name a token. Layouts as their programs write them:
// - SPL Token `Mint` (spl-token state.rs, Pack LEN = 82): mint_authority COption<Pubkey> (u32 tag
//   + 32), supply u64, decimals u8 at 44, is_initialized bool at 45, freeze_authority COption at 46.
// - Token-2022 (spl-token-2022 extension/mod.rs): the same 82 bytes, then for a mint with
//   extensions zero padding to 165, AccountType at 165 (1 = Mint), then TLV entries from 166:
//   type u16 LE, length u16 LE, value; type 0 ends them. MetadataPointer = 18 (authority 32,
//   metadata_address 32; all zeros = none), TokenMetadata = 19 (spl-token-metadata-interface
//   state.rs, Borsh: update_authority 32, mint 32, name, symbol, uri as u32-LE-length-prefixed
//   UTF-8, additional_metadata Vec<(String, String)>).
// - Metaplex `Metadata` (mpl-token-metadata state, Borsh): key u8 (4 = MetadataV1),
//   update_authority 32, mint 32, name (≤ 32 bytes), symbol (≤ 10), uri (≤ 200), each u32 LE
//   length + bytes, padded with NULs by older versions of the program.
import bs58 from 'bs58';

export const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
export const TOKEN_2022_PROGRAM = 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb';
export const METAPLEX_PROGRAM = 'metaqbxxUerdq28cj1RbAWkYQm3ybzjb6a8bt518x1s';

export const MINT_SIZE = 82;
/** Where a Token-2022 account's type byte sits (after an SPL Token account's 165 bytes). */
export const ACCOUNT_TYPE_OFFSET = 165;
export const ACCOUNT_TYPE_MINT = 1;
export const EXTENSION_METADATA_POINTER = 18;
export const EXTENSION_TOKEN_METADATA = 19;
export const METAPLEX_KEY_METADATA_V1 = 4;
export const METAPLEX_MAX = { name: 32, symbol: 10, uri: 200 } as const;

/** A token's name, symbol and the mint its metadata names. */
export interface MetadataFields {
  mint: string;
  name: string;
  symbol: string;
}

/** A mint account's facts; the Token-2022 extensions that say where its metadata is. */
export interface DecodedMint {
  decimals: number;
  /** MetadataPointer's metadata address (null: no pointer, or one pointing nowhere). */
  metadataPointer: string | null;
  /** The TokenMetadata extension, when the mint carries a well-formed one. */
  metadata: MetadataFields | null;
}

const u32 = (data: Uint8Array, at: number) =>
  new DataView(data.buffer, data.byteOffset, data.byteLength).getUint32(at, true);
const u16 = (data: Uint8Array, at: number) =>
  new DataView(data.buffer, data.byteOffset, data.byteLength).getUint16(at, true);
const key = (data: Uint8Array, at: number) => bs58.encode(data.subarray(at, at + 32));
const allZero = (data: Uint8Array) => data.every((b) => b === 0);
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** A COption tag is 0 (None) or 1 (Some); anything else is not the layout. */
const optionTag = (data: Uint8Array, at: number) => {
  const tag = u32(data, at);
  return tag === 0 || tag === 1;
};

/** The 82-byte base every mint starts with: decimals, when initialized and well-formed. */
function baseMint(data: Uint8Array): number | null {
  if (data.length < MINT_SIZE) return null;
  if (!optionTag(data, 0) || !optionTag(data, 46)) return null;
  if (data[45] !== 1) return null;
  return data[44]!;
}

/** An SPL Token mint account's data (exactly 82 bytes). */
export function decodeSplMint(data: Uint8Array): DecodedMint | null {
  if (data.length !== MINT_SIZE) return null;
  const decimals = baseMint(data);
  return decimals === null ? null : { decimals, metadataPointer: null, metadata: null };
}

/** A Token-2022 mint account's data: the base mint, with extensions when longer. */
export function decodeToken2022Mint(data: Uint8Array): DecodedMint | null {
  const decimals = baseMint(data);
  if (decimals === null) return null;
  if (data.length === MINT_SIZE) return { decimals, metadataPointer: null, metadata: null };
  // A longer account is a mint only with zero padding and the Mint account type.
  if (
    data.length <= ACCOUNT_TYPE_OFFSET ||
    !allZero(data.subarray(MINT_SIZE, ACCOUNT_TYPE_OFFSET)) ||
    data[ACCOUNT_TYPE_OFFSET] !== ACCOUNT_TYPE_MINT
  )
    return null;
  const entries = tlvEntries(data.subarray(ACCOUNT_TYPE_OFFSET + 1));
  if (entries === null) return null;
  let metadataPointer: string | null = null;
  let metadata: MetadataFields | null = null;
  for (const { type, value } of entries) {
    if (type === EXTENSION_METADATA_POINTER) {
      if (value.length !== 64) return null;
      const address = value.subarray(32, 64);
      metadataPointer = allZero(address) ? null : key(value, 32);
    } else if (type === EXTENSION_TOKEN_METADATA) {
      metadata = decodeTokenMetadata(value);
    }
  }
  return { decimals, metadataPointer, metadata };
}

/** The TLV entries of a Token-2022 account (after its type byte); null when one overruns the data or repeats. */
export function tlvEntries(tlv: Uint8Array): Array<{ type: number; value: Uint8Array }> | null {
  const entries: Array<{ type: number; value: Uint8Array }> = [];
  const seen = new Set<number>();
  let at = 0;
  while (at + 4 <= tlv.length) {
    const type = u16(tlv, at);
    // Type 0 (Uninitialized) marks the end of the written entries; the rest is zeros.
    if (type === 0) break;
    const length = u16(tlv, at + 2);
    const end = at + 4 + length;
    if (end > tlv.length || seen.has(type)) return null;
    seen.add(type);
    entries.push({ type, value: tlv.subarray(at + 4, end) });
    at = end;
  }
  return entries;
}

/** Reads a u32-LE-length-prefixed UTF-8 string at `at`; null when it overruns, exceeds `max` bytes or is not UTF-8. */
function borshString(data: Uint8Array, at: number, max = Infinity): { value: string; end: number } | null {
  if (at + 4 > data.length) return null;
  const length = u32(data, at);
  const end = at + 4 + length;
  if (length > max || end > data.length) return null;
  try {
    return { value: utf8.decode(data.subarray(at + 4, end)), end };
  } catch {
    return null;
  }
}

/** The TokenMetadata extension's value (Token-2022 metadata stored in the mint). */
export function decodeTokenMetadata(value: Uint8Array): MetadataFields | null {
  if (value.length < 64) return null;
  const name = borshString(value, 64);
  const symbol = name && borshString(value, name.end);
  const uri = symbol && borshString(value, symbol.end);
  if (!name || !symbol || !uri) return null;
  // The additional metadata must be well-formed too: a value that runs past its entry is garbage.
  if (uri.end + 4 > value.length) return null;
  let at = uri.end + 4;
  for (let n = u32(value, uri.end); n > 0; n--) {
    const k = borshString(value, at);
    const v = k && borshString(value, k.end);
    if (!v) return null;
    at = v.end;
  }
  return { mint: key(value, 32), name: name.value, symbol: symbol.value };
}

/** A Metaplex token-metadata account's data: the mint it names, its name and symbol (trailing NULs stripped). */
export function decodeMetaplexMetadata(data: Uint8Array): MetadataFields | null {
  if (data.length < 65 || data[0] !== METAPLEX_KEY_METADATA_V1) return null;
  const name = borshString(data, 65, METAPLEX_MAX.name);
  const symbol = name && borshString(data, name.end, METAPLEX_MAX.symbol);
  const uri = symbol && borshString(data, symbol.end, METAPLEX_MAX.uri);
  if (!name || !symbol || !uri) return null;
  const strip = (s: string) => s.replace(/\0+$/, '');
  return { mint: key(data, 33), name: strip(name.value), symbol: strip(symbol.value) };
}
