import { describe, expect, it } from 'vitest';
import {
  U64_MAX,
  formatInteger,
  formatSol,
  formatTokenAmount,
  formatUsd,
  resolveSellAmount,
  toDecimalString,
  wholeTokensToUnits,
} from '../../src/domain/amounts.js';
import { parseBuyAmount, parseLimit, parseSellAmount, parseSolToLamports } from '../../src/cli/argument-parsers.js';
import { parseLamportsOption, parseSeconds, parseSlippageBps } from '../../src/config/profile-values.js';
import { UsageError } from '../../src/domain/errors.js';

function usageError(fn: () => unknown): UsageError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    const err = e as UsageError;
    expect(err.exitCode).toBe(2);
    expect(err.message).not.toContain('\n');
    return err;
  }
  throw new Error('expected a UsageError');
}

describe('U64_MAX', () => {
  it('is 2^64 - 1', () => expect(U64_MAX).toBe(2n ** 64n - 1n));
});

describe('parseBuyAmount', () => {
  it.each([
    ['1', 1n],
    ['100000000', 100_000_000n],
    ['18446744073709551615', U64_MAX],
    ['0.1sol', 100_000_000n],
    ['0.25sol', 250_000_000n],
    ['1SOL', 1_000_000_000n],
    ['1Sol', 1_000_000_000n],
    ['0.000000001sol', 1n],
    ['1.123456789sol', 1_123_456_789n],
    ['0.1000sol', 100_000_000n],
    ['18446744073.709551615sol', U64_MAX],
    // exactness where binary floating point is not: 0.1 + 0.2 style values
    ['0.3sol', 300_000_000n],
    ['4.35sol', 4_350_000_000n],
    ['9007199254.740993sol', 9_007_199_254_740_993_000n],
    // thousands groups as the tool prints them, exactly
    ['1,000', 1_000n],
    ['100,000,000', 100_000_000n],
    ['1,000.5sol', 1_000_500_000_000n],
  ])('accepts %s', (text, lamports) => {
    expect(parseBuyAmount(text)).toBe(lamports);
  });

  it.each([
    [''],
    ['0'],
    ['0sol'],
    ['0.0sol'],
    ['-1'],
    ['-0.1sol'],
    ['+1'],
    ['+0.1sol'],
    ['0.1'],
    ['1.5'],
    ['1e9'],
    ['1E9'],
    ['1e-1sol'],
    [' 1'],
    ['1 '],
    ['0.1 sol'],
    ['1 000'],
    ['1,00'],
    ['1,0000'],
    ['01,000'],
    [',100'],
    ['1,000,00sol'],
    ['0.100,000sol'],
    ['1_000'],
    ['0x10'],
    ['0b1'],
    ['.5sol'],
    ['5.sol'],
    ['sol'],
    ['0.0000000001sol'],
    ['1.1234567891sol'],
    ['18446744073709551616'],
    ['18446744073.709551616sol'],
    ['99999999999999999999999'],
    ['01'],
    ['00.5sol'],
    ['1sols'],
    ['1lamports'],
    ['NaN'],
    ['Infinity'],
    ['１'],
    ['1\n'],
  ])('rejects %j', (text) => {
    const err = usageError(() => parseBuyAmount(text));
    expect(err.message).toMatch(/lamports.*SOL with the suffix sol/);
  });

  it('says why: too many decimals, over u64, decimal without suffix', () => {
    expect(usageError(() => parseBuyAmount('0.0000000001sol')).message).toContain('at most 9 decimals');
    expect(usageError(() => parseBuyAmount('18446744073709551616')).message).toContain('u64');
    expect(usageError(() => parseBuyAmount('0.1')).message).toContain('needs the suffix sol');
    expect(usageError(() => parseBuyAmount('0')).message).toContain('more than zero');
    expect(usageError(() => parseBuyAmount('1,00')).message).toBe(
      'invalid amount "1,00": a "," only groups the whole part in threes (1,000,000 or 1,234.5woof); use lamports as a positive whole number (100000000) or SOL with the suffix sol (0.1sol)',
    );
    expect(usageError(() => parseSellAmount('1,00woof')).message).toMatch(
      /^invalid amount "1,00woof": a "," only groups the whole part in threes/,
    );
  });
});

describe('parseSolToLamports', () => {
  it.each([
    ['0', 0n],
    ['0.0', 0n],
    ['0.05', 50_000_000n],
    ['0.0495', 49_500_000n],
    ['1', 1_000_000_000n],
    ['2.5sol', 2_500_000_000n],
    ['0.000000001', 1n],
  ])('accepts %s', (text, lamports) => expect(parseSolToLamports(text)).toBe(lamports));

  it.each([[''], ['-0.1'], ['1e-3'], ['0.0000000001'], ['.5'], ['1,5'], ['abc'], ['18446744074'], [' 1']])(
    'rejects %j naming the option',
    (text) => {
      expect(usageError(() => parseSolToLamports(text)).message).toContain('--min-sol');
    },
  );
});

describe('parseSellAmount', () => {
  it.each([
    ['1', { kind: 'raw', units: 1n }],
    ['1000000', { kind: 'raw', units: 1_000_000n }],
    ['18446744073709551615', { kind: 'raw', units: U64_MAX }],
    ['all', { kind: 'all' }],
    ['ALL', { kind: 'all' }],
    ['1%', { kind: 'percent', percent: 1n }],
    ['1,000', { kind: 'raw', units: 1_000n }],
    ['1,000woof', { kind: 'tokens', text: '1000woof', number: '1000', unit: 'woof' }],
    ['12,345.5tokens', { kind: 'tokens', text: '12345.5tokens', number: '12345.5', unit: 'tokens' }],
    ['50%', { kind: 'percent', percent: 50n }],
    ['100%', { kind: 'percent', percent: 100n }],
  ])('accepts %s', (text, spec) => expect(parseSellAmount(text)).toEqual(spec));

  it.each([
    [''],
    ['0'],
    ['-5'],
    ['+5'],
    ['1.5'],
    ['1e6'],
    ['1,00'],
    ['1,000.5'],
    ['1.000,5woof'],
    ['1,000%'],
    ['0%'],
    ['101%'],
    ['50.5%'],
    ['-1%'],
    ['%'],
    [' 50%'],
    ['50 %'],
    ['18446744073709551616'],
    ['half'],
    ['0x10'],
    ['05'],
    ['0sgld'],
    ['0.000tokens'],
    ['-1.5sgld'],
    ['-1tokens'],
    ['.5sgld'],
    ['05sgld'],
    ['1.5.1sgld'],
    ['1.sgld'],
    ['1.5 sgld'],
    ['1.5sgld!'],
    ['1.5abcdefghijklmnopq'],
  ])('rejects %j', (text) => {
    const message = usageError(() => parseSellAmount(text)).message;
    // Every refusal names the accepted forms.
    for (const form of ['raw token units', '1.5sgld', '1.5tokens', 'all', '1% to 100%'])
      expect(message).toContain(form);
  });

  it.each([
    ['1.5sgld', '1.5', 'sgld'],
    ['1.5SGLD', '1.5', 'SGLD'],
    ['1.5tokens', '1.5', 'tokens'],
    ['10Tokens', '10', 'Tokens'],
    ['0.000001sgld', '0.000001', 'sgld'],
    ['2.51inch', '2.51', 'inch'],
    ['3w.eth', '3', 'w.eth'],
    ['1abcdefghijklmnop', '1', 'abcdefghijklmnop'],
  ])('%s is whole tokens: number %s, unit %s (checked against the token later)', (text, number, unit) => {
    expect(parseSellAmount(text)).toEqual({ kind: 'tokens', text, number, unit });
  });

  it('a bare decimal is refused naming the whole-token forms, with the symbol typed when there is one', () => {
    const bare = usageError(() => parseSellAmount('1.5')).message;
    expect(bare).toBe(
      'invalid amount "1.5": a number with decimal places is whole tokens and needs the unit: 1.5tokens; use raw token units (1000000), whole tokens with the symbol or "tokens" (1.5sgld, 1.5tokens), all, or a whole percentage from 1% to 100%',
    );
    expect(usageError(() => parseSellAmount('0.25', 'WOOF')).message).toContain(
      'needs the unit: 0.25woof or 0.25tokens; use raw token units (1000000), whole tokens with the symbol or "tokens" (1.5woof, 1.5tokens)',
    );
  });

  it('zero whole tokens and negative amounts say so', () => {
    expect(usageError(() => parseSellAmount('0.0sgld')).message).toMatch(
      /^invalid amount "0.0sgld": it must be more than zero/,
    );
    expect(usageError(() => parseSellAmount('-1.5sgld')).message).toMatch(/^invalid amount "-1.5sgld": it is negative/);
  });
});

describe('wholeTokensToUnits: exact conversion by the decimals, never rounding', () => {
  const tokens = (text: string) => {
    const spec = parseSellAmount(text);
    if (spec.kind !== 'tokens') throw new Error(`${text} is not whole tokens`);
    return spec;
  };
  // At each decimals 0–9: the most places allowed converts exactly; one place more is refused.
  const table: Array<[number, string, bigint, string]> = [
    [0, '7', 7n, '7.1'],
    [1, '1.5', 15n, '1.55'],
    [2, '1.25', 125n, '1.255'],
    [3, '0.001', 1n, '0.0015'],
    [4, '12.3456', 123_456n, '12.34561'],
    [5, '0.00001', 1n, '0.000011'],
    [6, '1.000001', 1_000_001n, '1.0000001'],
    [7, '9.9999999', 99_999_999n, '9.99999999'],
    [8, '0.12345678', 12_345_678n, '0.123456789'],
    [9, '1.000000001', 1_000_000_001n, '1.0000000001'],
  ];
  it.each(table)(
    'decimals %i: %s converts to %s units exactly; %s (one place more) is refused',
    (decimals, ok, units, tooMany) => {
      const token = { symbol: 'SGLD', decimals };
      expect(wholeTokensToUnits(tokens(`${ok}sgld`), token)).toBe(units);
      expect(wholeTokensToUnits(tokens(`${ok}tokens`), token)).toBe(units);
      const err = usageError(() => wholeTokensToUnits(tokens(`${tooMany}sgld`), token));
      expect(err.message).toContain(`invalid amount "${tooMany}sgld": SGLD has ${decimals} decimals`);
      expect(err.message).toContain('nothing is rounded');
    },
  );

  it('trailing zeros within the decimals are fine; a whole number is whole tokens', () => {
    expect(wholeTokensToUnits(tokens('1.500000sgld'), { symbol: 'SGLD', decimals: 6 })).toBe(1_500_000n);
    expect(wholeTokensToUnits(tokens('10sgld'), { symbol: 'SGLD', decimals: 6 })).toBe(10_000_000n);
    expect(wholeTokensToUnits(tokens('10sgld'), { symbol: 'SGLD', decimals: 0 })).toBe(10n);
    // Big numbers stay exact (no float): 20 digits, beyond a double's 15-17.
    expect(wholeTokensToUnits(tokens('12345678901.123456789tokens'), { symbol: 'B', decimals: 9 })).toBe(
      12_345_678_901_123_456_789n,
    );
  });

  it('the unit is the symbol in any case, or tokens; a symbol starting with digits splits by the real symbol', () => {
    expect(wholeTokensToUnits(tokens('1.5SgLd'), { symbol: 'sgld', decimals: 6 })).toBe(1_500_000n);
    expect(wholeTokensToUnits(tokens('1.5TOKENS'), { symbol: 'SGLD', decimals: 6 })).toBe(1_500_000n);
    expect(wholeTokensToUnits(tokens('2.51inch'), { symbol: '1INCH', decimals: 2 })).toBe(250n);
  });

  it('another symbol is refused naming the token sold', () => {
    expect(usageError(() => wholeTokensToUnits(tokens('1.5woof'), { symbol: 'SGLD', decimals: 6 })).message).toBe(
      'invalid amount "1.5woof": "woof" is not the symbol of the token being sold (SGLD); write 1.5sgld or 1.5tokens',
    );
    expect(usageError(() => wholeTokensToUnits(tokens('1.5sgld'), { symbol: null, decimals: 6 })).message).toContain(
      'write 1.5tokens',
    );
    // An exponent reads as a unit, so it is refused as one (a symbol such as E4C stays typable).
    expect(
      usageError(() => wholeTokensToUnits(tokens('1e6tokens'), { symbol: 'SGLD', decimals: 6 })).message,
    ).toContain('"e6tokens" is not the symbol');
  });

  it('unknown decimals are refused for whole tokens (raw units still work)', () => {
    for (const token of [{ symbol: 'SGLD', decimals: null }, null]) {
      expect(usageError(() => wholeTokensToUnits(tokens('1.5tokens'), token)).message).toContain(
        "nor the service gives this token's decimals",
      );
    }
  });

  it('above the u64 maximum is refused; at it passes', () => {
    expect(wholeTokensToUnits(tokens('18446744073.709551615tokens'), { symbol: 'X', decimals: 9 })).toBe(U64_MAX);
    expect(
      usageError(() => wholeTokensToUnits(tokens('18446744073.709551616tokens'), { symbol: 'X', decimals: 9 })).message,
    ).toContain('u64');
  });
});

describe('resolveSellAmount', () => {
  it('all is the holding', () => expect(resolveSellAmount({ kind: 'all' }, 1234n)).toBe(1234n));
  it('percent rounds down', () => {
    expect(resolveSellAmount({ kind: 'percent', percent: 50n }, 1001n)).toBe(500n);
    expect(resolveSellAmount({ kind: 'percent', percent: 100n }, 1001n)).toBe(1001n);
    expect(resolveSellAmount({ kind: 'percent', percent: 33n }, U64_MAX)).toBe((U64_MAX * 33n) / 100n);
  });
  it('a percent that rounds to zero is refused', () => {
    expect(usageError(() => resolveSellAmount({ kind: 'percent', percent: 1n }, 99n)).message).toContain(
      'rounds down to zero',
    );
  });
  it('raw within the holding passes; above it is refused naming the holding', () => {
    expect(resolveSellAmount({ kind: 'raw', units: 500n }, 500n)).toBe(500n);
    const err = usageError(() => resolveSellAmount({ kind: 'raw', units: 1_000_001n }, 1_000_000n));
    expect(err.message).toContain('1,000,000');
    expect(err.message).toContain('held');
  });
  it('uses the given description of units', () => {
    const err = usageError(() =>
      resolveSellAmount({ kind: 'raw', units: 2_000_000n }, 1_500_000n, (u) => `${formatTokenAmount(u, 6)} BONK`),
    );
    expect(err.message).toContain('only 1.5 BONK held');
  });
  it('nothing held is refused', () => {
    usageError(() => resolveSellAmount({ kind: 'all' }, 0n));
  });
  it('whole tokens are converted by the token and checked against the holding, at it and one unit past it', () => {
    const spec = parseSellAmount('1.5sgld');
    const sgld = { symbol: 'SGLD', decimals: 6 };
    const describe = (u: bigint) => `${formatTokenAmount(u, 6)} SGLD`;
    expect(resolveSellAmount(spec, 1_500_000n, describe, sgld)).toBe(1_500_000n);
    expect(usageError(() => resolveSellAmount(spec, 1_499_999n, describe, sgld)).message).toBe(
      'cannot sell 1.5 SGLD: only 1.499999 SGLD held; use all or a smaller amount',
    );
  });
  it('raw integers keep their meaning whatever the decimals', () => {
    for (const decimals of [0, 6, 9]) {
      expect(resolveSellAmount(parseSellAmount('10'), 10n ** 12n, undefined, { symbol: 'SGLD', decimals })).toBe(10n);
    }
  });
});

describe('integer options', () => {
  it('slippage 0–10000', () => {
    expect(parseSlippageBps('0')).toBe(0);
    expect(parseSlippageBps('50')).toBe(50);
    expect(parseSlippageBps('10000')).toBe(10_000);
    for (const bad of ['', '-1', '10001', '1.5', '1e2', ' 5', 'abc', '050']) {
      expect(usageError(() => parseSlippageBps(bad)).message).toContain('--slippage-bps');
    }
  });
  it('limit 1–100', () => {
    expect(parseLimit('1')).toBe(1);
    expect(parseLimit('100')).toBe(100);
    for (const bad of ['0', '101', '', '2.0', '-3'])
      expect(usageError(() => parseLimit(bad)).message).toContain('--limit');
  });
  it('lamports option 0…u64', () => {
    expect(parseLamportsOption('0')).toBe(0n);
    expect(parseLamportsOption('100000')).toBe(100_000n);
    expect(parseLamportsOption(U64_MAX.toString())).toBe(U64_MAX);
    for (const bad of [
      '',
      '-1',
      '-0.5sol',
      '1.5',
      '18446744073709551616',
      '18446744073.709551616sol',
      '1e5',
      '1,00',
      '0.0000000001sol',
    ]) {
      expect(usageError(() => parseLamportsOption(bad)).message).toMatch(
        /^invalid --max-fee-lamports .*; use lamports as a whole number \(100000000\) or SOL with the suffix sol \(0\.1sol\)$/,
      );
    }
  });
  it('lamports: SOL as a trade amount takes it, through the same parser, from 0 to u64 max', () => {
    expect(parseLamportsOption('0sol')).toBe(0n);
    expect(parseLamportsOption('1sol', 'config key maxDailyBuyLamports')).toBe(1_000_000_000n);
    expect(parseLamportsOption('0.000000001sol')).toBe(1n);
    expect(parseLamportsOption('1,000')).toBe(1000n);
    expect(parseLamportsOption('18446744073.709551615sol')).toBe(U64_MAX);
    expect(usageError(() => parseLamportsOption('0.0000000001sol')).message).toContain('SOL has at most 9 decimals');
    expect(usageError(() => parseLamportsOption('-1', 'config key maxBuyLamports')).message).toBe(
      'invalid config key maxBuyLamports "-1": it is negative; use lamports as a whole number (100000000) or SOL with the suffix sol (0.1sol)',
    );
    // The buy's amount is the same parser, zero refused.
    expect(parseBuyAmount('18446744073.709551615sol')).toBe(U64_MAX);
    expect(usageError(() => parseBuyAmount('0sol')).message).toContain('more than zero');
  });
  it('seconds: positive, at least min, names the option', () => {
    expect(parseSeconds('30', { option: '--timeout' })).toBe(30);
    expect(parseSeconds('1.5', { option: '--request-timeout' })).toBe(1.5);
    expect(parseSeconds('2', { min: 2, option: '--interval' })).toBe(2);
    expect(usageError(() => parseSeconds('1.9', { min: 2, option: '--interval' })).message).toMatch(
      /--interval.*at least 2/,
    );
    for (const bad of ['0', '-1', '', 'abc', '1e3', 'Infinity', ' 5', '99999999']) {
      expect(usageError(() => parseSeconds(bad, { option: '--timeout' })).message).toContain('--timeout');
    }
  });
});

describe('formatting', () => {
  it('formatSol is exact with separators and trimmed zeros', () => {
    expect(formatSol(100_000_000n)).toBe('0.1');
    expect(formatSol('1500000000')).toBe('1.5');
    expect(formatSol(1_234_500_000_000n)).toBe('1,234.5');
    expect(formatSol(0n)).toBe('0');
    expect(formatSol(1n)).toBe('0.000000001');
    expect(formatSol(1_000_000_000n)).toBe('1');
    expect(formatSol(U64_MAX)).toBe('18,446,744,073.709551615');
    expect(formatSol(-1_500_000_000n)).toBe('-1.5');
  });
  it('formatSol refuses a non-integer string', () => {
    expect(() => formatSol('0.1')).toThrow(TypeError);
    expect(() => formatSol('')).toThrow(TypeError);
  });
  it('formatTokenAmount by decimals, raw when unknown', () => {
    expect(formatTokenAmount(1_234_500_000n, 6)).toBe('1,234.5');
    expect(formatTokenAmount('1234567', 0)).toBe('1,234,567');
    expect(formatTokenAmount('1234567', null)).toBe('1,234,567');
    expect(formatTokenAmount(5n, 9)).toBe('0.000000005');
    expect(formatTokenAmount('1000', 1.5)).toBe('1,000');
  });
  it('formatUsd', () => {
    expect(formatUsd(1234.56)).toBe('$1,234.56');
    expect(formatUsd(0)).toBe('$0.00');
    expect(formatUsd(1_000_000)).toBe('$1,000,000.00');
    expect(formatUsd(-3.1)).toBe('-$3.10');
    expect(formatUsd(0.00001234)).toBe('$0.00001234');
    expect(formatUsd(null)).toBe('—');
    expect(formatUsd(Number.NaN)).toBe('—');
  });
  it('formatInteger', () => {
    expect(formatInteger(0n)).toBe('0');
    expect(formatInteger(999n)).toBe('999');
    expect(formatInteger('1000')).toBe('1,000');
    expect(formatInteger(-1234567n)).toBe('-1,234,567');
  });
  it('toDecimalString has no separators', () => {
    expect(toDecimalString(49_500_000n, 9)).toBe('0.0495');
    expect(toDecimalString(1_234_500_000_000n, 9)).toBe('1234.5');
    expect(toDecimalString(1500n, 0)).toBe('1500');
    expect(toDecimalString(0n, 6)).toBe('0');
    expect(toDecimalString(1_000_000n, 6)).toBe('1');
  });
});

describe('solPerToken', () => {
  it('SOL per whole token, rounded to 4 significant digits with bigint arithmetic', async () => {
    const { solPerToken } = await import('../../src/domain/amounts.js');
    // 0.5 SOL for 3,710,663.2217 WOOF (5 decimals): 1.34747… × 10^-7 SOL each.
    expect(solPerToken(500_000_000n, 371_066_322_170n, 5)).toBe('0.0000001347');
    // 0.1 SOL for 3.92 BRIX (9 decimals): 0.02551… SOL each.
    expect(solPerToken(100_000_000n, 3_920_011_918n, 9)).toBe('0.02551');
    // Expensive tokens: 1,234.5 SOL for one raw unit of a 0-decimal token.
    expect(solPerToken(1_234_500_000_000n, 1n, 0)).toBe('1,235');
    expect(solPerToken(1_234_400_000_000n, 1n, 0)).toBe('1,234');
    expect(solPerToken(123_456_789_000_000n, 1n, 0)).toBe('123,500');
    // Exactly representable, and rounding up at the last digit.
    expect(solPerToken(1_000_000_000n, 4n, 0)).toBe('0.25');
    expect(solPerToken(2n, 3n, 0, 4)).toBe('0.0000000006667');
    expect(solPerToken(0n, 5n, 0)).toBe('0');
    expect(() => solPerToken(1n, 0n, 0)).toThrow(RangeError);
  });
});
