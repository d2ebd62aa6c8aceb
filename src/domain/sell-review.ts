// What a sell shows the user before the message is signed: the authorization, what the tool
// cannot explain in its message, and how its wording stands against the pinned one.
import type { SellAuthorization } from '../api/types.js';
import type { Finding } from '../wallet/sell-message/accounting.js';

/** How the message's wording stands against the one pinned for the service. */
export type WordingStatus = 'first-use' | 'pinned' | 'changed';

/** What the user is shown before signing. */
export interface SellReview {
  authorization: SellAuthorization;
  /** Parts of the message the tool cannot explain (empty when the pinned wording already holds them). */
  findings: Finding[];
  wording: { status: WordingStatus; text: string; fingerprint: string; pinned: { text: string; fingerprint: string } | null };
}

