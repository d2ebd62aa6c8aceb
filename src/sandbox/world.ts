// The live sandbox: the persisted state plus the indexes rebuilt from it, so no request has to scan.
import type { Position } from '../api/types.js';
import { sandboxNow } from './offset-clock.js';
import { HttpError } from './sandbox-error.js';
import type {
  AccountData,
  AccountIdentity,
  ApiKeyRecord,
  AuthorizationRecord,
  BuyRecord,
  SellGroupRecord,
  State,
  TokenRecord,
} from './state.js';

export interface KeyOwner {
  account: AccountIdentity;
  key: ApiKeyRecord;
}

export class World {
  state!: State;
  readonly keys = new Map<string, KeyOwner>();
  readonly tokens = new Map<string, TokenRecord>();
  readonly buys = new Map<string, BuyRecord>();
  readonly authorizations = new Map<string, AuthorizationRecord>();
  readonly groups = new Map<string, SellGroupRecord>();
  readonly positions = new Map<string, { accountId: string; position: Position }>();
  /** accountId → ids of positions that hold tokens (open or closing), for holdings. */
  readonly holding = new Map<string, Set<string>>();
  /** Records that may still change with time. */
  readonly activeBuys = new Set<BuyRecord>();
  readonly activeAuthorizations = new Set<AuthorizationRecord>();
  readonly activeGroups = new Set<SellGroupRecord>();
  /** Deposit signatures already accepted, so one signed transaction never funds two intents. */
  readonly depositSignatures = new Set<string>();
  /** Deposits carry an SPL Memo naming their intent (a start option, kept across resets). */
  depositMemo = false;
  /** Called after anything changes (persistence hooks in here). */
  onChange: () => void = () => {};

  constructor(state: State) {
    this.load(state);
  }

  /** Replace the state and rebuild every index from it. */
  load(state: State): void {
    this.state = state;
    for (const m of [
      this.keys,
      this.tokens,
      this.buys,
      this.authorizations,
      this.groups,
      this.positions,
      this.holding,
    ]) {
      m.clear();
    }
    this.activeBuys.clear();
    this.activeAuthorizations.clear();
    this.activeGroups.clear();
    this.depositSignatures.clear();
    for (const account of state.identity.accounts) {
      for (const key of account.keys) this.keys.set(key.value, { account, key });
    }
    for (const t of state.tokens) this.tokens.set(t.mint, t);
    for (const [accountId, data] of Object.entries(state.accounts)) {
      const set = new Set<string>();
      for (const p of data.positions) {
        this.positions.set(p.id, { accountId, position: p });
        if (p.status === 'open' || p.status === 'closing') set.add(p.id);
      }
      this.holding.set(accountId, set);
    }
    for (const b of state.buys) {
      this.buys.set(b.id, b);
      if (b.depositSignature) this.depositSignatures.add(b.depositSignature);
      if (!['completed', 'expired', 'cancelled', 'refunded'].includes(b.status)) this.activeBuys.add(b);
    }
    for (const a of state.authorizations) {
      this.authorizations.set(a.id, a);
      if (a.status === 'awaiting_signature') this.activeAuthorizations.add(a);
    }
    for (const g of state.sellGroups) {
      this.groups.set(g.id, g);
      if (g.status === 'swap_pending' || g.status === 'payout_pending') this.activeGroups.add(g);
    }
  }

  /** Sandbox time now. */
  now(): number {
    return sandboxNow(this.state.clockOffsetMs);
  }

  /** The per-account data of an account id. */
  account(accountId: string): AccountData {
    const data = this.state.accounts[accountId];
    if (!data) throw new Error(`no data for account ${accountId}`);
    return data;
  }

  /** The identity (wallet, keys) of an account id. */
  identity(accountId: string): AccountIdentity {
    const found = this.state.identity.accounts.find((a) => a.id === accountId);
    if (!found) throw new Error(`no identity for account ${accountId}`);
    return found;
  }

  /** The token of a mint, or a 422 UNKNOWN_TOKEN. */
  token(mint: string): TokenRecord {
    const t = this.tokens.get(mint);
    if (!t) throw new HttpError(422, 'UNKNOWN_TOKEN', `the service does not trade mint ${mint}`);
    return t;
  }

  /** Add a token to the market. */
  addToken(token: TokenRecord): void {
    this.state.tokens.push(token);
    this.tokens.set(token.mint, token);
  }
}
