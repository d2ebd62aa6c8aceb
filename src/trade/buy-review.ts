// What a buy shows the user before anything is signed: the inspected deposit and the quote.
import type { BuyIntent, Trade } from '../api/types.js';
import type { Funds } from '../domain/funds.js';
import type { BoundToken, TokenBinding } from '../domain/token-binding.js';
import type { AnswerDeadline } from '../domain/answer-deadline.js';
import type { DepositFacts } from '../domain/deposit-facts.js';
import type { TokenRisk } from '../domain/token-risks.js';

/** The trade read for a new intent, or why there is none. */
export type QuoteRead = { trade: Trade; problem: null } | { trade: null; problem: string };

/** What the user is asked to approve. */
export interface BuyReview {
  intent: BuyIntent;
  facts: DepositFacts;
  lastValidBlockHeight: number;
  /** The intent's trade as read after the create: expected output, platform fee, slippage. */
  quote: QuoteRead;
  /** The wallet's SOL on chain against what the deposit needs; null when not read (no chain hook). */
  funds?: Funds | null;
  /** Until when the person may answer: the deposit's blockhash life, else the intent's deadline. */
  answerBy: AnswerDeadline;
}

/** What a buy knows of its token: the facts bound to the mint (token-binding.ts), and whether the account has had it. */
export interface BuyToken {
  binding: TokenBinding;
  /** The account's lists name the token (held or traded here before). */
  seenBefore: boolean;
  /** Why the chain could not be read (the token's facts are unconfirmed), or null. */
  chainUnread: string | null;
  /** What can go wrong holding it, read from its mint (domain/token-risks.ts). */
  risks: BuyRisks;
}

/** A buy's token risks: null risks when the mint could not be read; `askAccept`: a yes accepts them (a person must, and has not yet). */
export interface BuyRisks {
  risks: TokenRisk[] | null;
  fingerprint: string | null;
  /** A person accepted this mint's risks under this fingerprint. */
  accepted: boolean;
  askAccept: boolean;
}

/** Every fact the buy review shows, raw amounts as strings (also the --dry-run --json `quote`). */
export interface BuyQuote {
  /**
   * The token's facts as bound: from the chain or a person (`source`), never the service alone;
   * `unbound`: what the service said that neither vouches for; `chainUnread`: why the chain could not be read.
   */
  token: Omit<BoundToken, 'source'> & {
    seenBefore: boolean;
    source: BoundToken['source'];
    unbound: TokenBinding['unbound'];
    chainUnread: string | null;
    risks: BuyRisks;
  };
  depositLamports: string;
  platformFeeLamports: string | null;
  /** The most the deposit transaction's network fee can be (signatures plus priority fee). */
  networkFeeMaxLamports: string;
  totalMaxLamports: string;
  expectedOutputAmount: string | null;
  minimumOutputAmount: string;
  /** In whole tokens, when the decimals are known. */
  expectedOutput: string | null;
  minimumOutput: string | null;
  /** As the service applied it (the trade read), else null. */
  slippageBps: number | null;
  /** What was asked for, when anything was. */
  slippageBpsAsked: number | null;
  /** The deposit divided by the expected output, in SOL per whole token, rounded to 4 significant digits. */
  pricePerTokenSol: string | null;
  /** Why some facts are unknown (null when all are known). */
  unknown: string | null;
}
