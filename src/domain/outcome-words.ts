// Every sentence the tool prints about what became of the money or the trade, in one place. Each
// is said only on the evidence docs/outcomes.md names beside it (the one place the docs write
// them down; test/unit/outcome-words.test.ts keeps the two the same, and finds any of these
// sentences written out anywhere else in the source).

/** Before signing: nothing reached the service. */
export const NOTHING_SENT = 'nothing was sent';
/** A create refused as invalid by the service: nothing exists to sign. */
export const NOTHING_CREATED = 'nothing was created or signed';
/** No signature was made (a refusal, a no, a dry run). */
export const NOTHING_SIGNED = 'nothing was signed';
/** Signed but never handed to the service (interrupted between). */
export const NOTHING_SUBMITTED = 'nothing was submitted';
/** The unsigned buy intent, cancelled on the service. */
export const INTENT_CANCELLED = 'the buy intent was cancelled';
/** The unsigned buy intent, left on the service (a cancel that could not be sent). */
export const INTENT_EXPIRES_UNUSED = 'the buy intent expires unused';
/** The unsigned sell authorization, left on the service (it lives 2 minutes). */
export const AUTHORIZATION_EXPIRES_UNUSED = 'the authorization expires unused';
/** A yes after the deposit's blockhash expired: it was not signed. */
export const DEPOSIT_EXPIRED_UNSIGNED = 'the deposit expired unsigned';
/** The chain proves the signed deposit can never land. */
export const NOTHING_SPENT = 'nothing was spent; you may buy again';
/** The chain shows the signed deposit. */
export const SOL_SPENT = 'the SOL was spent';
/** The service records a deposit signature. */
export const SOL_MAY_BE_SPENT = 'the SOL may have been spent; do not buy again until it has settled';
/** The service says no deposit was taken, but the signed deposit's blockhash lives on. */
export const NOT_BEFORE_EXPIRED = 'do not buy again before it has expired';
/** Whether the deposit was taken is not known, and its blockhash lives on. */
export const NOT_BEFORE_THEN = 'do not buy again before then';
/** The service shows the buy past its deposit though the deposit was answered with an error. */
export const DEPOSIT_TAKEN = 'the service took the deposit despite the error, so do not buy again until it has settled';
/** A signed sell the service never reported taking, and reports failed before execution: its word, which nothing can prove. */
export const SERVICE_SAYS_NOTHING_SOLD =
  'the service reports the sell failed before execution and that nothing was sold; the chain cannot prove it';
/** A sell that failed with a code by which the API says it did not run, after the signature was taken. */
export const SWAP_NOT_RUN = 'the service says the swap did not run, but it had taken the signature first';
/** A sell that failed after the signature was taken, for any other reason. */
export const SOLD_UNKNOWN = 'whether any tokens were sold is unknown';
/** A service that contradicts itself about a sell. */
export const TOKENS_UNKNOWN = 'what became of the tokens is unknown';
/** A service error after the trade was handed over, the trade not proven over. */
export const MAY_STILL_GO_ON = 'the trade may still go on';
/** Interrupted after the trade was handed over. */
export const GOES_ON = 'the trade goes on';
/** --timeout ran out before the trade was final. */
export const MAY_STILL_FINISH = 'it may still finish';
/** The person said no. */
export const DECLINED = `Declined; ${NOTHING_SIGNED}`;
/** A dry run whose checks all passed. */
export const DRY_RUN_PASSED = `Dry run: every check passed; ${NOTHING_SIGNED}`;
