// `trader balance`: the owner wallet's SOL as the chain holds it (like `solana balance`). Reads
// the wallet's address (a keystore's is in clear: no password asked) and the balance at the RPC
// endpoint; the service is not asked.
import { formatTokenAmount, solAndLamports, toDecimalString } from '../domain/amounts.js';
import type { Context } from '../cli/context.js';
import { renderFields } from '../io/table.js';
import { defineCommand, optionFlag } from '../cli/definition.js';

export interface BalanceOptions {
  /** Also the wallet's own balance of each token the account trades. */
  tokens: boolean;
}

/** One token in the wallet itself (not the service's holdings). */
export interface WalletToken {
  mint: string;
  symbol: string | null;
  /** Raw units. */
  amount: string;
  decimals: number | null;
  /** Whole tokens, exact, when the decimals are known. */
  balance: string | null;
}

/** What `--json` prints: amounts as decimal strings, like the API's. */
export interface BalanceDocument {
  address: string;
  lamports: string;
  sol: string;
  tokens?: WalletToken[];
}

export const balance = defineCommand<BalanceOptions>({
  options: [
    {
      flags: '--tokens',
      help: "also the wallet's own balance of each token the account has held or traded (not the service's holdings)",
    },
  ],
  examples: [
    'trader balance',
    'trader balance --json | jq -r .sol',
    'trader balance --tokens',
    'trader balance --rpc-url https://api.devnet.solana.com',
  ],
  helpAfter:
    '\nThe balance is read from the chain at --rpc-url (TRADER_RPC_URL, config rpcUrl), not from the service.\n',
  parse: (raw) => ({ tokens: optionFlag(raw, 'tokens') }),
  run,
});

async function run(ctx: Context, opts: BalanceOptions): Promise<void> {
  const wallet = await ctx.signer();
  const { readBalance } = await import('../chain/chain-checks.js');
  const lamports = await readBalance(await ctx.chain(), wallet.publicKey);
  const doc: BalanceDocument = {
    address: wallet.publicKey,
    lamports: lamports.toString(),
    sol: toDecimalString(lamports, 9),
  };
  if (opts.tokens) doc.tokens = await walletTokens(ctx, wallet.publicKey);
  ctx.output.result(doc, (theme) =>
    [
      solAndLamports(lamports),
      `Wallet ${doc.address}`,
      ...(doc.tokens === undefined
        ? []
        : doc.tokens.length === 0
          ? ['The wallet itself holds none of the tokens this account traded (the service holds them).']
          : [
              '',
              renderFields(
                doc.tokens.map((t) => [
                  t.symbol ?? t.mint,
                  `${formatTokenAmount(t.amount, t.decimals)}${t.symbol ? ` ${t.symbol}` : ''}`,
                ]),
                theme,
              ),
            ]),
    ].join('\n'),
  );
}

/**
 * The wallet's own token accounts, for the mints the account has held or traded (the service's
 * lists name them), largest count first. Tokens the service holds for the account are `holdings`.
 */
async function walletTokens(ctx: Context, owner: string): Promise<WalletToken[]> {
  const [{ tokenHistory }, { readTokenBalances }] = await Promise.all([
    import('../trade/token-lookup.js'),
    import('../chain/chain-checks.js'),
  ]);
  const [known, held] = await Promise.all([tokenHistory(await ctx.api()), readTokenBalances(await ctx.chain(), owner)]);
  return [...known.entries()]
    .map(([mint, meta]) => {
      const h = held.get(mint);
      const decimals = h?.decimals ?? meta.decimals ?? null;
      const amount = h?.amount ?? 0n;
      return {
        mint,
        symbol: meta.symbol ?? null,
        amount: amount.toString(),
        decimals,
        balance: decimals === null ? null : toDecimalString(amount, decimals),
      };
    })
    .filter((t) => t.amount !== '0')
    .sort((a, b) => (BigInt(b.amount) > BigInt(a.amount) ? 1 : BigInt(b.amount) < BigInt(a.amount) ? -1 : 0));
}
