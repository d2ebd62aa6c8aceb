// A mint's facts as the chain states them (`trader token`) and its risks, one line each, as the
// buy's review shows them: for people (fields) and for programs (raw amounts as strings).
import { formatInteger, formatTokenAmount } from '../domain/amounts.js';
import type { MintExtension, MintFacts } from '../domain/mint-facts.js';
import { acceptRisksCommand, type TokenRisk } from '../domain/token-risks.js';
import { renderFields } from '../io/table.js';
import type { Theme } from '../io/theme.js';
import { oneLine } from '../io/terminal-text.js';
import { counted } from '../domain/units.js';

const PROGRAMS = { 'spl-token': 'SPL Token', 'token-2022': 'Token-2022' } as const;

/** What `trader token --json` prints: the facts, amounts as decimal strings; the risks and their fingerprint. */
export function mintFactsDocument(facts: MintFacts, risks: readonly TokenRisk[], fingerprint: string) {
  const extensions = facts.extensions.map(
    (e) =>
      JSON.parse(JSON.stringify(e, (_, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))) as Record<
        string,
        unknown
      >,
  );
  const needsPerson = risks.some((r) => r.level === 'refuse');
  return {
    mint: facts.mint,
    program: facts.program,
    decimals: facts.decimals,
    supply: facts.supply.toString(),
    mintAuthority: facts.mintAuthority,
    freezeAuthority: facts.freezeAuthority,
    metadata: facts.metadata,
    extensions,
    risks,
    risksFingerprint: fingerprint,
    acceptCommand: needsPerson ? acceptRisksCommand(facts.mint, fingerprint) : null,
  };
}

const fee = (f: { bps: number; maximumFee: bigint; epoch: bigint }) =>
  `${f.bps} bps, at most ${counted(f.maximumFee, 'raw unit', formatInteger(f.maximumFee.toString()))} (from epoch ${f.epoch})`;

/** One extension in words: its name and what it is set to. */
function extensionLine(e: MintExtension): string {
  switch (e.type) {
    case 'transfer-fee':
      return `${e.name}: ${fee(e.newer)}${e.older.bps !== e.newer.bps || e.older.maximumFee !== e.newer.maximumFee ? `; before: ${fee(e.older)}` : ''}; fee authority ${e.configAuthority ?? 'none'}`;
    case 'mint-close-authority':
      return `${e.name}: ${e.authority ?? 'none'}`;
    case 'default-account-state':
      return `${e.name}: ${e.state}`;
    case 'permanent-delegate':
      return `${e.name}: ${e.delegate ?? 'none'}`;
    case 'transfer-hook':
      return `${e.name}: program ${e.program ?? 'none'}, authority ${e.authority ?? 'none'}`;
    case 'metadata-pointer':
      return `${e.name}: ${e.address ?? 'none'}`;
    case 'pausable':
      return `${e.name}: ${e.paused ? 'paused' : 'not paused'}, authority ${e.authority ?? 'none'}`;
    case 'malformed':
      return `${e.name}: not in its program's layout`;
    default:
      return e.name;
  }
}

/** A risk as one line, its level first. */
export const riskLine = (r: TokenRisk, theme: Theme): string =>
  r.level === 'refuse' ? theme.failure(`refuse: ${r.says}`) : theme.pending(`warn: ${r.says}`);

/** `trader token`, for people: every fact, then the risks and, where a person must accept them, the command. */
export function renderMintFacts(
  facts: MintFacts,
  risks: readonly TokenRisk[],
  fingerprint: string,
  theme: Theme,
): string {
  const m = facts.metadata;
  const named = m?.symbol ? `${oneLine(m.symbol)}${m.name ? ` (${oneLine(m.name)})` : ''}` : null;
  const fields: Array<[string, string]> = [
    ['Token', named ? `${named} ${facts.mint}` : facts.mint],
    ['Program', PROGRAMS[facts.program]],
    ['Decimals', String(facts.decimals)],
    ['Supply', `${formatTokenAmount(facts.supply.toString(), facts.decimals)} (${counted(facts.supply, 'raw unit')})`],
    ['Mint authority', facts.mintAuthority ?? 'none: the supply is fixed'],
    ['Freeze authority', facts.freezeAuthority ?? 'none'],
    [
      'Metadata',
      m
        ? `${m.source === 'metaplex' ? 'Metaplex, account' : 'Token-2022 extension in the mint'} ${m.account}`
        : 'none on chain',
    ],
  ];
  if (m)
    fields.push([
      'Update authority',
      m.mutable
        ? `${m.updateAuthority ?? 'unknown'}: the name and symbol can change`
        : 'none: the metadata cannot change',
    ]);
  if (facts.program === 'token-2022') {
    if (facts.extensions.length === 0) fields.push(['Extensions', 'none']);
    for (const e of facts.extensions) fields.push(['Extension', extensionLine(e)]);
  }
  if (risks.length === 0) fields.push(['Risks', theme.success('none read on chain')]);
  for (const r of risks) fields.push(['Risk', riskLine(r, theme)]);
  fields.push(['Fingerprint', fingerprint]);
  const lines = [renderFields(fields, theme)];
  if (risks.some((r) => r.level === 'refuse'))
    lines.push(
      // The command alone on its line: a terminal never breaks it, so it copies whole.
      `A buy of it is refused until a person accepts these risks, at the buy's prompt or as read here:\n  ${acceptRisksCommand(facts.mint, fingerprint)}`,
    );
  return lines.join('\n');
}
