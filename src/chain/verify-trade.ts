// Checks every money claim a trade makes against the chain: the deposit (exactly the intent's
// amount from the owner to the treasury, and the one the tool signed), each swap (exists,
// succeeded, touches the traded mint), each payout and the refund (SOL to the owner; a sell's
// payouts at least the signed minimum, and in all at least what the service says it received; a
// refund at least what the service reports). A transaction the journal knows for another trade
// is not this one's, and a payout it cannot tell from one of its buys' refunds is not tied to the
// sell. What reached the wallet is the chain's figure. Reads only standard RPC through a
// ChainReader; never prints.
import type { Trade } from '../api/types.js';
import { ChainUnavailableError, type ChainReader } from './chain-reader.js';
import type { SignedDeposit } from './deposit-absence.js';
import { tokenGain, type ChainTransaction } from './chain-transaction.js';
import {
  checkDeposit,
  checkPayout,
  checkSwap,
  depositAbsence,
  swapOfAnother,
  whose,
  type Mark,
  type SwapBounds,
} from './transfer-checks.js';
import { formatSol, formatTokenAmount } from '../domain/amounts.js';
import type { JournalKnowledge, KnownTransaction } from '../journal/other-trades.js';
import { counted } from '../domain/units.js';
import { setAsideMalformed } from './malformed-signatures.js';

export type Role = 'deposit' | 'swap' | 'payout' | 'refund';

export interface SignatureCheck {
  /** Null when the service names none where it should (a completed sell with no payout). */
  signature: string | null;
  role: Role;
  /** What the service's claim means the chain must show. */
  expected: string;
  mark: Mark;
  /** What the chain shows. */
  chain: string;
  /** A deposit: whether its transaction is on chain (only such a check proves money moved). */
  onChain?: boolean;
}

/**
 * verified: every claim checks. attributed: what the chain shows checks, but some claim it cannot
 * tie to this trade stays the service's word (a refund's amount owed). contradicted: the chain shows otherwise, or lacks what the
 * service says happened. incomplete: something may still land (a signed deposit within its
 * blockhash's life, a refund under way). unchecked: the chain could not be read.
 */
export type Verdict = 'verified' | 'attributed' | 'contradicted' | 'incomplete' | 'unchecked';

/** The `verification` object of the buy and sell --json documents and of `trades --verify`. */
export interface Verification {
  rpc: string;
  verdict: Verdict;
  checks: SignatureCheck[];
  /** Why the chain could not be read (verdict unchecked). */
  reason?: string;
  /** A signed deposit the chain does not have: proven never to land, or until which block it may. */
  deposit?: {
    onChain: boolean;
    proven: boolean | null;
    lastValidBlockHeight: number | null;
    blockHeight: number | null;
  };
  /**
   * The SOL the chain shows reaching the wallet, where every transaction paying it was read: a
   * sell's payouts in all, a refund; the raw units of the token a buy's swaps delivered. The figure to show, whatever the service says.
   * untiedPayoutsLamports: what payouts paid the wallet that the chain cannot tie to this sell
   * (never counted in payoutsLamports).
   */
  received?: { payoutsLamports?: string; refundLamports?: string; tokens?: string; untiedPayoutsLamports?: string };
}

export interface VerifyInput {
  trade: Trade;
  owner: string;
  /** The treasury the user trusts (pinned or set), or null. */
  treasury: string | null;
  /**
   * Every deposit this tool signed for the buy (its journal, and this run), oldest first: its
   * signature, blockhash, and whether the chain knew it before signing. Each is checked: any on
   * chain spent the SOL, and "never landed" holds only when none can land.
   */
  signedDeposits?: readonly SignedDeposit[];
  /** A sell's minimum as the owner signed it; else the trade's minimumOutputAmount. */
  signedMinimumLamports?: bigint | null;
  /**
   * When this tool made the trade (its journal): no payout or refund for it can land before.
   * Absent (a trade the journal does not know, or saw only resumed): the service's createdAt,
   * which is only its word.
   */
  createdAtMs?: number | null;
  /**
   * A buy's platform fee as its review showed it before signing (the journal's record): a refund
   * owes the deposit less that fee, whatever fee the service reports later. null or absent: not
   * known here, and a refund is verified only as a payment, its amount the service's word.
   */
  reviewedFeeLamports?: bigint | null;
  /**
   * What the journal knows of its other trades: a transaction it knows for one of them is no
   * payout or swap of this trade, and a payout it cannot tell from one of their refunds is not
   * tied to this sell. Absent: nothing known (every payout is held to the chain alone).
   */
  journal?: JournalKnowledge | null;
}

/**
 * How far this machine's clock may run ahead of the chain's block times (an estimate to the
 * second) before a payout is said to predate the trade this tool created.
 */
export const CLOCK_ALLOWANCE_MS = 15_000;

/** Stages at which the service says the deposit is in (confirmed or beyond). */
const DEPOSIT_CLAIMED = new Set([
  'funding',
  'executing',
  'settling',
  'completed',
  'failed',
  'refunding',
  'refunded',
  'requires_review',
]);
/** Stages past awaiting_deposit: the service has a deposit, so it must name one. */
const PAST_DEPOSIT = new Set([...DEPOSIT_CLAIMED, 'confirming_deposit']);
/** Stages at which the service says no deposit was taken. */
const NO_DEPOSIT = new Set(['expired', 'cancelled']);

const sol = (lamports: bigint) => `${formatSol(lamports)} SOL`;

/** Checks a trade's signatures; a chain that cannot be read gives verdict 'unchecked' with the reason. */
export async function verifyTrade(chain: ChainReader, input: VerifyInput): Promise<Verification> {
  // A named value that is no signature is the service's contradiction, decided before any RPC call.
  const named = setAsideMalformed(input.trade);
  try {
    return withMalformed(await verify(chain, { ...input, trade: named.trade }), named.checks);
  } catch (err) {
    if (err instanceof ChainUnavailableError)
      return withMalformed({ rpc: chain.host, verdict: 'unchecked', checks: [], reason: err.message }, named.checks);
    throw err;
  }
}

/**
 * The verification with the contradictions of malformed signatures first, in place of the "names
 * no …" its role would otherwise get (the service named one, not none).
 */
function withMalformed(v: Verification, malformed: readonly SignatureCheck[]): Verification {
  if (malformed.length === 0) return v;
  const roles = new Set(malformed.map((c) => c.role));
  const rest = v.checks.filter((c) => !(c.signature === null && c.mark === 'not-found' && roles.has(c.role)));
  const checks = [...malformed, ...rest];
  return { ...v, checks, verdict: verdictOf(checks) };
}

/** What the checks found: each claim's check, and what the chain shows reaching the wallet. */
type Found = { checks: SignatureCheck[]; received: NonNullable<Verification['received']> };
/** The earliest a payout or refund may land, when known. */
type NotBefore = { notBeforeMs?: number };

async function verify(chain: ChainReader, input: VerifyInput): Promise<Verification> {
  const { trade } = input;
  const found: Found = { checks: [], received: {} };
  let deposit: Verification['deposit'];

  // The deposit's slot, when read: a refund cannot come before the deposit it returns.
  let depositSlot: number | null = null;
  if (trade.side === 'buy') ({ summary: deposit, slot: depositSlot } = await checkDeposits(chain, input, found.checks));
  // A payout, refund or swap must come after the trade was made (when this tool made it, where its
  // journal knows; the service's time otherwise); one transaction counts once, in one role.
  const createdMs = input.createdAtMs != null ? input.createdAtMs - CLOCK_ALLOWANCE_MS : Date.parse(trade.createdAt);
  const notBefore: NotBefore = Number.isNaN(createdMs) ? {} : { notBeforeMs: createdMs };
  const swapTxs = await checkSwaps(chain, input, found.checks, { ...notBefore, notBeforeSlot: depositSlot });
  checkTokensReceived(input, swapTxs, found);
  if (trade.side === 'sell') await checkPayouts(chain, input, notBefore, found);
  await checkRefund(chain, input, { notBefore, depositSlot }, found);

  const { checks, received } = found;
  return {
    rpc: chain.host,
    verdict: verdictOf(checks),
    checks,
    ...(deposit ? { deposit } : {}),
    ...(Object.keys(received).length > 0 ? { received } : {}),
  };
}

/** Checks each swap the service names; returns those verified and succeeded (what a buy's tokens are read from). */
async function checkSwaps(
  chain: ChainReader,
  input: VerifyInput,
  checks: SignatureCheck[],
  bounds: SwapBounds,
): Promise<ChainTransaction[]> {
  const { trade } = input;
  // A swap is this trade's only if it touches the traded token, landed after the trade (a buy's
  // after its deposit), and no other trade has it: one transaction proves one trade.
  const mint = trade.side === 'buy' ? trade.outputMint : trade.inputMint;
  const swapTxs: ChainTransaction[] = [];
  for (const swap of trade.signatures.swaps) {
    const reported = trade.failure !== null;
    const expected = reported ? 'the swap, failed as reported' : 'a swap that succeeded';
    const other = input.journal?.elsewhere.get(swap)?.[0];
    if (other) {
      checks.push({ signature: swap, role: 'swap', expected, ...swapOfAnother(knownAs(other), trade.side) });
      continue;
    }
    const tx = await chain.transaction(swap);
    const check = checkSwap(tx, { failureReported: reported, mint, ...bounds });
    if (tx !== null && check.mark === 'verified' && tx.err === null) swapTxs.push(tx);
    checks.push({ signature: swap, role: 'swap', expected, ...check });
  }
  return swapTxs;
}

/** A completed buy: what it received, from its swaps' token balances, and a claim of completion with no swap. */
function checkTokensReceived(input: VerifyInput, swapTxs: ChainTransaction[], found: Found): void {
  const { trade, owner } = input;
  // What a buy received is the swap's token balance change on chain; where the chain shows none, the service's word.
  const tokensIn =
    trade.side === 'buy' &&
    trade.stage === 'completed' &&
    trade.signatures.swaps.length > 0 &&
    trade.receivedOutputAmount !== null &&
    /^\d+$/.test(trade.receivedOutputAmount)
      ? receivedCheck(trade, swapTxs, { owner, treasury: input.treasury })
      : null;
  if (tokensIn) {
    found.checks.push(tokensIn.check);
    if (tokensIn.shown !== null) found.received.tokens = tokensIn.shown.toString();
  }
  if (trade.side === 'buy' && trade.stage === 'completed' && trade.signatures.swaps.length === 0) {
    found.checks.push({
      signature: null,
      role: 'swap',
      expected: 'a swap that succeeded',
      mark: 'not-found',
      chain: 'the service reports the buy completed but names no swap',
    });
  }
}

/** What a sell's payouts are held to: the (signed) minimum, named so, and whether one payout carries it alone. */
type PayoutTerms = { minimum: bigint; what: string; single: boolean; notBefore: NotBefore };

/** Checks a sell's payouts, each and in all; what the chain shows they paid is what it received. */
async function checkPayouts(chain: ChainReader, input: VerifyInput, notBefore: NotBefore, found: Found): Promise<void> {
  const { trade } = input;
  const { checks, received } = found;
  const minimum = input.signedMinimumLamports ?? BigInt(trade.minimumOutputAmount);
  const what = input.signedMinimumLamports != null ? 'the signed minimum' : 'the minimum';
  const payouts = [...new Set(trade.signatures.payouts)];
  const single = payouts.length === 1;
  let total = 0n;
  // Whether every payout was read paying the wallet: only then is their total what it received.
  let allRead = payouts.length > 0;
  // What payouts the chain cannot tie to this sell paid in all.
  let untied = 0n;
  for (const payout of payouts) {
    const one = await checkOnePayout(chain, input, payout, { minimum, what, single, notBefore });
    checks.push(one.check);
    total += one.paid;
    untied += one.untied;
    allRead &&= one.read;
  }
  if (untied > 0n) received.untiedPayoutsLamports = untied.toString();
  if (payouts.length > 1 && checks.every((c) => c.mark === 'verified') && total < minimum) {
    checks.push({
      signature: null,
      role: 'payout',
      expected: `at least ${sol(minimum)} in all`,
      mark: 'contradicts',
      chain: `the payouts pay ${sol(total)} in all, less than ${what}`,
    });
  }
  // What the sell received is what the chain shows the payouts paid: a service that says more contradicts it.
  if (allRead) {
    received.payoutsLamports = total.toString();
    const said = trade.receivedOutputAmount === null ? null : BigInt(trade.receivedOutputAmount);
    if (said !== null && said > total) {
      checks.push({
        signature: single ? payouts[0]! : null,
        role: 'payout',
        expected: `${sol(said)} to your wallet, as the service reports it received`,
        mark: 'contradicts',
        chain: `the ${single ? 'payout pays' : 'payouts pay'} ${sol(total)} in all`,
      });
    }
  }
  if (trade.stage === 'completed' && payouts.length === 0) {
    checks.push({
      signature: null,
      role: 'payout',
      expected: `at least ${sol(minimum)} to your wallet`,
      mark: 'not-found',
      chain: 'the service reports the sell completed but names no payout',
    });
  }
}

/**
 * One payout: its check, what it adds to the sell's total (paid) or to what the chain cannot tie
 * to this sell (untied), and whether it was read paying the wallet.
 */
async function checkOnePayout(
  chain: ChainReader,
  input: VerifyInput,
  payout: string,
  terms: PayoutTerms,
): Promise<{ check: SignatureCheck; paid: bigint; untied: bigint; read: boolean }> {
  const { trade, owner } = input;
  const { minimum, what, single, notBefore } = terms;
  const expected = single ? `at least ${sol(minimum)} to your wallet` : 'SOL to your wallet';
  const unread = (check: Omit<SignatureCheck, 'signature' | 'role'>) => ({
    check: { signature: payout, role: 'payout' as const, ...check },
    paid: 0n,
    untied: 0n,
    read: false,
  });
  if (payout === trade.signatures.refund) {
    return unread({
      expected: 'a payout, not the refund',
      mark: 'contradicts',
      chain: 'the service names the same transaction as a payout and as the refund',
    });
  }
  // A transaction the journal knows for another trade is that trade's: one transaction proves one trade.
  const other = input.journal?.elsewhere.get(payout)?.[0];
  if (other) {
    return unread({
      expected,
      mark: 'contradicts',
      chain: `the journal knows this transaction as ${knownAs(other)}; one transaction proves one trade, so it is not this sell's payout`,
    });
  }
  const tx = await chain.transaction(payout);
  const c = checkPayout(tx, { owner, what, ...notBefore, ...(single ? { minimumLamports: minimum } : {}) });
  const refundOf =
    c.mark === 'verified' && tx !== null ? refundLike(input.journal, c.paidLamports, tx.blockTime) : null;
  if (refundOf !== null) {
    const said =
      trade.receivedOutputAmount === null
        ? ''
        : `the service reports ${sol(BigInt(trade.receivedOutputAmount))} paid; `;
    return {
      ...unread({
        expected,
        mark: 'attributed',
        chain: `${said}the chain shows a transfer it cannot tie to this sell: ${c.chain}, exactly what buy ${refundOf} (not known completed here) may get back as its refund`,
      }),
      untied: c.paidLamports,
    };
  }
  return {
    check: { signature: payout, role: 'payout', expected, mark: c.mark, chain: c.chain },
    paid: c.paidLamports,
    untied: 0n,
    read: c.mark === 'verified' || c.paidLamports > 0n,
  };
}

/**
 * What a refund owes: a buy its deposit less the platform fee the person saw before signing
 * (never a fee the service reports later), and at least the amount the service reports refunded;
 * a sell's input is tokens: its refund is held to the amount reported, if any.
 */
function refundOwed(trade: Trade, reviewedFeeLamports: bigint | null | undefined) {
  const reported = trade.refund?.amountLamports ? BigInt(trade.refund.amountLamports) : undefined;
  const seenFee = trade.side === 'buy' ? (reviewedFeeLamports ?? null) : null;
  const owed = seenFee !== null ? BigInt(trade.inputAmount) - seenFee : undefined;
  const bySaid = reported !== undefined && (owed === undefined || reported > owed);
  const largest = bySaid ? reported : owed;
  const amount = largest === undefined ? undefined : largest > 0n ? largest : 0n;
  const what = bySaid ? 'the refund the service reports' : 'the deposit less the platform fee shown before signing';
  return { amount, what, seenFee };
}

/** Checks the refund the service names (or its claim of one it does not name). */
async function checkRefund(
  chain: ChainReader,
  input: VerifyInput,
  at: { notBefore: NotBefore; depositSlot: number | null },
  found: Found,
): Promise<void> {
  const { trade, owner } = input;
  const refund = trade.signatures.refund;
  if (refund === null) {
    if (trade.stage === 'refunded')
      found.checks.push({
        signature: null,
        role: 'refund',
        expected: 'a refund to your wallet',
        mark: 'not-found',
        chain: 'the service reports the buy refunded but names no refund',
      });
    return;
  }
  const { amount, what, seenFee } = refundOwed(trade, input.reviewedFeeLamports);
  const tx = await chain.transaction(refund);
  const c = checkPayout(tx, {
    owner,
    what,
    ...at.notBefore,
    ...(amount === undefined ? {} : { minimumLamports: amount }),
  });
  // (In the deposit's own slot it may come after it: the order within a slot is not in the transaction.)
  if (c.mark === 'verified' && tx !== null && at.depositSlot !== null && tx.slot < at.depositSlot) {
    found.checks.push({
      signature: refund,
      role: 'refund',
      expected: 'a refund sent after your deposit',
      mark: 'contradicts',
      chain: `landed in slot ${tx.slot}, before your deposit (slot ${at.depositSlot}): it cannot return it`,
    });
    return;
  }
  if (c.mark === 'verified' || (c.mark === 'contradicts' && c.paidLamports > 0n))
    found.received.refundLamports = c.paidLamports.toString();
  const expected = amount === undefined ? 'a refund to your wallet' : `at least ${sol(amount)} back to your wallet`;
  const done = trade.stage === 'refunded' || trade.refund?.state === 'complete';
  // With no fee seen before signing, nothing the tool knows says what a buy's refund owes: the
  // payment is on chain, its being the whole refund is the service's word; unless it returns the
  // whole deposit the chain shows landed, which leaves nothing owed, whatever the fee.
  const wholeDeposit = at.depositSlot !== null && c.paidLamports >= BigInt(trade.inputAmount);
  const unbound = trade.side === 'buy' && seenFee === null && c.mark === 'verified' && !wholeDeposit;
  const check = { signature: refund, role: 'refund' as const, expected };
  if (c.mark === 'not-found' && !done)
    found.checks.push({ ...check, mark: 'pending', chain: 'not on chain yet (the refund is under way)' });
  else if (unbound)
    found.checks.push({
      ...check,
      mark: 'attributed',
      chain: `${c.chain}; that it is all this buy owes back is the service's word (no platform fee was shown before signing here)`,
    });
  else {
    const all = trade.side === 'buy' && seenFee === null && c.mark === 'verified' && wholeDeposit;
    const shown = all ? `${c.chain}: the whole deposit back, so this buy owes nothing more` : c.chain;
    found.checks.push({ ...check, mark: c.mark, chain: shown });
  }
}

/**
 * A completed buy's received amount against its swaps' token balances: the most of the output mint
 * one token account gained in each (the service holds bought tokens in its trading wallets, so
 * the account is the service's, named). Less than the service reports contradicts it; swaps that
 * show no token balances leave the figure the service's word.
 */
function receivedCheck(
  trade: Trade,
  swaps: ChainTransaction[],
  known: { owner: string; treasury: string | null },
): { check: SignatureCheck; shown: bigint | null } {
  const said = BigInt(trade.receivedOutputAmount!);
  const gains = swaps.map((tx) => ({ tx, gain: tokenGain(tx, trade.outputMint) })).filter((g) => g.gain !== null);
  // In tokens where the chain states the mint's decimals beside the balances (one figure for every
  // swap), raw units always; the service's figure and the chain's in the same form.
  const decimals = new Set(gains.map((g) => g.gain!.decimals));
  const only = decimals.size === 1 ? ([...decimals][0] ?? null) : null;
  const inTokens = (raw: bigint) =>
    only === null ? counted(raw, 'raw unit') : `${formatTokenAmount(raw, only)} tokens (${counted(raw, 'raw unit')})`;
  const expected = `${inTokens(said)} of ${trade.outputMint} delivered, as the service reports it received`;
  const signature = swaps[0]?.signature ?? trade.signatures.swaps[0] ?? null;
  if (gains.length === 0) {
    const chain =
      swaps.length === 0
        ? 'no swap of this buy could be read'
        : "the swap shows no token balances: what was received is the service's word";
    return { check: { signature, role: 'swap', expected, mark: 'attributed', chain }, shown: null };
  }
  const shown = gains.reduce((sum, g) => sum + g.gain!.amount, 0n);
  const to = gains.find((g) => g.gain!.account !== null)?.gain;
  const where = to ? ` to token account ${to.account}${to.owner ? ` of ${holder(to.owner, known)}` : ''}` : '';
  const chain = `the swap${gains.length > 1 ? 's deliver' : ' delivers'} ${inTokens(shown)}${where}`;
  return {
    check: {
      signature: gains.length === 1 ? gains[0]!.tx.signature : signature,
      role: 'swap',
      expected,
      mark: shown < said ? 'contradicts' : 'verified',
      chain,
    },
    shown,
  };
}

/**
 * The wallet holding the token account a buy's tokens went to: yours, the service's treasury, or
 * (as the API document describes it: the service holds bought tokens for the account) its trading
 * wallet, which the chain shows only as an address that is not yours.
 */
function holder(address: string, known: { owner: string; treasury: string | null }): string {
  if (address === known.owner || address === known.treasury) return whose(address, known);
  return `the service's trading wallet ${address} (not your wallet: the service holds bought tokens for you there)`;
}

/** How the journal knows a transaction, in words: "buy 1f2e…'s refund". */
function knownAs(k: KnownTransaction): string {
  return `${k.side} ${k.trade}'s ${k.role ?? 'transaction'}${k.role === 'deposit' && k.side === 'buy' ? ' (which you signed)' : ''}`;
}

/**
 * The buy of this wallet, not known completed, whose refund a transfer of `paid` could be: it
 * pays exactly its deposit (or the deposit less the fee its review showed) and landed after the
 * buy was made. Null when none: then nothing the journal knows makes the transfer another's.
 */
function refundLike(
  journal: JournalKnowledge | null | undefined,
  paid: bigint,
  blockTime: number | null,
): string | null {
  for (const buy of journal?.refundable ?? []) {
    const after = blockTime === null || blockTime * 1000 >= buy.madeAtMs - CLOCK_ALLOWANCE_MS;
    if (after && buy.lamports.includes(paid)) return buy.trade;
  }
  return null;
}

/**
 * Checks a buy's deposits: each one this tool signed (or, with none signed here, the one the
 * service names). The SOL left the wallet if any of them is on chain; it never can if none is and
 * every one's blockhash expired at finalized. Returns the summary of what the chain shows, and
 * the slot of the first deposit verified there.
 */
async function checkDeposits(
  chain: ChainReader,
  input: VerifyInput,
  checks: SignatureCheck[],
): Promise<{ summary: Verification['deposit']; slot: number | null }> {
  const { trade } = input;
  const signed = input.signedDeposits ?? [];
  const named = trade.signatures.deposit;
  const amount = BigInt(trade.inputAmount);
  const expected = NO_DEPOSIT.has(trade.stage)
    ? `no SOL taken (the service says ${trade.stage})`
    : `${sol(amount)} from your wallet to the treasury`;
  if (signed.length > 0 && named !== null && !signed.some((d) => d.signature === named)) {
    checks.push({
      signature: named,
      role: 'deposit',
      expected: `the deposit you signed, ${signed.at(-1)!.signature}`,
      mark: 'contradicts',
      chain: 'the service names another transaction as your deposit',
    });
  }
  const toCheck: Array<SignedDeposit | { signature: string }> =
    signed.length > 0 ? [...signed] : named !== null ? [{ signature: named }] : [];
  if (toCheck.length === 0) {
    if (PAST_DEPOSIT.has(trade.stage))
      checks.push({
        signature: null,
        role: 'deposit',
        expected,
        mark: 'not-found',
        chain: `the service reports the buy ${trade.stage} but names no deposit`,
      });
    return { summary: undefined, slot: null };
  }
  // The one the service's claim is about: the deposit it names, else the last signed.
  const claimed = toCheck.find((d) => d.signature === named) ?? toCheck.at(-1)!;
  const tally: DepositTally = { landed: 0, allProven: true, lastValidBlockHeight: null, height: null, slot: null };
  for (const d of toCheck) await checkOneDeposit(chain, input, d, { claimed, expected }, tally, checks);
  const { lastValidBlockHeight, height, slot } = tally;
  if (tally.landed > 0)
    return { summary: { onChain: true, proven: null, lastValidBlockHeight, blockHeight: null }, slot };
  if (signed.length === 0 || height === null) return { summary: undefined, slot };
  return { summary: { onChain: false, proven: tally.allProven, lastValidBlockHeight, blockHeight: height }, slot };
}

/**
 * What a buy's deposits showed so far: how many landed, whether every absent one is proven never
 * to land, the latest block any may land by, the finalized height read, and the slot of the first
 * deposit verified on chain.
 */
type DepositTally = {
  landed: number;
  allProven: boolean;
  lastValidBlockHeight: number | null;
  height: number | null;
  slot: number | null;
};

/** Checks one deposit (signed here, or the one the service names) against the chain, adding to the tally. */
async function checkOneDeposit(
  chain: ChainReader,
  input: VerifyInput,
  d: SignedDeposit | { signature: string },
  claim: { claimed: SignedDeposit | { signature: string }; expected: string },
  tally: DepositTally,
  checks: SignatureCheck[],
): Promise<void> {
  const { trade } = input;
  const { claimed, expected } = claim;
  const own = 'blockhash' in d ? d : null;
  if (own) tally.lastValidBlockHeight = Math.max(tally.lastValidBlockHeight ?? 0, own.lastValidBlockHeight);
  // Another deposit signed for the same buy should never land: the buy takes one.
  const should =
    d === claimed || NO_DEPOSIT.has(trade.stage) ? expected : 'never to land (you signed another deposit for this buy)';
  // The blockhash is asked before the signature, so that "expired, then absent" cannot race a late landing.
  // An RPC that cannot answer it (no isBlockhashValid) costs the absence proof only.
  const blockhashValid = own
    ? await chain.blockhashValid(own.blockhash, 'finalized').catch((err: unknown) => {
        if (err instanceof ChainUnavailableError) return null;
        throw err;
      })
    : null;
  const tx = await chain.transaction(d.signature);
  const check = { signature: d.signature, role: 'deposit' as const };
  if (tx !== null) {
    tally.landed++;
    tally.allProven = false;
    const c = checkDeposit(tx, {
      owner: input.owner,
      treasury: input.treasury,
      amountLamports: BigInt(trade.inputAmount),
    });
    if (c.mark === 'verified') tally.slot ??= tx.slot;
    checks.push({
      ...check,
      ...landedDeposit(c, { stage: trade.stage, second: tally.landed > 1, claimed: d === claimed, expected, should }),
      onChain: true,
    });
  } else if (d === claimed && DEPOSIT_CLAIMED.has(trade.stage)) {
    tally.allProven = false;
    checks.push({
      ...check,
      expected,
      mark: 'not-found',
      chain: 'not on chain, though the service says the deposit confirmed',
      onChain: false,
    });
  } else if (own && blockhashValid !== null) {
    tally.height ??= await chain.blockHeight('finalized');
    const absent = depositAbsence(blockhashValid, own.blockhashKnownBeforeSigning === true, own.lastValidBlockHeight);
    tally.allProven &&= absent.proven;
    checks.push({ ...check, expected: should, mark: absent.mark, chain: absent.chain, onChain: false });
  } else {
    tally.allProven = false;
    checks.push({ ...check, expected: should, mark: 'pending', chain: 'not on chain (yet)', onChain: false });
  }
}

/**
 * A deposit on chain, judged: one that landed while the service says the trade took nothing
 * contradicts it; so does a second one, and one that is not the deposit the service names.
 */
function landedDeposit(
  c: ReturnType<typeof checkDeposit>,
  at: { stage: string; second: boolean; claimed: boolean; expected: string; should: string },
): Pick<SignatureCheck, 'expected' | 'mark' | 'chain'> {
  if (NO_DEPOSIT.has(at.stage) && c.mark === 'verified')
    return { expected: at.expected, mark: 'contradicts', chain: `the deposit is on chain: ${c.chain}` };
  if (at.second)
    return {
      expected: at.should,
      mark: 'contradicts',
      chain: `a second deposit you signed for this buy is on chain: ${c.chain}`,
    };
  if (!at.claimed && c.mark === 'verified')
    return {
      expected: at.should,
      mark: 'contradicts',
      chain: `it is on chain, not the deposit the service names: ${c.chain}`,
    };
  return { expected: at.should, ...c };
}

type Claim = { signature: string; role: Role };

/**
 * The transactions the service names as this trade's deposit, swaps, payouts and refund (`named`:
 * none may have proved another trade), and those the chain showed proving its money or tokens
 * moved (`proven`: what the journal records as this trade's evidence, under its lock).
 */
export function evidenceClaims(v: Verification): { named: Claim[]; proven: Claim[] } {
  const named: Claim[] = [];
  const proven: Claim[] = [];
  const add = (list: Claim[], claim: Claim) => {
    if (!list.some((x) => x.signature === claim.signature && x.role === claim.role)) list.push(claim);
  };
  for (const c of v.checks) {
    if (c.signature === null) continue;
    const claim = { signature: c.signature, role: c.role };
    add(named, claim);
    // A deposit proven never to land is verified, but no transaction proves it.
    if (c.mark === 'verified' && (c.role !== 'deposit' || c.onChain === true)) add(proven, claim);
  }
  return { named, proven };
}

/** The verification with each transaction that already proved another trade marked a contradiction naming both. */
export function withEvidenceConflicts(
  v: Verification,
  trade: string,
  conflicts: ReadonlyArray<{ signature: string; role: Role; otherTrade: string; otherRole: Role }>,
): Verification {
  if (conflicts.length === 0) return v;
  const checks = v.checks.map((c) => {
    const conflict = conflicts.find((x) => x.signature === c.signature && x.role === c.role);
    if (!conflict) return c;
    return {
      ...c,
      mark: 'contradicts' as const,
      chain: `this transaction already proved trade ${conflict.otherTrade} (as its ${conflict.otherRole}); one transaction proves one trade, so it cannot prove ${trade} too`,
    };
  });
  return { ...v, checks, verdict: verdictOf(checks) };
}

function verdictOf(checks: SignatureCheck[]): Verdict {
  if (checks.some((c) => c.mark === 'contradicts' || c.mark === 'not-found')) return 'contradicted';
  if (checks.some((c) => c.mark === 'pending')) return 'incomplete';
  if (checks.some((c) => c.mark === 'attributed')) return 'attributed';
  return 'verified';
}

/** The first contradiction as one line of evidence: which signature, what it should be, what the chain shows. */
export function contradictionLine(v: Verification): string | null {
  const c = v.checks.find((x) => x.mark === 'contradicts' || x.mark === 'not-found');
  if (!c) return null;
  return `the chain contradicts the service: ${c.role}${c.signature ? ` ${c.signature}` : ''} should be ${c.expected}, but the chain shows: ${c.chain}`;
}
