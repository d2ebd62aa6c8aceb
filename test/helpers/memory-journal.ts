// A journal recorder for the flows run alone: every call kept in order, and refusals on demand
// (a journal that cannot be written, a daily limit passed) at `created` or `beforeSigning`.
import type { Prior, ToSign, TradeAnswer, TradeRecorder } from '../../src/domain/trade-record.js';
import { UsageError } from '../../src/domain/errors.js';

export type RecordedCall = { call: 'created'; id: string; resumed: boolean } | { call: 'beforeSigning'; what: ToSign } | { call: 'answer'; answer: TradeAnswer };

/** `prior`: what the journal knew of the trade before (nothing, unless given). */
export function memoryRecorder(refuse: { created?: string; beforeSigning?: string } = {}, prior: Partial<Prior> = {}): { recorder: TradeRecorder; calls: RecordedCall[] } {
  const calls: RecordedCall[] = [];
  return {
    calls,
    recorder: {
      created(t) {
        calls.push({ call: 'created', id: t.id, resumed: t.resumed });
        if (refuse.created) throw new UsageError(refuse.created, 'JOURNAL_UNWRITABLE');
        return { keyTrade: null, deposits: [], messageSha256: [], sellSeen: [], ...prior };
      },
      beforeSigning(what) {
        calls.push({ call: 'beforeSigning', what });
        if (refuse.beforeSigning) throw new UsageError(refuse.beforeSigning, 'JOURNAL_UNWRITABLE');
      },
      answer(answer) {
        calls.push({ call: 'answer', answer });
      },
    },
  };
}
