// A prompt test that times out never reaches close(): the per-file cleanup must still end its
// tmux server, or servers (and the binaries in them) outlive the suite.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasTmux, killLeftoverTmuxServers, startInTmux } from '../helpers/pty.js';
import { tempDir } from '../helpers/temp.js';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe.skipIf(!hasTmux())('tmux sessions left open', () => {
  it('are killed by the cleanup, server and program', async () => {
    const entry = join(tempDir('pty-cleanup-'), 'wait.js');
    writeFileSync(entry, 'console.log(`pid ${process.pid}`); setInterval(() => {}, 1000);\n');
    const session = await startInTmux([], {}, { entry });
    const program = Number((await session.waitFor(/pid \d+/)).match(/pid (\d+)/)![1]);
    expect(alive(program)).toBe(true);

    killLeftoverTmuxServers();

    await expect.poll(() => alive(program), { timeout: 5_000 }).toBe(false);
  });
});
