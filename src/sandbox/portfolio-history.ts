// A few days of trading for a fresh account, so `trader pnl` has gains and losses to show:
// buys and partial sells at different prices, run through the sandbox's own buy and sell code
// (signed with the account's wallet, on the sandbox clock set back in time), so positions,
// activity, trades, points and pools agree with each other exactly as after real trades.
// Afterwards the pools are put back as they were, so prices are the start prices again.
import { VersionedTransaction, type Keypair } from '@solana/web3.js';
import bs58 from 'bs58';
import nacl from 'tweetnacl';
import { confirmOnRead, createBuy, submitDeposit } from './buys.js';
import { HttpError } from './sandbox-error.js';
import { scalePrice } from './market.js';
import { sellablePositions } from './position-book.js';
import { advance } from './scheduler.js';
import { authorizeSell, createSell } from './sells.js';
import type { KeyOwner, World } from './world.js';

const HOUR = 3_600_000;

/** At `hoursAgo` the market moves the token's price by the factor `price`; then the account buys, or sells a percentage of its holding. */
type Step = { hoursAgo: number; symbol: string; price: number } & ({ buyLamports: bigint } | { sellPercent: bigint });

/** The story: WOOF bought low, partly sold higher, bought again (a gain); SGLD bought high and partly sold lower (a loss); BRIX bought and sold out at a profit. */
const STORY: Step[] = [
  { hoursAgo: 144, symbol: 'WOOF', price: 0.8, buyLamports: 500_000_000n },
  { hoursAgo: 120, symbol: 'SGLD', price: 1.25, buyLamports: 1_200_000_000n },
  { hoursAgo: 96, symbol: 'BRIX', price: 0.9, buyLamports: 400_000_000n },
  { hoursAgo: 72, symbol: 'WOOF', price: 1.5, sellPercent: 40n },
  { hoursAgo: 48, symbol: 'WOOF', price: 0.9, buyLamports: 250_000_000n },
  { hoursAgo: 36, symbol: 'BRIX', price: 1.3, sellPercent: 100n },
  { hoursAgo: 24, symbol: 'SGLD', price: 0.7, sellPercent: 25n },
];

/** Trade the story for the account of `owner`, whose wallet is `wallet`. The account must have no history yet. */
export function seedPortfolioHistory(world: World, owner: KeyOwner, wallet: Keypair): { buys: number; sells: number } {
  const data = world.account(owner.account.id);
  if (data.positions.length > 0 || data.activity.length > 0) {
    throw new HttpError(
      409,
      'HAS_HISTORY',
      'the portfolio history is only added to an account with no positions or activity; reset first',
    );
  }
  if (owner.account.walletAddress !== wallet.publicKey.toBase58()) throw new Error("the wallet is not the account's");
  const savedOffset = world.state.clockOffsetMs;
  const savedPools = world.state.tokens.map((t) => ({ t, sol: t.solReserve, tokens: t.tokenReserve }));
  const start = world.now();
  const setClock = (at: number) => {
    world.state.clockOffsetMs = savedOffset + (at - start);
  };
  const bySymbol = (symbol: string) => {
    const token = world.state.tokens.find((t) => t.symbol === symbol);
    if (!token) throw new Error(`no token ${symbol}`);
    return token;
  };
  const d = () => world.state.delays;
  let n = 0;
  let buys = 0;
  let sells = 0;
  try {
    for (const step of STORY) {
      const at = start - step.hoursAgo * HOUR;
      const token = bySymbol(step.symbol);
      scalePrice(token, step.price);
      if ('buyLamports' in step) {
        setClock(at);
        const created = createBuy(world, owner, {
          mint: token.mint,
          amountLamports: step.buyLamports.toString(),
          idempotencyKey: `sandbox-history-${++n}`,
        }).data;
        const tx = VersionedTransaction.deserialize(Buffer.from(created.deposit.transaction, 'base64'));
        tx.sign([wallet]);
        submitDeposit(world, owner, created.intent.id, {
          signedTransaction: Buffer.from(tx.serialize()).toString('base64'),
        });
        setClock(at + d().confirmSeconds * 1000 + 1);
        confirmOnRead(world, world.buys.get(created.intent.id)!);
        setClock(at + (d().confirmSeconds + 2 * d().swapSeconds) * 1000 + 2);
        advance(world);
        if (world.buys.get(created.intent.id)!.status !== 'completed')
          throw new Error(`seeded buy of ${step.symbol} did not complete`);
        buys++;
      } else {
        setClock(at);
        const free = sellablePositions(world, owner.account.id, token.mint).reduce((s, p) => s + p.free, 0n);
        const amount = (free * step.sellPercent) / 100n;
        const auth = createSell(world, owner, {
          mint: token.mint,
          amount: amount.toString(),
          idempotencyKey: `sandbox-history-${++n}`,
        }).data.authorization;
        const signature = bs58.encode(nacl.sign.detached(Buffer.from(auth.message, 'utf8'), wallet.secretKey));
        const authorized = authorizeSell(world, owner, auth.id, { signature });
        if (!authorized.sell)
          throw new Error(`seeded sell of ${step.symbol} did not start: ${authorized.authorization.failureCode}`);
        setClock(at + (d().swapSeconds + d().payoutSeconds) * 1000 + 2);
        advance(world);
        if (authorized.sell && world.groups.get(String(authorized.sell.id))?.status !== 'completed') {
          throw new Error(`seeded sell of ${step.symbol} did not complete`);
        }
        sells++;
      }
    }
  } finally {
    world.state.clockOffsetMs = savedOffset;
    for (const p of savedPools) {
      p.t.solReserve = p.sol;
      p.t.tokenReserve = p.tokens;
    }
  }
  return { buys, sells };
}
