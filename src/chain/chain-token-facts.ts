// A token's decimals, symbol and name as the chain states them, read through the user's RPC:
// the mint account (owned by the SPL Token or Token-2022 program) for its decimals; for its
// symbol and name, Token-2022's TokenMetadata extension in the mint (when a MetadataPointer, if
// any, points at the mint itself) or else the Metaplex metadata account at the PDA
// ["metadata", program, mint]. Metadata that is not where its program puts it, not owned by it,
// or names another mint is no metadata: anyone can write an account saying "WOOF".
import type { ChainTokenFacts } from '../domain/token-meta.js';
import type { MetadataFacts, MintFacts } from '../domain/mint-facts.js';
import { UsageError } from '../domain/errors.js';
import bs58 from 'bs58';
import { isAddress } from '../domain/address.js';
import { ChainUnavailableError, type ChainReader } from './chain-reader.js';
import { findProgramAddress } from './program-address.js';
import { decodeExtension, decodeMintBase, metaplexAuthority, tokenMetadataAuthority } from './mint-layouts.js';
import {
  ACCOUNT_TYPE_OFFSET,
  decodeMetaplexMetadata,
  decodeSplMint,
  decodeToken2022Mint,
  EXTENSION_TOKEN_METADATA,
  METAPLEX_PROGRAM,
  MINT_SIZE,
  tlvEntries,
  TOKEN_2022_PROGRAM,
  TOKEN_PROGRAM,
  type MetadataFields,
} from './token-layouts.js';

/** The Metaplex metadata account's address for a mint: the PDA ["metadata", program, mint]. */
export function metaplexMetadataAddress(mint: string): string {
  if (!isAddress(mint)) throw new TypeError(`not an address: ${mint}`);
  const seeds = [Buffer.from('metadata'), bs58.decode(METAPLEX_PROGRAM), bs58.decode(mint)];
  return findProgramAddress(seeds, METAPLEX_PROGRAM).address;
}

/**
 * Reads a mint's facts from the chain; null when the account is not a token mint (absent, owned
 * by another program, or not a mint's layout). Throws ChainUnavailableError when the chain cannot be read.
 */
export async function readTokenFacts(chain: ChainReader, mint: string): Promise<ChainTokenFacts | null> {
  return (await readMint(chain, mint))?.token ?? null;
}

/** What the chain states of a mint: the facts token binding compares, and all of them (authorities, extensions: domain/mint-facts.ts). */
export interface MintRead {
  token: ChainTokenFacts;
  facts: MintFacts;
}

/** Reads a mint's facts, all of them; null and errors as readTokenFacts. */
export async function readMint(chain: ChainReader, mint: string): Promise<MintRead | null> {
  const metadataAddress = metaplexMetadataAddress(mint);
  const [account, metaplex] = await Promise.all([chain.getAccountInfo(mint), chain.getAccountInfo(metadataAddress)]);
  if (!account) return null;
  const program =
    account.owner === TOKEN_PROGRAM ? 'spl-token' : account.owner === TOKEN_2022_PROGRAM ? 'token-2022' : null;
  if (!program) return null;
  const decoded = program === 'spl-token' ? decodeSplMint(account.data) : decodeToken2022Mint(account.data);
  const base = decodeMintBase(account.data);
  if (!decoded || !base) return null;
  // An empty symbol or name states nothing: the service's would need a person, as with none.
  const text = (s: string) => (s.trim() === '' ? null : s);
  const extensions =
    program === 'token-2022' && account.data.length > MINT_SIZE
      ? (tlvEntries(account.data.subarray(ACCOUNT_TYPE_OFFSET + 1)) ?? [])
      : [];
  const read = (
    metadata: MetadataFields | null,
    source: 'metaplex' | 'token-2022',
    authority: { updateAuthority: string | null; mutable: boolean } | null,
  ): MintRead => {
    const vouched = metadata && metadata.mint === mint ? metadata : null;
    const token: ChainTokenFacts = vouched
      ? {
          mint,
          program,
          decimals: decoded.decimals,
          symbol: text(vouched.symbol),
          name: text(vouched.name),
          metadataSource: source,
        }
      : { mint, program, decimals: decoded.decimals, symbol: null, name: null, metadataSource: null };
    const metadataFacts: MetadataFacts | null = vouched
      ? {
          source,
          account: source === 'metaplex' ? metadataAddress : mint,
          symbol: token.symbol,
          name: token.name,
          updateAuthority: authority?.updateAuthority ?? null,
          mutable: authority?.mutable ?? true,
        }
      : null;
    return {
      token,
      facts: {
        mint,
        program,
        decimals: decoded.decimals,
        ...base,
        metadata: metadataFacts,
        extensions: extensions.filter((e) => e.type !== 0).map((e) => decodeExtension(e.type, e.value)),
      },
    };
  };
  const pointer = decoded.metadataPointer;
  if (decoded.metadata && (pointer === null || pointer === mint)) {
    const value = extensions.find((e) => e.type === EXTENSION_TOKEN_METADATA)!.value;
    const updateAuthority = tokenMetadataAuthority(value);
    return read(decoded.metadata, 'token-2022', { updateAuthority, mutable: updateAuthority !== null });
  }
  // A pointer elsewhere than the mint or the Metaplex account points at metadata no standard program vouches for.
  if (pointer !== null && pointer !== metadataAddress) return read(null, 'metaplex', null);
  const owned = metaplex && metaplex.owner === METAPLEX_PROGRAM ? metaplex.data : null;
  // Metadata whose authority fields cannot be read is taken as changeable: the safer reading.
  return read(owned ? decodeMetaplexMetadata(owned) : null, 'metaplex', owned ? metaplexAuthority(owned) : null);
}

/** What a trade learns of a mint on chain: its facts, or why the chain could not give them. */
export type TokenFactsRead =
  | { facts: ChainTokenFacts | null; unread: null; mint: MintFacts | null }
  | { facts: 'unreadable'; unread: string; mint: null };

/**
 * Reads a mint's facts for a trade: a chain that cannot be read (or an RPC URL that is not one)
 * costs the facts (they stay unconfirmed), never the trade.
 */
export async function readTokenFactsForTrade(chain: () => Promise<ChainReader>, mint: string): Promise<TokenFactsRead> {
  try {
    const read = await readMint(await chain(), mint);
    return { facts: read?.token ?? null, unread: null, mint: read?.facts ?? null };
  } catch (err) {
    if (err instanceof ChainUnavailableError || err instanceof UsageError)
      return { facts: 'unreadable', unread: err.message, mint: null };
    throw err;
  }
}
