// The locked read-modify-write under the config and the trust store: one writer at a time (a
// second process is kept out while the lock is held), every change sees what is on disk now,
// a lock left by a crashed process is taken over, and files are private.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { readConfig, updateProfile } from '../../src/config/config-file.js';
import { updateLockedFile } from '../../src/config/locked-file.js';
import { TrustStore } from '../../src/config/trust-store.js';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'trader-lock-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const clock = { now: () => Date.now() };
const LOCKED_FILE = fileURLToPath(new URL('../../dist/config/locked-file.js', import.meta.url));

/** Another process's attempt to update `path`, waiting at most `waitMs` for the lock. */
function otherProcessUpdate(path: string, waitMs: number): string {
  const script = `
    const { updateLockedFile } = await import(${JSON.stringify(LOCKED_FILE)});
    try { updateLockedFile(${JSON.stringify(path)}, (t) => (t ?? '') + 'other\\n', { now: Date.now, waitMs: ${waitMs} }); console.log('wrote'); }
    catch (e) { console.log('refused: ' + e.message); }`;
  return execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }).trim();
}

describe('updateLockedFile', () => {
  it('keeps another process out while the lock is held, and lets it in afterwards', () => {
    const path = join(tempDir(), 'file.txt');
    let inside = '';
    updateLockedFile(
      path,
      (current) => {
        inside = otherProcessUpdate(path, 50);
        return `${current ?? ''}mine\n`;
      },
      clock,
    );
    expect(inside).toMatch(/^refused: .*file\.txt\.lock is held by another trader process/);
    expect(readFileSync(path, 'utf8')).toBe('mine\n');
    expect(otherProcessUpdate(path, 50)).toBe('wrote');
    expect(readFileSync(path, 'utf8')).toBe('mine\nother\n');
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  it('takes over a lock left by a crashed process once it is stale, not before', () => {
    const path = join(tempDir(), 'file.txt');
    writeFileSync(`${path}.lock`, '');
    const now = Date.now();
    expect(() => updateLockedFile(path, () => 'x', { now: () => now, waitMs: 0, staleMs: 30_000 })).toThrow(/held by another trader process/);
    const old = new Date(now - 31_000);
    utimesSync(`${path}.lock`, old, old);
    updateLockedFile(path, () => 'x', { now: () => now, waitMs: 0, staleMs: 30_000 });
    expect(readFileSync(path, 'utf8')).toBe('x');
  });

  it('writes mode 0600, replaces atomically (no temp file left) and leaves the file alone when the change returns null', () => {
    const path = join(tempDir(), 'file.txt');
    updateLockedFile(path, () => 'one', clock);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    updateLockedFile(path, () => null, clock);
    expect(readFileSync(path, 'utf8')).toBe('one');
    expect(existsSync(`${path}.tmp`)).toBe(false);
  });
});

describe('updateProfile', () => {
  it('changes the config as it is on disk now: a setting written by another process since start-up is kept', () => {
    const path = join(tempDir(), 'config.json');
    writeFileSync(path, JSON.stringify({ profiles: { default: { timeout: 60 } } }), { mode: 0o600 });
    const atStartUp = readConfig(path);
    // Another process sets a key after this run read the file.
    writeFileSync(path, JSON.stringify({ profiles: { default: { timeout: 60, maxSlippageBps: 300 }, other: { baseUrl: 'https://x.example' } } }));
    updateProfile(path, 'default', (p) => ({ ...p, maxBuyLamports: '5' }), clock);
    const after = JSON.parse(readFileSync(path, 'utf8'));
    expect(atStartUp.document.profiles.default).toEqual({ timeout: 60 });
    expect(after.profiles).toEqual({ default: { timeout: 60, maxSlippageBps: 300, maxBuyLamports: '5' }, other: { baseUrl: 'https://x.example' } });
  });
});

describe('TrustStore', () => {
  const A = 'https://a.example/api/v1';
  const B = 'http://127.0.0.1:8787/api/v1';
  it('pins a treasury once per service; a second pin returns the first (two first-use buys cannot pin two)', () => {
    const path = join(tempDir(), 'trust.json');
    const first = new TrustStore(path, A, clock);
    const second = new TrustStore(path, A, clock);
    expect(first.pinTreasury('T1')).toBe('T1');
    expect(second.pinTreasury('T2')).toBe('T1');
    expect(new TrustStore(path, B, clock).read()).toEqual({});
    expect(new TrustStore(path, B, clock).pinTreasury('T3')).toBe('T3');
    expect(first.read().treasury?.address).toBe('T1');
  });

  it('pins a wording only over the one it replaces; keeps a pending one until it is accepted by its fingerprint', () => {
    const store = new TrustStore(join(tempDir(), 'trust.json'), A, clock);
    expect(store.pinWording('one', 'f1', null).fingerprint).toBe('f1');
    // Someone else pinned first: a first-use pin does not overwrite it.
    expect(store.pinWording('two', 'f2', null).fingerprint).toBe('f1');
    expect(store.pinWording('two', 'f2', 'f0').fingerprint).toBe('f1');
    store.recordPendingWording('two', 'f2');
    expect(store.acceptPendingWording('f3')).toBeNull();
    expect(store.read().sellWording?.fingerprint).toBe('f1');
    expect(store.acceptPendingWording('f2')?.text).toBe('two');
    expect(store.read()).toMatchObject({ sellWording: { text: 'two', fingerprint: 'f2' } });
    expect(store.read().pendingSellWording).toBeUndefined();
    expect(store.forget('wording')).toBe(true);
    expect(store.read().sellWording).toBeUndefined();
  });

  it('refuses a malformed store instead of trusting anew', () => {
    const path = join(tempDir(), 'trust.json');
    writeFileSync(path, '{"services": [');
    expect(() => new TrustStore(path, A, clock).read()).toThrow(/not valid JSON/);
    expect(() => new TrustStore(path, A, clock).pinTreasury('T')).toThrow(/not valid JSON/);
  });

  it('warns when other users could change it (group- or world-writable)', () => {
    const path = join(tempDir(), 'trust.json');
    const store = new TrustStore(path, A, clock);
    store.pinTreasury('T');
    expect(store.permissionWarning()).toBeNull();
    execFileSync('chmod', ['620', path]);
    expect(store.permissionWarning()).toMatch(/can be changed by other users \(mode 620\)/);
  });
});
