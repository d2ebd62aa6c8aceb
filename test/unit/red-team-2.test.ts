// The second black-box red team's signed cases (issue 22), each checked with the exact message,
// id and token facts it used: classes B (look-alike currency names), B2 (a symbol that scales
// the figure before it) and E (an address under another role's label) are refused by the check
// itself; class A (a pinned symbol or name on another mint) by the pinned facts. Boundaries on
// both sides of each rule, and the honest tokens that must stay plain.
import { describe, expect, it } from 'vitest';
import type { SellAuthorization } from '../../src/api/types.js';
import { claimsOfOtherMints } from '../../src/domain/token-claims.js';
import { checkSellAuthorization } from '../../src/wallet/sell-authorization-check.js';
import { currencyNamed, scalesFigure } from '../../src/wallet/sell-message/slot-shapes.js';
import { RED_TEAM_2, type RedTeamCase } from './redteam2-fixtures.js';

const WOOF_MINT = 'GFmFPooguQpNXADJ6Dd42rWt69m57SA6oFk3QwEcWqCd';
/** The red team's wallet: the owner the "mint labelled with owner" message calls the mint. */
const OWNER = '5Jo4dWQhmGjdpDW1Bga8bFye7WjKH78MPnurpj5dUSqt';

/** Checks a red-team case as the flow does: its message, id and times, the token facts the service gave. */
function checkCase(c: RedTeamCase, over: { message?: string; symbol?: string; name?: string } = {}) {
  const expiresMs = Date.parse(c.expiresAt);
  const minimum = BigInt(c.minimumLamports);
  const authorization: SellAuthorization = {
    id: c.id,
    status: 'awaiting_signature',
    mint: c.mint,
    amount: c.amount,
    positionId: null,
    expectedOutputLamports: ((minimum * 100n) / 98n).toString(),
    minimumOutputLamports: c.minimumLamports,
    slippageBps: 300,
    message: over.message ?? c.message,
    expiresAt: c.expiresAt,
    authorizedAt: null,
    signatureVerifiedAt: null,
    executionStarted: false,
    failureCode: null,
    failureReason: null,
    createdAt: new Date(expiresMs - 120_000).toISOString(),
  };
  const symbol = over.symbol ?? c.symbol;
  return checkSellAuthorization({
    authorization,
    requestedMint: c.mint,
    requestedAmount: BigInt(c.amount),
    token: { symbol, decimals: c.decimals, name: over.name ?? c.name },
    knownTokens: [{ mint: c.mint, symbol }],
    owner: OWNER,
    treasury: null,
    minSolLamports: null,
    allowedSlippageBps: 500,
    nowMs: expiresMs - 100_000,
  });
}

const byLabel = (label: string) => RED_TEAM_2.filter((c) => c.label === label);
const CLAIMS = RED_TEAM_2.filter((c) => /WOOF/.test(c.label));
const OWNER_CASE = byLabel('mint labelled with owner');
const SHAPES = RED_TEAM_2.filter((c) => !CLAIMS.includes(c) && !OWNER_CASE.includes(c));

describe('the red team\'s exact messages', () => {
  it('the fixture holds every signed case of these classes (31)', () => {
    expect(RED_TEAM_2).toHaveLength(31);
    expect(CLAIMS).toHaveLength(6);
    expect(OWNER_CASE).toHaveLength(1);
  });

  it.each(SHAPES.map((c) => [`${c.scenario}: ${c.label}`, c] as const))('B/B2 %s: refused outright (a problem, so exit 6 with or without a pin)', (_, c) => {
    const { problems } = checkCase(c);
    expect(problems.join('\n')).toMatch(/names (SOL|lamports), the currency the message's figures are read in|reads as a suffix that scales the figure before it/);
  });

  it.each(CLAIMS.map((c) => [`${c.scenario}: ${c.label}`, c] as const))('A %s: the WOOF facts pinned for the real WOOF mint refuse it', (_, c) => {
    const pinned = { [WOOF_MINT]: { symbol: 'WOOF', name: 'Woof Sandbox Dog' } };
    expect(claimsOfOtherMints(c.mint, { symbol: c.symbol, name: c.name }, pinned).length).toBeGreaterThan(0);
  });

  it('E: "Mint: <your wallet>" with "Token mint: <mint>" appended is refused: your wallet is labelled as the token', () => {
    const { problems } = checkCase(OWNER_CASE[0]!);
    expect(problems).toContain(`the message labels your wallet ${OWNER} "Mint", the label of the token`);
  });

  it('the honest control wording of the same service, with each of its tokens, has no problem', () => {
    const sgld = byLabel('symbol K (thousands magnifier)')[0]!;
    const honest = sgld.message.replaceAll(' K ', ' SGLD ').replace('Token: K (', 'Token: SGLD (');
    expect(checkCase(sgld, { message: honest, symbol: 'SGLD' }).problems).toEqual([]);
    const woof = OWNER_CASE[0]!;
    const honestWoof = woof.message.replace(OWNER, WOOF_MINT).replace(/\nToken mint: .*$/, '');
    expect(checkCase(woof, { message: honestWoof }).problems).toEqual([]);
  });
});

describe('B: currency look-alikes, folded', () => {
  it.each([
    ['S0L', 'SOL'], ['SO1', 'SOL'], ['5OL', 'SOL'], ['SOI', 'SOL'], ['WS0L', 'SOL'], ['SOLS', 'SOL'], ['SOLs', 'SOL'], ['sols', 'SOL'],
    ['SOLANAS', 'SOL'], ['Solana', 'SOL'], ['KSOL', 'SOL'], ['MSOL', 'SOL'], ['BSOL', 'SOL'], ['Msol', 'SOL'], ['mS0L', 'SOL'], ['wSOL', 'SOL'],
    ['Wrapped S0L', 'SOL'], ['Wrapped SOL', 'SOL'], ['LAMP0RTS', 'lamports'], ['Lamp0rts', 'lamports'], ['LAMPORTSS', 'lamports'], ['MLAMPORTS', 'lamports'], ['LAMP0RT', 'lamports'],
  ])('%s names %s', (text, unit) => {
    expect(currencyNamed(text)).toBe(unit);
  });

  it.each([
    // Decision: the liquid staking tokens' own spelling, a lower-case issuer letter and an upper-case SOL, is theirs (Marinade, BlazeStake).
    ['mSOL'], ['bSOL'], ['kSOL'],
    ['JitoSOL'], ['stSOL'], ['Jito Staked SOL'], ['Marinade staked SOL'], ['SGLD'], ['Sandbox Gold'], ['SOLO'], ['SOLID'], ['LAMP'],
    // Boundaries: one prefix letter, one plural s.
    ['WWSOL'], ['KMSOL'], ['SOLSS'], ['LAMPORTSSS'], ['XSOL'],
  ])('%s is no currency', (text) => {
    expect(currencyNamed(text)).toBeNull();
  });

  it('mSOL and bSOL trade with nothing refused; MSOL and KSOL in the same message are refused', () => {
    const c = byLabel('symbol KSOL (kilo-SOL)')[0]!;
    for (const symbol of ['mSOL', 'bSOL']) {
      expect(checkCase(c, { message: c.message.replaceAll('KSOL', symbol), symbol }).problems, symbol).toEqual([]);
    }
    for (const symbol of ['MSOL', 'KSOL']) {
      expect(checkCase(c, { message: c.message.replaceAll('KSOL', symbol), symbol }).problems.join(' '), symbol).toMatch(/names SOL/);
    }
  });
});

describe('B2: a symbol or name that reads as a scaling suffix', () => {
  it.each([['K'], ['k'], ['MM'], ['BN'], ['M'], ['B'], ['X'], ['KK'], ['E6'], ['e9'], ['E+3'], ['E123'], ['X10'], ['x2'], ['10X'], ['Thousand'], ['million'], ['Billion']])('%s scales the figure before it', (text) => {
    expect(scalesFigure(text)).toBe(true);
  });

  it.each([['E1234'], ['EX10'], ['KO'], ['XY'], ['SGLD'], ['BONK'], ['W'], ['WIF'], ['ME'], ['Sandbox Gold'], ['X10Y']])('%s does not', (text) => {
    expect(scalesFigure(text)).toBe(false);
  });

  it('the name "Thousand" is refused; "Thousand Gold" is another shape\'s business', () => {
    const c = byLabel('name Thousand')[0]!;
    expect(checkCase(c).problems.join(' ')).toMatch(/the token's name "Thousand" reads as a suffix that scales the figure before it/);
    expect(checkCase(c, { message: c.message.replace('(Thousand)', '(Thousand Gold)'), name: 'Thousand Gold' }).problems).toEqual([]);
  });
});

describe('E: an address under a label of another role', () => {
  const c = OWNER_CASE[0]!;
  const honest = c.message.replace(OWNER, WOOF_MINT).replace(/\nToken mint: .*$/, '');
  it.each([
    ['the owner as "Token:"', `${honest}\nToken: ${OWNER}`, /labels your wallet .* "Token"/],
    ['the owner as a JSON "mint"', `${honest}\n{"mint":"${OWNER}"}`, /labels your wallet .* "mint"/],
    ['the owner as "Mint address:"', `${honest}\nMint address: ${OWNER}`, /labels your wallet .* "Mint"/],
    ['the mint as "Wallet:"', `${honest}\nWallet: ${WOOF_MINT}`, /labels the token's mint .* "Wallet"/],
    ['the mint as "Proceeds to recipient"', `${honest}\nProceeds to recipient ${WOOF_MINT}`, /labels the token's mint .* "recipient"/],
    ['the mint as a JSON "owner"', `${honest}\n{"owner": "${WOOF_MINT}"}`, /labels the token's mint .* "owner"/],
  ])('%s: refused', (_, message, says) => {
    expect(checkCase(c, { message }).problems.join('\n')).toMatch(says);
  });

  it.each([
    ['"Wallet:"', `${honest}\nWallet: ${OWNER}`],
    ['"Token owner:"', `${honest}\nToken owner: ${OWNER}`],
    ['"Proceeds to your wallet"', `${honest}\nProceeds to your wallet ${OWNER}`],
    ['the owner with no label', `${honest}\n${OWNER}`],
    ['the mint as "Token mint:"', honest.replace('Mint:', 'Token mint:')],
    ['the mint after the symbol', `${honest}\nSell WOOF (${WOOF_MINT})`],
    // The role is read from the last two words before the address only: a role word three back is no label.
    ['a role word three words back', `${honest}\nmint sells to ${OWNER}`.replace('mint sells to', 'token sold from here')],
  ])('the owner or mint under its own label (%s): no problem', (_, message) => {
    expect(checkCase(c, { message }).problems).toEqual([]);
  });
});
