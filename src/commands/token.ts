// `trader token <mint|symbol>`: a mint's facts as the chain states them — program, decimals,
// supply, authorities, metadata and whether it can change, every Token-2022 extension — and the
// risks a buy would show for them (domain/token-risks.ts). Read at --rpc-url; the service is
// asked only to find the mint a symbol names when no person bound it. Facts bound to the mint
// (trust store) that the chain now states otherwise are said beside them, as a buy refuses them.
import type { Context } from '../cli/context.js';
import { parseTokenArgument, type TokenArgument } from '../cli/argument-parsers.js';
import { defineCommand } from '../cli/definition.js';
import { UsageError, type BoundFactChange } from '../domain/errors.js';
import type { ChainTokenFacts } from '../domain/token-meta.js';
import { changedBoundFacts, changedFactWords } from '../domain/token-binding.js';
import { DEFAULT_MAX_TRANSFER_FEE_BPS, tokenRisks, tokenRisksFingerprint } from '../domain/token-risks.js';
import { mintFactsDocument, renderMintFacts } from '../views/token-report.js';
import { openTrust, symbolTrust } from '../trade/trust.js';

export interface TokenOptions {
  token: TokenArgument;
}

const WHOSE = 'you bound or have held or traded';

export const token = defineCommand<TokenOptions>({
  arguments: [{ name: '<token>', help: `mint address, or a symbol ${WHOSE}` }],
  examples: ['trader token <mint>', 'trader token WOOF --json | jq .risks'],
  helpAfter:
    '\nRead from the chain at --rpc-url (TRADER_RPC_URL, config rpcUrl). Risks: refuse-level ones a person accepts before a buy\n(`trader config trust accept-risks <mint> <fingerprint>`), warn-level ones are shown (docs/token-risks.md).\n',
  parse: (raw) => ({ token: parseTokenArgument(raw.args[0]!, WHOSE) }),
  run,
});

async function run(ctx: Context, opts: TokenOptions): Promise<void> {
  const mint = await whichMint(ctx, opts.token);
  const [{ readMint }, { ChainUnavailableError }, { ChainUnreachableError }] = await Promise.all([
    import('../chain/chain-token-facts.js'),
    import('../chain/chain-reader.js'),
    import('../chain/chain-errors.js'),
  ]);
  let read;
  try {
    read = await readMint(await ctx.chain(), mint);
  } catch (err) {
    if (err instanceof ChainUnavailableError)
      throw new ChainUnreachableError(`could not read token ${mint} from the chain: ${err.message}`, [
        'check --rpc-url (TRADER_RPC_URL, config rpcUrl)',
      ]);
    throw err;
  }
  if (!read)
    throw new UsageError(
      `the chain has no token mint at ${mint} (no account there, or not a mint of the SPL Token or Token-2022 program)`,
      'NOT_A_MINT',
    );
  const risks = tokenRisks(read.facts, ctx.settings.maxTransferFeeBps ?? DEFAULT_MAX_TRANSFER_FEE_BPS);
  const fingerprint = tokenRisksFingerprint(read.facts);
  const changed = await boundFactsChanged(ctx, read.token);
  ctx.output.result({ ...mintFactsDocument(read.facts, risks, fingerprint), boundFactsChanged: changed }, (theme) =>
    [
      renderMintFacts(read.facts, risks, fingerprint, theme),
      ...changed.map((c) => theme.failure(`Not as bound: ${changedFactWords(c)}; a trade of it is refused`)),
    ].join('\n'),
  );
}

/** The facts bound to the mint (trust store) that the chain states otherwise; none where no service is configured or its store cannot be read. */
async function boundFactsChanged(ctx: Context, chain: ChainTokenFacts): Promise<BoundFactChange[]> {
  if (!ctx.settings.baseUrl) return [];
  const { TrustStoreError } = await import('../config/trust-store.js');
  try {
    return changedBoundFacts(chain.mint, (await ctx.trustStore()).read().tokens?.[chain.mint] ?? null, chain);
  } catch (err) {
    if (err instanceof TrustStoreError) return [];
    throw err;
  }
}

/** The mint typed, or the one a symbol names: bound by a person, else the account's lists (the service's word, said as such by a buy). */
async function whichMint(ctx: Context, typed: TokenArgument): Promise<string> {
  if (typed.kind === 'mint') return typed.mint;
  const [{ chooseToken, tokenHistory, NEW_TOKEN_HINT }, store] = await Promise.all([
    import('../trade/token-lookup.js'),
    openTrust(ctx),
  ]);
  const trust = symbolTrust(store);
  const known = await tokenHistory(await ctx.api());
  return chooseToken(typed.text, known, 'you have held or traded', NEW_TOKEN_HINT, trust).mint;
}
