// `trader sandbox --background` and `trader sandbox stop`, the built binary in a user's shell:
// it returns once the sandbox listens, prints what the foreground prints (plus how to stop it),
// and stop leaves nothing behind — no process, no record, no log, no keypair.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isAlive } from '../../src/commands/sandbox/sandbox-background.js';
import { lines } from '../helpers/cli-assert.js';
import { stopBackgroundSandboxes, userShell, type Shell } from '../helpers/shell.js';
import { tempDir } from '../helpers/temp.js';

afterAll(() => stopBackgroundSandboxes());

function recordOf(shell: Shell): { pid: number; baseUrl: string; generatedKeypairDir: string | null } {
  return JSON.parse(readFileSync(`${shell.sandboxDir}/sandbox.json`, 'utf8'));
}

/** After stop: no process, no folder of its own, no keypair. */
function expectNothingLeft(shell: Shell, pid: number, keypair: string): void {
  expect(isAlive(pid)).toBe(false);
  expect(existsSync(shell.sandboxDir)).toBe(false);
  expect(existsSync(keypair)).toBe(false);
  expect(existsSync(dirname(keypair))).toBe(false);
}

describe('trader sandbox --background', () => {
  it("prints the foreground's lines and how to stop it, once it serves; stop ends it and removes what it made", async () => {
    const shell = userShell();
    const start = await shell.run('trader sandbox --background --no-history --balance-sol 2.5');
    expect(start.code, start.stderr).toBe(0);
    const out = lines(start.stdout);
    expect(out[0]).toMatch(/^export TRADER_BASE_URL=http:\/\/127\.0\.0\.1:\d+$/);
    expect(out[1]).toMatch(/^export TRADER_API_KEY=sk_sandbox_\w+$/);
    expect(out[2]).toMatch(/^export TRADER_KEYPAIR=\/\S+\/id\.json$/);
    expect(out[3]).toMatch(/^export TRADER_RPC_URL=http:\/\/127\.0\.0\.1:\d+\/rpc$/);
    expect(out.slice(4).every((l) => l.startsWith('#'))).toBe(true);
    expect(out.some((l) => /^# {3}2\.5 SOL when the sandbox started$/.test(l))).toBe(true);
    expect(out.filter((l) => /^# {3}[A-Z]+ +\d +\w{32,44} {2}\S/.test(l))).toHaveLength(7);
    const record = recordOf(shell);
    expect(out.at(-1)).toBe(`# background sandbox pid ${record.pid}; stop it with: trader sandbox stop`);
    // The child it started holds no key on its command line (what `ps` shows other users).
    if (process.platform === 'linux') {
      const argv = readFileSync(`/proc/${record.pid}/cmdline`, 'utf8').split('\0');
      expect(argv).toContain('sandbox');
      expect(argv.join(' ')).not.toContain(out[1]!.slice('export TRADER_API_KEY='.length));
    }
    // The lines before it are the foreground's, as the sandbox itself printed them to its log.
    expect(readFileSync(`${shell.sandboxDir}/sandbox.log`, 'utf8')).toContain(out.slice(0, -1).join('\n'));
    expect(start.stderr).toContain(`running in the background (pid ${record.pid})`);
    const keypair = out[2]!.slice('export TRADER_KEYPAIR='.length);
    expect(record.generatedKeypairDir).toBe(dirname(keypair));

    // It serves, with no terminal of the starter's left to it.
    const me = await shell.run(`${start.stdout}\ntrader me --json`);
    expect(me.code, me.stderr).toBe(0);
    expect(JSON.parse(me.stdout).walletAddress).toMatch(/^\w{32,44}$/);

    const stop = await shell.run('trader sandbox stop');
    expect(stop.code, stop.stderr).toBe(0);
    expect(stop.stdout.trim()).toBe(`stopped the background sandbox (pid ${record.pid}) at ${record.baseUrl}`);
    expectNothingLeft(shell, record.pid, keypair);
    await expect(fetch(`${record.baseUrl}/api/v1/me`)).rejects.toThrow();
  });

  it('a second --background while one runs says so on stderr and prints the running one’s lines (exit 0)', async () => {
    const shell = userShell();
    const first = await shell.run('trader sandbox --background --no-history');
    expect(first.code, first.stderr).toBe(0);
    const second = await shell.run('trader sandbox --background --no-history');
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    const { pid } = recordOf(shell);
    expect(second.stderr).toMatch(
      new RegExp(
        `^a background sandbox already runs \\(pid ${pid}, since \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d \\S+\\): these are its details; to start another, \`trader sandbox stop\` first\\n$`,
      ),
    );
    expect((await shell.run('trader sandbox stop')).code).toBe(0);
    expect(isAlive(pid)).toBe(false);
  });

  it('--json: the foreground --json object plus where it runs and how to stop it', async () => {
    const shell = userShell();
    const start = await shell.run('trader sandbox --background --no-history --json');
    expect(start.code, start.stderr).toBe(0);
    expect(start.stderr).toBe('');
    const details = JSON.parse(start.stdout);
    const record = recordOf(shell);
    expect(details).toMatchObject({
      baseUrl: record.baseUrl,
      walletLamports: '100000000000',
      statePath: null,
      background: {
        pid: record.pid,
        logPath: `${shell.sandboxDir}/sandbox.log`,
        stop: 'trader sandbox stop',
        alreadyRunning: false,
      },
    });
    const stop = await shell.run('trader sandbox stop --json');
    expect(stop.code).toBe(0);
    expect(JSON.parse(stop.stdout)).toEqual({ stopped: true, pid: record.pid, baseUrl: record.baseUrl });
    expect(existsSync(details.keypairPath)).toBe(false);
  });

  it('a port in use: exit 2 naming it, and nothing of the failed start is left', async () => {
    const shell = userShell();
    const first = await shell.run('trader sandbox --background --no-history --json');
    const taken = new URL(JSON.parse(first.stdout).baseUrl).port;
    const other = userShell();
    const second = await other.run(`trader sandbox --background --no-history --port ${taken}`);
    expect(second.code).toBe(2);
    expect(second.stdout).toBe('');
    expect(second.stderr).toBe(
      `error: the background sandbox did not start: cannot listen on 127.0.0.1:${taken}: the port is in use (--port 0 picks a free one)\n`,
    );
    expect(existsSync(other.sandboxDir)).toBe(false);
    expect((await shell.run('trader sandbox stop')).code).toBe(0);
  });

  it('stop with nothing running: exit 0, said so', async () => {
    const shell = userShell();
    const stop = await shell.run('trader sandbox stop');
    expect(stop).toEqual({ code: 0, stdout: 'no background sandbox is running\n', stderr: '' });
  });

  it('a sandbox killed outright: stop removes what it left (its keypair too) and signals nothing; --background then starts afresh', async () => {
    const shell = userShell();
    const start = await shell.run('trader sandbox --background --no-history');
    const record = recordOf(shell);
    const keypair = lines(start.stdout)[2]!.slice('export TRADER_KEYPAIR='.length);
    process.kill(record.pid, 'SIGKILL');
    // Not a wait on time: SIGKILL ends it at once; this only waits for the kernel to say so.
    while (isAlive(record.pid)) await new Promise((r) => setImmediate(r));
    expect(existsSync(keypair)).toBe(true);

    const again = await shell.run('trader sandbox --background --no-history');
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).not.toContain('already runs');
    expect(existsSync(keypair)).toBe(false); // the dead one's keypair went with its record
    const second = recordOf(shell);
    expect(second.pid).not.toBe(record.pid);
    process.kill(second.pid, 'SIGKILL');
    while (isAlive(second.pid)) await new Promise((r) => setImmediate(r));

    const stop = await shell.run('trader sandbox stop');
    expect(stop.code).toBe(0);
    expect(stop.stdout).toBe(`the background sandbox (pid ${second.pid}) had already ended; removed its files\n`);
    expect(existsSync(shell.sandboxDir)).toBe(false);
    expect(existsSync(second.generatedKeypairDir!)).toBe(false);
    expect(readdirSync(shell.home).sort()).toEqual(['.config', 'bin', 'work']);
  });

  it('two --background started at once: one sandbox runs, both print its lines, the other leaves nothing', async () => {
    const tmp = tempDir('trader-sandbox-tmp-');
    const shell = userShell({ TMPDIR: tmp });
    const both = await shell.run(
      'trader sandbox --background --no-history > a.out 2> a.err & trader sandbox --background --no-history > b.out 2> b.err; b=$?; wait $!; echo "$? $b"',
    );
    expect(both.stdout).toBe('0 0\n');
    const file = (name: string) => readFileSync(join(shell.home, 'work', name), 'utf8');
    expect(file('a.out')).toMatch(/^export TRADER_BASE_URL=/);
    expect(file('b.out')).toBe(file('a.out'));
    expect(`${file('a.err')}${file('b.err')}`.match(/already runs/g)).toHaveLength(1);
    const { pid, generatedKeypairDir } = recordOf(shell);
    expect(readdirSync(tmp)).toEqual([generatedKeypairDir!.split('/').at(-1)]); // the other one's keypair is gone with it
    expect((await shell.run('trader sandbox stop')).code).toBe(0);
    expect(isAlive(pid)).toBe(false);
    expect(readdirSync(tmp)).toEqual([]);
  });

  it('a recorded pid that runs but does not answer as the sandbox is never signalled: --background refuses (exit 2), stop removes the files only', async () => {
    const shell = userShell();
    // Another process that has the recorded pid (as when a dead sandbox's pid is taken).
    const other = spawn('sleep', ['30'], { stdio: 'ignore' });
    try {
      const keypairDir = tempDir('trader-sandbox-');
      mkdirSync(shell.sandboxDir, { recursive: true });
      const record = {
        pid: other.pid,
        startedAt: '2026-01-01T00:00:00.000Z',
        baseUrl: 'http://127.0.0.1:9',
        walletAddress: 'W',
        exports: '',
        details: {},
        logPath: join(shell.sandboxDir, 'sandbox.log'),
        generatedKeypairDir: keypairDir,
      };
      writeFileSync(join(shell.sandboxDir, 'sandbox.json'), JSON.stringify(record));

      const start = await shell.run('trader sandbox --background');
      expect(start.code).toBe(2);
      expect(start.stdout).toBe('');
      expect(start.stderr).toBe(
        `error: a background sandbox is recorded in ${shell.sandboxDir} (pid ${other.pid}), but nothing answers as it at http://127.0.0.1:9; if it has ended, \`trader sandbox stop\` clears its record\n`,
      );
      expect(existsSync(keypairDir)).toBe(true);

      const stop = await shell.run('trader sandbox stop');
      expect(stop.code).toBe(0);
      expect(stop.stdout).toBe(
        `pid ${other.pid} does not answer as the background sandbox at http://127.0.0.1:9, so it was not signalled (if it is a hung sandbox, kill ${other.pid}); removed the sandbox's files\n`,
      );
      expect(isAlive(other.pid!)).toBe(true);
      expect(existsSync(shell.sandboxDir)).toBe(false);
      expect(existsSync(keypairDir)).toBe(false);
    } finally {
      other.kill('SIGKILL');
    }
  });
});
