// The service's resources, exactly as the API document (shared/api-spec.md) names them.
// This file is the only code the client side and the sandbox share: both speak this
// vocabulary, neither trusts the other's logic.
// Raw amounts are decimal strings of integers; timestamps are ISO 8601 strings.

export const API_PREFIX = '/api/v1';

export type Scope = 'trade:intents' | 'read:account' | 'read:public';

export const BUY_STATUSES = [
  'awaiting_deposit',
  'deposit_submitted',
  'deposit_confirmed',
  'swap_submitted',
  'completed',
  'expired',
  'cancelled',
  'refunded',
  'failed',
] as const;
export type BuyStatus = (typeof BUY_STATUSES)[number];
/** Buy statuses after which the intent never changes again. */
export const BUY_TERMINAL_STATUSES: readonly BuyStatus[] = ['completed', 'refunded', 'failed', 'expired', 'cancelled'];

export const AUTHORIZATION_STATUSES = ['awaiting_signature', 'authorized', 'expired', 'cancelled', 'failed'] as const;
export type AuthorizationStatus = (typeof AUTHORIZATION_STATUSES)[number];

export const POSITION_STATUSES = [
  'pending_deposit',
  'pending_funding',
  'funded',
  'open',
  'closing',
  'closed',
  'failed',
  'cancelled',
  'refund_pending',
  'refunded',
  'requires_review',
] as const;
export type PositionStatus = (typeof POSITION_STATUSES)[number];

export const TRADE_STAGES = [
  'awaiting_deposit',
  'confirming_deposit',
  'funding',
  'executing',
  'settling',
  'completed',
  'failed',
  'refunding',
  'refunded',
  'expired',
  'cancelled',
  'requires_review',
] as const;
export type TradeStage = (typeof TRADE_STAGES)[number];

export const REFUND_STATES = ['recovering', 'in_progress', 'complete'] as const;
export type RefundState = (typeof REFUND_STATES)[number];

export const ACTIVITY_TYPES = ['buy', 'sell', 'deposit', 'payout', 'refund'] as const;
export type ActivityType = (typeof ACTIVITY_TYPES)[number];

export interface BuyIntent {
  id: string;
  status: BuyStatus;
  outputMint: string;
  amountLamports: string;
  minimumOutputAmount: string;
  depositExpiresAt: string;
}

export interface BuyDeposit {
  /** Base64 unsigned versioned transaction. */
  transaction: string;
  lastValidBlockHeight: number;
}

export interface SellAuthorization {
  id: string;
  status: AuthorizationStatus;
  mint: string;
  amount: string;
  positionId: string | null;
  expectedOutputLamports: string;
  minimumOutputLamports: string;
  slippageBps: number;
  message: string;
  expiresAt: string;
  authorizedAt: string | null;
  signatureVerifiedAt: string | null;
  executionStarted: boolean;
  failureCode: string | null;
  failureReason: string | null;
  createdAt: string;
}

/** The sell order group: the document shows only `status` (observed: swap_pending, completed). */
export interface SellOrder {
  status: string;
  [extra: string]: unknown;
}

export interface TokenInfo {
  symbol: string | null;
  name: string | null;
  decimals: number | null;
}

export interface Position {
  id: string;
  status: PositionStatus;
  mint: string | null;
  token: TokenInfo | null;
  principalLamports: string;
  costLamports: string | null;
  boughtAmount: string | null;
  soldAmount: string;
  remainingAmount: string | null;
  buyTradeId: string | null;
  buySignature: string | null;
  openedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface TradeSignatures {
  deposit: string | null;
  swaps: string[];
  payouts: string[];
  refund: string | null;
}

export interface TradeRefund {
  state: RefundState;
  amountLamports: string | null;
}

export interface TradeFailure {
  code: string | null;
  reason: string | null;
}

export interface Trade {
  id: string;
  side: 'buy' | 'sell';
  status: string;
  stage: TradeStage;
  terminal: boolean;
  inputMint: string;
  outputMint: string;
  inputAmount: string;
  expectedOutputAmount: string;
  minimumOutputAmount: string;
  receivedOutputAmount: string | null;
  slippageBps: number | null;
  platformFeeLamports: string | null;
  signatures: TradeSignatures;
  refund: TradeRefund | null;
  failure: TradeFailure | null;
  createdAt: string;
  expiresAt: string | null;
  completedAt: string | null;
}

export type TradeStatus = Pick<
  Trade,
  'id' | 'side' | 'status' | 'stage' | 'terminal' | 'signatures' | 'failure' | 'refund' | 'completedAt'
>;

export interface ActivityEntry {
  id: string;
  type: ActivityType;
  status: string;
  signature: string | null;
  mint: string | null;
  symbol: string | null;
  decimals: number | null;
  amount: string | null;
  solLamports: string | null;
  usdValue: number | null;
  points: number;
  createdAt: string;
}

export interface Holding {
  mint: string;
  name: string | null;
  symbol: string | null;
  decimals: number | null;
  amount: string;
  balance: string | null;
  usdPrice: number | null;
  usdValue: number | null;
  imageUrl: string;
  positionIds: string[];
  sellInProgress: boolean;
}

export interface ApiKeyInfo {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  createdAt: string;
}

export interface Account {
  accountId: string;
  walletAddress: string;
  createdAt: string;
  apiKey: ApiKeyInfo;
}

export interface PointsSummary {
  totalPoints: number;
  volumeUsd: string;
  completedSwaps: number;
  rank: number | null;
  participants: number;
  pointsPerUsd: number;
}

export interface Pagination {
  nextCursor: string | null;
  hasMore: boolean;
}

/** Every successful response. */
export interface Envelope<T> {
  data: T;
  requestId: string;
}

export interface ListEnvelope<T> extends Envelope<T[]> {
  pagination: Pagination;
}

// Request bodies.
export interface CreateBuyRequest {
  mint: string;
  amountLamports: string;
  idempotencyKey: string;
  slippageBps?: number;
}
export interface SubmitDepositRequest {
  signedTransaction: string;
}
export interface CreateSellRequest {
  mint: string;
  amount: string;
  idempotencyKey: string;
  slippageBps?: number;
}
export interface AuthorizeSellRequest {
  signature: string;
}

// Response `data` of the trade endpoints.
export interface CreateBuyResponse {
  intent: BuyIntent;
  deposit: BuyDeposit;
}
export interface BuyIntentResponse {
  intent: BuyIntent;
}
export interface SellAuthorizationResponse {
  authorization: SellAuthorization;
}
export interface AuthorizeSellResponse {
  authorization: SellAuthorization;
  sell: SellOrder;
}
export interface GetSellResponse {
  authorization: SellAuthorization;
  sell: SellOrder | null;
}
