// The start state: default tokens and pools, default delays, empty per-account ledgers.
import { createHash } from 'node:crypto';
import { keypairFromSeed } from './sandbox-keys.js';
import { DEFAULT_SOL_USD, defaultTokens } from './market.js';
import { seedLeaderboard } from './points-ledger.js';
import { DEFAULT_DELAYS, type Identity, type State } from './state.js';
import { DEFAULT_START_BALANCE_LAMPORTS } from './wallet.js';

/** Fixed treasury address, so a pinned treasury stays right across sandbox restarts. */
export const TREASURY = keypairFromSeed(
  createHash('sha256').update('trader-sandbox-treasury').digest(),
).publicKey.toBase58();

/** A fresh state for an identity (used at first start and by reset). */
export function createInitialState(identity: Identity, now: number): State {
  const accounts: State['accounts'] = {};
  for (const a of identity.accounts) {
    accounts[a.id] = {
      accountId: a.id,
      positions: [],
      activity: [],
      totalPoints: 0,
      volumeCents: 0,
      walletLamports: identity.startBalanceLamports ?? DEFAULT_START_BALANCE_LAMPORTS,
      completedSwaps: 0,
      buyKeys: {},
      sellKeys: {},
    };
  }
  return {
    version: 1,
    identity,
    clockOffsetMs: 0,
    delays: { ...DEFAULT_DELAYS },
    failNextSwaps: 0,
    solUsd: DEFAULT_SOL_USD,
    tokens: defaultTokens(),
    chain: { genesisMs: now, genesisHeight: 280_000_000, blockhashes: {} },
    accounts,
    buys: [],
    authorizations: [],
    sellGroups: [],
    leaderboard: seedLeaderboard(),
  };
}
