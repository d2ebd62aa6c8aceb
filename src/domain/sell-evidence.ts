// What the service has said about one sell, in the order it said it, and what that proves. The
// signature was handed to the service before any of it was said, so nothing the service says
// proves that nothing was sold: a failure is its word, said as its word. Once it has reported the
// signature taken (the authorization authorized, execution started, or a sell order), a later
// report that contradicts an earlier one is named as a contradiction, not believed.
import { SERVICE_SAYS_NOTHING_SOLD, SOLD_UNKNOWN, SWAP_NOT_RUN } from './outcome-words.js';

/** One report of the sell: where it came from, and the facts the words depend on. */
export interface SellSeen {
  /** "the authorize answer", "read 3", … */
  from: string;
  /** The authorization's status. */
  authorization: string;
  executionStarted: boolean | null;
  /** The sell order's status, or null when there is no sell order. */
  sell: string | null;
  /** A failure code on the sell order or the authorization, if any. */
  failure: string | null;
}

const AUTH_FINAL = new Set(['expired', 'cancelled', 'failed']);

/** Whether a report says the service took the signature (the sell may have run). */
export function signatureTaken(seen: SellSeen): boolean {
  return seen.authorization === 'authorized' || seen.executionStarted === true || seen.sell !== null;
}

/** Whether any report so far says the service took the signature. */
export function committed(history: readonly SellSeen[]): boolean {
  return history.some(signatureTaken);
}

/**
 * Why the last report cannot be true given the ones before it (or given itself), or null when
 * it fits. Only what the API document makes impossible counts: an authorization does not
 * expire or go back to awaiting its signature once taken, execution once started is not undone
 * into a cancel or a pre-execution failure, a sell order does not vanish, and a completed sell
 * neither carries a failure nor changes again.
 */
export function contradiction(history: readonly SellSeen[]): string | null {
  const last = history[history.length - 1];
  if (!last) return null;
  const before = history.slice(0, -1);
  if (last.sell === 'completed' && (last.failure !== null || AUTH_FINAL.has(last.authorization))) {
    return `${last.from} reports the sell completed and failed at once`;
  }
  const taken = before.find(signatureTaken);
  if (taken && (last.authorization === 'expired' || last.authorization === 'awaiting_signature')) {
    return `${last.from} reports the authorization ${last.authorization} after ${taken.from} reported the signature taken`;
  }
  const started = before.find((s) => s.executionStarted === true);
  if (
    started &&
    (last.executionStarted === false || last.authorization === 'cancelled' || last.authorization === 'failed')
  ) {
    return `${last.from} reports the authorization ${last.authorization}${last.executionStarted === false ? ' with execution not started' : ''} after ${started.from} reported execution started`;
  }
  const ordered = before.find((s) => s.sell !== null);
  if (ordered && last.sell === null) return `${last.from} reports no sell order after ${ordered.from} reported one`;
  const completed = before.find((s) => s.sell === 'completed');
  if (completed && (last.sell !== 'completed' || last.failure !== null)) {
    return `${last.from} reports the sell ${last.sell ?? 'gone'}${last.failure ? ` (${last.failure})` : ''} after ${completed.from} reported it completed`;
  }
  const final = before.find((s) => AUTH_FINAL.has(s.authorization));
  if (final && last.authorization !== final.authorization) {
    return `${last.from} reports the authorization ${last.authorization} after ${final.from} reported it ${final.authorization}`;
  }
  return null;
}

/** The reports in order, one short clause each, for the message that names a contradiction. */
export function describeHistory(history: readonly SellSeen[]): string {
  return history
    .map((s) => {
      const parts = [`authorization ${s.authorization}`];
      if (s.executionStarted !== null) parts.push(`executionStarted ${s.executionStarted}`);
      parts.push(s.sell === null ? 'no sell order' : `sell ${s.sell}`);
      if (s.failure) parts.push(`failure ${s.failure}`);
      return `${s.from}: ${parts.join(', ')}`;
    })
    .join('; then ');
}

/**
 * What a failed sell's words may say of the tokens, every one after the signature was handed
 * over: `service-says-nothing` (the service never reported the signature taken and reports the
 * sell failed before execution: its word, which neither it nor the chain can prove),
 * `service-says-not-run` (it reported the signature taken, then that the swap did not run), or
 * `unknown`.
 */
export type SoldEvidence = 'service-says-nothing' | 'service-says-not-run' | 'unknown';

/** Codes by which the API document says a sell did not execute. */
const NOT_RUN_CODES = new Set(['PRICE_MOVED', 'QUOTE_BELOW_AUTHORIZED_MINIMUM']);

/** What may be said of the tokens of a sell that failed with `code`, given every report seen. */
export function soldEvidence(
  history: readonly SellSeen[],
  failedAuthorization: boolean,
  code: string | null,
): SoldEvidence {
  const last = history[history.length - 1];
  const notRun = (code !== null && NOT_RUN_CODES.has(code)) || (failedAuthorization && last?.executionStarted !== true);
  if (!committed(history)) return notRun ? 'service-says-nothing' : 'unknown';
  return notRun ? 'service-says-not-run' : 'unknown';
}

/** The sentence a failed sell's message ends with, from what the evidence shows (empty: nothing to add). */
export function soldWords(evidence: SoldEvidence, followCommand: string): string {
  switch (evidence) {
    case 'service-says-nothing':
      return `${SERVICE_SAYS_NOTHING_SOLD}: check the holding (trader holdings) and ${followCommand} before selling again`;
    case 'service-says-not-run':
      return `${SWAP_NOT_RUN}: check the holding (trader holdings) and ${followCommand} before selling again`;
    case 'unknown':
      return `${SOLD_UNKNOWN}: check ${followCommand} before selling again`;
  }
}
