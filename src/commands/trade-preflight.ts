// What every trade checks before it sends anything, and the wallet check before it creates
// anything: confirmation is possible, the keypair is sound and is the account's wallet.
import type { ServiceClient } from '../api/client.js';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
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
