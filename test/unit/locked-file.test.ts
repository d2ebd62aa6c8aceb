// The locked read-modify-write under the config and the trust store: one writer at a time (a
// second process is kept out while the lock is held), every change sees what is on disk now,
// a lock left by a crashed process is taken over, and files are private.
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { readConfig, updateProfile } from '../../src/config/config-file.js';
import { ownershipProblem, updateLockedFile } from '../../src/config/locked-file.js';
import { TrustStore, TrustStoreError } from '../../src/config/trust-store.js';
import { tokenFactsFingerprint } from '../../src/domain/token-binding.js';

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
const A = 'https://a.example/api/v1';
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
    expect(() => updateLockedFile(path, () => 'x', { now: () => now, waitMs: 0, staleMs: 30_000 })).toThrow(
      /held by another trader process/,
    );
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
    writeFileSync(
      path,
      JSON.stringify({
        profiles: { default: { timeout: 60, maxSlippageBps: 300 }, other: { baseUrl: 'https://x.example' } },
      }),
    );
    updateProfile(path, 'default', (p) => ({ ...p, maxBuyLamports: '5' }), clock);
    const after = JSON.parse(readFileSync(path, 'utf8'));
    expect(atStartUp.document.profiles.default).toEqual({ timeout: 60 });
    expect(after.profiles).toEqual({
      default: { timeout: 60, maxSlippageBps: 300, maxBuyLamports: '5' },
      other: { baseUrl: 'https://x.example' },
    });
  });
});

describe('TrustStore', () => {
  const B = 'http://127.0.0.1:8787/api/v1';
  it('pins a treasury once per service; a second pin returns the first (two first-use buys cannot pin two)', () => {
    const path = join(tempDir(), 'trust.json');
    const first = new TrustStore(path, A, clock);
    const second = new TrustStore(path, A, clock);
    expect(first.pinTreasury('T1', 'prompt')).toBe('T1');
    expect(second.pinTreasury('T2', 'prompt')).toBe('T1');
    expect(new TrustStore(path, B, clock).read()).toEqual({});
    expect(new TrustStore(path, B, clock).pinTreasury('T3', 'prompt')).toBe('T3');
    expect(first.read().treasury).toMatchObject({ address: 'T1', by: 'prompt' });
    // The accept command replaces a pin: a person typed the address.
    expect(second.pinTreasury('T2', 'accept-command', true)).toBe('T2');
    expect(first.read().treasury).toMatchObject({ address: 'T2', by: 'accept-command' });
  });

  it('pins a template only over the one it replaces; keeps a pending one until it is accepted by its fingerprint; drops an earlier version’s wording', () => {
    const path = join(tempDir(), 'trust.json');
    writeFileSync(
      path,
      JSON.stringify({
        services: { [A]: { sellWording: { text: 'Sell {amount.raw}', fingerprint: 'old', at: 'then' } } },
      }),
      { mode: 0o600 },
    );
    const store = new TrustStore(path, A, clock);
    const one = { parts: ['one'] };
    const two = { parts: ['two'] };
    expect(store.pinTemplate(one, 'f1', 'prompt', null)).toBe('f1');
    expect(store.read()).toMatchObject({ sellTemplate: { fingerprint: 'f1', by: 'prompt' } });
    expect(store.read().sellWording).toBeUndefined();
    // Someone else pinned first: a pin over none does not overwrite it.
    expect(store.pinTemplate(two, 'f2', 'prompt', null)).toBe('f1');
    expect(store.pinTemplate(two, 'f2', 'prompt', 'f0')).toBe('f1');
    store.recordPendingTemplate(two, 'f2');
    expect(store.acceptPendingTemplate('f3')).toBeNull();
    expect(store.read().sellTemplate?.fingerprint).toBe('f1');
    expect(store.acceptPendingTemplate('f2')?.template).toEqual(two);
    expect(store.read()).toMatchObject({ sellTemplate: { template: two, fingerprint: 'f2', by: 'accept-command' } });
    expect(store.read().pendingSellTemplate).toBeUndefined();
    expect(store.forget('wording')).toBe(true);
    expect(store.read().sellTemplate).toBeUndefined();
  });

  it('token facts: pending until a person accepts them; a person’s pin is not replaced by the chain’s record', () => {
    const store = new TrustStore(join(tempDir(), 'trust.json'), A, clock);
    const facts = { symbol: 'DOG', name: 'Dog', decimals: 6 };
    store.recordPendingToken('M1', facts, 'service');
    expect(store.acceptPendingToken('M2', tokenFactsFingerprint('M2', facts))).toBeNull();
    expect(store.acceptPendingToken('M1', tokenFactsFingerprint('M1', facts))).toMatchObject({
      pinned: { ...facts, by: 'accept-command' },
    });
    expect(store.read().pendingTokens).toBeUndefined();
    store.recordChainToken('M1', { symbol: 'CAT', name: 'Cat', decimals: 6 });
    expect(store.read().tokens?.M1).toMatchObject({ symbol: 'DOG', by: 'accept-command' });
    expect(store.forget('tokens')).toBe(true);
    expect(store.read()).toEqual({});
  });

  it('refuses a malformed store instead of trusting anew', () => {
    const path = join(tempDir(), 'trust.json');
    writeFileSync(path, '{"services": [');
    expect(() => new TrustStore(path, A, clock).read()).toThrow(/not valid JSON/);
    expect(() => new TrustStore(path, A, clock).pinTreasury('T', 'prompt')).toThrow(/not valid JSON/);
  });

  it('refuses, for reads and writes, a store others can change (group- or world-writable), or in a folder others can change', () => {
    const dir = tempDir();
    const path = join(dir, 'trust.json');
    const store = new TrustStore(path, A, clock);
    store.pinTreasury('T', 'prompt');
    expect(store.ownershipProblem()).toBeNull();
    execFileSync('chmod', ['620', path]);
    expect(store.ownershipProblem()).toBe(
      `trust store ${path} can be changed by other users (mode 620); run: chmod go-w ${path}`,
    );
    expect(() => store.read()).toThrow(TrustStoreError);
    expect(() => store.pinTreasury('U', 'prompt')).toThrow(/can be changed by other users \(mode 620\)/);
    execFileSync('chmod', ['600', path]);
    execFileSync('chmod', ['770', dir]);
    expect(() => store.read()).toThrow(
      `config folder ${dir} can be changed by other users (mode 770); run: chmod go-w ${dir}`,
    );
    expect(() => updateProfile(join(dir, 'config.json'), 'default', (p) => ({ ...p, timeout: 5 }), clock)).toThrow(
      /config folder .* can be changed by other users \(mode 770\)/,
    );
    execFileSync('chmod', ['700', dir]);
    expect(store.read().treasury?.address).toBe('T');
  });

  it.runIf(typeof process.getuid === 'function' && process.getuid() === 0)(
    'refuses a trust store, or a config folder, owned by another user (run as root, which can chown)',
    () => {
      const dir = tempDir();
      const path = join(dir, 'trust.json');
      const store = new TrustStore(path, A, clock);
      store.pinTreasury('T', 'prompt');
      execFileSync('chown', ['4242', path]);
      expect(() => store.read()).toThrow(
        `trust store ${path} belongs to another user (uid 4242; you are uid 0); use one of your own`,
      );
      execFileSync('chown', ['0', path]);
      execFileSync('chown', ['4242', dir]);
      expect(() => store.pinTreasury('U', 'prompt')).toThrow(/config folder .* belongs to another user \(uid 4242/);
    },
  );
});

describe('ownershipProblem (the stat facts injected)', () => {
  it.each([
    [{ uid: 1000, mode: 0o40700 }, 1000, null],
    [{ uid: 0, mode: 0o40755 }, 1000, null], // root's, as for ssh
    [{ uid: 1000, mode: 0o100644 }, 1000, null], // readable by others: not a change
    [
      { uid: 1001, mode: 0o40700 },
      1000,
      'config folder /c belongs to another user (uid 1001; you are uid 1000); use one of your own',
    ],
    [
      { uid: 1000, mode: 0o40720 },
      1000,
      'config folder /c can be changed by other users (mode 720); run: chmod go-w /c',
    ],
    [
      { uid: 1000, mode: 0o40702 },
      1000,
      'config folder /c can be changed by other users (mode 702); run: chmod go-w /c',
    ],
    [
      { uid: 1000, mode: 0o41777 },
      1000,
      'config folder /c can be changed by other users (mode 777); run: chmod go-w /c',
    ],
    [{ uid: 1001, mode: 0o40777 }, null, null], // no uids on this system (Windows): nothing to check
  ])('%o for uid %s', (facts, uid, problem) => {
    expect(ownershipProblem('config folder', '/c', facts, uid)).toBe(problem);
  });
});

describe('temp files are created exclusively, never through a planted file or symlink', () => {
  it.each([
    [
      'the trust store',
      (dir: string) => new TrustStore(join(dir, 'trust.json'), A, clock).pinTreasury('T', 'prompt'),
      'trust.json',
    ],
    [
      'the config',
      (dir: string) => updateProfile(join(dir, 'config.json'), 'default', (p) => ({ ...p, timeout: 5 }), clock),
      'config.json',
    ],
  ])('%s: a planted *.tmp symlink neither overwrites its target nor changes its mode', (_name, write, file) => {
    const dir = tempDir();
    const victimDir = tempDir();
    const victim = join(victimDir, 'victim.txt');
    writeFileSync(victim, 'precious\n');
    execFileSync('chmod', ['644', victim]);
    symlinkSync(victim, join(dir, `${file}.tmp`));
    write(dir);
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
    expect(statSync(victim).mode & 0o777).toBe(0o644);
    expect(readFileSync(join(dir, file), 'utf8')).toMatch(/"(treasury|timeout)"/);
    expect(statSync(join(dir, file)).mode & 0o777).toBe(0o600);
    // The planted link is left as it was; no temp file of ours is left behind.
    expect(readdirSync(dir).sort()).toEqual([file, `${file}.tmp`].sort());
    expect(lstatSync(join(dir, `${file}.tmp`)).isSymbolicLink()).toBe(true);
  });

  it('a planted lock symlink is not written through either (refused at once: a lock this tool made is a regular file; the message names it)', () => {
    const dir = tempDir();
    const victim = join(tempDir(), 'victim.txt');
    writeFileSync(victim, 'precious\n');
    symlinkSync(victim, join(dir, 'trust.json.lock'));
    expect(() =>
      new TrustStore(join(dir, 'trust.json'), A, { now: clock.now, waitMs: 50, staleMs: 60_000 }).pinTreasury(
        'T',
        'prompt',
      ),
    ).toThrow(/lock file .*trust\.json\.lock is not a regular file/);
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
  });
});
