// Time-based steps are materialised lazily: before each request, every step whose time has come
// is applied in time order (across all trades, so pool prices see them in the order they happened),
// stamped with the time it was due rather than the time someone looked.
import { buyNextStep, buySettled } from './buys.js';
import { sellNextStep } from './sells.js';
import type { TimeStep } from './time-step.js';
import type { World } from './world.js';

/** Apply every due time-based step up to the sandbox's now. Returns how many were applied. */
export function advance(world: World): number {
  const now = world.now();
  let applied = 0;
  for (;;) {
    let best: (TimeStep & { done: () => void }) | null = null;
    for (const b of world.activeBuys) {
      const s = buyNextStep(world, b);
      if (s && s.at <= now && (!best || s.at < best.at)) {
        best = { ...s, done: () => buySettled(b) && world.activeBuys.delete(b) };
      }
    }
    for (const a of world.activeAuthorizations) {
      const s = sellNextStep(world, a);
      if (s && s.at <= now && (!best || s.at < best.at)) {
        best = { ...s, done: () => a.status !== 'awaiting_signature' && world.activeAuthorizations.delete(a) };
      }
    }
    for (const g of world.activeGroups) {
      const s = sellNextStep(world, g);
      if (s && s.at <= now && (!best || s.at < best.at)) {
        best = {
          ...s,
          done: () => (g.status === 'completed' || g.status === 'failed') && world.activeGroups.delete(g),
        };
      }
    }
    if (!best) return applied;
    best.run(best.at);
    best.done();
    applied++;
  }
}
