// Registered before every test file: once the file's own afterAll hooks have run (hooks run in
// reverse order, so this one is last), binaries and tmux servers a timed-out test left running are killed and
// the file's temp folders removed.
import { afterAll, vi } from 'vitest';
import { killLeftoverProcesses } from '../helpers/cli.js';
import { killLeftoverTmuxServers } from '../helpers/pty.js';
import { removeTempDirs } from '../helpers/temp.js';

afterAll(() => {
  // A test that timed out never ran its own restore; the next file of this worker shares its globals.
  vi.useRealTimers();
  killLeftoverProcesses();
  killLeftoverTmuxServers();
  removeTempDirs();
});
