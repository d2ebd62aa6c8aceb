// A mint's facts as the chain states them, beyond the decimals and names token binding compares:
// its program, supply, authorities, metadata's authority, and every Token-2022 extension
// (chain/mint-layouts.ts decodes them, domain/token-risks.ts reads what can go wrong).

/** A Token-2022 transfer fee as its extension states it: from `epoch` on, `bps` of each transfer, at most `maximumFee` raw units. */
export interface TransferFee {
  epoch: bigint;
  maximumFee: bigint;
  bps: number;
}

/** One Token-2022 mint extension: those that bear on a holder decoded, any other by its name. */
export type MintExtension =
  | {
      type: 'transfer-fee';
      code: 1;
      name: 'TransferFeeConfig';
      configAuthority: string | null;
      withdrawAuthority: string | null;
      older: TransferFee;
      newer: TransferFee;
    }
  | { type: 'mint-close-authority'; code: 3; name: 'MintCloseAuthority'; authority: string | null }
  | {
      type: 'default-account-state';
      code: 6;
      name: 'DefaultAccountState';
      state: 'uninitialized' | 'initialized' | 'frozen';
    }
  | { type: 'non-transferable'; code: 9; name: 'NonTransferable' }
  | { type: 'permanent-delegate'; code: 12; name: 'PermanentDelegate'; delegate: string | null }
  | { type: 'transfer-hook'; code: 14; name: 'TransferHook'; authority: string | null; program: string | null }
  | { type: 'metadata-pointer'; code: 18; name: 'MetadataPointer'; authority: string | null; address: string | null }
  | { type: 'pausable'; code: 26; name: 'Pausable'; authority: string | null; paused: boolean }
  /** Present, and not one decoded here (or not a mint's extension): named only. */
  | { type: 'other'; code: number; name: string }
  /** A known extension whose bytes are not its layout: what it does cannot be read. */
  | { type: 'malformed'; code: number; name: string };

/** A mint's metadata and whether it can still change. */
export interface MetadataFacts {
  source: 'metaplex' | 'token-2022';
  /** The account holding it (the Metaplex PDA, or the mint itself). */
  account: string;
  symbol: string | null;
  name: string | null;
  /** Who may change it; null: no one. */
  updateAuthority: string | null;
  /** Whether it can still change (Metaplex's isMutable; Token-2022: an update authority is set). */
  mutable: boolean;
}

/** Everything the chain states of a mint. */
export interface MintFacts {
  mint: string;
  program: 'spl-token' | 'token-2022';
  decimals: number;
  /** Raw units in existence. */
  supply: bigint;
  /** Who may mint more; null: the supply is fixed. */
  mintAuthority: string | null;
  /** Who may freeze any holder's account; null: no one. */
  freezeAuthority: string | null;
  /** Null: none the chain vouches for (as chain/chain-token-facts.ts decides). */
  metadata: MetadataFacts | null;
  /** Token-2022 extensions, in the order the mint stores them; empty for SPL Token. */
  extensions: MintExtension[];
}
