// One formatter for counts and their units (src/domain/units.ts, amounts.ts's SOL pairs): the
// unit is singular only when the number written is exactly 1.
import { describe, expect, it } from 'vitest';
import { lamportsAndSol, solAndLamports } from '../../src/domain/amounts.js';
import { counted, lamports, secondsText } from '../../src/domain/units.js';
import { tokenAmount } from '../../src/views/token-amount.js';

describe('counted', () => {
  it.each([
    [0n, '0 lamports'],
    [1n, '1 lamport'],
    [2n, '2 lamports'],
    ['1', '1 lamport'],
    ['10', '10 lamports'],
  ] as const)('%s lamports → %s', (n, text) => expect(lamports(n)).toBe(text));

  it('the number as written decides, not the count: 1,000 is plural, 1 token is not', () => {
    expect(counted(1000n, 'raw unit', '1,000')).toBe('1,000 raw units');
    expect(counted(1n, 'trade')).toBe('1 trade');
    expect(counted(0, 'trade')).toBe('0 trades');
    expect(counted(2, 'sell')).toBe('2 sells');
  });

  it('a SOL amount names its lamports the same way at 0, 1 and 2', () => {
    expect(solAndLamports(0n)).toBe('0 SOL (0 lamports)');
    expect(solAndLamports(1n)).toBe('0.000000001 SOL (1 lamport)');
    expect(solAndLamports(2n)).toBe('0.000000002 SOL (2 lamports)');
    expect(lamportsAndSol(1_000_000_000n)).toBe('1000000000 lamports (1 SOL)');
    expect(lamportsAndSol(1n)).toBe('1 lamport (0.000000001 SOL)');
  });

  it('token amounts: 1 token, 1.5 tokens, 1 raw unit, 2 raw units; a symbol takes no plural', () => {
    expect(tokenAmount(100000n, { decimals: 5, symbol: null } as never)).toBe('1 token');
    expect(tokenAmount(150000n, { decimals: 5, symbol: null } as never)).toBe('1.5 tokens');
    expect(tokenAmount(0n, { decimals: 5, symbol: null } as never)).toBe('0 tokens');
    expect(tokenAmount(1n, null)).toBe('1 raw unit');
    expect(tokenAmount(2n, null)).toBe('2 raw units');
    expect(tokenAmount(100000n, { decimals: 5, symbol: 'WOOF' } as never)).toBe('1 WOOF');
  });

  it('seconds are written `n s`, to the millisecond', () => {
    expect(secondsText(1000)).toBe('1 s');
    expect(secondsText(30_000)).toBe('30 s');
    expect(secondsText(1500)).toBe('1.5 s');
    expect(secondsText(0)).toBe('0 s');
  });
});
