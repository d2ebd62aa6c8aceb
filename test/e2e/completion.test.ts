// Shell completion scripts: they parse, and they complete commands, options and enum values.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

const has = (cmd: string) => {
  try {
    execFileSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

async function script(shell: string): Promise<string> {
  const r = await runCli(['completion', shell]);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout;
}

/** What bash offers for the words typed so far (the last word is being completed). */
function bashComplete(file: string, words: string[]): string[] {
  const cword = words.length - 1;
  const out = execFileSync(
    'bash',
    [
      '-c',
      `source "$1"; COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${cword}; _trader; printf '%s\\n' "\${COMPREPLY[@]}"`,
      'bash',
      file,
    ],
    { encoding: 'utf8' },
  );
  return out.split('\n').filter(Boolean);
}

describe('trader completion', () => {
  it('bash: the script parses and completes commands, options and values', async () => {
    const dir = tempDir('trader-completion-');
    const file = join(dir, 'trader.bash');
    writeFileSync(file, await script('bash'));
    execFileSync('bash', ['-n', file]);
    expect(bashComplete(file, ['trader', 'bu'])).toEqual(['buy']);
    expect(bashComplete(file, ['trader', 'p'])).toEqual(expect.arrayContaining(['positions', 'points']));
    expect(bashComplete(file, ['trader', 'buy', '--sl'])).toEqual(['--slippage-bps']);
    expect(bashComplete(file, ['trader', 'sell', '--min'])).toEqual(['--min-sol']);
    expect(bashComplete(file, ['trader', 'positions', '--status', 'o'])).toEqual(['open']);
    expect(bashComplete(file, ['trader', 'activity', '--type', 'pa'])).toEqual(['payout']);
    expect(bashComplete(file, ['trader', 'config', 'se'])).toEqual(['set']);
    expect(bashComplete(file, ['trader', 'config', 'set', 'maxB'])).toEqual(['maxBuyLamports']);
    expect(bashComplete(file, ['trader', 'completion', 'f'])).toEqual(['fish']);
    expect(bashComplete(file, ['trader', 'me', '--js'])).toEqual(['--json']);
    expect(bashComplete(file, ['trader', 'pn'])).toEqual(['pnl']);
    expect(bashComplete(file, ['trader', 'pnl', '--to'])).toEqual(['--token']);
    expect(bashComplete(file, ['trader', 'activity', '--cs'])).toEqual(['--csv']);
  });

  it.skipIf(!has('zsh'))('zsh: the script parses', async () => {
    const dir = tempDir('trader-completion-');
    const file = join(dir, '_trader');
    writeFileSync(file, await script('zsh'));
    execFileSync('zsh', ['-n', file]);
  });

  it('zsh and fish scripts name every command', async () => {
    const [zsh, fish] = await Promise.all([script('zsh'), script('fish')]);
    expect(zsh).toContain('bashcompinit');
    for (const command of [
      'buy',
      'sell',
      'cancel',
      'trades',
      'positions',
      'activity',
      'holdings',
      'pnl',
      'me',
      'points',
      'config',
      'sandbox',
      'completion',
    ]) {
      expect(fish).toContain(`-a ${command}`);
      expect(zsh).toContain(command);
    }
    expect(fish).toMatch(/-l status -x -a "pending_deposit/);
  });

  it('an unknown shell is exit 2', async () => {
    const r = await runCli(['completion', 'tcsh']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/bash, zsh, fish/);
  });
});
