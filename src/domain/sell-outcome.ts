// How a sell stands or ended, as the views show it.

/** A sell in progress, completed, or failed (with whether the service says nothing was sold). */
export type SellOutcome =
  /** `stage`: an API stage name (stages.ts). */
  | { state: 'pending'; stage: string }
  | { state: 'completed' }
  | { state: 'failed'; code: string | null; reason: string | null; nothingSold: boolean };
