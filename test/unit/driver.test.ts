// The one driver of every trade (src/trade/driver.ts) and the steps' helpers (trade-needs.ts):
// a need that fails is thrown back into the steps at their yield; an event seen while a trade is
// followed becomes its needs in order, all before the result or the error; the answers reach the
// steps; a fresh key becomes the tracker's.
import nacl from 'tweetnacl';
import { describe, expect, it } from 'vitest';
import { eventsOf, need, type TradeNeed, type TradeSteps } from '../../src/trade/trade-needs.js';
import { TradeTracker } from '../../src/trade/trade-tracker.js';
import { driveSteps, type TestSeat } from '../helpers/drive-steps.js';
import { memoryRecorder } from '../helpers/memory-journal.js';
import { testSigner } from '../helpers/signer.js';

const signer = testSigner(nacl.sign.keyPair().secretKey);

/** A seat that keeps what it was shown and answers `yes`. */
function seat(yes = true) {
  const seen: string[] = [];
  const s: TestSeat<string> = {
    ask: async (asked) => (seen.push(`ask ${asked.ask} ${asked.review}`), yes),
    show: (shown) => void seen.push(shown.show === 'stage' ? `stage ${shown.stage}` : `created ${shown.id}`),
    note: (noted) => void seen.push(`note ${noted.note}`),
    pin: (pinned) => {
      throw new Error(`cannot pin ${pinned.value}`);
    },
    newKey: () => 'key-2',
  };
  return { s, seen };
}

function drive<R extends { kind: string }>(steps: TradeSteps<R, string>, s: TestSeat<string>, track = tracker()) {
  return driveSteps(steps, { signer, journal: memoryRecorder().recorder, track }, s);
}

const tracker = () => new TradeTracker('sell', 'key-1');

describe('the driver', () => {
  it('answers each need, and a need that fails is thrown into the steps at its yield', async () => {
    const { s, seen } = seat();
    async function* steps(): TradeSteps<{ kind: string; said: string[] }, string> {
      const said: string[] = [];
      said.push(`asked: ${String(yield* need({ kind: 'ask', ask: 'confirm', review: 'the review' }))}`);
      try {
        yield* need({ kind: 'pin', pin: 'treasury', value: 'T' });
        said.push('pinned');
      } catch (err) {
        said.push(`caught: ${(err as Error).message}`);
      }
      yield* need({ kind: 'note', note: 'quote-expired' });
      return { kind: 'done', said };
    }
    expect(await drive(steps(), s)).toEqual({ kind: 'done', said: ['asked: true', 'caught: cannot pin T'] });
    expect(seen).toEqual(['ask confirm the review', 'note quote-expired']);
  });

  it('a failed need the steps do not catch stops the trade with it; the tracker keeps where it stood', async () => {
    const track = tracker();
    async function* steps(): TradeSteps<{ kind: string }, string> {
      yield* need({ kind: 'track', phase: 'submitted', last: { id: 'x' } });
      yield* need({ kind: 'pin', pin: 'treasury', value: 'T' });
      return { kind: 'never' };
    }
    await expect(drive(steps(), seat().s, track)).rejects.toThrow('cannot pin T');
    expect([track.phase, track.ref.last]).toEqual(['submitted', { id: 'x' }]);
  });

  it("a fresh key is the tracker's key from then on, and the trade not yet made", async () => {
    const track = tracker();
    track.ref.id = 'sell_1';
    async function* steps(): TradeSteps<{ kind: string; key: string }, string> {
      return { kind: 'done', key: yield* need({ kind: 'new-key' }) };
    }
    expect(await drive(steps(), seat().s, track)).toEqual({ kind: 'done', key: 'key-2' });
    expect([track.ref.idempotencyKey, track.ref.id]).toEqual(['key-2', null]);
  });
});

describe('events seen while a trade is followed', () => {
  const stageNeeds = (stage: string): TradeNeed[] => [
    { kind: 'record', answer: { step: 'read', status: stage } },
    { kind: 'show', show: 'stage', stage },
  ];

  it('each event becomes its needs, in order, all before the result', async () => {
    const { s, seen } = seat();
    async function* steps(): TradeSteps<{ kind: string; value: number }, string> {
      const value = yield* eventsOf(async (emit: (stage: string) => void) => {
        emit('a');
        await Promise.resolve();
        emit('b');
        return 7;
      }, stageNeeds);
      // The events of a start that ends at once, none waited for.
      const again = yield* eventsOf(async (emit: (stage: string) => void) => (emit('c'), emit('d'), 1), stageNeeds);
      return { kind: 'done', value: value + again };
    }
    expect(await drive(steps(), s)).toEqual({ kind: 'done', value: 8 });
    expect(seen).toEqual(['stage a', 'stage b', 'stage c', 'stage d']);
  });

  it('the events before an error come before it', async () => {
    const { s, seen } = seat();
    async function* steps(): TradeSteps<{ kind: string }, string> {
      yield* eventsOf(async (emit: (stage: string) => void) => {
        emit('a');
        throw new Error('read failed');
      }, stageNeeds);
      return { kind: 'never' };
    }
    await expect(drive(steps(), s)).rejects.toThrow('read failed');
    expect(seen).toEqual(['stage a']);
  });
});
