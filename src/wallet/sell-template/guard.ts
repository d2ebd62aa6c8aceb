// The sell guard: the tool writes what it signs. A message is signed only when it is, byte for
// byte, what the tool renders from a template a person approved for that service and facts the
// tool knows (match.ts); else it is turned into a template (extract.ts) for a person to approve
// once, or refused outright. Nothing is read from the message's prose (docs/checks.md, "A sell").
import type { SellAuthorization } from '../../api/types.js';
import { sameTokenText } from '../../domain/token-text.js';
import { checkAuthorization, type AuthorizationRequest } from './check-authorization.js';
import { extract } from './extract.js';
import { type SellFacts } from './facts.js';
import { match, splitSlots } from './match.js';
import { fingerprint, type Part, type Template } from './template.js';
import { readsAsText } from '../word-shape.js';
import { messageProblems } from './text-rules.js';
import { unitContradictions, unitWordToken } from './unit-words.js';
import { unboundSymbolNaming } from './named-token.js';
import { counted, lamports } from '../../domain/units.js';

export interface GuardInput {
  authorization: SellAuthorization;
  request: AuthorizationRequest;
  owner: string;
  nowMs: number;
  /** The token's facts bound by the chain or a person (domain/token-binding.ts), its refusals, and the service's facts nobody vouches for. */
  token: {
    symbol: string | null;
    name: string | null;
    decimals: number | null;
    problems: string[];
    unbound: Array<{ fact: string; value: string }>;
    /** Whether a person bound this symbol to this mint (the trust store's pin): only then does a message without the mint name it. */
    symbolBound: boolean;
  };
  /** The symbols the service gives the other tokens held: a symbol names the token only when it is one token's. */
  otherSymbols: Array<string | null>;
  /** The template a person approved for this service; 'earlier-version': a masked wording an earlier version pinned; null: none. */
  approved: Template | 'earlier-version' | null;
  /** A person read this message's opaque values at the prompt and lets them be signed this once. */
  valuesRead?: boolean;
  treasury?: string | null;
}

/** Why a person is needed; the refusal's stable error code where none is here. */
export type TrustCode = 'WORDING_NOT_APPROVED' | 'WORDING_CHANGED' | 'TOKEN_FACTS_UNCONFIRMED' | 'VALUE_READS_AS_TEXT';

/** The one verdict on a sell message: sign it, ask a person (with what they would approve), or refuse it. */
export type Verdict =
  | { kind: 'sign'; template: Template }
  | {
      kind: 'person';
      code: TrustCode;
      reasons: string[];
      template: Template | null;
      fingerprint: string | null;
      /** The message as the template's slots cut it, for a person to read each value in place; null: no template yet. */
      slots: { template: Template; values: string[] } | null;
      previous: Template | null;
    }
  | { kind: 'refused'; reasons: string[] };

/** A person's verdict: what they would approve (nothing until the message has a template) and why they are asked. */
const person = (code: TrustCode, reasons: string[], approve: Partial<Extract<Verdict, { kind: 'person' }>> = {}) =>
  ({
    kind: 'person',
    code,
    reasons,
    template: null,
    fingerprint: null,
    slots: null,
    previous: null,
    ...approve,
  }) as const;

/** Judges a sell authorization and its message. Pure; never throws on bad input. */
export function judgeSell(input: GuardInput): Verdict {
  const facts = sellFacts(input);
  if ('kind' in facts) return facts;
  const message = input.authorization.message;
  const unitWord = unitWordToken(facts);
  if (unitWord) return { kind: 'refused', reasons: [unitWord] };
  const approved = typeof input.approved === 'object' ? input.approved : null;
  const rendered = approved ? match(approved, facts, message) : null;
  const found = rendered ? { template: approved!, values: rendered } : extract(message, facts);
  if ('refused' in found) return { kind: 'refused', reasons: found.refused };
  const { template, values } = found;
  const problems = [
    ...statementProblems(template.parts, facts, input.otherSymbols),
    ...unitContradictions(template.parts, values, facts),
  ];
  if (problems.length > 0) return { kind: 'refused', reasons: problems };
  const wordy = wordyValues(found);
  if (rendered) {
    const unboundName = unboundSymbolNaming(template.parts, facts, input.token.symbolBound);
    if (unboundName) return person('TOKEN_FACTS_UNCONFIRMED', [unboundName]);
    if (wordy.length === 0 || input.valuesRead) return { kind: 'sign', template };
    return person('VALUE_READS_AS_TEXT', wordy, { slots: found });
  }
  const earlier =
    'the wording pinned by an earlier version cannot be rendered from (it is masked text, not a template): a person approves it once as a template';
  const changed = [
    "the service's sell message is not the approved wording written with this trade's facts: its wording changed",
    ...splitSlots(approved, facts),
  ].join('; ');
  const reason =
    input.approved === 'earlier-version'
      ? earlier
      : approved
        ? changed
        : 'no sell wording is approved for this service yet: a person reads it once and approves it';
  const code = approved ? 'WORDING_CHANGED' : 'WORDING_NOT_APPROVED';
  const approve = { template, fingerprint: fingerprint(template), slots: found, previous: approved };
  return person(code, [reason, ...wordy], approve);
}

/** This sell's facts, once its authorization's fields, the token's facts and the message's shape pass; else the verdict. */
function sellFacts(input: GuardInput): SellFacts | Verdict {
  const { authorization: auth, token } = input;
  const checked = checkAuthorization(auth, input.request, input.nowMs);
  const early = [...checked.problems, ...token.problems];
  if (early.length > 0 || !checked.fields) return { kind: 'refused', reasons: early };
  const shape = messageProblems(auth.message);
  if (shape.length > 0) return { kind: 'refused', reasons: shape };
  if (token.unbound.length > 0) {
    const said = token.unbound.map((u) => `${u.fact} ${JSON.stringify(u.value)}`).join(', ');
    const reason = `the service gives token ${auth.mint} the ${said}, which neither the chain (at --rpc-url) nor you have confirmed`;
    return person('TOKEN_FACTS_UNCONFIRMED', [reason]);
  }
  const { symbol, name, decimals } = token;
  const { id, mint, createdAt, expiresAt } = auth;
  const { owner, treasury } = input;
  return { mint, owner, id, symbol, name, decimals, ...checked.fields, createdAt, expiresAt, treasury };
}

/** An opaque value (or the id's random part) that reads as words, against the alphabet its slot pins: never pinned. */
function wordyValues({ template, values }: { template: Template; values: string[] }): string[] {
  return template.parts
    .filter((p): p is Exclude<Part, string> => typeof p !== 'string')
    .flatMap((p, i) =>
      'opaque' in p
        ? [[values[i]!, p.opaque]]
        : p.fact === 'id'
          ? [[values[i]!.replace(/^sell_/, ''), p.notations[0]!.split(' ')[0]!]]
          : [],
    )
    .filter(([value, alphabet]) => readsAsText(value!, alphabet!))
    .map(
      ([v]) =>
        `the value "${v}" reads as words, not random data; a fresh authorization (run the command again) gets a fresh one`,
    );
}

/** What a template must state of this trade: the token (its mint, or a symbol only it has), the amount and the minimum. */
function statementProblems(parts: Part[], facts: SellFacts, otherSymbols: Array<string | null>): string[] {
  const has = (fact: string) => parts.some((p) => typeof p !== 'string' && 'fact' in p && p.fact === fact);
  const shared = otherSymbols.some((s) => sameTokenText(s, facts.symbol));
  const problems: string[] = [];
  if (!has('mint') && !(has('symbol') && !shared)) {
    problems.push(
      `the message does not state the token: neither its mint ${facts.mint} nor a symbol only it has${shared ? ` (${facts.symbol} is shared by another token held)` : ''}`,
    );
  }
  if (!has('amount')) problems.push(`the message does not state the amount, ${counted(facts.amount, 'raw unit')}`);
  if (!has('minimum')) problems.push(`the message does not state the minimum, ${lamports(facts.minimum)}`);
  return problems;
}
