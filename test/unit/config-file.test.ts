// Who may read the config file (it holds the API key): a warning for any group or other bit,
// 0640 and 0604 included; none at 0600.
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readConfig } from '../../src/config/config-file.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function configWithMode(mode: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'trader-config-'));
  dirs.push(dir);
  const path = join(dir, 'config.json');
  writeFileSync(path, JSON.stringify({ profiles: { default: { apiKey: 'sk_test_0123456789' } } }));
  chmodSync(path, mode);
  return path;
}

describe('readConfig: permission warning', () => {
  it('none at 0600 (and 0400)', () => {
    expect(readConfig(configWithMode(0o600)).permissionWarning).toBeNull();
    expect(readConfig(configWithMode(0o400)).permissionWarning).toBeNull();
  });
  it.each([[0o640], [0o604], [0o620], [0o644], [0o610]])('warns at %o, naming the mode and the fix', (mode) => {
    const path = configWithMode(mode);
    const warning = readConfig(path).permissionWarning;
    expect(warning).toContain(`mode ${mode.toString(8)}`);
    expect(warning).toContain(`chmod 600 ${path}`);
  });
});
