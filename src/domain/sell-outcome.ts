// How a sell stands or ended, as the views show it.
import type { SoldEvidence } from './sell-evidence.js';

/** A sell in progress, completed, or failed (with what the reports seen show of the tokens). */
export type SellOutcome =
  /** `stage`: an API stage name (stages.ts). */
  | { state: 'pending'; stage: string }
  | { state: 'completed' }
  | { state: 'failed'; code: string | null; reason: string | null; sold: SoldEvidence };
