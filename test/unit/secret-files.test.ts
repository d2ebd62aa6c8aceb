// Secret files that are pipes (`--password-file <(pass show x)`, a named FIFO): read without
// blocking, so a signal can still end the run; a silent pipe is waited out, then refused.
import { execFileSync } from 'node:child_process';
import { closeSync, constants, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PIPE_WAIT_MS, pauseOf, readSecretFile } from '../../src/config/secret-files.js';
import { tempDir } from '../helpers/temp.js';

const fifo = () => {
  const path = join(tempDir('secret-fifo-'), 'pw');
  execFileSync('mkfifo', ['-m', '600', path]);
  return path;
};

/** A clock that passes only when the reader pauses; `at` runs once when it reaches `ms`. */
function virtualPause(at?: { ms: number; run: () => void }) {
  let now = 0;
  return async (ms: number) => {
    now += ms;
    if (at && now >= at.ms) {
      at.run();
      at = undefined;
    }
  };
}

/** Opens the FIFO's writing end (the reader has it open already), writes `text`, closes it. */
const writeTo = (path: string, text: string) => {
  const fd = openSync(path, constants.O_WRONLY | constants.O_NONBLOCK);
  writeSync(fd, text);
  closeSync(fd);
};

describe.skipIf(process.platform === 'win32')('a secret file that is a FIFO', () => {
  it('is read once its writer comes, just inside the wait', async () => {
    const path = fifo();
    const pause = virtualPause({ ms: PIPE_WAIT_MS - 20, run: () => writeTo(path, 'hunter2\n') });
    const secret = await readSecretFile(path, 'password file', () => {}, pause);
    expect(secret.toString('utf8')).toBe('hunter2');
  });

  it('is refused, naming it, when nothing writes to it for the whole wait', async () => {
    const path = fifo();
    let paused = 0;
    const pause = async (ms: number) => void (paused += ms);
    await expect(readSecretFile(path, 'password file', () => {}, pause)).rejects.toThrow(
      `password file ${path} is a pipe that gave nothing in 30 seconds; is anything writing to it?`,
    );
    expect(paused).toBe(PIPE_WAIT_MS);
  });

  it("the run's signal ends the wait at once, with its reason (SIGTERM is not held until the grace runs out)", async () => {
    const path = fifo();
    const controller = new AbortController();
    const sleeps: number[] = [];
    const clock = {
      now: () => 0,
      sleep: async (ms: number, signal?: AbortSignal) => {
        sleeps.push(ms);
        if (sleeps.length === 3) controller.abort(new Error('interrupted (SIGTERM)'));
        if (signal?.aborted) throw signal.reason;
      },
    };
    await expect(
      readSecretFile(path, 'password file', () => {}, pauseOf({ clock, signal: controller.signal })),
    ).rejects.toThrow('interrupted (SIGTERM)');
    expect(sleeps).toHaveLength(3);
  });

  it('a writer that closes without a byte is the same as none', async () => {
    const path = fifo();
    const pause = virtualPause({ ms: 100, run: () => writeTo(path, '') });
    await expect(readSecretFile(path, 'password file', () => {}, pause)).rejects.toThrow(/gave nothing/);
  });
});
