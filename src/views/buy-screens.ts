// Human views of a buy: the review before signing and the summary at the end.
import { fundsLine } from '../domain/funds.js';
import type { BuyIntent, Trade } from '../api/types.js';
import { formatInteger, formatSol, formatTokenAmount } from '../domain/amounts.js';
import type { TokenMeta } from '../domain/token-meta.js';
import type { BuyQuote, BuyReview } from '../trade/buy-review.js';
import { formatLocalTime } from '../domain/local-time.js';
import { BLOCK_ESTIMATE_MS, timeLeft, type AnswerDeadline } from '../domain/answer-deadline.js';
import { renderFields } from '../io/table.js';
import type { Theme } from '../io/theme.js';
import { oneLine } from '../io/terminal-text.js';
import { tokenAmount } from './token-amount.js';
import { serviceSays } from './verification.js';
import { riskLine } from './token-report.js';
import { counted, lamports } from '../domain/units.js';

const tokenName = (mint: string, token: Pick<TokenMeta, 'symbol' | 'name'> | null) =>
  token?.symbol
    ? `${oneLine(token.symbol)}${token.name ? ` (${oneLine(token.name)})` : ''} ${mint}`
    : token?.name
      ? `${oneLine(token.name)} ${mint}`
      : mint;

const FACTS = ['decimals', 'symbol', 'name'] as const;
const listed = (facts: readonly string[]) =>
  facts.length > 1 ? `${facts.slice(0, -1).join(', ')} and ${facts.at(-1)}` : facts[0]!;

/** Who vouches for the token's facts: the chain, the user; what the service says that nothing confirms. */
function tokenFacts(t: BuyQuote['token']): string {
  const parts: string[] = [];
  const chain = FACTS.filter((f) => t.source[f] === 'chain');
  const person = FACTS.filter((f) => t.source[f] === 'person');
  if (chain.length) parts.push(`${listed(chain)} from the chain`);
  if (person.length) parts.push(`${listed(person)} as you confirmed`);
  // Why it could not be read is said where the chain was first asked (the warning before the review).
  if (t.chainUnread !== null)
    parts.push('unconfirmed: the chain could not be read; nothing is pinned from the service alone');
  if (t.unbound.length)
    parts.push(
      `the service says ${t.unbound.map((u) => `${u.fact} ${JSON.stringify(oneLine(u.value))}`).join(', ')}, which nothing confirms`,
    );
  return parts.join('; ') || 'none known';
}

/** The token's risks, one line each (none, or unread, said so); where a yes accepts them, that it does and under which fingerprint. */
function riskFields(r: BuyQuote['token']['risks'], theme: Theme): Array<[string, string]> {
  if (r.risks === null) return [['Risks', theme.pending('not read: the mint could not be read on chain')]];
  if (r.risks.length === 0) return [['Risks', 'none read on chain']];
  const fields = r.risks.map((risk): [string, string] => ['Risk', riskLine(risk, theme)]);
  if (r.askAccept)
    fields.push(['Accept', theme.pending(`yes accepts these risks of this mint (fingerprint ${r.fingerprint})`)]);
  else if (r.accepted) fields.push(['Accept', `you accepted these risks (fingerprint ${r.fingerprint})`]);
  return fields;
}

/** What the review says of a typed symbol only the service's lists tie to the mint. */
export const symbolWord = (symbol: string) =>
  `only the service's lists say "${oneLine(symbol)}" is this mint; yes binds ${oneLine(symbol)} to it`;

const sol = (lamports: string) => `${formatSol(lamports)} SOL`;
const bps = (n: number) => `${n} bps (${n / 100}%)`;

/**
 * What the user approves: the token, what is paid (deposit, platform fee, network fee cap,
 * total), what comes back (expected and minimum, in whole tokens when the decimals are known),
 * the price, the slippage the service applied, and every fact the deposit was checked for.
 */
export function renderBuyReview(
  review: BuyReview,
  q: BuyQuote,
  nowMs: number,
  theme: Theme,
  serviceSymbol: string | null = null,
  signer: string | null = null,
): string {
  const { intent, facts } = review;
  const token = q.token;
  // Every amount has its unit: the symbol, else `tokens` (whole tokens, the decimals being known).
  const unit = token.symbol ? ` ${oneLine(token.symbol)}` : ' tokens';
  // Whole tokens when the decimals are known; else raw units, said so.
  const out = (raw: string | null, whole: string | null) =>
    raw === null
      ? 'unknown'
      : whole !== null
        ? `${formatTokenAmount(raw, q.token.decimals)}${unit}`
        : counted(raw, 'raw unit', formatInteger(raw));
  const slippage =
    q.slippageBps !== null
      ? `${bps(q.slippageBps)}, as the service applied it${q.slippageBpsAsked !== null && q.slippageBpsAsked !== q.slippageBps ? ` (asked: ${q.slippageBpsAsked} bps)` : ''}`
      : `unknown${q.slippageBpsAsked !== null ? ` (asked: ${bps(q.slippageBpsAsked)})` : " (the service's default)"}`;
  const fields: Array<[string, string]> = [
    ['Buy', tokenName(intent.outputMint, token)],
    // A token new to the account is said so here, keeping the Buy line to symbol, name and mint.
    [
      'Token facts',
      `${token.seenBefore ? '' : `${theme.pending('new to this account')}; `}${token.chainUnread !== null || token.unbound.length > 0 ? theme.pending(tokenFacts(token)) : tokenFacts(token)}`,
    ],
    ...riskFields(token.risks, theme),
    ...(serviceSymbol ? [['Symbol', theme.pending(symbolWord(serviceSymbol))] as [string, string]] : []),
    ['Deposit', `${theme.bold(sol(q.depositLamports))} (${lamports(q.depositLamports)})`],
    [
      'Platform fee',
      q.platformFeeLamports === null ? 'unknown' : `${sol(q.platformFeeLamports)}, taken from the deposit`,
    ],
    ['Network fee', `at most ${sol(q.networkFeeMaxLamports)} (${lamports(q.networkFeeMaxLamports)}), paid on top`],
    ['Total', `at most ${sol(q.totalMaxLamports)}`],
    ['Expected out', out(q.expectedOutputAmount, q.expectedOutput)],
    ['Minimum out', theme.bold(out(q.minimumOutputAmount, q.minimumOutput))],
    [
      'Price',
      q.pricePerTokenSol === null
        ? 'unknown'
        : `${q.pricePerTokenSol} SOL per ${token.symbol ? oneLine(token.symbol) : 'token'} (deposit ÷ expected out)`,
    ],
    ['Slippage', slippage],
  ];
  if (q.unknown) fields.push(['Not known', theme.pending(q.unknown)]);
  if (signer !== null) fields.push(['Signer', signer]);
  if (review.funds)
    fields.push(['Wallet', review.funds.checked ? fundsLine(review.funds) : theme.pending(fundsLine(review.funds))]);
  fields.push(
    [
      'Recipient',
      `${facts.recipient ?? '—'} ${facts.treasuryCheck === 'pinned' ? theme.success('(pinned treasury)') : theme.pending('(first use: a yes pins it)')}`,
    ],
    // The service's note in the deposit: printable and one line (wallet/deposit-memo.ts); it moves nothing.
    ...(typeof facts.memo === 'string'
      ? [['Memo', `"${oneLine(facts.memo)}" (the service's note in the deposit; it moves nothing)`] as [string, string]]
      : []),
    ['Time left', answerWords(review.answerBy, nowMs)],
    ['Buy id', intent.id],
  );
  return renderFields(fields, theme);
}

/**
 * The time left to answer, and where it comes from: the blocks the deposit's blockhash has left
 * (an estimate in time), or the service's deadline when the chain could not be read.
 */
function answerWords(d: AnswerDeadline, nowMs: number): string {
  const left = timeLeft(d.atMs, nowMs);
  if (d.source === 'chain')
    return `${left}, an estimate: ${d.blocksLeft} blocks of its blockhash left, ~${BLOCK_ESTIMATE_MS} ms each`;
  return `${left}, until ${formatLocalTime(d.atMs)}: the service's deadline${d.reason ? ` (${d.reason})` : ''}`;
}

/** The chain's figure with the service's beside it where they differ; the service's, said as its, where the chain shows none. */
function receivedField(said: string | null, onChain: string | 'unshown' | null, token: TokenMeta | null): string {
  if (said === null) return '—';
  if (onChain === 'unshown') return `${tokenAmount(said, token)} (the service reports it; the chain does not show it)`;
  if (onChain === null || BigInt(onChain) === BigInt(said)) return tokenAmount(onChain ?? said, token);
  return `${tokenAmount(onChain, token)} (the service says ${tokenAmount(said, token)})`;
}

/**
 * The end of a buy, for stdout; `refundOnChain`: what the chain shows the refund paid, where it
 * was read (the figure shown); `receivedOnChain`: the raw units its swaps delivered on chain (the
 * figure shown), 'unshown' when the chain does not show them (the service's figure, said as its).
 */
export function renderBuySummary(
  intent: BuyIntent,
  trade: Trade | null,
  token: TokenMeta | null,
  theme: Theme,
  refundOnChain: string | null = null,
  receivedOnChain: string | 'unshown' | null = null,
): string {
  const fields: Array<[string, string]> = [
    ['Buy', intent.id],
    ['Status', theme.status(intent.status)],
    ['Token', tokenName(intent.outputMint, token)],
  ];
  if (trade) {
    fields.push(['Received', receivedField(trade.receivedOutputAmount, receivedOnChain, token)]);
    fields.push(['Deposit', `${formatSol(trade.inputAmount)} SOL`]);
    fields.push([
      'Platform fee',
      trade.platformFeeLamports === null ? '—' : `${formatSol(trade.platformFeeLamports)} SOL`,
    ]);
    if (trade.signatures.deposit) fields.push(['Deposit sig', trade.signatures.deposit]);
    for (const s of trade.signatures.swaps) fields.push(['Swap sig', s]);
    if (trade.failure)
      fields.push([
        'Failure',
        theme.failure(`${trade.failure.code ?? 'unknown'}: ${trade.failure.reason ?? 'no reason given'}`),
      ]);
    const refunded = refundOnChain ?? trade.refund?.amountLamports ?? null;
    const said = refundOnChain === null ? '' : serviceSays(trade.refund?.amountLamports ?? null, refundOnChain);
    if (trade.refund)
      fields.push(['Refund', `${trade.refund.state}${refunded ? `, ${formatSol(refunded)} SOL${said}` : ''}`]);
    if (trade.signatures.refund) fields.push(['Refund sig', trade.signatures.refund]);
  } else {
    fields.push(['Deposit', `${formatSol(intent.amountLamports)} SOL`]);
  }
  return renderFields(fields, theme);
}
