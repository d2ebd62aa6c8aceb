// Each grant of trust in one line, the same wherever it is made: on stderr when a person grants it
// at a prompt, as an accept command's result (and its `granted` field under --json). The line
// names what was granted; the command that undoes it follows on a line of its own.
import type { Context } from '../cli/context.js';
import type { TokenMeta } from '../domain/token-meta.js';
import { undoCommand, type AnnounceGrant, type Grant } from '../domain/trust-grants.js';
import { shortId } from '../io/table.js';
import { markedValue, oneLine } from '../io/terminal-text.js';
import { wrapWords } from '../io/word-wrap.js';

/** A token's facts as a person reads them, a control or invisible character named where it stands: `WOOF (Woof Dog), 5 decimals`. */
export const tokenFactsText = (t: TokenMeta): string =>
  `${markedValue(t.symbol ?? '?')} (${markedValue(t.name ?? 'no name')}), ${t.decimals ?? '?'} decimals`;

/**
 * A grant in one line, wrapped at 80 columns between words where a long name needs it (never
 * shortened: it is what was granted), then its undo command alone on the next, indented, so a
 * terminal never breaks the command and it can be copied whole (a mint in the first line is its
 * typed-back prefix: the undo line carries it whole). The service is the run's own; `granted`
 * under --json names it.
 */
export function grantLine(grant: Grant, _service: string): string {
  return `${wrapWords(`${granted(grant)}; undo:`, 80)}\n  ${undoCommand(grant)}`;
}

/** A grant as a result's `granted` field: the grant, its service and its undo command. */
export function grantJson(grant: Grant, service: string): Grant & { service: string; undo: string } {
  return { ...grant, service, undo: undoCommand(grant) };
}

/** Announces each grant made at a prompt on stderr (never on stdout: it is not the command's data). */
export function grantAnnouncer(ctx: Context, service: string): AnnounceGrant {
  return (grant) => ctx.output.note(grantLine(grant, service));
}

const names = (symbol: string | null) => (symbol === null ? '' : `, ${oneLine(symbol)} names it`);

function granted(grant: Grant): string {
  switch (grant.what) {
    case 'treasury':
      return `Pinned treasury ${grant.address}`;
    case 'symbol':
      return `Bound symbol ${oneLine(grant.symbol)} to mint ${shortId(grant.mint)}`;
    case 'wording':
      return `Approved sell wording ${grant.fingerprint} (unattended sells must match it)`;
    case 'token-facts':
      return `Confirmed ${shortId(grant.mint)}: ${tokenFactsText(grant)}${names(grant.symbol)}`;
    case 'chain-facts':
      return `Recorded ${shortId(grant.mint)} from the chain: ${tokenFactsText(grant)}${grant.boundSymbol ? names(grant.symbol) : ''}`;
    case 'risks':
      return `Accepted the risks of ${shortId(grant.mint)} as read (${grant.fingerprint})`;
  }
}
