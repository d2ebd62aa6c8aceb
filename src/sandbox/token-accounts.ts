// The simulated chain's token accounts, in the layouts the real programs write, so a client
// reads a sandbox token as it would a real one: each token's mint account (SPL Token program,
// 82 bytes; or Token-2022 with extensions) and its metadata (a Metaplex metadata account at the
// PDA ["metadata", program, mint], or Token-2022's MetadataPointer + TokenMetadata extensions in
// the mint). The service's tokens are on the chain as the service names them; the control surface
// may put other tokens on the chain only, or change what the chain says of a service token (an
// impostor naming itself WOOF, a mint with no metadata, metadata naming another mint).
// Written here from the programs' layouts, apart from the client's decoders (src/chain/token-layouts.ts).
import bs58 from 'bs58';
import { PublicKey } from '@solana/web3.js';
import { deriveAddress } from './market.js';
import type { ChainTokenRecord, MintExtras } from './state.js';
import type { World } from './world.js';

export const TOKEN_PROGRAM_ID = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
export const TOKEN_2022_PROGRAM_ID = 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb';
export const METADATA_PROGRAM_ID = 'metaqbxxUerdq28cj1RbAWkYQm3ybzjb6a8bt518x1s';
/** What Metaplex's program accepts (bytes): longer names cannot be in a Metaplex account. */
export const METAPLEX_LIMITS = { name: 32, symbol: 10, uri: 200 } as const;
/** Metaplex allocates every metadata account at its largest size. */
const METAPLEX_ACCOUNT_SIZE = 679;
/** The update authority the sandbox's metadata names (it can change nothing: the chain is simulated). */
const UPDATE_AUTHORITY = deriveAddress('trader-sandbox-metadata-authority');

/** An account as the chain holds it. */
export interface ChainAccount {
  owner: string;
  data: Buffer;
}

const pubkey = (address: string) => Buffer.from(bs58.decode(address));
const u32le = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n);
  return b;
};
const borshString = (s: string | Buffer) => {
  const bytes = typeof s === 'string' ? Buffer.from(s, 'utf8') : s;
  return Buffer.concat([u32le(bytes.length), bytes]);
};
const nulPadded = (s: string, size: number) => {
  const bytes = Buffer.from(s, 'utf8');
  return Buffer.concat([bytes, Buffer.alloc(Math.max(0, size - bytes.length))]);
};

const metadataAddresses = new Map<string, string>();
/** The Metaplex metadata account's address for a mint (the PDA; memoised: it costs a hash search). */
export function metadataAddress(mint: string): string {
  let address = metadataAddresses.get(mint);
  if (!address) {
    const program = new PublicKey(METADATA_PROGRAM_ID);
    address = PublicKey.findProgramAddressSync(
      [Buffer.from('metadata'), program.toBuffer(), new PublicKey(mint).toBuffer()],
      program,
    )[0].toBase58();
    metadataAddresses.set(mint, address);
  }
  return address;
}

/** Whether a symbol and name fit a Metaplex metadata account. */
export function fitsMetaplex(symbol: string, name: string): boolean {
  return Buffer.byteLength(symbol) <= METAPLEX_LIMITS.symbol && Buffer.byteLength(name) <= METAPLEX_LIMITS.name;
}

/** The 82-byte mint: mint authority COption at 0 (none: supply fixed), supply, decimals at 44, initialized, freeze authority COption at 46. */
function mintBase(decimals: number, extras: MintExtras = {}): Buffer {
  const b = Buffer.alloc(82);
  const option = (at: number, address: string | undefined) => {
    b.writeUInt32LE(address ? 1 : 0, at);
    if (address) pubkey(address).copy(b, at + 4);
  };
  option(0, extras.mintAuthority);
  const supply = 1_000_000_000n * 10n ** BigInt(decimals);
  b.writeBigUInt64LE(supply > 0xffff_ffff_ffff_ffffn ? 0xffff_ffff_ffff_ffffn : supply, 36);
  b[44] = decimals;
  b[45] = 1;
  option(46, extras.freezeAuthority);
  return b;
}

/**
 * The Token-2022 extensions of a mint's extras, in ExtensionType order (spl-token-2022
 * extension/*): TransferFeeConfig (1: two authorities, withheld u64, older and newer TransferFee
 * {epoch u64, maximum_fee u64, bps u16}), DefaultAccountState (6: 2 = frozen), NonTransferable
 * (9: empty), PermanentDelegate (12), TransferHook (14: authority, program); Pausable (26:
 * authority, paused) goes after the metadata, by its number.
 */
function extensionEntries(extras: MintExtras): { before: Buffer[]; after: Buffer[] } {
  const before: Buffer[] = [];
  const after: Buffer[] = [];
  if (extras.transferFee) {
    const fee = Buffer.alloc(18);
    fee.writeBigUInt64LE(BigInt(extras.transferFee.maximumFee), 8);
    fee.writeUInt16LE(extras.transferFee.bps, 16);
    before.push(
      tlvEntry(1, Buffer.concat([pubkey(UPDATE_AUTHORITY), pubkey(UPDATE_AUTHORITY), Buffer.alloc(8), fee, fee])),
    );
  }
  if (extras.defaultFrozen) before.push(tlvEntry(6, Buffer.from([2])));
  if (extras.nonTransferable) before.push(tlvEntry(9, Buffer.alloc(0)));
  if (extras.permanentDelegate) before.push(tlvEntry(12, pubkey(extras.permanentDelegate)));
  if (extras.transferHook)
    before.push(tlvEntry(14, Buffer.concat([pubkey(UPDATE_AUTHORITY), pubkey(extras.transferHook)])));
  if (extras.pausable) after.push(tlvEntry(26, Buffer.concat([pubkey(extras.pausable), Buffer.from([0])])));
  return { before, after };
}

const tlvEntry = (type: number, value: Buffer) => {
  const header = Buffer.alloc(4);
  header.writeUInt16LE(type, 0);
  header.writeUInt16LE(value.length, 2);
  return Buffer.concat([header, value]);
};

/** A Token-2022 mint; with metadata, a MetadataPointer to itself (type 18) and TokenMetadata (type 19) after the account type at 165. */
function token2022Mint(mint: string, record: ChainTokenRecord): Buffer {
  const base = mintBase(record.decimals, record.extras);
  const meta = record.metadata?.layout === 'token-2022' ? record.metadata : null;
  const { before, after } = extensionEntries(record.extras ?? {});
  const header = Buffer.concat([base, Buffer.alloc(165 - 82), Buffer.from([1])]);
  if (!meta) return before.length + after.length === 0 ? base : Buffer.concat([header, ...before, ...after]);
  const pointer = Buffer.concat([pubkey(UPDATE_AUTHORITY), pubkey(mint)]);
  const metadata = Buffer.concat([
    pubkey(UPDATE_AUTHORITY),
    pubkey(meta.mint),
    borshString(meta.name),
    borshString(meta.symbol),
    borshString(`https://example.com/trader-sandbox/tokens/${mint}.json`),
    u32le(0), // no additional metadata
  ]);
  return Buffer.concat([header, ...before, tlvEntry(18, pointer), tlvEntry(19, metadata), ...after]);
}

/** A Metaplex MetadataV1 account: key 4, update authority, mint, name/symbol/uri NUL-padded to their limits, then the fixed fields. */
function metaplexAccount(meta: NonNullable<ChainTokenRecord['metadata']>): Buffer {
  const body = Buffer.concat([
    Buffer.from([4]),
    pubkey(UPDATE_AUTHORITY),
    pubkey(meta.mint),
    borshString(nulPadded(meta.name, METAPLEX_LIMITS.name)),
    borshString(nulPadded(meta.symbol, METAPLEX_LIMITS.symbol)),
    borshString(nulPadded(`https://example.com/trader-sandbox/${meta.mint.slice(0, 8)}.json`, METAPLEX_LIMITS.uri)),
    Buffer.from([0, 0]), // seller fee basis points
    Buffer.from([0]), // no creators
    Buffer.from([0, 1]), // primary sale happened: no; mutable: yes
    Buffer.from([1, 255]), // edition nonce
    Buffer.from([1, 2]), // token standard: Fungible
  ]);
  return Buffer.concat([body, Buffer.alloc(METAPLEX_ACCOUNT_SIZE - body.length)]);
}

/** What the chain says of a token: the control surface's word for it, else the service's token as the service names it. */
export function chainTokens(world: World): Map<string, ChainTokenRecord> {
  const all = new Map<string, ChainTokenRecord>();
  for (const t of world.state.tokens) {
    const program = t.program ?? 'spl-token';
    // A name too long for Metaplex goes in a Token-2022 mint, which has no such limit.
    const layout = program === 'token-2022' || !fitsMetaplex(t.symbol, t.name) ? 'token-2022' : 'metaplex';
    all.set(t.mint, {
      program: layout === 'token-2022' ? 'token-2022' : 'spl-token',
      decimals: t.decimals,
      metadata: { layout, symbol: t.symbol, name: t.name, mint: t.mint },
      ...(t.mintExtras ? { extras: t.mintExtras } : {}),
    });
  }
  for (const [mint, record] of Object.entries(world.state.chain.tokens ?? {})) all.set(mint, record);
  return all;
}

/** The token account at `address` (a mint, or a Metaplex metadata account), or null. */
export function tokenAccountAt(world: World, address: string): ChainAccount | null {
  const tokens = chainTokens(world);
  const record = tokens.get(address);
  if (record) {
    return record.program === 'spl-token'
      ? { owner: TOKEN_PROGRAM_ID, data: mintBase(record.decimals, record.extras) }
      : { owner: TOKEN_2022_PROGRAM_ID, data: token2022Mint(address, record) };
  }
  for (const [mint, r] of tokens) {
    if (r.metadata?.layout === 'metaplex' && metadataAddress(mint) === address)
      return { owner: METADATA_PROGRAM_ID, data: metaplexAccount(r.metadata) };
  }
  return null;
}
