// The trust store: what the user has come to trust about each service, like ssh's known_hosts.
// One file beside the config (trust.json), keyed by the service's API root, never by profile:
// switching profiles does not make a known service new, and a sandbox on 127.0.0.1 can never
// pin anything for a real service. It holds the deposit treasury pinned on first use, the
// sell-message wording pinned on the first sell, each id, hash and nonce slot's shape written
// into it (wallet/sell-message/slot-shapes.ts), plus a changed wording waiting to be accepted;
// and each token's symbol, name and decimals as first traded (a service that later gives a token
// other decimals would make the message's whole-token figure mean another amount), marked
// confirmed once a person accepted them (only then may a name or symbol of any shape be signed).
import { dirname, join } from 'node:path';
import type { TokenPinSource } from '../domain/token-binding.js';
import { assertOwnPrivate, LockedFileError, readOrNull, updateLockedFile, type LockTiming } from './locked-file.js';

export interface PinnedWording {
  text: string;
  fingerprint: string;
  /** ISO time it was pinned or seen. */
  at: string;
  /** On a pending wording: the token facts a refused sell could not vouch for, confirmed when the wording is accepted. */
  token?: { mint: string } & Omit<PinnedToken, 'at' | 'confirmed'>;
}

/** A token's facts as the service gave them when the token was first traded here. */
export interface PinnedToken {
  symbol: string | null;
  name: string | null;
  decimals: number | null;
  at: string;
  /** A person accepted them: at a sell's prompt, or with `config trust accept-wording` after reading. */
  confirmed?: boolean;
  /** Who vouched for them: a person, or the chain at a trade ('chain': kept only so another mint cannot pass for this one). */
  by?: TokenPinSource;
}

export interface ServiceTrust {
  treasury?: { address: string; at: string };
  /** By mint. */
  tokens?: Record<string, PinnedToken>;
  sellWording?: PinnedWording;
  /** A wording that differed from the pinned one, kept so `config trust accept-wording` can pin exactly what the user read. */
  pendingSellWording?: PinnedWording;
}

interface TrustDocument {
  services: Record<string, ServiceTrust>;
  [extra: string]: unknown;
}

/** Thrown when the trust store cannot be read or written; trading must not go on without it. */
export class TrustStoreError extends Error {}

/** The trust store's path: beside the config file. */
export function trustStorePath(configFilePath: string): string {
  return join(dirname(configFilePath), 'trust.json');
}

/** The trust store, seen from one service. */
export class TrustStore {
  constructor(
    readonly path: string,
    /** The service's API root (its normalised base URL). */
    readonly service: string,
    private readonly timing: LockTiming,
  ) {}

  /** What is trusted for this service now, read from disk. */
  read(): ServiceTrust {
    return parse(this.path, this.readText()).services[this.service] ?? {};
  }

  /**
   * Pins the treasury unless one is pinned already (by another process meanwhile, say); returns
   * the address pinned after the call, which the caller compares with the one it meant to pin.
   */
  pinTreasury(address: string): string {
    return this.update((entry) => {
      if (entry.treasury) return { entry, value: entry.treasury.address };
      return { entry: { ...entry, treasury: { address, at: this.now() } }, value: address };
    });
  }

  /**
   * Pins a sell wording. With `replacing` null it pins only where none is pinned yet; otherwise
   * only where the pinned one is still `replacing`. Returns the wording pinned after the call.
   */
  pinWording(text: string, fingerprint: string, replacing: string | null): PinnedWording | null {
    return this.update((entry) => {
      const current = entry.sellWording ?? null;
      // Someone changed the pin meanwhile (pinned another, or forgot it): the caller refuses.
      if ((current?.fingerprint ?? null) !== replacing) return { entry, value: current };
      const pinned = { text, fingerprint, at: this.now() };
      const { pendingSellWording, ...rest } = entry;
      const keep = pendingSellWording && pendingSellWording.fingerprint !== fingerprint ? { pendingSellWording } : {};
      return { entry: { ...rest, ...keep, sellWording: pinned }, value: pinned };
    });
  }

  /**
   * Pins a token's facts unless some are pinned for its mint already (which a confirmation of
   * the same facts marks confirmed); returns the facts pinned after the call.
   */
  pinToken(mint: string, facts: Omit<PinnedToken, 'at' | 'confirmed'>, confirmed = false): PinnedToken {
    return this.update((entry) => {
      const current = entry.tokens?.[mint];
      const same = current && current.symbol === facts.symbol && current.name === facts.name && current.decimals === facts.decimals;
      if (current && !(same && confirmed && !current.confirmed)) return { entry, value: current };
      const pinned = { symbol: facts.symbol, name: facts.name, decimals: facts.decimals, at: this.now(), ...(confirmed ? { confirmed } : {}) };
      return { entry: { ...entry, tokens: { ...entry.tokens, [mint]: pinned } }, value: pinned };
    });
  }

  /**
   * Records the facts the chain bound to a mint at a trade, so that another mint the chain gives
   * the same symbol or name is refused later (token-binding.ts). A person's pin is kept; the
   * chain's word replaces one stored from the service alone or an older chain record.
   */
  recordChainToken(mint: string, facts: Omit<PinnedToken, 'at' | 'confirmed' | 'by'>): void {
    this.update((entry) => {
      const current = entry.tokens?.[mint];
      if (current && current.by !== undefined && current.by !== 'chain') return { entry, value: null };
      if (current?.by === 'chain' && current.symbol === facts.symbol && current.name === facts.name && current.decimals === facts.decimals) return { entry, value: null };
      const recorded: PinnedToken = { symbol: facts.symbol, name: facts.name, decimals: facts.decimals, at: this.now(), by: 'chain' };
      return { entry: { ...entry, tokens: { ...entry.tokens, [mint]: recorded } }, value: null };
    });
  }

  /** Keeps a changed wording (and token facts no one vouched for) for the user to read and accept later. */
  recordPendingWording(text: string, fingerprint: string, token?: PinnedWording['token']): void {
    this.update((entry) => ({ entry: { ...entry, pendingSellWording: { text, fingerprint, at: this.now(), ...(token ? { token } : {}) } }, value: null }));
  }

  /** Pins the pending wording if it is the one named; returns it, or null when there is no such wording. */
  acceptPendingWording(fingerprint: string): PinnedWording | null {
    return this.update((entry) => {
      const pending = entry.pendingSellWording;
      if (!pending || pending.fingerprint !== fingerprint) return { entry, value: null };
      const { pendingSellWording: _, ...rest } = entry;
      const { token, ...wording } = pending;
      const accepted: ServiceTrust = { ...rest, sellWording: { ...wording, at: this.now() } };
      if (token) {
        const { mint, ...facts } = token;
        const current = entry.tokens?.[mint];
        // Facts that changed since the refusal are not confirmed by reading the old ones.
        if (!current || (current.symbol === facts.symbol && current.name === facts.name && current.decimals === facts.decimals)) {
          accepted.tokens = { ...entry.tokens, [mint]: { ...facts, at: this.now(), confirmed: true } };
        }
      }
      return { entry: accepted, value: pending };
    });
  }

  /** Forgets a pin, so the next trade is a first use again. Returns whether there was one. */
  forget(what: 'treasury' | 'wording' | 'tokens'): boolean {
    return this.update((entry) => {
      const { treasury, sellWording, pendingSellWording, tokens, ...rest } = entry;
      if (what === 'treasury') return { entry: { ...rest, sellWording, pendingSellWording, tokens }, value: treasury !== undefined };
      if (what === 'tokens') return { entry: { ...rest, treasury, sellWording, pendingSellWording }, value: tokens !== undefined && Object.keys(tokens).length > 0 };
      return { entry: { ...rest, treasury, tokens }, value: sellWording !== undefined || pendingSellWording !== undefined };
    });
  }

  private update<T>(change: (entry: ServiceTrust) => { entry: ServiceTrust; value: T }): T {
    let value: T;
    try {
      updateLockedFile(
        this.path,
        (current) => {
          const document = parse(this.path, current);
          const result = change(document.services[this.service] ?? {});
          value = result.value;
          const services = { ...document.services, [this.service]: dropEmpty(result.entry) };
          return JSON.stringify({ ...document, services }, null, 2) + '\n';
        },
        this.timing,
        'trust store',
      );
    } catch (err) {
      if (err instanceof LockedFileError) throw new TrustStoreError(err.message);
      throw err;
    }
    return value!;
  }

  /** Why the store may not be trusted (its folder or file not the user's own, or writable by others), or null. */
  ownershipProblem(): string | null {
    try {
      assertOwnPrivate('config folder', dirname(this.path));
      assertOwnPrivate('trust store', this.path);
      return null;
    } catch (err) {
      if (err instanceof LockedFileError) return err.message;
      throw err;
    }
  }

  private readText(): string | null {
    // What others can change is not trusted: the pins would be theirs.
    const problem = this.ownershipProblem();
    if (problem) throw new TrustStoreError(problem);
    try {
      return readOrNull(this.path);
    } catch (err) {
      throw new TrustStoreError((err as Error).message);
    }
  }

  private now(): string {
    return new Date(this.timing.now()).toISOString();
  }
}

function dropEmpty(entry: ServiceTrust): ServiceTrust {
  return Object.fromEntries(Object.entries(entry).filter(([, v]) => v !== undefined)) as ServiceTrust;
}

function parse(path: string, text: string | null): TrustDocument {
  if (text === null) return { services: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new TrustStoreError(`trust store ${path} is not valid JSON; fix it, or delete it to trust every service anew`);
  }
  const services = (parsed as { services?: unknown } | null)?.services;
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed) || typeof services !== 'object' || services === null || Array.isArray(services)) {
    throw new TrustStoreError(`trust store ${path} must be {"services": {…}}`);
  }
  return parsed as TrustDocument;
}
