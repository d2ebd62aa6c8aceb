// What can go wrong for a holder of a token, read from its mint's facts on chain, in two levels.
// Refuse (a person must accept this mint's risks first): the issuer can take or lock the tokens
// the service holds for you, or a sell cannot go through — a permanent delegate, non-transferable,
// new accounts frozen by default, pausable, a transfer hook (another program decides each
// transfer), a transfer fee above the profile's threshold, an extension that cannot be read.
// Warn: a live mint authority (more can be minted) or freeze authority (accounts can be frozen),
// common on legitimate tokens (USDC has both). docs/token-risks.md says why for each.
import { createHash } from 'node:crypto';
import type { MintExtension, MintFacts, TransferFee } from './mint-facts.js';
import { counted } from './units.js';

export type RiskLevel = 'refuse' | 'warn';

export type RiskKind =
  | 'permanent-delegate'
  | 'non-transferable'
  | 'default-frozen'
  | 'pausable'
  | 'transfer-hook'
  | 'transfer-fee'
  | 'unreadable-extension'
  | 'mint-authority'
  | 'freeze-authority';

/** One risk: its kind, its level and one line saying it. */
export interface TokenRisk {
  kind: RiskKind;
  level: RiskLevel;
  says: string;
}

/** How unattended runs (--yes, --dry-run, --json, MCP) treat warn-level risks: `warn` (go on, saying them) or `refuse` (a person accepts them too). Refuse-level risks always need a person. */
export const TOKEN_RISK_POLICIES = ['warn', 'refuse'] as const;
export type TokenRiskPolicy = (typeof TOKEN_RISK_POLICIES)[number];
export const DEFAULT_TOKEN_RISK_POLICY: TokenRiskPolicy = 'warn';

/** A transfer fee above this (basis points) is refuse-level unless the profile's maxTransferFeeBps says otherwise: 1% of every transfer. */
export const DEFAULT_MAX_TRANSFER_FEE_BPS = 100;

const percent = (bps: number) => `${(bps / 100).toFixed(2).replace(/\.?0+$/, '')}%`;

/** The fee a transfer may pay: the higher of the extension's two (the newer applies from its epoch on, which is not read here). */
export function highestTransferFee(ext: Extract<MintExtension, { type: 'transfer-fee' }>): TransferFee {
  return ext.older.bps > ext.newer.bps ? ext.older : ext.newer;
}

/** The risks of holding this mint, refuse-level first; `maxTransferFeeBps`: the highest fee that is only a warning. */
export function tokenRisks(facts: MintFacts, maxTransferFeeBps: number): TokenRisk[] {
  const risks: TokenRisk[] = [];
  const refuse = (kind: RiskKind, says: string) => risks.push({ kind, level: 'refuse', says });
  for (const ext of facts.extensions) {
    switch (ext.type) {
      case 'permanent-delegate':
        if (ext.delegate)
          refuse(
            'permanent-delegate',
            `permanent delegate ${ext.delegate}: it can move or burn the tokens from any holder, yours included`,
          );
        break;
      case 'non-transferable':
        refuse('non-transferable', 'non-transferable: the tokens cannot be moved, so a sell cannot deliver them');
        break;
      case 'default-account-state':
        if (ext.state === 'frozen')
          refuse(
            'default-frozen',
            'new token accounts start frozen: the tokens bought cannot move until the issuer thaws them',
          );
        break;
      case 'pausable':
        refuse(
          'pausable',
          `pausable${ext.paused ? ', and paused now' : ''}: ${ext.authority ?? 'its authority'} can stop every transfer, a sell's included`,
        );
        break;
      case 'transfer-hook':
        if (ext.program)
          refuse('transfer-hook', `transfer hook: program ${ext.program} runs on every transfer and may refuse it`);
        break;
      case 'transfer-fee': {
        const { bps, maximumFee } = highestTransferFee(ext);
        const says = `transfer fee ${percent(bps)} of every transfer (${bps} bps, at most ${counted(maximumFee, 'raw unit')})`;
        const changes = ext.configAuthority ? `; its fee authority ${ext.configAuthority} can change it` : '';
        if (bps > maxTransferFeeBps)
          refuse(
            'transfer-fee',
            `${says}, above the ${maxTransferFeeBps} bps this profile allows (maxTransferFeeBps)${changes}`,
          );
        else if (bps > 0 || ext.configAuthority)
          risks.push({ kind: 'transfer-fee', level: 'warn', says: `${says}${changes}` });
        break;
      }
      case 'malformed':
        refuse(
          'unreadable-extension',
          `extension ${ext.name} is not in its program's layout: what it does cannot be read`,
        );
        break;
      default:
        break;
    }
  }
  if (facts.mintAuthority)
    risks.push({
      kind: 'mint-authority',
      level: 'warn',
      says: `mint authority ${facts.mintAuthority} can mint more, diluting every holder`,
    });
  if (facts.freezeAuthority)
    risks.push({
      kind: 'freeze-authority',
      level: 'warn',
      says: `freeze authority ${facts.freezeAuthority} can freeze any holder's tokens, yours included`,
    });
  return [...risks.filter((r) => r.level === 'refuse'), ...risks.filter((r) => r.level === 'warn')];
}

/** The risks that need a person before an unattended run may buy: refuse-level always, warn-level too under the policy `refuse`. */
export function risksNeedingPerson(risks: readonly TokenRisk[], policy: TokenRiskPolicy): TokenRisk[] {
  return risks.filter((r) => r.level === 'refuse' || policy === 'refuse');
}

/** An extension as compared for the fingerprint: what bears on a holder, not amounts that move (withheld fees) or metadata text (token binding's job). */
function compared(ext: MintExtension): unknown {
  switch (ext.type) {
    case 'transfer-fee':
      return [
        ext.code,
        ext.configAuthority,
        ext.withdrawAuthority,
        ...[ext.older, ext.newer].map((f) => [f.epoch.toString(), f.maximumFee.toString(), f.bps]),
      ];
    case 'mint-close-authority':
      return [ext.code, ext.authority];
    case 'default-account-state':
      return [ext.code, ext.state];
    case 'permanent-delegate':
      return [ext.code, ext.delegate];
    case 'transfer-hook':
      return [ext.code, ext.authority, ext.program];
    case 'metadata-pointer':
      return [ext.code, ext.authority, ext.address];
    case 'pausable':
      return [ext.code, ext.authority, ext.paused];
    case 'malformed':
      return [ext.code, 'malformed'];
    default:
      return [ext.code];
  }
}

/**
 * A short, stable name for what a mint's facts say of its risks (program, mint and freeze
 * authorities, every extension and its settings): sha-256, 16 hex digits. A person accepts a
 * mint's risks under it; an authority re-enabled, an extension added or a fee raised changes
 * it, and the mint is a new question for a person.
 */
export function tokenRisksFingerprint(facts: MintFacts): string {
  const shown = [
    'token-risks',
    facts.mint,
    facts.program,
    facts.mintAuthority,
    facts.freezeAuthority,
    facts.extensions.map(compared),
  ];
  return createHash('sha256').update(JSON.stringify(shown), 'utf8').digest('hex').slice(0, 16);
}

/** The command with which a person accepts a mint's risks as read (the fingerprint of the facts they read). */
export const acceptRisksCommand = (mint: string, fingerprint: string): string =>
  `trader config trust accept-risks ${mint} ${fingerprint}`;
