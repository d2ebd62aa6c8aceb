// Each grant of trust in one line, the same wherever it is made: on stderr when a person grants it
// at a prompt, as an accept command's result (and its `granted` field under --json). The line
// names what was granted, for which service, what it now means, and the command that undoes it.
import type { Context } from '../cli/context.js';
import type { TokenMeta } from '../domain/token.js';
import { undoCommand, type AnnounceGrant, type Grant } from '../domain/trust-grants.js';
import { oneLine } from '../io/terminal-text.js';

/** A token's facts as a person reads them, a control or invisible character named where it stands: `WOOF (Woof Dog), 5 decimals`. */
export const tokenFactsText = (t: TokenMeta): string =>
  `${oneLine(t.symbol ?? '?')} (${oneLine(t.name ?? 'no name')}), ${t.decimals ?? '?'} decimals`;

/** A grant in one line: what was granted, for which service, what it means, and its undo. */
export function grantLine(grant: Grant, service: string): string {
  return `${granted(grant, service)} (undo: ${undoCommand(grant)}).`;
}

/** A grant as a result's `granted` field: the grant, its service and its undo command. */
export function grantJson(grant: Grant, service: string): Grant & { service: string; undo: string } {
  return { ...grant, service, undo: undoCommand(grant) };
}

/** Announces each grant made at a prompt on stderr, one line each (never on stdout: it is not the command's data). */
export function grantAnnouncer(ctx: Context, service: string): AnnounceGrant {
  return (grant) => ctx.output.note(grantLine(grant, service));
}

const names = (symbol: string | null) => (symbol === null ? '' : `; ${oneLine(symbol)} now names this mint`);

function granted(grant: Grant, service: string): string {
  switch (grant.what) {
    case 'treasury':
      return `Pinned treasury ${grant.address} for ${service}: a deposit to any other address is refused`;
    case 'symbol':
      return `Bound symbol ${oneLine(grant.symbol)} → ${grant.mint} for ${service}: typed, it means this mint whatever the service's lists say`;
    case 'wording':
      return `Approved sell wording ${grant.fingerprint} for ${service}: a sell is signed unattended only when its message is this wording`;
    case 'token-facts':
      return `Confirmed for ${service}: token ${grant.mint}: ${tokenFactsText(grant)}${names(grant.symbol)}`;
    case 'chain-facts':
      return `Recorded for ${service} the chain's facts of token ${grant.mint}: ${tokenFactsText(grant)}; another mint with its symbol or name is refused${grant.boundSymbol ? names(grant.symbol) : ''}`;
    case 'risks':
      return `Accepted for ${service} the risks of token ${grant.mint} as read (fingerprint ${grant.fingerprint}): a change of them asks again`;
  }
}
