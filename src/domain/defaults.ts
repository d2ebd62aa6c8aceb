// Every default a user can rely on, stated once: the code applies these constants and the help
// text is generated from them, so the two cannot disagree.

/** How long buy, sell and --watch wait for a final status (--timeout): past the 10-minute deposit window. */
export const DEFAULT_TIMEOUT_SECONDS = 900;
/** Per HTTP request (--request-timeout). */
export const DEFAULT_REQUEST_TIMEOUT_SECONDS = 30;
/** The slippage a trade may carry when neither --slippage-bps nor the profile's maxSlippageBps is set. */
export const DEFAULT_MAX_SLIPPAGE_BPS = 500;
/**
 * The network fee a deposit transaction may imply (--max-fee-lamports): 100,000 lamports
 * (0.0001 SOL). A plain transfer costs 5,000; the rest leaves room for a priority fee of up to
 * 95,000 lamports (e.g. 200,000 CU at 475,000 micro-lamports/CU, far above usual congestion
 * prices), while a hostile fee cannot take more than a negligible 0.0001 SOL without the user
 * raising the limit.
 */
export const DEFAULT_MAX_FEE_LAMPORTS = 100_000n;
/** Seconds between status reads of `trades --watch` (--interval). */
export const DEFAULT_WATCH_INTERVAL_SECONDS = 3;
/** The API reads /trades/{id}/status no faster than this: the least --interval accepted. */
export const MIN_WATCH_INTERVAL_SECONDS = 2;
/** The same floor in ms: /trades/{id}/status is never read closer than this, retries and deadlines included. */
export const MIN_STATUS_INTERVAL_MS = MIN_WATCH_INTERVAL_SECONDS * 1000;
/** Items per page when --limit is not given: the service's own default (API document), so it is not sent. */
export const SERVICE_PAGE_LIMIT = 25;
/** The config profile used when neither --profile nor TRADER_PROFILE names one. */
export const DEFAULT_PROFILE = 'default';
/** The owner wallet's keypair file, where the Solana CLI keeps it (`~` is the home folder). */
export const DEFAULT_KEYPAIR_PATH = '~/.config/solana/id.json';

/** The Solana JSON-RPC endpoint the chain is read from (--rpc-url): the public mainnet one, as the Solana CLI's default. */
export const DEFAULT_RPC_URL = 'https://api.mainnet-beta.solana.com';
/** The most one chain read (each attempt) may take, or --request-timeout when that is lower. */
export const CHAIN_CALL_TIMEOUT_SECONDS = 10;

/** `trader sandbox`: where it listens and what its account's wallet holds at the start. */
export const SANDBOX_PORT = 8787;
export const SANDBOX_HOST = '127.0.0.1';
export const SANDBOX_START_BALANCE_LAMPORTS = 100_000_000_000n;
