// What every trade checks before it sends anything, and the wallet check before it creates
// anything: confirmation is possible, the keypair is sound and is the account's wallet.
import type { ServiceClient } from '../api/client.js';
import type { Context } from '../context.js';
import { ApiError, InterruptedError, UsageError } from '../errors.js';
import { shellQuote } from '../shell-quote.js';
import type { Keypair } from '../wallet/keypair.js';

/** Local checks, no request: confirmation possible and the keypair file readable and valid. */
export async function localPreflight(ctx: Context, dryRun: boolean): Promise<Keypair> {
  if (!dryRun && !ctx.settings.yes && !ctx.terminal.interactive) {
    throw new UsageError(
      ctx.settings.json
        ? 'trading with --json needs --yes (there is no prompt in --json mode); nothing was sent'
        : 'confirmation needed but this is not an interactive terminal: pass --yes to trade; nothing was sent',
      'CONFIRMATION_REQUIRED',
    );
  }
  const { loadKeypair } = await import('../wallet/keypair.js');
  const keypair = loadKeypair(ctx.settings.keypairPath);
  for (const warning of keypair.warnings) ctx.output.warn(warning);
  return keypair;
}

/** The keypair must be the account's main wallet, or every signature would be refused. */
export async function checkWallet(api: ServiceClient, keypair: Keypair): Promise<void> {
  const account = await api.me();
  if (account.walletAddress !== keypair.publicKey) {
    throw new UsageError(
      `the keypair is wallet ${keypair.publicKey}, but this account's wallet is ${account.walletAddress}; use --keypair with the account's wallet`,
      'WALLET_MISMATCH',
    );
  }
}

/** The command that follows a trade, with a service-given id quoted so a hostile id cannot run as shell code. */
export function followCommand(id: string): string {
  return `trader trades ${shellQuote(id)} --watch`;
}

/** Where a trade stood when the command stopped. */
export interface TradeProgress {
  /** A question was on screen. */
  prompting: boolean;
  /** The deposit or signature was accepted (or may have been), or a resumed trade was past it. */
  underWay: boolean;
  /** The buy or sell id, once created. */
  tradeId: string | null;
  /** The command that picks the trade up again before anything was submitted. */
  resume: string | null;
  /** What happens to a trade left unsigned, e.g. "the authorization expires unused". */
  unsigned: string;
}

/**
 * Says what became of the trade when the command stops early: Ctrl-C stops waiting, not a
 * trade already under way, and a service failure after submitting does not undo it. In the
 * message itself, so the --json error line carries it too.
 */
export function explainStop(err: unknown, at: TradeProgress): unknown {
  const follow = at.tradeId ? followCommand(at.tradeId) : null;
  if (err instanceof InterruptedError) {
    const again = at.resume ? ` (to pick it up again: ${at.resume})` : '';
    const note = at.prompting
      ? `nothing was signed; ${at.unsigned}${again}`
      : at.underWay && follow
        ? `the trade goes on; follow it with: ${follow}`
        : `nothing was submitted; ${at.unsigned}${again}`;
    const interrupted = new InterruptedError(err.signal);
    interrupted.message = `${err.message}; ${note}`;
    return interrupted;
  }
  if (err instanceof ApiError && at.underWay && follow) err.message = `${err.message}; the trade may still go on: check it with ${follow}`;
  return err;
}
