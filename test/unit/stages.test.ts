// One vocabulary for stages: a buy's and a sell's own statuses are shown as the API's stage
// names, so the buy spinner and `trades --watch` say the same words for the same moment.
import { describe, expect, it } from 'vitest';
import { TRADE_STAGES } from '../../src/api/types.js';
import { stageWords } from '../../src/views/stage.js';
import { sellOutcome } from '../../src/trade/sell-answers.js';
import { buyStatusStage, sellStatusStage } from '../../src/trade/stages.js';
import { authorization, tradeStatus } from './api-helpers.js';

describe('stages', () => {
  it('every buy status is a stage of the API', () => {
    const stages = [
      'awaiting_deposit',
      'deposit_submitted',
      'deposit_confirmed',
      'swap_submitted',
      'completed',
      'failed',
      'refunded',
      'expired',
      'cancelled',
    ].map(buyStatusStage);
    for (const stage of stages) expect(TRADE_STAGES).toContain(stage);
    expect(buyStatusStage('deposit_submitted')).toBe('confirming_deposit');
    expect(buyStatusStage('deposit_confirmed')).toBe('funding');
    expect(buyStatusStage('swap_submitted')).toBe('executing');
    expect(buyStatusStage('something_new')).toBe('something_new');
  });

  it('a sell in progress: the trade status stage when known, else its status as a stage', () => {
    expect(sellStatusStage('swap_pending')).toBe('executing');
    const view = {
      authorization: { ...authorization, status: 'authorized' },
      sell: { status: 'swap_pending' },
    } as never;
    expect(sellOutcome(view)).toEqual({ state: 'pending', stage: 'executing' });
    expect(sellOutcome(view, { ...tradeStatus, side: 'sell', stage: 'settling', terminal: false } as never)).toEqual({
      state: 'pending',
      stage: 'settling',
    });
  });

  it('in words', () => {
    expect(stageWords('confirming_deposit')).toBe('confirming deposit');
  });
});
