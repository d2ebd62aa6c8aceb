// The MCP audit log: JSON lines, mode 0600 even over a file made wider, the key masked anywhere.
import { chmodSync, lstatSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AuditLog, auditLogPath } from '../../src/mcp/audit-log.js';
import { tempDir } from '../helpers/temp.js';

const entry = (args: Record<string, unknown>) => ({ time: '2026-01-01T00:00:00.000Z', tool: 'buy', arguments: args, outcome: 'ok', exitCode: 0 });

describe('audit log', () => {
  it('lives beside the config file', () => {
    expect(auditLogPath('/home/u/.config/trader/config.json')).toBe('/home/u/.config/trader/mcp-audit.jsonl');
  });

  it('appends one JSON line per entry, mode 0600, in a folder it makes', () => {
    const path = join(tempDir(), 'new', 'mcp-audit.jsonl');
    const log = new AuditLog(path, []);
    log.write(entry({ amount: '1' }));
    log.write(entry({ amount: '2' }));
    const lines = readFileSync(path, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((l) => l.arguments.amount)).toEqual(['1', '2']);
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('narrows a file others could read', () => {
    const path = join(tempDir(), 'mcp-audit.jsonl');
    writeFileSync(path, '');
    chmodSync(path, 0o644);
    new AuditLog(path, []).write(entry({}));
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('masks the key wherever it appears', () => {
    const path = join(tempDir(), 'mcp-audit.jsonl');
    new AuditLog(path, ['sk_live_secret']).write(entry({ idempotencyKey: 'x-sk_live_secret-y', token: 'sk_live_secret' }));
    const text = readFileSync(path, 'utf8');
    expect(text).not.toContain('sk_live_secret');
    expect(JSON.parse(text).arguments).toEqual({ idempotencyKey: 'x-[redacted]-y', token: '[redacted]' });
  });

  it('refuses a symlink planted at its name and leaves the target as it was', () => {
    const dir = tempDir();
    const target = join(dir, 'victim.txt');
    writeFileSync(target, 'precious\n');
    chmodSync(target, 0o644);
    const path = join(dir, 'mcp-audit.jsonl');
    symlinkSync(target, path);
    expect(() => new AuditLog(path, []).write(entry({}))).toThrow();
    expect(readFileSync(target, 'utf8')).toBe('precious\n');
    expect(statSync(target).mode & 0o777).toBe(0o644);
    expect(lstatSync(path).isSymbolicLink()).toBe(true);
  });

  it('refuses something that is not a regular file', () => {
    const path = join(tempDir(), 'mcp-audit.jsonl');
    mkdirSync(path);
    expect(() => new AuditLog(path, []).write(entry({}))).toThrow();
  });
});
