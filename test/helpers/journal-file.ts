// The journal a test's home writes beside its config, read back as records (one JSON object a line).
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Home } from './file-sandbox.js';

/** The journal file of a home: journal.jsonl beside its config. */
export const journalOf = (home: Home): string => join(dirname(home.TRADER_CONFIG), 'journal.jsonl');

/** Every record the home's journal holds, in order. */
export const records = (home: Home) =>
  readFileSync(journalOf(home), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));

/**
 * The journal's signatures: each `before-signing` record with what its `signed` record added
 * (the signature, a deposit's signed transaction), in order; one with no `signed` after it alone.
 */
export const signings = (home: Home) => {
  const all = records(home);
  return all
    .filter((r) => r.type === 'before-signing')
    .map((r) => ({
      ...r,
      ...(all.find((s) => s.type === 'signed' && s.trade === r.trade && s.messageSha256 === r.messageSha256) ?? {}),
      type: 'before-signing',
    }));
};

/** Rewrites the home's journal as an earlier version wrote it: each signed deposit one `before-signing` record with its signature, and no transaction kept. */
export const asEarlierVersion = (home: Home): void => {
  const merged = signings(home);
  const lines = records(home)
    .filter((r) => r.type !== 'signed')
    .map((r) => {
      if (r.type !== 'before-signing' || r.side !== 'buy') return r;
      const {
        messageSha256: _hash,
        transaction: _tx,
        ...old
      } = merged.find((m) => m.trade === r.trade && m.messageSha256 === r.messageSha256)!;
      return old;
    });
  writeFileSync(journalOf(home), lines.map((l) => JSON.stringify(l) + '\n').join(''));
};
