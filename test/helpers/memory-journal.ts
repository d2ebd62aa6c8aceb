// A journal recorder for the flows run alone: every call kept in order, the records the signing
// gate appends kept in memory (so the gate's own rules run), and refusals on demand (a journal
// that cannot be written at `created`, a daily limit passed before signing).
import type { Prior, TradeAnswer, TradeRecorder } from '../../src/journal/recorder.js';
import type { JournalRecord, NewRecord } from '../../src/journal/records.js';
import { UsageError } from '../../src/domain/errors.js';

export type RecordedCall =
  | { call: 'created'; id: string; resumed: boolean }
  | { call: 'beforeSigning'; record: Extract<NewRecord, { type: 'before-signing' }> }
  | { call: 'signed'; record: Extract<NewRecord, { type: 'signed' }> }
  | { call: 'answer'; answer: TradeAnswer };

/**
 * `prior`: what the journal knew of the trade before (nothing, unless given); `records`: records
 * on disk before the run (another run's signature, say); `onAppend`: told of each record the gate
 * appends, as it is appended.
 */
export function memoryRecorder(
  refuse: { created?: string; beforeSigning?: string } = {},
  prior: Partial<Prior> = {},
  options: { records?: JournalRecord[]; onAppend?: (record: NewRecord) => void } = {},
): { recorder: TradeRecorder; calls: RecordedCall[]; records: JournalRecord[] } {
  const calls: RecordedCall[] = [];
  const records: JournalRecord[] = options.records ?? [];
  let trade = '';
  return {
    calls,
    records,
    recorder: {
      created(t) {
        calls.push({ call: 'created', id: t.id, resumed: t.resumed });
        if (refuse.created) throw new UsageError(refuse.created, 'JOURNAL_UNWRITABLE');
        trade = t.id;
        return { keyTrade: null, deposits: [], sellSeen: [], ...prior };
      },
      exclusive(step) {
        return step({
          trade,
          all: records,
          own: records.filter((r) => r.trade === trade),
          append(record) {
            options.onAppend?.(record);
            if (record.type === 'before-signing') calls.push({ call: 'beforeSigning', record });
            if (record.type === 'signed') calls.push({ call: 'signed', record });
            records.push({
              v: 1,
              at: new Date(0).toISOString(),
              service: 'memory',
              wallet: 'memory',
              ...record,
            } as JournalRecord);
          },
          assertDailyRoom() {
            if (refuse.beforeSigning) throw new UsageError(refuse.beforeSigning, 'JOURNAL_UNWRITABLE');
          },
          assertUnlocked() {},
          assertMayTrade() {},
        });
      },
      answer(answer) {
        calls.push({ call: 'answer', answer });
      },
    },
  };
}
