// Whether a sell is over and how it ended. The API shows only the sell statuses swap_pending
// and completed, so anything else is read tolerantly: a failure status or a failure code
// anywhere means failed, `completed` means success, everything else means still going.
import type { GetSellResponse, SellOrder, TradeStatus } from '../api/types.js';
import type { SellOutcome } from '../domain/sell-outcome.js';
import { soldEvidence, type SellSeen } from '../domain/sell-evidence.js';
import { sellStatusStage } from './stages.js';

const FAILED_STATUS = /(fail|error|reject|cancel|expire|revert|abort)/i;

/** The facts of one report of the sell, for its evidence history. */
export function seenOf(view: GetSellResponse, from: string): SellSeen {
  const { authorization: auth, sell } = view;
  return {
    from,
    authorization: auth.status,
    executionStarted: typeof auth.executionStarted === 'boolean' ? auth.executionStarted : null,
    sell: sell ? String(sell.status) : null,
    failure: (sell ? failureOf(sell)?.code : null) ?? auth.failureCode ?? null,
  };
}

/**
 * Classifies a sell from its authorization, its order group and, if known, its trade status.
 * `history`: every report of this sell seen so far, this one last (what may be said of the
 * tokens depends on all of them).
 */
export function sellOutcome(
  view: GetSellResponse,
  tradeStatus?: TradeStatus | null,
  history: readonly SellSeen[] = [seenOf(view, 'the read')],
): SellOutcome {
  const { authorization: auth, sell } = view;
  if (auth.status === 'failed' || auth.failureCode) {
    return {
      state: 'failed',
      code: auth.failureCode,
      reason: auth.failureReason,
      sold: soldEvidence(history, true, auth.failureCode),
    };
  }
  if (auth.status === 'expired' || auth.status === 'cancelled') {
    return {
      state: 'failed',
      code: auth.status.toUpperCase(),
      reason: `the authorization ${auth.status}`,
      sold: soldEvidence(history, true, null),
    };
  }
  if (tradeStatus?.terminal) {
    if (tradeStatus.stage === 'completed') return { state: 'completed' };
    const code = tradeStatus.failure?.code ?? null;
    return {
      state: 'failed',
      code: code ?? tradeStatus.stage.toUpperCase(),
      reason: tradeStatus.failure?.reason ?? null,
      sold: soldEvidence(history, false, code),
    };
  }
  if (!sell) return { state: 'pending', stage: tradeStatus?.stage ?? sellStatusStage(auth.status) };
  if (sell.status === 'completed') return { state: 'completed' };
  const failure = failureOf(sell);
  if (failure || FAILED_STATUS.test(sell.status)) {
    const code = failure?.code ?? null;
    return {
      state: 'failed',
      code,
      reason: failure?.reason ?? `sell ${sell.status}`,
      sold: soldEvidence(history, false, code),
    };
  }
  return { state: 'pending', stage: tradeStatus?.stage ?? sellStatusStage(sell.status) };
}

/** The key under which the sell group can be read at /trades/{key}, if the sell carries one. */
export function sellGroupKey(sell: SellOrder | null): string | null {
  if (!sell) return null;
  for (const field of ['groupKey', 'group_key', 'tradeId', 'id', 'key']) {
    const value = sell[field];
    if (typeof value === 'string' && value.length > 0 && value.length <= 200) return value;
  }
  return null;
}

function failureOf(sell: SellOrder): { code: string | null; reason: string | null } | null {
  const text = (v: unknown) => (typeof v === 'string' && v ? v : null);
  const nested = sell.failure ?? sell.error;
  if (nested && typeof nested === 'object') {
    const n = nested as Record<string, unknown>;
    const code = text(n.code);
    const reason = text(n.reason) ?? text(n.message);
    if (code || reason) return { code, reason };
  }
  const code = text(sell.failureCode) ?? text(sell.errorCode) ?? (typeof sell.error === 'string' ? sell.error : null);
  if (code) return { code, reason: text(sell.failureReason) ?? text(sell.reason) };
  return null;
}
