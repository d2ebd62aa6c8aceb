// Pure decoders of what a mint account states beyond its decimals (token-layouts.ts reads those):
// supply and authorities, and each Token-2022 extension that bears on a holder; the update
// authority and mutability of its metadata. Layouts as their programs write them:
// - SPL Token `Mint` (82 bytes): mint_authority COption<Pubkey> at 0 (u32 tag + 32), supply u64
//   at 36, decimals at 44, is_initialized at 45, freeze_authority COption at 46.
// - Token-2022 extensions (spl-token-2022 extension/*): OptionalNonZeroPubkey is 32 bytes, all
//   zeros for none. TransferFeeConfig (1, 108 bytes): config authority, withdraw-withheld
//   authority, withheld u64, then two TransferFee {epoch u64, maximum_fee u64, bps u16}, older
//   then newer. MintCloseAuthority (3, 32). DefaultAccountState (6, 1: 0 uninitialized,
//   1 initialized, 2 frozen). NonTransferable (9, 0). PermanentDelegate (12, 32). TransferHook
//   (14, 64: authority, program id). MetadataPointer (18, 64: authority, address). Pausable
//   (26, 33: authority, paused bool). Every other type is named from ExtensionType.
// - Metaplex `Metadata`: after name, symbol, uri: seller_fee_basis_points u16, creators
//   Option<Vec<Creator {address 32, verified u8, share u8}>>, primary_sale_happened u8, is_mutable u8.
// - Token-2022 TokenMetadata (19): update_authority OptionalNonZeroPubkey first.
import bs58 from 'bs58';
import type { MintExtension, TransferFee } from '../domain/mint-facts.js';
import { MINT_SIZE } from './token-layouts.js';

/** ExtensionType's names, by number (spl-token-2022 extension/mod.rs). */
export const EXTENSION_NAMES: readonly string[] = [
  'Uninitialized',
  'TransferFeeConfig',
  'TransferFeeAmount',
  'MintCloseAuthority',
  'ConfidentialTransferMint',
  'ConfidentialTransferAccount',
  'DefaultAccountState',
  'ImmutableOwner',
  'MemoTransfer',
  'NonTransferable',
  'InterestBearingConfig',
  'CpiGuard',
  'PermanentDelegate',
  'NonTransferableAccount',
  'TransferHook',
  'TransferHookAccount',
  'ConfidentialTransferFeeConfig',
  'ConfidentialTransferFeeAmount',
  'MetadataPointer',
  'TokenMetadata',
  'GroupPointer',
  'TokenGroup',
  'GroupMemberPointer',
  'TokenGroupMember',
  'ConfidentialMintBurn',
  'ScaledUiAmount',
  'Pausable',
  'PausableAccount',
];

/** An extension type's name: ExtensionType's, or `Unknown(<n>)` for one this version does not know. */
export const extensionName = (code: number): string => EXTENSION_NAMES[code] ?? `Unknown(${code})`;

const view = (data: Uint8Array) => new DataView(data.buffer, data.byteOffset, data.byteLength);
const key = (data: Uint8Array, at: number) => bs58.encode(data.subarray(at, at + 32));
/** An OptionalNonZeroPubkey: all zeros is none. */
const optionalKey = (data: Uint8Array, at: number) =>
  data.subarray(at, at + 32).every((b) => b === 0) ? null : key(data, at);
/** A COption<Pubkey>: u32 tag (1 = some) then 32 bytes. */
const cOptionKey = (data: Uint8Array, at: number) => (view(data).getUint32(at, true) === 1 ? key(data, at + 4) : null);

/** The base mint's supply and authorities (the 82 bytes every mint starts with; token-layouts.ts checks they are a mint). */
export function decodeMintBase(
  data: Uint8Array,
): { supply: bigint; mintAuthority: string | null; freezeAuthority: string | null } | null {
  if (data.length < MINT_SIZE) return null;
  return {
    mintAuthority: cOptionKey(data, 0),
    supply: view(data).getBigUint64(36, true),
    freezeAuthority: cOptionKey(data, 46),
  };
}

function transferFee(value: Uint8Array, at: number): TransferFee {
  const v = view(value);
  return { epoch: v.getBigUint64(at, true), maximumFee: v.getBigUint64(at + 8, true), bps: v.getUint16(at + 16, true) };
}

const SIZES: Record<number, number> = { 1: 108, 3: 32, 6: 1, 9: 0, 12: 32, 14: 64, 18: 64, 26: 33 };
const STATES = ['uninitialized', 'initialized', 'frozen'] as const;

/** One TLV entry of a mint as an extension: decoded where it bears on a holder, named otherwise; 'malformed' when its bytes are not its layout. */
export function decodeExtension(code: number, value: Uint8Array): MintExtension {
  const name = extensionName(code);
  const size = SIZES[code];
  if (size === undefined) return { type: 'other', code, name };
  if (value.length !== size) return { type: 'malformed', code, name };
  switch (code) {
    case 1:
      return {
        type: 'transfer-fee',
        code,
        name: 'TransferFeeConfig',
        configAuthority: optionalKey(value, 0),
        withdrawAuthority: optionalKey(value, 32),
        older: transferFee(value, 72),
        newer: transferFee(value, 90),
      };
    case 3:
      return { type: 'mint-close-authority', code, name: 'MintCloseAuthority', authority: optionalKey(value, 0) };
    case 6: {
      const state = STATES[value[0]!];
      return state
        ? { type: 'default-account-state', code, name: 'DefaultAccountState', state }
        : { type: 'malformed', code, name };
    }
    case 9:
      return { type: 'non-transferable', code, name: 'NonTransferable' };
    case 12:
      return { type: 'permanent-delegate', code, name: 'PermanentDelegate', delegate: optionalKey(value, 0) };
    case 14:
      return {
        type: 'transfer-hook',
        code,
        name: 'TransferHook',
        authority: optionalKey(value, 0),
        program: optionalKey(value, 32),
      };
    case 18:
      return {
        type: 'metadata-pointer',
        code,
        name: 'MetadataPointer',
        authority: optionalKey(value, 0),
        address: optionalKey(value, 32),
      };
    default: {
      const paused = value[32]!;
      return paused <= 1
        ? { type: 'pausable', code: 26, name: 'Pausable', authority: optionalKey(value, 0), paused: paused === 1 }
        : { type: 'malformed', code, name };
    }
  }
}

/** Who may change a Token-2022 TokenMetadata extension's value (its first 32 bytes), or null. */
export function tokenMetadataAuthority(value: Uint8Array): string | null {
  return value.length < 32 ? null : optionalKey(value, 0);
}

/** A Metaplex metadata account's update authority and isMutable, read past its strings; null when the bytes end first. */
export function metaplexAuthority(data: Uint8Array): { updateAuthority: string; mutable: boolean } | null {
  if (data.length < 65) return null;
  const v = view(data);
  let at = 65;
  for (let i = 0; i < 3; i++) {
    if (at + 4 > data.length) return null;
    at += 4 + v.getUint32(at, true);
  }
  at += 2; // seller_fee_basis_points
  if (at + 1 > data.length) return null;
  if (data[at] === 1) {
    if (at + 5 > data.length) return null;
    at += 5 + v.getUint32(at + 1, true) * 34;
  } else at += 1;
  // primary_sale_happened, then is_mutable
  if (at + 2 > data.length || data[at + 1]! > 1) return null;
  return { updateAuthority: key(data, 1), mutable: data[at + 1] === 1 };
}
