// Accounts and API keys: who is calling, and may they do this.
import type { Account, Scope } from '../api/types.js';
import { generateKeypair } from './sandbox-keys.js';
import { iso } from './offset-clock.js';
import { HttpError } from './sandbox-error.js';
import { newApiKeyValue, newUuid } from './ids.js';
import type { AccountIdentity, ApiKeyRecord } from './state.js';
import type { KeyOwner, World } from './world.js';

const FULL: Scope[] = ['trade:intents', 'read:account', 'read:public'];
const READ_ONLY: Scope[] = ['read:account', 'read:public'];
/** Display prefix length: `sk_sandbox_` plus five random characters, enough to tell keys apart. */
export const KEY_PREFIX_LENGTH = 16;

function makeKey(name: string, scopes: Scope[], at: number): ApiKeyRecord {
  const value = newApiKeyValue();
  return { id: newUuid(), name, value, prefix: value.slice(0, KEY_PREFIX_LENGTH), scopes, createdAt: iso(at) };
}

/** The main account (full key + read-only key) and a second account with its own random wallet. */
export function createAccounts(mainWallet: string, now: number): AccountIdentity[] {
  const createdAt = iso(now);
  return [
    {
      id: newUuid(),
      walletAddress: mainWallet,
      createdAt,
      keys: [makeKey('sandbox trading key', FULL, now), makeKey('sandbox read-only key', READ_ONLY, now)],
    },
    {
      id: newUuid(),
      walletAddress: generateKeypair().publicKey.toBase58(),
      createdAt,
      keys: [makeKey('sandbox other account key', FULL, now)],
    },
  ];
}

/** Resolve the X-API-Key header to its account and key, or 401. */
export function authenticate(world: World, header: string | string[] | undefined): KeyOwner {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) throw new HttpError(401, 'MISSING_API_KEY', 'the X-API-Key header is required');
  const owner = world.keys.get(value.trim());
  if (!owner) throw new HttpError(401, 'INVALID_API_KEY', 'the API key is not valid');
  return owner;
}

/** 403 unless the key carries `scope`. */
export function requireScope(owner: KeyOwner, scope: Scope): void {
  if (!owner.key.scopes.includes(scope)) {
    throw new HttpError(403, 'INSUFFICIENT_SCOPE', `this endpoint needs a key with the scope ${scope}`, {
      requiredScope: scope,
    });
  }
}

/** GET /me. */
export function meView(owner: KeyOwner): Account {
  const k = owner.key;
  return {
    accountId: owner.account.id,
    walletAddress: owner.account.walletAddress,
    createdAt: owner.account.createdAt,
    apiKey: { id: k.id, name: k.name, prefix: k.prefix, scopes: [...k.scopes], createdAt: k.createdAt },
  };
}

/** A non-secret way to name a key in logs: its prefix when known, else a short head. */
export function keyLabel(world: World, header: string | string[] | undefined): string | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return null;
  return (
    world.keys.get(value.trim())?.key.prefix ?? `${value.slice(0, Math.min(6, Math.floor(value.length / 3)))}…(unknown)`
  );
}
