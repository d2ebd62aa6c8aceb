// One vocabulary for where a trade stands: the API's stage names (awaiting_deposit,
// confirming_deposit, funding, executing, settling, completed, …). A buy intent and a sell order
// report statuses of their own; these say which stage each status is, so every spinner, line and
// view of a trade uses the same words whichever endpoint it read.
import type { TradeStage } from '../api/types.js';

const BUY_STATUS_STAGE: Record<string, TradeStage> = {
  awaiting_deposit: 'awaiting_deposit',
  deposit_submitted: 'confirming_deposit',
  deposit_confirmed: 'funding',
  swap_submitted: 'executing',
  completed: 'completed',
  failed: 'failed',
  refunded: 'refunded',
  expired: 'expired',
  cancelled: 'cancelled',
};

// The API shows only swap_pending and completed for a sell order; the others are read by name.
const SELL_STATUS_STAGE: Record<string, TradeStage> = {
  authorized: 'executing',
  swap_pending: 'executing',
  payout_pending: 'settling',
  completed: 'completed',
  failed: 'failed',
  expired: 'expired',
  cancelled: 'cancelled',
};

/** The stage of a buy intent's status (an unknown status is passed through as it is). */
export function buyStatusStage(status: string): string {
  return BUY_STATUS_STAGE[status] ?? status;
}

/** The stage of a sell authorization's or sell order's status (an unknown status is passed through). */
export function sellStatusStage(status: string): string {
  return SELL_STATUS_STAGE[status] ?? status;
}
