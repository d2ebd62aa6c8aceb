// Files that are not files: a FIFO (or a folder) at the name of a file the tool keeps its state
// in (config, trust store, journal, a keystore, a lock, the keypair file) is refused at once,
// exit 2, naming the path, before anything is sent. A plain open of a FIFO waits for a writer
// for ever, and a synchronous wait holds off the signals too: each run here is bounded by the
// test's timeout, not by a sleep. And a signal ends a run that waits on something that does not
// listen for it (standard input that never ends): exit 143 / 130.
import { execFileSync, spawn } from 'node:child_process';
import { constants, existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, freshHome, killLeftoverProcesses, runCli } from '../helpers/cli.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { trusted } from '../helpers/trust.js';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(async () => {
  killLeftoverProcesses();
  await sb?.close();
});

/** A run that blocks on a FIFO would never end; this bounds it (the process is killed after the file). */
const PROMPTLY = 15_000;

const mkfifo = (path: string) => {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  execFileSync('mkfifo', ['-m', '600', path]);
};

describe.skipIf(process.platform === 'win32')('a FIFO at the name of a file the tool opens', () => {
  const envOf = (home: ReturnType<typeof freshHome>) => ({
    ...home,
    TRADER_BASE_URL: sb.url,
    TRADER_API_KEY: sb.apiKey,
    TRADER_KEYPAIR: sb.keypairPath,
    TRADER_RPC_URL: sb.rpcUrl,
  });
  const dir = (home: ReturnType<typeof freshHome>) => dirname(home.TRADER_CONFIG);

  it.each([
    ['journal.jsonl', ['buy', 'TOKEN', '0.01sol', '--yes'], /the journal .*journal\.jsonl is not a regular file/],
    ['config.json', ['me'], /config file .*config\.json is not a regular file/],
    ['trust.json', ['config', 'trust'], /trust store .*trust\.json is not a regular file/],
    ['keys/main.json', ['keys', 'show', 'main'], /keystore .*keys\/main\.json is not a regular file/],
    ['config.json.lock', ['config', 'set', 'timeout', '5'], /lock file .*config\.json\.lock is not a regular file/],
  ])(
    '%s: exit 2 at once, naming it, nothing sent',
    async (name, args, message) => {
      const home = freshHome();
      const env = name === 'trust.json' ? envOf(home) : trusted(envOf(home));
      if (name !== 'config.json' && name !== 'trust.json')
        writeFileSync(home.TRADER_CONFIG, '{"profiles":{}}\n', { mode: 0o600 });
      mkfifo(join(dir(home), name));
      await sb.clearRequests();
      const r = await runCli(
        args.map((a) => (a === 'TOKEN' ? sb.tokens[0]!.mint : a)),
        { env },
      );
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).toContain(join(dir(home), name));
      expect((await sb.requests()).filter((e) => e.method === 'POST')).toEqual([]);
    },
    PROMPTLY,
  );

  it(
    'the keypair file: exit 2, naming it',
    async () => {
      const home = freshHome();
      const fifo = join(dir(home), 'id.json');
      mkfifo(fifo);
      const r = await runCli(['balance'], { env: { ...envOf(home), TRADER_KEYPAIR: fifo } });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`keypair file ${fifo}: is not a regular file`);
    },
    PROMPTLY,
  );

  it(
    'a regular journal (the control): the same buy goes through',
    async () => {
      const home = freshHome();
      const r = await runCli(['buy', sb.tokens[0]!.mint, '0.01sol', '--yes', '--json'], { env: trusted(envOf(home)) });
      expect(r.code, r.stderr).toBe(0);
    },
    PROMPTLY,
  );
});

describe.skipIf(process.platform !== 'linux')(
  'a signal while the run waits on something that does not listen for it',
  () => {
    /**
     * Whether process `pid` reads its standard input now: libuv makes a pipe non-blocking when
     * Node opens it as process.stdin, which main.ts does after installing its signal handlers.
     */
    const readingStdin = (pid: number): boolean => {
      try {
        const flags = /^flags:\s*([0-7]+)$/m.exec(readFileSync(`/proc/${pid}/fdinfo/0`, 'utf8'))?.[1];
        return flags !== undefined && (parseInt(flags, 8) & constants.O_NONBLOCK) !== 0;
      } catch {
        return false;
      }
    };

    /** `trader …args` with standard input open and silent (it never ends), signalled once the run reads it. */
    function signalledWhileReading(
      args: string[],
      env: Record<string, string>,
      signal: NodeJS.Signals,
    ): Promise<{ code: number | null; stderr: string }> {
      return new Promise((resolve, reject) => {
        const child = spawn(process.execPath, [BIN, ...args], {
          env: { PATH: process.env.PATH!, NO_COLOR: '1', ...env },
          stdio: ['pipe', 'pipe', 'pipe'],
        });
        let stderr = '';
        child.stderr.on('data', (d) => (stderr += d));
        child.on('error', reject);
        // Polls the process's state (not a clock): the signal goes once the run reads its input.
        const watch = setInterval(() => {
          if (child.exitCode !== null || !readingStdin(child.pid!)) return;
          clearInterval(watch);
          child.kill(signal);
        }, 5);
        child.on('close', (code) => {
          clearInterval(watch);
          resolve({ code, stderr });
        });
      });
    }

    /** Whether process `pid` holds `path` open. */
    const holds = (pid: number, path: string): boolean => {
      try {
        return readdirSync(`/proc/${pid}/fd`).some((fd) => {
          try {
            return readlinkSync(`/proc/${pid}/fd/${fd}`) === path;
          } catch {
            return false;
          }
        });
      } catch {
        return false;
      }
    };

    it(
      'SIGTERM while an API key file that is a FIFO waits for its writer: exit 143 (a blocking open held the run past its exit)',
      async () => {
        const home = freshHome();
        const fifo = join(dirname(home.TRADER_CONFIG), 'key.fifo');
        mkfifo(fifo);
        const child = spawn(process.execPath, [BIN, 'me', '--api-key-file', fifo], {
          env: { PATH: process.env.PATH!, NO_COLOR: '1', ...home, TRADER_BASE_URL: sb.url },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let stderr = '';
        child.stderr.on('data', (d) => (stderr += d));
        // Polls the process's state (not a clock): the signal goes once the run has the FIFO open.
        const watch = setInterval(() => {
          if (child.exitCode !== null || !holds(child.pid!, fifo)) return;
          clearInterval(watch);
          child.kill('SIGTERM');
        }, 5);
        const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
        clearInterval(watch);
        expect(code, stderr).toBe(143);
        expect(stderr).toContain('interrupted (SIGTERM)');
      },
      PROMPTLY,
    );

    it.each([
      ['SIGTERM', 143],
      ['SIGINT', 130],
    ] as const)(
      '%s while `config set apiKey -` reads a standard input that never ends: exit %i at the first signal, nothing stored',
      async (signal, code) => {
        const home = freshHome();
        const r = await signalledWhileReading(['config', 'set', 'apiKey', '-'], home, signal);
        expect(r.code, r.stderr).toBe(code);
        expect(r.stderr).toContain(`interrupted (${signal})`);
        expect(existsSync(home.TRADER_CONFIG)).toBe(false);
      },
      PROMPTLY,
    );
  },
);
