// The facts of one sell a message may state, and every way the tool writes each: all the tool's
// own (the request, the wallet, the checked authorization, the token's bound facts), none read from the message.
import { alphabetOf, fits } from './text-rules.js';

export type Fact = 'mint' | 'owner' | 'id' | 'createdAt' | 'expiresAt' | 'symbol' | 'name' | Figure;

/** Symbol, name and decimals bound by the chain or a person (domain/token-binding.ts; null: no such slot); times as the authorization gives them, strict ISO 8601. */
export interface SellFacts {
  mint: string;
  owner: string;
  id: string;
  symbol: string | null;
  name: string | null;
  decimals: number | null;
  amount: bigint;
  minimum: bigint;
  expected: bigint;
  slippageBps: number;
  createdAt: string | null;
  expiresAt: string;
  /** The service's treasury the tool trusts: never a slot, never a random value (wallet/address-sized.ts). */
  treasury?: string | null;
}

/** Facts whose slot names a thing, not a figure: matched first, they hold no figure of their own. */
export const NAMED: readonly Fact[] = ['mint', 'owner', 'id', 'createdAt', 'expiresAt'];

type Figure = 'amount' | 'minimum' | 'expected' | 'slippage';
/** Each figure's units. */
const UNITS: Record<Figure, string[]> = {
  amount: ['raw', 'tokens'],
  minimum: ['lamports', 'SOL'],
  expected: ['lamports', 'SOL'],
  slippage: ['bps', '%'],
};
/** A unit's decimals (null: unknown, no such notation). */
const decimalsOf = (unit: string, f: SellFacts): number | null | undefined =>
  ({ raw: 0, lamports: 0, bps: 0, SOL: 9, '%': 2, tokens: f.decimals })[unit];
const TIMES = ['field', 'iso', 'iso-s', 'utc', 'unix-s', 'unix-ms'] as const;

/** `value` as a decimal of `decimals` places: grouped with `,` or not, the fraction trimmed or full. */
export function decimal(value: bigint, decimals: number, grouped: boolean, full: boolean): string {
  const digits = value.toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = full ? digits.slice(whole.length) : digits.slice(whole.length).replace(/0+$/, '');
  return (grouped ? whole.replace(/\B(?=(\d{3})+$)/g, ',') : whole) + (fraction ? `.${fraction}` : '');
}

/** The text of `fact` in `notation` for these facts; null where it cannot be written so. */
export function render(fact: Fact, notation: string, f: SellFacts): string | null {
  if (fact in UNITS) {
    const [unit, flags = ''] = notation.split(' ');
    const decimals = UNITS[fact as Figure].includes(unit) ? decimalsOf(unit, f) : undefined;
    if (decimals === undefined || decimals === null) return null;
    return decimal(
      BigInt(f[fact === 'slippage' ? 'slippageBps' : (fact as Exclude<Figure, 'slippage'>)]),
      decimals,
      flags.includes(','),
      flags.includes('.'),
    );
  }
  if (fact === 'createdAt' || fact === 'expiresAt') {
    const field = f[fact];
    if (field === null) return null;
    const ms = Date.parse(field);
    const iso = new Date(ms).toISOString();
    const utc = `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;
    const times: Record<string, string> = {
      field,
      iso,
      'iso-s': `${iso.slice(0, 19)}Z`,
      utc,
      'unix-s': String(Math.floor(ms / 1000)),
      'unix-ms': String(ms),
    };
    return times[notation] ?? null;
  }
  // An id is written as itself while its random part keeps the alphabet and length seen at approval.
  if (fact === 'id') {
    const [alphabet = '', length = ''] = notation.split(' ');
    return fits(f.id.replace(/^sell_/, ''), alphabet, Number(length)) ? f.id : null;
  }
  const value = notation === 'exact' ? f[fact as 'mint' | 'owner' | 'symbol' | 'name'] : null;
  // A name or symbol, the chain's or a person's, fills a slot only as words: no line break, control, format or odd space.
  return value !== null && /^[^\p{C}\p{Z}]+(?: [^\p{C}\p{Z}]+)*$/u.test(value) ? value : null;
}

/** Every fact in every notation the tool writes it in, where it can be written (a slot keeps the notations seen at approval, all at once). */
export function renderings(f: SellFacts): Array<{ fact: Fact; notation: string; text: string }> {
  const all: Array<[Fact, string]> = [];
  for (const fact of ['mint', 'owner', 'symbol'] as const) all.push([fact, 'exact']);
  const random = f.id.replace(/^sell_/, '');
  all.push(['id', `${alphabetOf(random)} ${random.length}`]);
  // A name that is the symbol is stated as the symbol: one value cannot fill two kinds of slot.
  if (f.name !== f.symbol) all.push(['name', 'exact']);
  for (const fact of Object.keys(UNITS) as Figure[]) {
    for (const unit of UNITS[fact]) {
      const flags = decimalsOf(unit, f) ? ['', ',', '.', ',.'] : ['', ','];
      for (const flag of flags) all.push([fact, flag ? `${unit} ${flag}` : unit]);
    }
  }
  for (const fact of ['createdAt', 'expiresAt'] as const) for (const t of TIMES) all.push([fact, t]);
  return all
    .flatMap(([fact, notation]) => [{ fact, notation, text: render(fact, notation, f) ?? '' }])
    .filter((r) => r.text !== '');
}

/** A slot's fact and notations in words, for its label: "amount in whole tokens (6 decimals)". */
export function describe(fact: Fact, notations: readonly string[], f: SellFacts | null): string {
  const named: Partial<Record<Fact, string>> = {
    mint: 'the mint',
    owner: 'your wallet',
    id: 'the authorization id',
    symbol: 'the symbol',
    name: 'the name',
    createdAt: 'created',
    expiresAt: 'expires',
  };
  const what = named[fact] ?? fact;
  const words: Record<string, string> = {
    raw: 'raw units',
    '%': 'percent',
    field: 'as given',
    iso: 'ISO',
    'iso-s': 'ISO to the second',
    'unix-s': 'Unix seconds',
    'unix-ms': 'Unix ms',
    exact: '',
  };
  const units = [...new Set(notations.map((n) => n.split(' ')[0]!))];
  if (fact === 'id') return `${what} (sell_ + ${notations[0]})`;
  const how = units
    .map((u) => (u === 'tokens' ? `whole tokens (${f?.decimals ?? 'its'} decimals)` : (words[u] ?? u)))
    .filter(Boolean);
  // Units seen alike at approval are all meant at once (sell-template/match.ts), never either.
  const said = how.join(' and ') + (how.length > 1 ? ' alike' : '');
  if (fact === 'createdAt' || fact === 'expiresAt') return `${what} (${said})`;
  return how.length ? `${what} in ${said}` : what;
}
