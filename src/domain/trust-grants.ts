// What a person granted, as data: each grant of trust is announced (views/grant-lines.ts) in one
// line naming it and the command that undoes it (docs/trust-store.md).
import type { TokenMeta } from './token-meta.js';

/** One grant of trust, as the store recorded it. */
export type Grant =
  | { what: 'treasury'; address: string }
  | { what: 'symbol'; symbol: string; mint: string }
  | { what: 'wording'; fingerprint: string }
  | ({ what: 'token-facts'; mint: string } & TokenMeta)
  | ({ what: 'chain-facts'; mint: string; boundSymbol: boolean } & TokenMeta)
  | { what: 'risks'; mint: string; fingerprint: string };

/** Where a grant made at a prompt is told to the person (the commands print it). */
export type AnnounceGrant = (grant: Grant) => void;

/** The command that undoes a grant: a person grants it again afterwards. */
export function undoCommand(grant: Grant): string {
  if (grant.what === 'treasury') return 'trader config trust forget treasury';
  if (grant.what === 'wording') return 'trader config trust forget wording';
  return `trader config trust forget token ${grant.mint}`;
}
