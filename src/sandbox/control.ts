// The control surface under /_sandbox/: no API key, not in the request log. It lets tests and
// rehearsals move prices and the clock, change delays, inject faults and read the request log.
import { PublicKey } from '@solana/web3.js';
import type { PositionStatus } from '../api/types.js';
import { blockHeight } from './chain.js';
import { iso } from './offset-clock.js';
import { HttpError } from './sandbox-error.js';
import { type Fault, FaultStore, parseFault } from './faults.js';
import { deriveAddress, formatUnits, makeToken, scalePrice, setUsdPrice, usdPerToken } from './market.js';
import type { RequestLog } from './request-log.js';
import { seedHistory } from './seed.js';
import { LIES, type ChainTokenRecord, type Delays, type MintExtras, type Lie, type TokenRecord } from './state.js';
import { chainTokens, fitsMetaplex, metadataAddress, METAPLEX_LIMITS } from './token-accounts.js';
import { parseSol, setBalance, credit, walletLamports } from './wallet.js';
import type { World } from './world.js';

export interface ControlContext {
  world: World;
  faults: FaultStore;
  log: RequestLog;
  reset(): void;
  seedHistory?(): unknown;
  body: unknown;
  query: URLSearchParams;
}

type Handler = (ctx: ControlContext) => { status?: number; data: unknown };

const bad = (message: string) => new HttpError(400, 'VALIDATION_ERROR', message);

function obj(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw bad('the body must be a JSON object');
  return body as Record<string, unknown>;
}

function finite(v: unknown, name: string, min = -Infinity, max = Infinity): number {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max)
    throw bad(`${name} must be a number from ${min} to ${max}`);
  return v;
}

/** Public description of a token, with its current price. */
export function tokenView(world: World, t: TokenRecord) {
  return {
    symbol: t.symbol,
    name: t.name,
    mint: t.mint,
    decimals: t.decimals,
    imageUrl: t.imageUrl,
    usdPrice: usdPerToken(t, world.state.solUsd),
    solReserve: t.solReserve.toString(),
    tokenReserve: t.tokenReserve.toString(),
  };
}

function clockView(world: World) {
  const now = world.now();
  return { now: iso(now), offsetSeconds: world.state.clockOffsetMs / 1000, blockHeight: blockHeight(world.state, now) };
}

function addToken(world: World, body: Record<string, unknown>) {
  const symbol = body.symbol;
  if (typeof symbol !== 'string' || !/^[A-Za-z0-9$._-]{1,16}$/.test(symbol))
    throw bad('symbol must be 1-16 letters or digits');
  const name = body.name ?? symbol;
  if (typeof name !== 'string' || name.length > 64) throw bad('name must be a string of at most 64 characters');
  const decimals = body.decimals ?? 6;
  if (typeof decimals !== 'number' || !Number.isInteger(decimals) || decimals < 0 || decimals > 12) {
    throw bad('decimals must be an integer from 0 to 12');
  }
  const usdPrice = finite(body.usdPrice ?? 1, 'usdPrice', 1e-12, 1e9);
  const liquiditySol = finite(body.liquiditySol ?? 1000, 'liquiditySol', 1, 1e9);
  let mint = body.mint;
  if (mint === undefined) {
    const same = world.state.tokens.filter((t) => t.symbol === symbol).length;
    mint = deriveAddress(`trader-sandbox-token:${symbol}${same ? `:${same}` : ''}`);
  } else if (typeof mint !== 'string' || !isAddress(mint)) throw bad('mint must be a base58 Solana address');
  if (world.tokens.has(mint as string))
    throw new HttpError(409, 'TOKEN_EXISTS', `a token with mint ${mint} already exists`);
  // Keep the SOL side at the requested liquidity and size the token side to give the price.
  const reserve = ((liquiditySol * world.state.solUsd) / usdPrice) * 10 ** decimals;
  if (!Number.isFinite(reserve) || reserve < 1 || reserve > 1e36) throw bad('usdPrice is out of range for this pool');
  const token = makeToken(symbol, name, decimals, 1n, mint as string, BigInt(Math.round(liquiditySol)));
  token.tokenReserve = BigInt(Math.round(reserve));
  world.addToken(token);
  return token;
}

function isAddress(s: string): boolean {
  try {
    return new PublicKey(s).toBase58() === s;
  } catch {
    return false;
  }
}

/** What the chain says of one token, with the address of its metadata. */
function chainTokenView(world: World, mint: string, t: ChainTokenRecord) {
  const metadata = t.metadata && {
    ...t.metadata,
    account: t.metadata.layout === 'metaplex' ? metadataAddress(mint) : mint,
  };
  return {
    mint,
    program: t.program,
    decimals: t.decimals,
    metadata,
    ...(t.extras ? { extras: t.extras } : {}),
    tradedByService: world.tokens.has(mint),
  };
}

/**
 * Puts a token on the chain only (no pool: the service does not trade it unless `mint` is one of
 * its tokens, whose chain facts this then replaces): chosen decimals, symbol and name, in a
 * Metaplex account or a Token-2022 mint; or no metadata; or metadata naming another mint.
 */
function putChainToken(world: World, body: Record<string, unknown>) {
  let mint = body.mint;
  const chain = (world.state.chain.tokens ??= {});
  if (mint === undefined) {
    for (let n = Object.keys(chain).length; mint === undefined || chainTokens(world).has(mint as string); n++)
      mint = deriveAddress(`trader-sandbox-chain-token:${n}`);
  } else if (typeof mint !== 'string' || !isAddress(mint)) throw bad('mint must be a base58 Solana address');
  const service = world.tokens.get(mint as string);
  const decimals = body.decimals ?? service?.decimals ?? 6;
  if (typeof decimals !== 'number' || !Number.isInteger(decimals) || decimals < 0 || decimals > 18)
    throw bad('decimals must be an integer from 0 to 18');
  const program = body.program ?? (body.metadata === 'token-2022' ? 'token-2022' : 'spl-token');
  if (program !== 'spl-token' && program !== 'token-2022') throw bad('program must be spl-token or token-2022');
  const layout = body.metadata ?? (program === 'token-2022' ? 'token-2022' : 'metaplex');
  if (layout !== 'metaplex' && layout !== 'token-2022' && layout !== 'none')
    throw bad('metadata must be metaplex, token-2022 or none');
  if (layout === 'token-2022' && program !== 'token-2022')
    throw bad('token-2022 metadata lives in a token-2022 mint: give program token-2022');
  let metadata: ChainTokenRecord['metadata'] = null;
  if (layout !== 'none') {
    const { symbol, name = symbol, metadataMint = mint } = body;
    if (typeof symbol !== 'string' || typeof name !== 'string')
      throw bad('give symbol (and name) for the metadata, or metadata "none"');
    if (layout === 'metaplex' && !fitsMetaplex(symbol, name))
      throw bad(
        `a Metaplex account holds a symbol of at most ${METAPLEX_LIMITS.symbol} bytes and a name of at most ${METAPLEX_LIMITS.name}`,
      );
    if (Buffer.byteLength(symbol) > 200 || Buffer.byteLength(name) > 200)
      throw bad('symbol and name must be at most 200 bytes');
    if (typeof metadataMint !== 'string' || !isAddress(metadataMint))
      throw bad('metadataMint must be a base58 Solana address');
    metadata = { layout, symbol, name, mint: metadataMint };
  }
  const extras = mintExtras(body, program);
  const record: ChainTokenRecord = { program, decimals, metadata, ...(extras ? { extras } : {}) };
  chain[mint as string] = record;
  return chainTokenView(world, mint as string, record);
}

/** A chain token's authorities and Token-2022 extensions from the body (each optional); null when none is given. */
function mintExtras(body: Record<string, unknown>, program: 'spl-token' | 'token-2022'): MintExtras | null {
  const extras: MintExtras = {};
  const address = (field: 'mintAuthority' | 'freezeAuthority' | 'permanentDelegate' | 'transferHook' | 'pausable') => {
    const value = body[field];
    if (value === undefined) return;
    if (typeof value !== 'string' || !isAddress(value)) throw bad(`${field} must be a base58 Solana address`);
    extras[field] = value;
  };
  for (const field of ['mintAuthority', 'freezeAuthority', 'permanentDelegate', 'transferHook', 'pausable'] as const)
    address(field);
  for (const field of ['nonTransferable', 'defaultFrozen'] as const) {
    if (body[field] === undefined) continue;
    if (typeof body[field] !== 'boolean') throw bad(`${field} must be true or false`);
    if (body[field]) extras[field] = true;
  }
  if (body.transferFeeBps !== undefined) {
    const bps = body.transferFeeBps;
    if (typeof bps !== 'number' || !Number.isInteger(bps) || bps < 0 || bps > 10_000)
      throw bad('transferFeeBps must be an integer from 0 to 10000');
    const max = body.transferFeeMax ?? '18446744073709551615';
    if (typeof max !== 'string' || !/^\d{1,20}$/.test(max) || BigInt(max) > 0xffff_ffff_ffff_ffffn)
      throw bad('transferFeeMax must be raw units as a decimal string (u64)');
    extras.transferFee = { bps, maximumFee: max };
  }
  const t22 = [
    'transferFee',
    'permanentDelegate',
    'transferHook',
    'pausable',
    'nonTransferable',
    'defaultFrozen',
  ].filter((k) => k in extras);
  if (t22.length > 0 && program !== 'token-2022')
    throw bad(`${t22.join(', ')} are Token-2022 extensions: give program token-2022`);
  return Object.keys(extras).length > 0 ? extras : null;
}

function setPrice(world: World, body: Record<string, unknown>) {
  if (body.solUsd !== undefined) world.state.solUsd = finite(body.solUsd, 'solUsd', 0.000001, 1e9);
  if (body.mint === undefined) {
    if (body.solUsd === undefined) throw bad('give mint with multiplier or usdPrice, or solUsd');
    return { solUsd: world.state.solUsd };
  }
  if (typeof body.mint !== 'string') throw bad('mint must be a string');
  const token = world.tokens.get(body.mint);
  if (!token) throw new HttpError(404, 'NOT_FOUND', `no token with mint ${body.mint}`);
  if (body.multiplier !== undefined) scalePrice(token, finite(body.multiplier, 'multiplier', 1e-6, 1e6));
  else if (body.usdPrice !== undefined)
    setUsdPrice(token, finite(body.usdPrice, 'usdPrice', 1e-12, 1e12), world.state.solUsd);
  else throw bad('give multiplier or usdPrice');
  return tokenView(world, token);
}

function setDelays(world: World, body: Record<string, unknown>): Delays {
  const d = world.state.delays;
  for (const k of ['confirmSeconds', 'swapSeconds', 'payoutSeconds', 'refundSeconds'] as const) {
    if (body[k] !== undefined) d[k] = finite(body[k], k, 0, 1e9);
  }
  return { ...d };
}

/** The main account's wallet: its address and SOL balance. */
function balanceView(world: World) {
  const account = world.state.identity.accounts[0]!;
  const lamports = walletLamports(world, account.id);
  return { walletAddress: account.walletAddress, lamports: lamports.toString(), sol: formatUnits(lamports, 9) };
}

/** `{"addSol": 5}` tops the main wallet up; `{"sol": 5}` sets it. */
function changeBalance(world: World, body: Record<string, unknown>) {
  const account = world.state.identity.accounts[0]!.id;
  if (body.addSol !== undefined) {
    const lamports = parseSol(body.addSol);
    if (lamports === null) throw bad('addSol must be a SOL amount such as 2.5 (at most 9 decimals)');
    credit(world, account, lamports);
  } else if (body.sol !== undefined) {
    const lamports = parseSol(body.sol);
    if (lamports === null) throw bad('sol must be a SOL amount such as 2.5 (at most 9 decimals)');
    setBalance(world, account, lamports);
  } else throw bad('give addSol (top up) or sol (set)');
  return balanceView(world);
}

/** `{"lie": "phantom-payout"}` or `{"lies": [...]}`: what the service misreports next, in order. */
function addLies(world: World, body: Record<string, unknown>): Lie[] {
  const list = body.lies ?? (body.lie === undefined ? undefined : [body.lie]);
  if (!Array.isArray(list) || list.length === 0)
    throw bad(`give lie (one of ${LIES.join(', ')}) or lies (a list of them)`);
  for (const l of list)
    if (!(LIES as readonly unknown[]).includes(l))
      throw bad(`unknown lie ${JSON.stringify(l)}; lies: ${LIES.join(', ')}`);
  (world.state.lies ??= []).push(...(list as Lie[]));
  return [...world.state.lies];
}

function addFaults(faults: FaultStore, body: unknown): Fault[] {
  const list = Array.isArray(body) ? body : Array.isArray(obj(body).faults) ? (obj(body).faults as unknown[]) : [body];
  const parsed = list.map(parseFault);
  faults.add(parsed);
  return parsed;
}

const ROUTES: Record<string, Handler> = {
  'GET /': ({ world }) => ({
    data: {
      walletAddress: world.identity(world.state.identity.accounts[0]!.id).walletAddress,
      treasury: world.state.identity.treasury,
      tokens: world.state.tokens.map((t) => tokenView(world, t)),
      clock: clockView(world),
      delays: { ...world.state.delays },
      solUsd: world.state.solUsd,
      balance: balanceView(world),
    },
  }),
  'GET /balance': ({ world }) => ({ data: balanceView(world) }),
  'POST /balance': ({ world, body }) => ({ data: changeBalance(world, obj(body)) }),
  'GET /tokens': ({ world }) => ({ data: world.state.tokens.map((t) => tokenView(world, t)) }),
  'POST /tokens': ({ world, body }) => ({ status: 201, data: tokenView(world, addToken(world, obj(body))) }),
  'GET /chain/tokens': ({ world }) => ({
    data: [...chainTokens(world)].map(([mint, t]) => chainTokenView(world, mint, t)),
  }),
  'POST /chain/tokens': ({ world, body }) => ({ status: 201, data: putChainToken(world, obj(body)) }),
  'POST /price': ({ world, body }) => ({ data: setPrice(world, obj(body)) }),
  'GET /clock': ({ world }) => ({ data: clockView(world) }),
  'POST /clock/advance': ({ world, body }) => {
    const seconds = finite(obj(body).seconds, 'seconds', -1e10, 1e10);
    world.state.clockOffsetMs += Math.round(seconds * 1000);
    return { data: clockView(world) };
  },
  'GET /delays': ({ world }) => ({ data: { ...world.state.delays } }),
  'POST /delays': ({ world, body }) => ({ data: setDelays(world, obj(body)) }),
  'POST /fail-next-swap': ({ world, body }) => {
    const count = obj(body).count ?? 1;
    if (typeof count !== 'number' || !Number.isInteger(count) || count < 0)
      throw bad('count must be a non-negative integer');
    world.state.failNextSwaps += count;
    return { data: { failNextSwaps: world.state.failNextSwaps } };
  },
  'GET /deposit-memo': ({ world }) => ({ data: { on: world.depositMemo } }),
  'POST /deposit-memo': ({ world, body }) => {
    const on = obj(body).on;
    if (typeof on !== 'boolean') throw bad('give on: true (deposits carry a memo naming their intent) or false');
    world.depositMemo = on;
    return { data: { on } };
  },
  'GET /lies': ({ world }) => ({ data: [...(world.state.lies ?? [])] }),
  'POST /lies': ({ world, body }) => ({ status: 201, data: addLies(world, obj(body)) }),
  'DELETE /lies': ({ world }) => {
    world.state.lies = [];
    return { data: [] };
  },
  'GET /faults': ({ faults }) => ({ data: faults.list() }),
  'POST /faults': ({ faults, body }) => ({ status: 201, data: addFaults(faults, body) }),
  'DELETE /faults': ({ faults }) => {
    faults.clear();
    return { data: [] };
  },
  'GET /requests': ({ log }) => ({ data: log.list() }),
  'DELETE /requests': ({ log }) => {
    log.clear();
    return { data: [] };
  },
  'POST /seed': ({ world, body }) => {
    const b = obj(body);
    const main = world.state.identity.accounts[0]!.id;
    return {
      data: seedHistory(world, main, {
        activity: (b.activity ?? 0) as number,
        positions: (b.positions ?? 0) as number,
        positionStatus: (b.positionStatus ?? 'closed') as PositionStatus,
      }),
    };
  },
  'POST /seed-portfolio': ({ seedHistory }) => {
    if (!seedHistory) throw new HttpError(404, 'ROUTE_NOT_FOUND', 'this sandbox cannot seed a portfolio history');
    return { status: 201, data: seedHistory() };
  },
  'POST /reset': ({ reset, world }) => {
    reset();
    return { data: clockView(world) };
  },
};

/** Run a control request for `sub` (the path below /_sandbox). */
export function handleControl(method: string, sub: string, ctx: ControlContext): { status: number; data: unknown } {
  const handler = ROUTES[`${method} ${sub === '' ? '/' : sub}`];
  if (!handler) {
    const known = Object.keys(ROUTES).some((k) => k.endsWith(` ${sub}`));
    if (known) throw new HttpError(405, 'METHOD_NOT_ALLOWED', `${method} is not allowed on /_sandbox${sub}`);
    throw new HttpError(404, 'ROUTE_NOT_FOUND', `no control route /_sandbox${sub}; see docs/sandbox.md`);
  }
  const r = handler(ctx);
  return { status: r.status ?? 200, data: r.data };
}
