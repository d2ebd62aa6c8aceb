// The trust store: what a person came to trust about each service, like ssh's known_hosts.
// One file beside the config (trust.json), keyed by the service's API root, never by profile:
// switching profiles does not make a known service new, and a sandbox on 127.0.0.1 can never
// pin anything for a real service. It holds the deposit treasury, the sell template
// (wallet/sell-template/), each token's facts a person confirmed, and what a refused trade
// left for a person to accept (a template, token facts). Each pin says by which act it was
// made: at a prompt, by an accept command, or (the treasury) by a setting. Only a person pins.
import { dirname, join } from 'node:path';
import type { FactsSource } from '../domain/facts-source.js';
import { tokenFactsFingerprint, type TokenPinSource } from '../domain/token-binding.js';
import { tokenTextKey } from '../domain/token-text.js';
import type { Template } from '../wallet/sell-template/template.js';
import { assertOwnPrivate, LockedFileError, readOrNull, updateLockedFile, type LockTiming } from './locked-file.js';

/** How a person granted trust: answering a prompt, running an accept command, or a setting (--treasury, TRADER_TREASURY, profile). */
export type TrustAct = 'prompt' | 'accept-command' | 'setting';

export interface PinnedTreasury {
  address: string;
  at: string;
  /** Absent: pinned on first use by an earlier version. */
  by?: TrustAct;
}

export interface PinnedTemplate {
  template: Template;
  fingerprint: string;
  /** ISO time it was pinned or, pending, refused. */
  at: string;
  by?: TrustAct;
}

/** A token's facts as a person confirmed them (or, with no `by` or `by: 'chain'`, as an earlier trade saw them). */
export interface PinnedToken {
  symbol: string | null;
  name: string | null;
  decimals: number | null;
  at: string;
  /** Who vouched for them: a person (prompt, accept command), or the chain at a trade a person signed ('chain': so another mint cannot pass for this one). Either binds them: compared with the chain at every trade (domain/token-binding.ts). */
  by?: TokenPinSource;
}

export type TokenFacts = Omit<PinnedToken, 'at' | 'by'>;

/** Token facts a refused trade kept for a person, when, and who named them (absent: kept by an earlier version, read as 'service'). */
export type PendingToken = TokenFacts & { at: string; source?: FactsSource };

/**
 * A typed symbol bound to a mint: by a person (at a prompt that said the symbol was only the
 * service's word, or with accept-token), or by a trade of a mint the person typed and confirmed
 * at the prompt ('trade': the chain's symbol of that mint). The service's lists alone never bind
 * one, nor does an unattended run (--yes, --json, MCP).
 */
export interface SymbolBinding {
  mint: string;
  /** The symbol in the case it was bound (the key is the symbol as compared); absent in stores of earlier versions. */
  symbol?: string;
  at: string;
  by: 'prompt' | 'accept-command' | 'trade';
}

/** A mint's risks as a person accepted them: a change of the mint's facts changes the fingerprint, and asks again. */
export interface AcceptedRisks {
  fingerprint: string;
  at: string;
  by: TrustAct;
}

export interface ServiceTrust {
  treasury?: PinnedTreasury;
  sellTemplate?: PinnedTemplate;
  /** The template a refused sell kept, for `config trust accept-wording <fingerprint>`. */
  pendingSellTemplate?: PinnedTemplate;
  /** By mint. */
  tokens?: Record<string, PinnedToken>;
  /** By the symbol as compared (domain/token-text.ts tokenTextKey). */
  symbols?: Record<string, SymbolBinding>;
  /** Token facts a refused trade kept, by mint, for `config trust accept-token <mint> <fingerprint>`. */
  pendingTokens?: Record<string, PendingToken>;
  /** Mints whose risks a person accepted (domain/token-risks.ts), by mint: the fingerprint of the facts read. */
  acceptedRisks?: Record<string, AcceptedRisks>;
  /** An earlier version's masked wording: not a template, never matched; shown until a template replaces it. */
  sellWording?: { text: string; fingerprint: string; at: string };
  pendingSellWording?: { text: string; fingerprint: string; at: string };
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
   * Pins the treasury, a person's act. Unless `replace`, only where none is pinned yet (another
   * process may have pinned one meanwhile); returns the address pinned after the call.
   */
  pinTreasury(address: string, by: TrustAct, replace = false): string {
    return this.update((entry) => {
      if (entry.treasury && !replace) return { entry, value: entry.treasury.address };
      return { entry: { ...entry, treasury: { address, at: this.now(), by } }, value: address };
    });
  }

  /**
   * Pins a sell template, a person's act, where the pinned one is still `replacing` (null: none,
   * or only an earlier version's wording). Returns the fingerprint pinned after the call.
   */
  pinTemplate(template: Template, fingerprint: string, by: TrustAct, replacing: string | null): string | null {
    return this.update((entry) => {
      const current = entry.sellTemplate?.fingerprint ?? null;
      if (current !== replacing) return { entry, value: current };
      const { pendingSellTemplate, sellWording: _, pendingSellWording: __, ...rest } = entry;
      const keep =
        pendingSellTemplate && pendingSellTemplate.fingerprint !== fingerprint ? { pendingSellTemplate } : {};
      return {
        entry: { ...rest, ...keep, sellTemplate: { template, fingerprint, at: this.now(), by } },
        value: fingerprint,
      };
    });
  }

  /** Keeps the template of a refused sell for a person to read and accept. */
  recordPendingTemplate(template: Template, fingerprint: string): void {
    this.update((entry) => ({
      entry: { ...entry, pendingSellTemplate: { template, fingerprint, at: this.now() } },
      value: null,
    }));
  }

  /**
   * Records the facts the chain bound to a mint at a trade, so that another mint the chain gives
   * the same symbol or name is refused later (token-binding.ts). A person's pin is kept; the
   * chain's word replaces one stored from the service alone or an older chain record. Returns
   * what it changed: the facts recorded, the symbol bound (for the grant's announcement).
   */
  recordChainToken(mint: string, facts: TokenFacts, typedMint = false): { facts: boolean; symbol: boolean } {
    return this.update<{ facts: boolean; symbol: boolean }>((entry) => {
      // A trade of a mint the person typed binds the chain's symbol of it, unless the symbol is bound to another mint.
      const withSymbol = typedMint ? bind(entry, facts.symbol, { mint, at: this.now(), by: 'trade' }, false) : entry;
      const symbol = withSymbol !== entry;
      const current = entry.tokens?.[mint];
      if (current && current.by !== undefined && current.by !== 'chain')
        return { entry: withSymbol, value: { facts: false, symbol } };
      if (
        current?.by === 'chain' &&
        current.symbol === facts.symbol &&
        current.name === facts.name &&
        current.decimals === facts.decimals
      )
        return { entry: withSymbol, value: { facts: false, symbol } };
      const recorded: PinnedToken = {
        symbol: facts.symbol,
        name: facts.name,
        decimals: facts.decimals,
        at: this.now(),
        by: 'chain',
      };
      return {
        entry: { ...withSymbol, tokens: { ...entry.tokens, [mint]: recorded } },
        value: { facts: true, symbol },
      };
    });
  }

  /** Binds a typed symbol to a mint, a person's act (it replaces a binding to another mint); returns whether it bound anew. */
  bindSymbol(symbol: string, mint: string, by: 'prompt' | 'accept-command'): boolean {
    return this.update((entry) => {
      const bound = bind(entry, symbol, { mint, at: this.now(), by }, true);
      return { entry: bound, value: bound !== entry };
    });
  }

  /** Pins the pending template if it is the one named (accept command); returns it, or null when there is none such. */
  acceptPendingTemplate(fingerprint: string): PinnedTemplate | null {
    return this.update((entry) => {
      const pending = entry.pendingSellTemplate;
      if (!pending || pending.fingerprint !== fingerprint) return { entry, value: null };
      const { pendingSellTemplate: _, sellWording: __, pendingSellWording: ___, ...rest } = entry;
      const pinned: PinnedTemplate = { template: pending.template, fingerprint, at: this.now(), by: 'accept-command' };
      return { entry: { ...rest, sellTemplate: pinned }, value: pinned };
    });
  }

  /** Pins a token's facts as a person confirmed them, replacing what was pinned for the mint and what was pending; its symbol is bound to it. */
  pinToken(mint: string, facts: TokenFacts, by: TrustAct): PinnedToken {
    return this.update((entry) => withPinnedToken(entry, mint, facts, by, this.now()));
  }

  /** Keeps the facts a refused trade could not bind, and who named them, for `config trust accept-token <mint> <fingerprint>`. */
  recordPendingToken(mint: string, facts: TokenFacts, source: FactsSource): void {
    const kept: PendingToken = {
      symbol: facts.symbol,
      name: facts.name,
      decimals: facts.decimals,
      at: this.now(),
      source,
    };
    this.update((entry) => ({
      entry: { ...entry, pendingTokens: { ...entry.pendingTokens, [mint]: kept } },
      value: null,
    }));
  }

  /**
   * Pins the pending facts of `mint` if they are the ones a person read (their fingerprint,
   * domain/token-binding.ts), read and pinned under one lock: a refusal meanwhile may have kept
   * other facts. Returns what was pinned, what is pending instead, or null when nothing is.
   */
  acceptPendingToken(mint: string, fingerprint: string): { pinned: PinnedToken } | { pending: PendingToken } | null {
    return this.update<{ pinned: PinnedToken } | { pending: PendingToken } | null>((entry) => {
      const pending = entry.pendingTokens?.[mint];
      if (!pending) return { entry, value: null };
      if (tokenFactsFingerprint(mint, pending) !== fingerprint) return { entry, value: { pending } };
      const facts = { symbol: pending.symbol, name: pending.name, decimals: pending.decimals };
      const { entry: pinned, value } = withPinnedToken(entry, mint, facts, 'accept-command', this.now());
      return { entry: pinned, value: { pinned: value } };
    });
  }

  /** Records that a person accepted a mint's risks as read (fingerprint), replacing what was accepted for it before. */
  acceptRisks(mint: string, fingerprint: string, by: TrustAct): AcceptedRisks {
    return this.update((entry) => {
      const accepted: AcceptedRisks = { fingerprint, at: this.now(), by };
      return { entry: { ...entry, acceptedRisks: { ...entry.acceptedRisks, [mint]: accepted } }, value: accepted };
    });
  }

  /** Forgets a pin, so the next trade needs a person again. Returns whether there was one. */
  forget(what: 'treasury' | 'wording' | 'tokens'): boolean {
    return this.update((entry) => {
      const {
        treasury,
        sellTemplate,
        pendingSellTemplate,
        sellWording,
        pendingSellWording,
        tokens,
        pendingTokens,
        ...rest
      } = entry;
      if (what === 'treasury') return { entry: { ...entry, treasury: undefined }, value: treasury !== undefined };
      if (what === 'tokens')
        return {
          entry: {
            ...entry,
            tokens: undefined,
            pendingTokens: undefined,
            symbols: undefined,
            acceptedRisks: undefined,
          },
          value: Object.keys({ ...tokens, ...pendingTokens, ...entry.symbols, ...entry.acceptedRisks }).length > 0,
        };
      return {
        entry: { ...rest, treasury, tokens, pendingTokens },
        value: [sellTemplate, pendingSellTemplate, sellWording, pendingSellWording].some((p) => p !== undefined),
      };
    });
  }

  /** Forgets one mint: its facts (pinned, recorded or kept), the symbols bound to it and its accepted risks. Returns whether there was any. */
  forgetToken(mint: string): boolean {
    return this.update((entry) => {
      const bound = Object.values(entry.symbols ?? {}).some((b) => b.mint === mint);
      const held = [entry.tokens, entry.pendingTokens, entry.acceptedRisks].some((r) => r?.[mint] !== undefined);
      if (!bound && !held) return { entry, value: false };
      const { [mint]: _token, ...tokens } = entry.tokens ?? {};
      const { [mint]: _pending, ...pendingTokens } = entry.pendingTokens ?? {};
      const { [mint]: _risks, ...acceptedRisks } = entry.acceptedRisks ?? {};
      const symbols = Object.fromEntries(Object.entries(entry.symbols ?? {}).filter(([, b]) => b.mint !== mint));
      const none = <T extends object>(record: T) => (Object.keys(record).length ? record : undefined);
      return {
        entry: {
          ...entry,
          tokens: none(tokens),
          pendingTokens: none(pendingTokens),
          acceptedRisks: none(acceptedRisks),
          symbols: none(symbols),
        },
        value: true,
      };
    });
  }

  private update<T>(change: (entry: ServiceTrust) => { entry: ServiceTrust; value: T }): T {
    let value: T;
    try {
      updateLockedFile(
        this.path,
        (current) => {
          const document = parse(this.path, current);
          const before = document.services[this.service] ?? {};
          const result = change(before);
          value = result.value;
          // Nothing changed, nothing written (a mint `forget token` did not find leaves no trace).
          if (result.entry === before) return null;
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
      return readOrNull(this.path, 'trust store');
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
    throw new TrustStoreError(
      `trust store ${path} is not valid JSON; fix it, or delete it to trust every service anew`,
    );
  }
  const services = (parsed as { services?: unknown } | null)?.services;
  if (
    typeof parsed !== 'object' ||
    parsed === null ||
    Array.isArray(parsed) ||
    typeof services !== 'object' ||
    services === null ||
    Array.isArray(services)
  ) {
    throw new TrustStoreError(`trust store ${path} must be {"services": {…}}`);
  }
  return parsed as TrustDocument;
}

/** The entry with a mint's facts pinned as a person confirmed them (what was pending for it dropped) and its symbol bound to it. */
function withPinnedToken(
  entry: ServiceTrust,
  mint: string,
  facts: TokenFacts,
  by: TrustAct,
  at: string,
): { entry: ServiceTrust; value: PinnedToken } {
  const pinned: PinnedToken = { symbol: facts.symbol, name: facts.name, decimals: facts.decimals, at, by };
  const { [mint]: _, ...pending } = entry.pendingTokens ?? {};
  const bound = by === 'setting' ? entry : bind(entry, facts.symbol, { mint, at, by }, true);
  return {
    entry: {
      ...bound,
      tokens: { ...entry.tokens, [mint]: pinned },
      pendingTokens: Object.keys(pending).length ? pending : undefined,
    },
    value: pinned,
  };
}

/** The entry with `symbol` bound to `binding.mint`; a binding to another mint is replaced only when `replace` (a person's act). */
function bind(entry: ServiceTrust, symbol: string | null, binding: SymbolBinding, replace: boolean): ServiceTrust {
  const key = symbol === null ? '' : tokenTextKey(symbol);
  const current = entry.symbols?.[key];
  if (
    symbol === null ||
    key === '' ||
    (current && (current.mint === binding.mint ? current.by !== 'trade' || binding.by === 'trade' : !replace))
  )
    return entry;
  return { ...entry, symbols: { ...entry.symbols, [key]: { ...binding, symbol } } };
}
