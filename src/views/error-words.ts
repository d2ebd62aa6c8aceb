// The words of errors: the logic decides and hands over the facts (a verdict, an id), and this
// file writes the sentence a person reads, so that a wording changes in one place. Each function
// returns the typed error to throw; its code and exit code are its class's (domain/errors.ts).
// Started with `trades <id> --verify`'s chain verdicts; other error sites move here as they go.
import { ChainContradictionError, ChainUnreachableError, ChainUnverifiedError } from '../chain/chain-errors.js';
import { contradictionLine, type Verification } from '../chain/verify-trade.js';
import type { TraderError } from '../domain/errors.js';

/** The exit-3 error of `trades <id> --verify` for a verdict short of verified; null when every claim checks. */
export function verdictError(verification: Verification, id: string): TraderError | null {
  const again = [`look again with: trader trades ${id} --verify`];
  const first = (mark: string) => verification.checks.find((c) => c.mark === mark)?.chain ?? '';
  switch (verification.verdict) {
    case 'verified':
      return null;
    case 'attributed':
      return new ChainUnverifiedError(`not every claim is proven on chain: ${first('attributed')}`, again);
    case 'unchecked':
      return new ChainUnreachableError(`not checked on chain: ${verification.reason}`, [
        'check --rpc-url (TRADER_RPC_URL, config rpcUrl)',
      ]);
    case 'contradicted':
      return new ChainContradictionError(contradictionLine(verification)!, again);
    case 'incomplete':
      return new ChainUnverifiedError(`not everything the service reports is on chain yet: ${first('pending')}`, again);
  }
}

/** What a 404 on a sell's trade means: not authorized yet, or the trade id is wanted. */
export const noTradeForSell = (id: string): string =>
  `the service has no trade for ${id}; it has not been authorized yet, or pass the trade id (sell group key) to --verify`;
