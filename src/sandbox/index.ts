// Public entry of the sandbox: a local simulated trading service implementing api-spec.md.
// It shares nothing with the client side but src/api/types.ts.
import { access, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Keypair } from '@solana/web3.js';
import { generateKeypair } from './sandbox-keys.js';
import { createAccounts } from './accounts.js';
import { FaultStore } from './faults.js';
import { createInitialState, TREASURY } from './initial-state.js';
import { readKeypairFile, writeTempKeypair } from './wallet-file.js';
import { loadStateFile, StateSaver } from './persistence.js';
import { seedPortfolioHistory } from './portfolio-history.js';
import { RequestLog } from './request-log.js';
import { createSandboxServer, RPC_PATH } from './http-server.js';
import type { Identity, State } from './state.js';
import { walletLamports } from './wallet.js';
import { World } from './world.js';

export interface SandboxOptions {
  /** 0 = ephemeral (default). */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  keypairPath?: string;
  statePath?: string;
  /** SOL each account's wallet starts with, in lamports (a fresh state only; default 100 SOL). */
  startBalanceLamports?: bigint;
  quiet?: boolean;
  /** Where internal error notes go (default stderr unless quiet). */
  log?: (line: string) => void;
  /** Give a fresh (or reset) main account a few days of trades (src/sandbox/portfolio-history.ts). */
  history?: boolean;
  /** Deposits carry an SPL Memo naming their intent (`trader-sandbox:<intent id>`); default off. */
  depositMemo?: boolean;
}

export interface RunningSandbox {
  /** Service root; the API is at url + '/api/v1', the control surface at url + '/_sandbox'. */
  url: string;
  /** The simulated chain's Solana JSON-RPC endpoint (url + '/rpc'). */
  rpcUrl: string;
  /** Main account, scopes trade:intents, read:account, read:public. */
  apiKey: string;
  /** Main account, read:account + read:public only. */
  readOnlyApiKey: string;
  /** A second account with its own wallet. */
  otherApiKey: string;
  keypairPath: string;
  /** The keypair file this sandbox wrote (removed when it stops), or null when it was given one. */
  generatedKeypairPath: string | null;
  walletAddress: string;
  treasury: string;
  tokens: Array<{ symbol: string; name: string; mint: string; decimals: number }>;
  /** SOL in the main account's wallet now, in lamports. */
  readonly walletLamports: bigint;
  close(): Promise<void>;
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

/**
 * Restore the keypair file of a saved identity, or check a given one matches it. Returns the
 * path of a file written here (removed when the sandbox stops), or null.
 */
async function restoreWallet(identity: Identity, keypairPath: string | undefined): Promise<string | null> {
  const wallet = identity.accounts[0]!.walletAddress;
  if (keypairPath) {
    const kp = await readKeypairFile(keypairPath);
    if (kp.publicKey.toBase58() !== wallet) {
      throw new Error(`the state file belongs to wallet ${wallet}, but ${keypairPath} is ${kp.publicKey.toBase58()}`);
    }
    identity.keypairPath = keypairPath;
    return null;
  }
  if (await exists(identity.keypairPath)) return null;
  if (!identity.generatedSecretKey) {
    throw new Error(`the keypair file ${identity.keypairPath} of the saved state is gone; pass --keypair`);
  }
  identity.keypairPath = await writeTempKeypair(Uint8Array.from(identity.generatedSecretKey));
  return identity.keypairPath;
}

async function freshState(
  keypairPath: string | undefined,
  startBalanceLamports: bigint | undefined,
): Promise<{ state: State; written: string | null }> {
  let kp: Keypair;
  let path: string;
  let generated: number[] | null = null;
  if (keypairPath) {
    kp = await readKeypairFile(keypairPath);
    path = keypairPath;
  } else {
    kp = generateKeypair();
    path = await writeTempKeypair(kp.secretKey);
    generated = Array.from(kp.secretKey);
  }
  const now = Date.now();
  const identity: Identity = {
    accounts: createAccounts(kp.publicKey.toBase58(), now),
    treasury: TREASURY,
    keypairPath: path,
    generatedSecretKey: generated,
    ...(startBalanceLamports === undefined ? {} : { startBalanceLamports }),
  };
  return { state: createInitialState(identity, now), written: generated ? path : null };
}

/** Start the sandbox; resolves once it is listening. */
export async function startSandbox(opts: SandboxOptions = {}): Promise<RunningSandbox> {
  const log = opts.log ?? (opts.quiet ? () => {} : (line: string) => void process.stderr.write(`${line}\n`));
  const { state, restored, writtenKeypair } = await openState(opts);
  const world = new World(state);
  world.depositMemo = opts.depositMemo === true;
  // The main account's trading key and wallet, to trade the seeded history as a client would.
  const wallet = await readKeypairFile(world.state.identity.keypairPath);
  const seedHistory = () => {
    const main = world.state.identity.accounts[0]!;
    return seedPortfolioHistory(world, world.keys.get(main.keys[0]!.value)!, wallet);
  };
  if (opts.history && !restored) seedHistory();
  const faults = new FaultStore();
  const requestLog = new RequestLog();
  const saver = stateSaver(opts.statePath, world, log);
  const reset = () => {
    world.load(createInitialState(world.state.identity, Date.now()));
    if (opts.history) seedHistory();
    faults.clear();
    requestLog.clear();
  };
  const server = createSandboxServer({ world, faults, log: requestLog, reset, seedHistory, logError: log });
  const host = opts.host ?? '127.0.0.1';
  const removeKeypair = async () => {
    if (writtenKeypair) await rm(dirname(writtenKeypair), { recursive: true, force: true });
  };
  await listen(server, opts.port ?? 0, host).catch(async (err: unknown) => {
    await removeKeypair();
    throw err;
  });
  const { port } = server.address() as AddressInfo;
  const shownHost =
    host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '[::1]' : host.includes(':') ? `[${host}]` : host;
  const stop = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    })
      .then(() => saver?.flush())
      .then(removeKeypair);
  return running(world, `http://${shownHost}:${port}`, writtenKeypair, stop);
}

/**
 * The state restored from --state, or a fresh one; a private key the sandbox wrote itself does
 * not outlive it (--state writes it again on restart).
 */
async function openState(
  opts: SandboxOptions,
): Promise<{ state: State; restored: boolean; writtenKeypair: string | null }> {
  const saved = opts.statePath ? await loadStateFile(opts.statePath) : null;
  if (saved)
    return { state: saved, restored: true, writtenKeypair: await restoreWallet(saved.identity, opts.keypairPath) };
  const { state, written } = await freshState(opts.keypairPath, opts.startBalanceLamports);
  return { state, restored: false, writtenKeypair: written };
}

/** With --state, every change is saved (after a short wait) and the first save is now. */
function stateSaver(statePath: string | undefined, world: World, log: (line: string) => void): StateSaver | null {
  if (!statePath) return null;
  const saver = new StateSaver(
    statePath,
    () => world.state,
    (err) => log(`sandbox: could not save state: ${String(err)}`),
  );
  world.onChange = () => saver.schedule();
  saver.schedule();
  return saver;
}

/** Resolves once the server listens; rejects with the listen error. */
function listen(server: ReturnType<typeof createSandboxServer>, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** The handle of a listening sandbox: its addresses, keys and wallet; close stops it once. */
function running(world: World, url: string, writtenKeypair: string | null, stop: () => Promise<void>): RunningSandbox {
  const [main, other] = world.state.identity.accounts;
  let closing: Promise<void> | null = null;
  return {
    url,
    rpcUrl: `${url}${RPC_PATH}`,
    apiKey: main!.keys[0]!.value,
    readOnlyApiKey: main!.keys[1]!.value,
    otherApiKey: other!.keys[0]!.value,
    keypairPath: world.state.identity.keypairPath,
    generatedKeypairPath: writtenKeypair,
    walletAddress: main!.walletAddress,
    treasury: world.state.identity.treasury,
    get walletLamports() {
      return walletLamports(world, main!.id);
    },
    get tokens() {
      return world.state.tokens.map((t) => ({ symbol: t.symbol, name: t.name, mint: t.mint, decimals: t.decimals }));
    },
    close() {
      closing ??= stop();
      return closing;
    },
  };
}
