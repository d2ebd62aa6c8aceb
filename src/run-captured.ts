// Runs `trader` in this process with captured streams (src/run.ts: the same parse, checks, flows
// and error lines as the binary). The MCP server runs its tools this way; tests run argv tables.
import { PassThrough } from 'node:stream';
import type { ProcessFacts } from './commands/context.js';
import { runTrader } from './run.js';

/** What a captured run printed, and its exit code. */
export interface CapturedRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `trader <argv>` with these facts, stdin empty, and returns what it wrote. */
export async function runCaptured(argv: string[], facts: Omit<ProcessFacts, 'stdout' | 'stderr' | 'stdin'>): Promise<CapturedRun> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const stdin = new PassThrough();
  stdin.end();
  let out = '';
  let err = '';
  stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
  stderr.on('data', (d: Buffer) => (err += d.toString('utf8')));
  const code = await runTrader(argv, { ...facts, stdout, stderr, stdin });
  await new Promise((resolve) => setImmediate(resolve)); // let the streams deliver what was written
  return { code, stdout: out, stderr: err };
}
