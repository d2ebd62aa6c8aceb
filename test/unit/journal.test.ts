// The trade journal's file (append-only JSON lines, 0600, never through a symlink, refused when
// others can write it, each record fsynced, a full disk refused, a damaged line reported once and
// skipped, another process's appends kept out while the lock is held) and what is read from its
// records: the daily commitments at the edges of the 24-hour window, when room frees up, and
// which transaction already proved another trade.
import { execFileSync } from 'node:child_process';
import {
  appendFileSync,
  chmodSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import bs58 from 'bs58';
import { describe, expect, it } from 'vitest';
import { Journal, JournalError, journalPath, type JournalIo } from '../../src/journal/journal-file.js';
import { commitments, dailyRoom, DAY_MS } from '../../src/journal/daily-limits.js';
import { historyOf } from '../../src/journal/trade-history.js';
import { journalKnowledge, sortClaims } from '../../src/journal/other-trades.js';
import { namedFields, parseRecord, type JournalRecord, type NewRecord } from '../../src/journal/records.js';
import { tempDir } from '../helpers/temp.js';

const OWNER = { service: 'http://127.0.0.1:1/api/v1', wallet: 'W1' };
const T0 = Date.parse('2030-01-01T00:00:00.000Z');

function journalAt(path: string, now = () => T0, io?: JournalIo) {
  const warnings: string[] = [];
  return { journal: new Journal(path, OWNER, { now, waitMs: 200 }, (m) => warnings.push(m), io), warnings };
}

const created = (trade: string, side: 'buy' | 'sell' = 'buy'): NewRecord => ({
  type: 'created',
  side,
  trade,
  idempotencyKey: `key-${trade}`,
  resumed: false,
  request: { mint: 'M', amount: '100', slippageBps: null },
  quote: { status: 'awaiting_deposit' },
});
const deposit = (trade: string, signature: string, amount: string): NewRecord => ({
  type: 'before-signing',
  side: 'buy',
  trade,
  signature,
  blockhash: 'BH',
  lastValidBlockHeight: 900,
  blockhashKnownBeforeSigning: true,
  amountLamports: amount,
});

describe('the journal file', () => {
  it('lives beside the config; made 0600 on first check; records appended as JSON lines naming service, wallet, time', () => {
    expect(journalPath('/home/u/.config/trader/config.json')).toBe('/home/u/.config/trader/journal.jsonl');
    const path = join(tempDir(), 'cfg', 'journal.jsonl');
    const { journal } = journalAt(path);
    journal.check();
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(path, '..')).mode & 0o777).toBe(0o700);
    journal.append(created('b1'));
    journal.append(deposit('b1', 'S1', '5'));
    const lines = readFileSync(path, 'utf8').split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe('');
    expect(JSON.parse(lines[0]!)).toMatchObject({
      v: 1,
      at: '2030-01-01T00:00:00.000Z',
      service: OWNER.service,
      wallet: 'W1',
      type: 'created',
      trade: 'b1',
    });
    expect(journal.read().map((r) => r.type)).toEqual(['created', 'before-signing']);
  });

  it('every record is fsynced before append returns; a full disk refuses the record (JournalError), and what it cut short is reported, never trusted', () => {
    const path = join(tempDir(), 'journal.jsonl');
    const synced: number[] = [];
    let full = false;
    const io: JournalIo = {
      write: (fd, data, offset) => {
        if (full) {
          // Half the record reaches the disk, then it is full.
          writeFileSync(fd, data.subarray(offset, offset + 20));
          throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
        }
        writeFileSync(fd, data.subarray(offset));
        return data.length - offset;
      },
      fsync: (fd) => void synced.push(fd),
    };
    const { journal, warnings } = journalAt(path, () => T0, io);
    journal.append(created('b1'));
    expect(synced).toHaveLength(1);
    full = true;
    expect(() => journal.append(deposit('b1', 'S1', '5'))).toThrow(JournalError);
    expect(() => journal.append(deposit('b1', 'S1', '5'))).toThrow(/cannot write the journal .*ENOSPC/);
    full = false;
    // Each record after a cut one starts on a line of its own: each fragment is a damaged line, reported once.
    journal.append(created('b2'));
    journal.append(created('b3'));
    expect(journal.read().map((r) => r.trade)).toEqual(['b1', 'b2', 'b3']);
    expect(warnings).toEqual(
      [2, 3].map((n) => `journal ${path} line ${n} is damaged (not JSON); skipped, not trusted`),
    );
  });

  it('a damaged line is reported (naming it) and skipped; the rest is read; an unterminated last line is left for its writer', () => {
    const path = join(tempDir(), 'journal.jsonl');
    const { journal, warnings } = journalAt(path);
    journal.append(created('b1'));
    appendFileSync(path, '{"v":1,"type":"created"\n');
    appendFileSync(path, `${JSON.stringify({ ...JSON.parse(readFileSync(path, 'utf8').split('\n')[0]!), v: 2 })}\n`);
    journal.append(created('b2'));
    appendFileSync(path, '{"v":1,"type":"evid');
    expect(journal.read().map((r) => r.trade)).toEqual(['b1', 'b2']);
    expect(warnings).toEqual([
      `journal ${path} line 2 is damaged (not JSON); skipped, not trusted`,
      `journal ${path} line 3 is damaged (unknown version 2); skipped, not trusted`,
    ]);
    // Read again: each line is told once.
    journal.read();
    expect(warnings).toHaveLength(2);
  });

  it('attack-log-2 G: never writes what it would not read back; a malformed signature the service names is kept apart, and the line reads back whole', () => {
    const path = join(tempDir(), 'journal.jsonl');
    const { journal, warnings } = journalAt(path);
    journal.append(created('b1'));
    const before = readFileSync(path, 'utf8');
    const answer = (fields: object): NewRecord =>
      ({ type: 'answer', side: 'buy', trade: 'b1', step: 'read', status: 'completed', ...fields }) as NewRecord;
    expect(() => journal.append(answer({ transactions: [{ signature: '', role: 'swap' }] }))).toThrow(
      'a record the journal would not read back (an answer naming transactions without their roles) was not written',
    );
    expect(readFileSync(path, 'utf8')).toBe(before);
    const good = bs58.encode(Buffer.alloc(64, 9));
    const fields = namedFields([
      { signature: good, role: 'deposit' },
      { signature: '', role: 'swap' },
      { signature: '1111', role: 'payout' },
      { signature: bs58.encode(Buffer.alloc(65, 9)), role: 'refund' },
    ]);
    expect(fields.transactions).toEqual([{ signature: good, role: 'deposit' }]);
    expect(fields.malformed!.map((m) => [m.role, m.text])).toEqual([
      ['swap', ''],
      ['payout', '1111'],
      ['refund', bs58.encode(Buffer.alloc(65, 9))],
    ]);
    expect(namedFields([{ signature: 'x'.repeat(300), role: 'swap' }]).malformed![0]!.text).toHaveLength(100);
    expect(namedFields([])).toEqual({});
    journal.append(answer(fields));
    expect(journal.read()).toHaveLength(2);
    expect(historyOf(journal.read(), 'b1')!.named).toEqual([{ signature: good, role: 'deposit' }]);
    expect(warnings).toEqual([]);
    // A malformed note without its role is not trusted.
    expect(parseRecord(JSON.stringify({ ...journal.read()[1], malformed: [{ text: '1111' }] }))).toEqual({
      damaged: 'an answer naming malformed transactions without their roles',
    });
  });

  it('refuses a symlink planted at its name, leaving the target as it was', () => {
    const dir = tempDir();
    const target = join(dir, 'victim.txt');
    writeFileSync(target, 'precious\n', { mode: 0o644 });
    const path = join(dir, 'journal.jsonl');
    symlinkSync(target, path);
    const { journal } = journalAt(path);
    expect(() => journal.check()).toThrow(
      /the journal .*journal\.jsonl is a symbolic link; it must be a file of its own/,
    );
    expect(() => journal.append(created('b1'))).toThrow(JournalError);
    expect(() => journal.read()).toThrow(/symbolic link/);
    expect(readFileSync(target, 'utf8')).toBe('precious\n');
    expect(statSync(target).mode & 0o777).toBe(0o644);
    expect(lstatSync(path).isSymbolicLink()).toBe(true);
  });

  it('refuses a journal others can write, or a folder others can write; narrows one others can only read', () => {
    const dir = tempDir();
    const path = join(dir, 'journal.jsonl');
    writeFileSync(path, '');
    chmodSync(path, 0o622);
    expect(() => journalAt(path).journal.check()).toThrow(
      /journal .* can be changed by other users \(mode 622\); run: chmod go-w/,
    );
    expect(() => journalAt(path).journal.read()).toThrow(/can be changed by other users/);
    chmodSync(path, 0o644);
    journalAt(path).journal.check();
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const open = join(tempDir(), 'shared');
    mkdirSync(open, { mode: 0o777 });
    chmodSync(open, 0o777);
    expect(() => journalAt(join(open, 'journal.jsonl')).journal.check()).toThrow(
      /config folder .* can be changed by other users/,
    );
  });

  it('refuses what is not a regular file, and a folder that cannot be made', () => {
    const path = join(tempDir(), 'journal.jsonl');
    mkdirSync(path);
    expect(() => journalAt(path).journal.check()).toThrow(JournalError);
    expect(() => journalAt('/proc/trader-journal-test/journal.jsonl').journal.check()).toThrow(
      /cannot create \/proc\/trader-journal-test/,
    );
  });

  it('update: what is on disk is seen and the records are appended in one step under the lock; a refusal writes nothing', () => {
    const path = join(tempDir(), 'journal.jsonl');
    const { journal } = journalAt(path);
    journal.append(created('b1'));
    let seen: string[] = [];
    journal.update((records) => {
      seen = records.map((r) => r.trade);
      return [created('b2')];
    });
    expect(seen).toEqual(['b1']);
    expect(() =>
      journal.update(() => {
        throw new Error('over the limit');
      }),
    ).toThrow('over the limit');
    expect(journal.read().map((r) => r.trade)).toEqual(['b1', 'b2']);
  });

  it('keeps another process out while the lock is held: its append waits, then is refused, and nothing of it is written', () => {
    const path = join(tempDir(), 'journal.jsonl');
    const module = fileURLToPath(new URL('../../dist/journal/journal-file.js', import.meta.url));
    const other = () =>
      execFileSync(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `const { Journal } = await import(${JSON.stringify(module)});
           try { new Journal(${JSON.stringify(path)}, { service: 's', wallet: 'w' }, { now: Date.now, waitMs: 50 }).append(${JSON.stringify(created('other'))}); console.log('wrote'); }
           catch (e) { console.log('refused: ' + e.message); }`,
        ],
        { encoding: 'utf8' },
      ).trim();
    const { journal } = journalAt(path, Date.now);
    let inside = '';
    journal.update(() => {
      inside = other();
      return [created('mine')];
    });
    expect(inside).toMatch(/^refused: .*journal\.jsonl\.lock is held by another trader process/);
    expect(other()).toBe('wrote');
    expect(journal.read().map((r) => r.trade)).toEqual(['mine', 'other']);
  });
});

describe('records', () => {
  const base = { v: 1, at: '2030-01-01T00:00:00.000Z', service: 's', wallet: 'w', side: 'buy', trade: 't' };
  it.each([
    ['not JSON', 'nope', 'not JSON'],
    ['an array', '[]', 'not a JSON object'],
    ['another version', JSON.stringify({ ...base, v: 2, type: 'outcome', outcome: 'x' }), 'unknown version 2'],
    ['an unknown type', JSON.stringify({ ...base, type: 'guess' }), 'unknown record type "guess"'],
    ['no time', JSON.stringify({ ...base, at: 'soon', type: 'outcome', outcome: 'x' }), 'no valid time'],
    [
      'no wallet',
      JSON.stringify({ ...base, wallet: '', type: 'outcome', outcome: 'x' }),
      'no service, wallet or trade',
    ],
    [
      'a deposit without its amount',
      JSON.stringify({
        ...base,
        type: 'before-signing',
        signature: 's',
        blockhash: 'b',
        lastValidBlockHeight: 1,
        blockhashKnownBeforeSigning: true,
        amountLamports: '1.5',
      }),
      'a deposit record without its message hash, blockhash or amount',
    ],
    [
      'a sell without its minimum',
      JSON.stringify({ ...base, side: 'sell', type: 'before-signing', messageSha256: 'a'.repeat(64) }),
      'a sell record without its message hash or minimum',
    ],
    // Counted by BigInt for the daily limits: a minimum that is not digits would stop every later trade.
    [
      'a sell whose minimum is not digits',
      JSON.stringify({
        ...base,
        side: 'sell',
        type: 'before-signing',
        messageSha256: 'a'.repeat(64),
        minimumOutputLamports: '12a',
      }),
      'a sell record without its message hash or minimum',
    ],
    [
      'a sell whose message hash is not sha-256 hex',
      JSON.stringify({
        ...base,
        side: 'sell',
        type: 'before-signing',
        messageSha256: 'h',
        minimumOutputLamports: '12',
      }),
      'a sell record without its message hash or minimum',
    ],
    [
      'a deposit whose message hash is not sha-256 hex',
      JSON.stringify({
        ...base,
        type: 'before-signing',
        messageSha256: 'A'.repeat(64),
        blockhash: 'b',
        lastValidBlockHeight: 1,
        blockhashKnownBeforeSigning: true,
        amountLamports: '1',
      }),
      'a deposit record without its message hash, blockhash or amount',
    ],
    [
      'a signature without its message hash',
      JSON.stringify({ ...base, type: 'signed', signature: 's' }),
      'a signed record without its message hash or signature',
    ],
    [
      'a signature whose transaction is not text',
      JSON.stringify({ ...base, type: 'signed', messageSha256: 'a'.repeat(64), signature: 's', transaction: 1 }),
      'a signed record whose transaction is not base64 text',
    ],
    [
      'evidence of no role',
      JSON.stringify({ ...base, type: 'evidence', signature: 's', role: 'fee' }),
      'an evidence record without its transaction or role',
    ],
    [
      'an answer naming a transaction without its role',
      JSON.stringify({ ...base, type: 'answer', step: 'read', status: 'x', transactions: [{ signature: 's' }] }),
      'an answer naming transactions without their roles',
    ],
    [
      'an answer naming a transaction in no known role',
      JSON.stringify({
        ...base,
        type: 'answer',
        step: 'read',
        status: 'x',
        transactions: [{ signature: 's', role: 'gift' }],
      }),
      'an answer naming transactions without their roles',
    ],
    [
      'a deposit whose transaction is not text',
      JSON.stringify({
        ...base,
        type: 'before-signing',
        signature: 's',
        blockhash: 'b',
        lastValidBlockHeight: 1,
        blockhashKnownBeforeSigning: true,
        amountLamports: '1',
        transaction: 7,
      }),
      'a deposit record whose transaction is not base64 text',
    ],
  ])('%s is damaged: %s', (_what, line, reason) => {
    expect(parseRecord(line)).toEqual({ damaged: reason });
  });
});

/** A record as the file holds it, at `ms`. */
const at = (ms: number, r: NewRecord, wallet = 'W1'): JournalRecord =>
  ({ v: 1, at: new Date(ms).toISOString(), service: OWNER.service, wallet, ...r }) as JournalRecord;

describe('the daily limits, from the records', () => {
  const sell = (trade: string, minimum: string): NewRecord => ({
    type: 'before-signing',
    side: 'sell',
    trade,
    messageSha256: `h-${trade}`,
    minimumOutputLamports: minimum,
  });

  it('counts the signed deposits of the last 24 hours: one signed exactly 24 hours ago is out, one a millisecond later is in', () => {
    const now = T0 + DAY_MS;
    const records = [
      at(T0, deposit('a', 'S1', '10')),
      at(T0 + 1, deposit('b', 'S2', '20')),
      at(now, deposit('c', 'S3', '30')),
    ];
    expect(commitments(records, 'W1', 'buy', now).map((c) => c.lamports)).toEqual([20n, 30n]);
  });

  it('a deposit signed again (the same signature) counts once; another wallet and the other side do not count; every service does', () => {
    const records = [
      at(T0, deposit('a', 'S1', '10')),
      at(T0 + 5, deposit('a', 'S1', '10')),
      at(T0, deposit('x', 'S9', '99'), 'W2'),
      at(T0, sell('s1', '7')),
      { ...at(T0, deposit('b', 'S2', '5')), service: 'https://other.example/api/v1' },
    ];
    expect(commitments(records, 'W1', 'buy', T0 + 10).map((c) => c.lamports)).toEqual([10n, 5n]);
    expect(commitments(records, 'W1', 'sell', T0 + 10).map((c) => c.lamports)).toEqual([7n]);
  });

  it('a second deposit signed for the same buy (after the chain proved the first dead) counts as well; the same bytes recorded twice count once', () => {
    const signing = (trade: string, hash: string, lamports: string): NewRecord => ({
      type: 'before-signing',
      side: 'buy',
      trade,
      messageSha256: hash.repeat(64),
      blockhash: 'b',
      lastValidBlockHeight: 1,
      blockhashKnownBeforeSigning: true,
      amountLamports: lamports,
    });
    const records = [
      at(T0, signing('a', 'a', '10')),
      at(T0 + 1, signing('a', 'b', '10')),
      at(T0 + 2, signing('a', 'b', '10')),
    ];
    expect(commitments(records, 'W1', 'buy', T0 + 10).map((c) => c.lamports)).toEqual([10n, 10n]);
    expect(parseRecord(JSON.stringify(records[0])).constructor).toBe(Object);
    expect(parseRecord(JSON.stringify(records[0]))).toEqual({ record: records[0] });
  });

  it('at the cap fits; one lamport past it does not, and says when room frees up: when the oldest it needs leaves the window', () => {
    const window = commitments(
      [at(T0, deposit('a', 'S1', '30')), at(T0 + 1000, deposit('b', 'S2', '50'))],
      'W1',
      'buy',
      T0 + 2000,
    );
    expect(dailyRoom(window, 20n, 100n)).toEqual({ fits: true, spent: 80n, freesAtMs: null });
    expect(dailyRoom(window, 21n, 100n)).toEqual({ fits: false, spent: 80n, freesAtMs: T0 + DAY_MS });
    // Room for 60 needs both gone.
    expect(dailyRoom(window, 60n, 100n)).toEqual({ fits: false, spent: 80n, freesAtMs: T0 + 1000 + DAY_MS });
    // More than the cap alone never fits.
    expect(dailyRoom(window, 101n, 100n)).toEqual({ fits: false, spent: 80n, freesAtMs: null });
    expect(dailyRoom([], 100n, 100n).fits).toBe(true);
  });
});

describe('evidence proves one trade', () => {
  const evidence = (
    trade: string,
    signature: string,
    role: 'payout' | 'deposit' | 'refund' | 'swap' = 'payout',
  ): NewRecord => ({
    type: 'evidence',
    side: 'sell',
    trade,
    signature,
    role,
  });

  it("a transaction another trade claimed is a conflict naming that trade; this trade's own claim again is neither a conflict nor new", () => {
    const records = [at(T0, evidence('sell_A', 'P1')), at(T0, evidence('sell_B', 'P2'))];
    expect(
      sortClaims(records, 'sell_B', [
        { signature: 'P1', role: 'payout' },
        { signature: 'P2', role: 'payout' },
        { signature: 'P3', role: 'payout' },
      ]),
    ).toEqual({
      conflicts: [{ signature: 'P1', role: 'payout', otherTrade: 'sell_A', otherRole: 'payout' }],
      fresh: [{ signature: 'P3', role: 'payout' }],
    });
    // In another role too: a refund of one trade is no payout of another.
    expect(
      sortClaims([at(T0, evidence('b1', 'R1', 'refund'))], 'sell_C', [{ signature: 'R1', role: 'payout' }]).conflicts,
    ).toEqual([{ signature: 'R1', role: 'payout', otherTrade: 'b1', otherRole: 'refund' }]);
    // A swap too: the first run to record it under the lock keeps it; the second is told (a race of two runs).
    const swapOfB1 = [at(T0, evidence('b1', 'S1', 'swap'))];
    expect(sortClaims(swapOfB1, 'b2', [{ signature: 'S1', role: 'swap' }])).toEqual({
      conflicts: [{ signature: 'S1', role: 'swap', otherTrade: 'b1', otherRole: 'swap' }],
      fresh: [],
    });
    expect(sortClaims(swapOfB1, 'b1', [{ signature: 'S1', role: 'swap' }])).toEqual({ conflicts: [], fresh: [] });
  });

  it("a trade's history: created when first recorded, its signed deposits, its trade id, the transactions named for it", () => {
    const records = [
      at(T0 + 5, created('sell_A', 'sell')),
      at(T0 + 6, {
        type: 'before-signing',
        side: 'sell',
        trade: 'sell_A',
        messageSha256: 'h',
        minimumOutputLamports: '42',
      }),
      at(T0 + 7, {
        type: 'answer',
        side: 'sell',
        trade: 'sell_A',
        step: 'read',
        status: 'completed',
        tradeId: 'sg_1',
        signatures: ['SW'],
      }),
      at(T0 + 8, evidence('sell_A', 'P1')),
    ];
    const h = historyOf(records, 'sg_1')!;
    expect(h).toMatchObject({
      trade: 'sell_A',
      createdAtMs: T0 + 5,
      madeAtMs: T0 + 5,
      idempotencyKey: 'key-sell_A',
      signedMinimumLamports: '42',
      status: 'completed',
      tradeId: 'sg_1',
      signatures: ['SW', 'P1'],
      completed: true,
      authorized: false,
    });
    // The authorize answered authorized (the signature taken); a run's outcome completed.
    const taken = [
      at(T0, created('sell_C', 'sell')),
      at(T0 + 1, { type: 'answer', side: 'sell', trade: 'sell_C', step: 'authorize', status: 'authorized' }),
    ];
    expect(historyOf(taken, 'sell_C')).toMatchObject({ authorized: true, completed: false });
    expect(
      historyOf(
        [...taken, at(T0 + 2, { type: 'outcome', side: 'sell', trade: 'sell_C', outcome: 'completed' })],
        'sell_C',
      ),
    ).toMatchObject({ authorized: true, completed: true });
    // A deposit record keeps the signed transaction (absent in an earlier version's).
    const kept = historyOf(
      [at(T0, created('b1')), at(T0 + 1, { ...deposit('b1', 'S1', '5'), transaction: 'AQID' } as NewRecord)],
      'b1',
    )!;
    expect(kept.deposits.map((d) => d.transaction)).toEqual(['AQID']);
    expect(historyOf(records, 'sell_B')).toBeNull();
    // Seen only resumed (made elsewhere): when it was made is not known here.
    const resumed = [at(T0 + 50, { ...created('sell_B', 'sell'), resumed: true } as NewRecord)];
    expect(historyOf(resumed, 'sell_B')).toMatchObject({ createdAtMs: T0 + 50, madeAtMs: null });
  });
});

describe('what the journal knows of the other trades (attack-3 F2, F4)', () => {
  const named = (
    trade: string,
    side: 'buy' | 'sell',
    status: string,
    transactions: Array<{ signature: string; role: 'deposit' | 'swap' | 'payout' | 'refund' }>,
  ): NewRecord => ({ type: 'answer', side, trade, step: 'read', status, transactions });
  const withFee = (trade: string, signature: string, amount: string, fee: string | null): NewRecord =>
    ({ ...(deposit(trade, signature, amount) as object), platformFeeLamports: fee }) as NewRecord;

  it("every transaction it knows for another trade, in its role: a deposit signed, one named (an earlier version's without its role), one proved; never the trade's own, by either of its ids", () => {
    const records = [
      at(T0, created('b1')),
      at(T0 + 1, deposit('b1', 'D1', '100')),
      at(
        T0 + 2,
        named('b1', 'buy', 'refunded', [
          { signature: 'SW1', role: 'swap' },
          { signature: 'R1', role: 'refund' },
        ]),
      ),
      at(T0 + 3, { type: 'evidence', side: 'buy', trade: 'b1', signature: 'R1', role: 'refund' }),
      at(T0 + 4, created('sell_A', 'sell')),
      at(T0 + 5, {
        type: 'answer',
        side: 'sell',
        trade: 'sell_A',
        step: 'read',
        status: 'completed',
        tradeId: 'sg_A',
        signatures: ['OLD'],
      }),
      at(T0 + 6, named('sell_A', 'sell', 'completed', [{ signature: 'P1', role: 'payout' }])),
    ];
    const k = journalKnowledge(records, 'sell_B', 'W1');
    expect(Object.fromEntries(k.elsewhere)).toEqual({
      D1: [{ trade: 'b1', side: 'buy', role: 'deposit' }],
      SW1: [{ trade: 'b1', side: 'buy', role: 'swap' }],
      R1: [{ trade: 'b1', side: 'buy', role: 'refund' }],
      OLD: [{ trade: 'sell_A', side: 'sell', role: null }],
      P1: [{ trade: 'sell_A', side: 'sell', role: 'payout' }],
    });
    expect([...journalKnowledge(records, 'sell_A', 'W1').elsewhere.keys()]).toEqual(['D1', 'SW1', 'R1']);
    expect([...journalKnowledge(records, 'sg_A', 'W1').elsewhere.keys()]).toEqual(['D1', 'SW1', 'R1']);
    // A role learnt later replaces the role-less name.
    const later = [...records, at(T0 + 7, named('sell_A', 'sell', 'completed', [{ signature: 'OLD', role: 'swap' }]))];
    expect(journalKnowledge(later, 'x', 'W1').elsewhere.get('OLD')).toEqual([
      { trade: 'sell_A', side: 'sell', role: 'swap' },
    ]);
  });

  it("refundable: this wallet's buys with a signed deposit not known completed, by the deposit and the deposit less the fee its review showed, from when they were made", () => {
    const records = [
      at(T0, created('nowait')),
      at(T0 + 1, withFee('nowait', 'D1', '100000000', '1000000')),
      at(T0 + 2, { type: 'outcome', side: 'buy', trade: 'nowait', outcome: 'accepted' }),
      at(T0 + 3, created('failed')),
      at(T0 + 4, withFee('failed', 'D2', '50000000', null)),
      at(T0 + 5, { type: 'outcome', side: 'buy', trade: 'failed', outcome: 'refunded' }),
      at(T0 + 6, created('done')),
      at(T0 + 7, deposit('done', 'D3', '70000000')),
      at(T0 + 8, { type: 'outcome', side: 'buy', trade: 'done', outcome: 'completed' }),
      at(T0 + 9, created('unsigned')),
      at(T0 + 10, created('theirs'), 'W2'),
      at(T0 + 11, deposit('theirs', 'D4', '80000000'), 'W2'),
    ];
    expect(journalKnowledge(records, 'sell_X', 'W1').refundable).toEqual([
      { trade: 'nowait', madeAtMs: T0, lamports: [100000000n, 99000000n] },
      { trade: 'failed', madeAtMs: T0 + 3, lamports: [50000000n] },
    ]);
    // Once the buy's refund is known, that transaction is known elsewhere and no other transfer is its refund.
    const known = [...records, at(T0 + 12, named('failed', 'buy', 'refunded', [{ signature: 'R2', role: 'refund' }]))];
    expect(journalKnowledge(known, 'sell_X', 'W1').refundable.map((b) => b.trade)).toEqual(['nowait']);
    // Another wallet's buy is refunded to that wallet, not this one; but its deposit is still a transaction known elsewhere.
    expect(journalKnowledge(records, 'sell_X', 'W2').refundable.map((b) => b.trade)).toEqual(['theirs']);
    expect(journalKnowledge(records, 'sell_X', 'W1').elsewhere.get('D4')).toEqual([
      { trade: 'theirs', side: 'buy', role: 'deposit' },
    ]);
  });
});
