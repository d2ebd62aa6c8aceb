// The MCP audit log: JSON lines, mode 0600 even over a file made wider, the key masked anywhere.
import { chmodSync, lstatSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { AuditLog, auditLogPath } from '../../src/mcp/audit-log.js';
import { tempDir } from '../helpers/temp.js';

const entry = (args: Record<string, unknown>) => ({
  time: '2026-01-01T00:00:00.000Z',
  tool: 'buy',
  arguments: args,
  outcome: 'ok',
  exitCode: 0,
});

describe('audit log', () => {
  it('lives beside the config file', () => {
    expect(auditLogPath('/home/u/.config/trader/config.json')).toBe('/home/u/.config/trader/mcp-audit.jsonl');
  });

  it('appends one JSON line per entry, mode 0600, in a folder it makes', () => {
    const path = join(tempDir(), 'new', 'mcp-audit.jsonl');
    const log = new AuditLog(path, []);
    log.write(entry({ amount: '1' }));
    log.write(entry({ amount: '2' }));
    const lines = readFileSync(path, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.arguments.amount)).toEqual(['1', '2']);
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it.each([0o644, 0o640, 0o604, 0o660, 0o606, 0o610, 0o601])(
    'narrows a file others could read or reach (mode %o) to 0600',
    (mode) => {
      const path = join(tempDir(), 'mcp-audit.jsonl');
      writeFileSync(path, '');
      chmodSync(path, mode);
      new AuditLog(path, []).write(entry({}));
      expect(statSync(path).mode & 0o777).toBe(0o600);
    },
  );

  it('keeps 0600 as it is', () => {
    const path = join(tempDir(), 'mcp-audit.jsonl');
    writeFileSync(path, '');
    chmodSync(path, 0o600);
    new AuditLog(path, []).write(entry({}));
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it.skipIf(process.platform === 'win32')(
    'refuses a FIFO at its name at once (no reader: the open would wait for one), naming it',
    () => {
      const path = join(tempDir(), 'mcp-audit.jsonl');
      execFileSync('mkfifo', ['-m', '600', path]);
      // In a process of its own, bounded: an open that waits would hold this one for ever.
      const module = new URL('../../dist/mcp/audit-log.js', import.meta.url).href;
      const script = `const { AuditLog } = await import(${JSON.stringify(module)}); try { new AuditLog(process.argv[1], []).write(${JSON.stringify(entry({}))}); } catch (e) { console.log(e.message); }`;
      const out = execFileSync(process.execPath, ['--input-type=module', '-e', script, path], {
        timeout: 10_000,
        encoding: 'utf8',
      });
      expect(out.trim()).toBe(`${path} is not a regular file (a pipe)`);
    },
  );

  it('masks the key wherever it appears', () => {
    const path = join(tempDir(), 'mcp-audit.jsonl');
    new AuditLog(path, ['sk_live_secret']).write(
      entry({ idempotencyKey: 'x-sk_live_secret-y', token: 'sk_live_secret' }),
    );
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
