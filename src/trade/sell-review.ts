// What a sell shows the user before its message is signed: the authorization, the guard's
// verdict on it (with its slots' labels), and the token's facts as bound (never the service's alone).
import type { SellAuthorization } from '../api/types.js';
import type { Verdict } from '../wallet/sell-template/guard.js';
import type { TokenMeta } from '../domain/token-meta.js';

export interface SellReview {
  authorization: SellAuthorization;
  verdict: Verdict;
  /** The token's facts bound by the chain or a person: the only ones shown. */
  token: TokenMeta;
  /** The service's facts nobody vouches for, shown for a person to confirm. */
  unbound: Array<{ fact: string; value: string }>;
}
