// Everything the sandbox remembers, as one plain object so it can be persisted and reset.
// Money is bigint in the records that do arithmetic; positions and activity entries are kept
// in their API shape because they are mostly read.
import type { ActivityEntry, AuthorizationStatus, BuyStatus, Position, RefundState, Scope } from '../api/types.js';

export interface ApiKeyRecord {
  id: string;
  name: string;
  value: string;
  prefix: string;
  scopes: Scope[];
  createdAt: string;
}

export interface AccountIdentity {
  id: string;
  walletAddress: string;
  createdAt: string;
  keys: ApiKeyRecord[];
}

/** What survives a reset: accounts, keys, wallet, treasury. */
export interface Identity {
  accounts: AccountIdentity[];
  treasury: string;
  keypairPath: string;
  /** Secret key of a wallet the sandbox generated itself, so --state can recreate the file. */
  generatedSecretKey: number[] | null;
  /** SOL each account's wallet starts with (and gets back on reset); absent in older state files. */
  startBalanceLamports?: bigint;
}

export interface TokenRecord {
  symbol: string;
  name: string;
  mint: string;
  decimals: number;
  imageUrl: string;
  /** Constant-product pool: lamports on one side, raw token units on the other. */
  solReserve: bigint;
  tokenReserve: bigint;
  /** The token program of its mint on the simulated chain (absent: SPL Token). */
  program?: 'spl-token' | 'token-2022';
  /** What its mint states beyond decimals and metadata (absent: nothing: no authority, no extension). */
  mintExtras?: MintExtras;
}

/**
 * A mint's authorities and Token-2022 extensions on the simulated chain, for tokens a holder
 * should be warned of (token-accounts.ts writes them in the programs' layouts).
 */
export interface MintExtras {
  mintAuthority?: string;
  freezeAuthority?: string;
  /** TransferFeeConfig: the fee in bps and its cap in raw units (a decimal string). */
  transferFee?: { bps: number; maximumFee: string };
  permanentDelegate?: string;
  /** TransferHook: the program it calls. */
  transferHook?: string;
  nonTransferable?: boolean;
  /** Pausable: its authority, not paused. */
  pausable?: string;
  /** DefaultAccountState frozen. */
  defaultFrozen?: boolean;
}

/** What the simulated chain says of a token (token-accounts.ts writes its accounts from it). */
export interface ChainTokenRecord {
  program: 'spl-token' | 'token-2022';
  decimals: number;
  /** Its metadata and where it is; `mint` is the mint the metadata names (another one for a forged account). Null: none. */
  metadata: { layout: 'metaplex' | 'token-2022'; symbol: string; name: string; mint: string } | null;
  extras?: MintExtras;
}

export interface Delays {
  confirmSeconds: number;
  swapSeconds: number;
  payoutSeconds: number;
  refundSeconds: number;
}

export interface Failure {
  code: string;
  reason: string;
}

export interface BuyRecord {
  id: string;
  accountId: string;
  idempotencyKey: string;
  status: BuyStatus;
  mint: string;
  amountLamports: bigint;
  feeLamports: bigint;
  /** The refund paid, where a lie made it less than the deposit. */
  refundLamports?: bigint;
  slippageBps: number;
  expectedOutput: bigint;
  minimumOutput: bigint;
  createdAt: number;
  /** Time of the last status change; time-based steps count from here. */
  updatedAt: number;
  depositExpiresAt: number;
  transaction: string;
  blockhash: string;
  lastValidBlockHeight: number;
  depositSignature: string | null;
  depositSubmittedAt: number | null;
  confirmedAt: number | null;
  swapSignature: string | null;
  receivedOutput: bigint | null;
  completedAt: number | null;
  swapWillFail: boolean;
  failure: Failure | null;
  refundState: RefundState | null;
  refundSignature: string | null;
  positionId: string;
}

export interface AuthorizationRecord {
  id: string;
  accountId: string;
  idempotencyKey: string;
  status: AuthorizationStatus;
  mint: string;
  amount: bigint;
  expectedOutputLamports: bigint;
  minimumOutputLamports: bigint;
  slippageBps: number;
  message: string;
  createdAt: number;
  expiresAt: number;
  authorizedAt: number | null;
  executionStarted: boolean;
  failure: Failure | null;
  groupId: string | null;
}

export type SellGroupStatus = 'swap_pending' | 'payout_pending' | 'completed' | 'failed';

export interface SellGroupRecord {
  id: string;
  accountId: string;
  authorizationId: string;
  status: SellGroupStatus;
  mint: string;
  amount: bigint;
  expectedOutputLamports: bigint;
  minimumOutputLamports: bigint;
  slippageBps: number;
  /** Position id → raw units reserved from it, oldest position first. */
  allocations: Array<{ positionId: string; amount: bigint }>;
  receivedLamports: bigint | null;
  swapSignature: string | null;
  payoutSignature: string | null;
  failure: Failure | null;
  createdAt: number;
  updatedAt: number;
  completedAt: number | null;
}

export interface AccountData {
  accountId: string;
  /** Creation order, oldest first; listings walk it backwards. */
  positions: Position[];
  activity: ActivityEntry[];
  totalPoints: number;
  volumeCents: number;
  /** The owner wallet's SOL (absent in older state files: read it through wallet.ts). */
  walletLamports?: bigint;
  completedSwaps: number;
  /** idempotencyKey → buy id / authorization id. */
  buyKeys: Record<string, string>;
  sellKeys: Record<string, string>;
}

export interface State {
  version: 1;
  identity: Identity;
  clockOffsetMs: number;
  delays: Delays;
  failNextSwaps: number;
  solUsd: number;
  tokens: TokenRecord[];
  chain: {
    genesisMs: number;
    genesisHeight: number;
    blockhashes: Record<string, number>;
    /** Signature → transaction on the simulated chain (absent in older state files). */
    transactions?: Record<string, LedgerTx>;
    /** SOL of addresses that are not account wallets (treasury, pool, others). */
    balances?: Record<string, bigint>;
    /** Token balances of the accounts' trading wallets' token accounts, by token account (what buy swaps delivered). */
    tradingTokens?: Record<string, bigint>;
    /** Tokens put on the chain by the control surface (a mint with no pool, or other facts for a service token's mint). */
    tokens?: Record<string, ChainTokenRecord>;
  };
  /** What the service will lie about next (control surface POST /_sandbox/lie), in order. */
  lies?: Lie[];
  accounts: Record<string, AccountData>;
  buys: BuyRecord[];
  authorizations: AuthorizationRecord[];
  sellGroups: SellGroupRecord[];
  /** Points of fictitious leaderboard participants. */
  leaderboard: number[];
}

/** A lie the service tells: a payout the chain does not have, a smaller one, one to another wallet, a refund that never happened. */
export type Lie =
  'phantom-payout' | 'short-payout' | 'payout-elsewhere' | 'reused-payout' | 'phantom-refund' | 'short-refund';
export const LIES: readonly Lie[] = [
  'phantom-payout',
  'short-payout',
  'payout-elsewhere',
  'reused-payout',
  'phantom-refund',
  'short-refund',
];

export const DEFAULT_DELAYS: Delays = { confirmSeconds: 2, swapSeconds: 2, payoutSeconds: 2, refundSeconds: 2 };

/** One SOL transfer inside a transaction. */
export interface LedgerTransfer {
  from: string;
  to: string;
  lamports: bigint;
}

/** A token account's balance of one mint around a transaction. */
export interface LedgerTokenMove {
  account: string;
  /** The wallet that owns the token account. */
  owner: string;
  mint: string;
  decimals: number;
  programId: string;
  pre: bigint;
  post: bigint;
}

export interface LedgerTx {
  signature: string;
  /** Sandbox time from which the chain shows it (a deposit lands a moment after it is sent). */
  at: number;
  feePayer: string;
  fee: bigint;
  transfers: LedgerTransfer[];
  /** A transaction that failed on chain (it still paid its fee). */
  failed?: boolean;
  /** Token balances it moved, as the chain's meta.pre/postTokenBalances show them (a swap's). */
  tokens?: LedgerTokenMove[];
  /** Accounts it reads and does not change (a swap names the token's mint). */
  reads?: string[];
  /** Base64 of the signed transaction as it landed (a deposit): getTransaction answers these bytes. */
  wire?: string;
  /** Accounts in order (fee payer first), with their balances around the transaction. */
  accounts: string[];
  pre: bigint[];
  post: bigint[];
}
