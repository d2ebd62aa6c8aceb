// Small assertions shared by the end-to-end tests of the CLI: error shape, stderr JSON lines, widths.
import { expect } from 'vitest';
import type { CliResult } from './cli.js';

/** The `{"error":…}` object of --json and of an MCP tool error. */
export interface JsonError {
  code: string;
  message: string;
  status: number | null;
  requestId: string | null;
  category: string;
  retryable: boolean;
}

/** Non-empty lines of a stream's text. */
export function lines(text: string): string[] {
  return text.split('\n').filter((l) => l.trim() !== '');
}

/** Every stderr line parsed as JSON; fails the test if one is not JSON (the --json promise). */
export function stderrJson(r: CliResult): any[] {
  return lines(r.stderr).map((l) => {
    try {
      return JSON.parse(l);
    } catch {
      throw new Error(`stderr line is not JSON in --json mode: ${l}\nstderr:\n${r.stderr}`);
    }
  });
}

/** The `{"error":…}` of a --json run's last stderr line (stdout may hold the trade's last state). */
export function lastJsonError(r: CliResult): JsonError {
  const last = stderrJson(r).at(-1);
  expect(last?.error, r.stderr).toBeTruthy();
  return last.error;
}

/** A human-mode failure: the expected exit, one line (two at most, the second a hint or request id), no stack. */
export function expectHumanError(r: CliResult, code: number, pattern?: RegExp): string {
  const where = `exit ${r.code}\nstdout:\n${r.stdout}\nstderr:\n${r.stderr}`;
  expect(r.code, where).toBe(code);
  // Progress lines may come first; the error is the last line but one at most.
  const all = lines(r.stderr);
  const at = all.findIndex((l) => l.startsWith('error: '));
  expect(at, where).toBeGreaterThanOrEqual(0);
  const errLines = all.slice(at);
  expect(errLines.length, where).toBeLessThanOrEqual(2);
  expect(errLines[1] ?? '', where).not.toMatch(/^error/);
  expect(r.stderr, where).not.toMatch(/\n\s+at .+:\d+:\d+/); // no stack trace
  expect(r.stderr + r.stdout, where).not.toMatch(/\bundefined\b|\[object Object\]/);
  if (pattern) expect(errLines[0], where).toMatch(pattern);
  return errLines[0]!;
}

/** The contract's fields, and only the trade's key and id besides (a buy's or sell's errors). */
export function expectErrorFields(error: Record<string, unknown>, where = ''): void {
  const contract = ['category', 'code', 'message', 'requestId', 'retryable', 'status'];
  expect(
    Object.keys(error)
      .filter((k) => contract.includes(k))
      .sort(),
    where,
  ).toEqual(contract);
  expect(
    Object.keys(error)
      .filter((k) => !contract.includes(k))
      .every((k) => (k === 'idempotencyKey' || k === 'tradeId') && typeof error[k] === 'string'),
    where,
  ).toBe(true);
}

/** A --json failure: the expected exit, stdout empty, stderr only JSON lines, the last one the error. */
export function expectJsonError(r: CliResult, code: number): JsonError {
  const where = `exit ${r.code}\nstdout:\n${r.stdout}\nstderr:\n${r.stderr}`;
  expect(r.code, where).toBe(code);
  const all = stderrJson(r);
  const last = all[all.length - 1];
  expect(last, where).toBeDefined();
  expect(Object.keys(last), where).toEqual(['error']);
  expectErrorFields(last.error, where);
  expect(typeof last.error.retryable, where).toBe('boolean');
  expect(typeof last.error.code, where).toBe('string');
  expect(typeof last.error.message, where).toBe('string');
  expect(last.error.message, where).not.toMatch(/\bundefined\b|\n/);
  return last.error;
}

/** The widest line, ANSI escapes not counted. */
export function maxWidth(text: string): number {
  return Math.max(0, ...text.split('\n').map((l) => Array.from(l.replace(/\u001b\[[0-9;]*m/g, '')).length));
}
