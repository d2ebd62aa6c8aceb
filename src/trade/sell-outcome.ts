// Whether a sell is over and how it ended. The API shows only the sell statuses swap_pending
// and completed, so anything else is read tolerantly: a failure status or a failure code
// anywhere means failed, `completed` means success, everything else means still going.
import type { GetSellResponse, SellOrder, TradeStatus } from '../api/types.js';
import type { SellOutcome } from '../domain/sell-outcome.js';
import { sellStatusStage } from './stages.js';

const FAILED_STATUS = /(fail|error|reject|cancel|expire|revert|abort)/i;

/** Classifies a sell from its authorization, its order group and, if known, its trade status. */
export function sellOutcome(view: GetSellResponse, tradeStatus?: TradeStatus | null): SellOutcome {
  const { authorization: auth, sell } = view;
  if (auth.status === 'failed' || auth.failureCode) {
    return { state: 'failed', code: auth.failureCode, reason: auth.failureReason, nothingSold: true };
  }
  if (auth.status === 'expired' || auth.status === 'cancelled') {
    return { state: 'failed', code: auth.status.toUpperCase(), reason: `the authorization ${auth.status}`, nothingSold: true };
  }
  if (tradeStatus?.terminal) {
    if (tradeStatus.stage === 'completed') return { state: 'completed' };
    const code = tradeStatus.failure?.code ?? null;
    return { state: 'failed', code: code ?? tradeStatus.stage.toUpperCase(), reason: tradeStatus.failure?.reason ?? null, nothingSold: code === 'PRICE_MOVED' };
  }
  if (!sell) return { state: 'pending', stage: tradeStatus?.stage ?? sellStatusStage(auth.status) };
  if (sell.status === 'completed') return { state: 'completed' };
  const failure = failureOf(sell);
  if (failure || FAILED_STATUS.test(sell.status)) {
    const code = failure?.code ?? null;
    return { state: 'failed', code, reason: failure?.reason ?? `sell ${sell.status}`, nothingSold: code === 'PRICE_MOVED' };
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
