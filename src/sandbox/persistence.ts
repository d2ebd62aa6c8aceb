// --state: the whole state as one JSON file, written atomically (temp file, fsync, rename)
// shortly after each change and once more on close. BigInts are tagged so they survive.
import { open, readFile, rename, unlink } from 'node:fs/promises';
import { dirname, basename, join } from 'node:path';
import type { State } from './state.js';

const BIGINT_TAG = '$bigint';

/** State → JSON text (bigints as {"$bigint": "123"}). */
export function serializeState(state: State): string {
  return JSON.stringify(state, (_k, v: unknown) => (typeof v === 'bigint' ? { [BIGINT_TAG]: v.toString() } : v));
}

/** JSON text → state (tagged bigints restored). */
export function deserializeState(text: string): State {
  const state = JSON.parse(text, (_k, v: unknown) => {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      const keys = Object.keys(v);
      const tagged = (v as Record<string, unknown>)[BIGINT_TAG];
      if (keys.length === 1 && typeof tagged === 'string') return BigInt(tagged);
    }
    return v;
  }) as State;
  if (!state || state.version !== 1 || !state.identity || !Array.isArray(state.buys)) {
    throw new Error('not a trader sandbox state file (or from an incompatible version)');
  }
  return state;
}

/** Read a state file; null when it does not exist. */
export async function loadStateFile(path: string): Promise<State | null> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  return deserializeState(text);
}

/** Write atomically: a crash leaves either the old file or the new one, never half of one. */
export async function writeStateFile(path: string, text: string): Promise<void> {
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now()}.tmp`);
  const fh = await open(tmp, 'w', 0o600);
  try {
    await fh.writeFile(text, 'utf8');
    await fh.sync();
  } finally {
    await fh.close();
  }
  try {
    await rename(tmp, path);
  } catch (err) {
    await unlink(tmp).catch(() => {});
    throw err;
  }
}

/** Debounced saver: many changes in a burst cost one write; flush() writes now. */
export class StateSaver {
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  private dirty = false;

  constructor(
    private readonly path: string,
    private readonly snapshot: () => State,
    private readonly onError: (err: unknown) => void,
    private readonly delayMs = 50,
  ) {}

  /** Note a change; a write follows shortly. */
  schedule(): void {
    this.dirty = true;
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, this.delayMs);
  }

  /** Write any pending change now (after a write already in progress). */
  flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    this.writing = this.writing.then(async () => {
      if (!this.dirty) return;
      this.dirty = false;
      try {
        await writeStateFile(this.path, serializeState(this.snapshot()));
      } catch (err) {
        this.onError(err);
      }
    });
    return this.writing;
  }
}
