// A token's decimals, symbol and name as the chain states them, read through the user's RPC:
// the mint account (owned by the SPL Token or Token-2022 program) for its decimals; for its
// symbol and name, Token-2022's TokenMetadata extension in the mint (when a MetadataPointer, if
// any, points at the mint itself) or else the Metaplex metadata account at the PDA
// ["metadata", program, mint]. Metadata that is not where its program puts it, not owned by it,
// or names another mint is no metadata: anyone can write an account saying "WOOF".
import type { ChainTokenFacts } from '../domain/token.js';
import { UsageError } from '../domain/errors.js';
import { ChainUnavailableError, type ChainReader } from './chain-reader.js';
import {
  decodeMetaplexMetadata,
  decodeSplMint,
  decodeToken2022Mint,
  METAPLEX_PROGRAM,
  TOKEN_2022_PROGRAM,
  TOKEN_PROGRAM,
  type MetadataFields,
} from './token-layouts.js';

/** The Metaplex metadata account's address for a mint: the PDA ["metadata", program, mint]. */
export async function metaplexMetadataAddress(mint: string): Promise<string> {
  // web3.js is loaded already by the chain reader that calls this; imported here lazily all the same.
  const { PublicKey } = await import('@solana/web3.js');
  const program = new PublicKey(METAPLEX_PROGRAM);
  const [address] = PublicKey.findProgramAddressSync([Buffer.from('metadata'), program.toBuffer(), new PublicKey(mint).toBuffer()], program);
  return address.toBase58();
}

/**
 * Reads a mint's facts from the chain; null when the account is not a token mint (absent, owned
 * by another program, or not a mint's layout). Throws ChainUnavailableError when the chain cannot be read.
 */
export async function readTokenFacts(chain: ChainReader, mint: string): Promise<ChainTokenFacts | null> {
  const metadataAddress = await metaplexMetadataAddress(mint);
  const [account, metaplex] = await Promise.all([chain.getAccountInfo(mint), chain.getAccountInfo(metadataAddress)]);
  if (!account) return null;
  const program = account.owner === TOKEN_PROGRAM ? 'spl-token' : account.owner === TOKEN_2022_PROGRAM ? 'token-2022' : null;
  if (!program) return null;
  const decoded = program === 'spl-token' ? decodeSplMint(account.data) : decodeToken2022Mint(account.data);
  if (!decoded) return null;
  // An empty symbol or name states nothing: the service's would need a person, as with none.
  const text = (s: string) => (s.trim() === '' ? null : s);
  const facts = (metadata: MetadataFields | null, source: 'metaplex' | 'token-2022'): ChainTokenFacts =>
    metadata && metadata.mint === mint
      ? { mint, program, decimals: decoded.decimals, symbol: text(metadata.symbol), name: text(metadata.name), metadataSource: source }
      : { mint, program, decimals: decoded.decimals, symbol: null, name: null, metadataSource: null };
  const pointer = decoded.metadataPointer;
  if (decoded.metadata && (pointer === null || pointer === mint)) return facts(decoded.metadata, 'token-2022');
  // A pointer elsewhere than the mint or the Metaplex account points at metadata no standard program vouches for.
  if (pointer !== null && pointer !== metadataAddress) return facts(null, 'metaplex');
  return facts(metaplex && metaplex.owner === METAPLEX_PROGRAM ? decodeMetaplexMetadata(metaplex.data) : null, 'metaplex');
}

/** What a trade learns of a mint on chain: its facts, or why the chain could not give them. */
export type TokenFactsRead = { facts: ChainTokenFacts | null; unread: null } | { facts: 'unreadable'; unread: string };

/**
 * Reads a mint's facts for a trade: a chain that cannot be read (or an RPC URL that is not one)
 * costs the facts (they stay unconfirmed), never the trade.
 */
export async function readTokenFactsForTrade(chain: () => Promise<ChainReader>, mint: string): Promise<TokenFactsRead> {
  try {
    return { facts: await readTokenFacts(await chain(), mint), unread: null };
  } catch (err) {
    if (err instanceof ChainUnavailableError || err instanceof UsageError) return { facts: 'unreadable', unread: err.message };
    throw err;
  }
}
