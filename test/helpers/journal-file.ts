// The journal a test's home writes beside its config, read back as records (one JSON object a line).
import { readFileSync } from 'node:fs';
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
