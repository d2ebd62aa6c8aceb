// `trader balance`: the owner wallet's SOL as the chain holds it (like `solana balance`). Reads
// the keypair file for the address and the RPC endpoint for the balance; the service is not asked.
import { formatSol, toDecimalString } from '../amounts.js';
import type { Context } from '../context.js';
import { defineCommand, type NoOptions } from './definition.js';

/** What `--json` prints: amounts as decimal strings, like the API's. */
export interface BalanceDocument {
  address: string;
  lamports: string;
  sol: string;
}

export const balance = defineCommand<NoOptions>({
  examples: ['trader balance', 'trader balance --json | jq -r .sol', 'trader balance --rpc-url https://api.devnet.solana.com'],
  helpAfter: 'The balance is read from the chain at --rpc-url (TRADER_RPC_URL, config rpcUrl), not from the service.',
  parse: () => ({}),
  run,
});

async function run(ctx: Context): Promise<void> {
  const { loadKeypair } = await import('../wallet/keypair.js');
  const keypair = loadKeypair(ctx.settings.keypairPath);
  for (const warning of keypair.warnings) ctx.output.warn(warning);
  const { readBalance } = await import('../chain/chain-checks.js');
  const lamports = await readBalance(await ctx.chain(), keypair.publicKey);
  const doc: BalanceDocument = { address: keypair.publicKey, lamports: lamports.toString(), sol: toDecimalString(lamports, 9) };
  ctx.output.result(doc, () => `${formatSol(lamports)} SOL (${lamports.toString()} lamports)\nWallet ${doc.address}`);
}
