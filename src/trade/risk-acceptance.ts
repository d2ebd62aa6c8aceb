// A buy's token risks (domain/token-risks.ts) as the command applies them: read from the mint's
// facts, held against what a person accepted (the trust store, by fingerprint), and refused
// before anything is created where a person must accept them and none is here (--yes, --dry-run,
// --json, MCP: exit 6, naming the accept command and the fingerprint of the facts read). Risks
// that could not be read are no risks accepted: only a person at the prompt buys with them unknown.
import type { Context } from '../cli/context.js';
import type { TrustStore } from '../config/trust-store.js';
import type { MintFacts } from '../domain/mint-facts.js';
import type { Presence } from '../domain/presence.js';
import type { BuyRisks } from './buy-review.js';
import { RefusedToSignError } from '../domain/errors.js';
import { NOTHING_CREATED } from '../domain/outcome-words.js';
import {
  acceptRisksCommand,
  DEFAULT_MAX_TRANSFER_FEE_BPS,
  DEFAULT_TOKEN_RISK_POLICY,
  risksNeedingPerson,
  tokenRisks,
  tokenRisksFingerprint,
} from '../domain/token-risks.js';
import { guarded } from './trust.js';
import type { AnnounceGrant } from '../domain/trust-grants.js';

/** The code of a buy refused for a mint's risks no person accepted. */
export const TOKEN_RISKS_NOT_ACCEPTED = 'TOKEN_RISKS_NOT_ACCEPTED';

/** The code of an unattended buy refused because its mint's risks could not be read. */
export const TOKEN_RISKS_UNREAD = 'TOKEN_RISKS_UNREAD';

/** The risks of `facts` for this buy (null facts: the mint could not be read), and whether a person accepted them as read. */
export function buyRisks(ctx: Context, store: TrustStore, facts: MintFacts | null): BuyRisks {
  if (!facts) return { risks: null, fingerprint: null, accepted: false, askAccept: false };
  const risks = tokenRisks(facts, ctx.settings.maxTransferFeeBps ?? DEFAULT_MAX_TRANSFER_FEE_BPS);
  const fingerprint = tokenRisksFingerprint(facts);
  const accepted = guarded(
    'read the accepted token risks',
    () => store.read().acceptedRisks?.[facts.mint]?.fingerprint === fingerprint,
  );
  // At the prompt a person is asked for the refuse-level risks; the policy decides only for unattended runs.
  return { risks, fingerprint, accepted, askAccept: !accepted && risks.some((r) => r.level === 'refuse') };
}

/**
 * Refuses the buy (exit 6) before anything is created when its mint has risks a person must
 * accept — refuse-level ones, and warn-level ones under the profile's `tokenRisk: refuse` — no
 * person accepted them as read, and no person is here to; or when its risks could not be read
 * (`unread`: why), which an unattended run cannot tell from a permanent delegate.
 */
export function refuseUnacceptedRisks(
  ctx: Context,
  presence: Presence,
  mint: string,
  r: BuyRisks,
  unread: string | null,
): void {
  if (presence.mayGrantTrust || r.accepted) return;
  if (r.risks === null || r.fingerprint === null) {
    // A failing or lying RPC must not turn a permanent delegate into "no risks": unknown is refused.
    throw new RefusedToSignError(
      [
        `the risks of token ${mint} could not be read on chain (${unread ?? 'no mint facts were read'}), and here ${presence.why}: a permanent delegate, a freeze or a transfer hook would go unseen`,
      ],
      [
        `${NOTHING_CREATED}; retry with an RPC that answers (--rpc-url, TRADER_RPC_URL), or buy it at the prompt (without --yes), where the review says its risks are unknown and a yes buys it so`,
      ],
      { code: TOKEN_RISKS_UNREAD, command: null },
    );
  }
  const needed = risksNeedingPerson(r.risks, ctx.settings.tokenRisk ?? DEFAULT_TOKEN_RISK_POLICY);
  if (needed.length === 0) return;
  const command = acceptRisksCommand(mint, r.fingerprint);
  const others = r.risks.filter((risk) => !needed.includes(risk));
  const also = others.length > 0 ? `; and, to know: ${others.map((o) => o.says).join('; ')}` : '';
  throw new RefusedToSignError(
    [
      `token ${mint} has risks a person must accept before it is bought, and here ${presence.why}: ${needed.map((n) => n.says).join('; ')}${also}`,
    ],
    [
      `${NOTHING_CREATED}; read them with \`trader token ${mint}\`; buy it at the prompt (without --yes), or, if you accept them as read (fingerprint ${r.fingerprint}): ${command}`,
    ],
    { code: TOKEN_RISKS_NOT_ACCEPTED, command, fingerprint: r.fingerprint },
  );
}

/** Records a person's yes at the prompt to a review that said it accepts the mint's risks, and says so. */
export function acceptRisksAtPrompt(store: TrustStore, mint: string, r: BuyRisks, announce: AnnounceGrant): void {
  if (!r.askAccept || !r.fingerprint) return;
  const fingerprint = r.fingerprint;
  guarded('accept the token risks', () => store.acceptRisks(mint, fingerprint, 'prompt'));
  announce({ what: 'risks', mint, fingerprint });
}
