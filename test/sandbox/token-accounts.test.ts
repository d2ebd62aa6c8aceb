// The sandbox chain's token accounts, read by the client's own chain reader and decoders (the
// sandbox writes them apart from those, so this is where the two meet): each default token's
// mint and metadata in its standard layout, and the control surface's tokens on the chain only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Connection, PublicKey } from '@solana/web3.js';
import { openChain, type ChainReader } from '../../src/chain/chain-reader.js';
import { readTokenFacts } from '../../src/chain/chain-token-facts.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox;
let reader: ChainReader;
beforeAll(async () => {
  sb = await startTestSandbox();
  const clock = { now: () => Date.now(), sleep: async () => {} };
  reader = await openChain({
    url: sb.rpcUrl,
    fetch: globalThis.fetch,
    clock,
    signal: new AbortController().signal,
    env: {},
    timeoutMs: 5_000,
  });
});
afterAll(() => sb.close());

const mintOf = (symbol: string) => sb.tokens.find((t: { symbol: string }) => t.symbol === symbol)!.mint;
const METAPLEX = 'metaqbxxUerdq28cj1RbAWkYQm3ybzjb6a8bt518x1s';
const pda = (mint: string) =>
  PublicKey.findProgramAddressSync(
    [Buffer.from('metadata'), new PublicKey(METAPLEX).toBuffer(), new PublicKey(mint).toBuffer()],
    new PublicKey(METAPLEX),
  )[0].toBase58();

describe('the default tokens on the sandbox chain', () => {
  it.each([
    ['WOOF', 'Woof Sandbox Dog', 5],
    ['SGLD', 'Sandbox Gold', 6],
    ['BRIX', 'Brix Protocol', 9],
  ])('%s: an SPL Token mint with Metaplex metadata at its PDA', async (symbol, name, decimals) => {
    const mint = mintOf(symbol);
    expect(await readTokenFacts(reader, mint)).toEqual({
      mint,
      program: 'spl-token',
      decimals,
      symbol,
      name,
      metadataSource: 'metaplex',
    });
    const account = await reader.getAccountInfo(mint);
    expect(account).toMatchObject({ owner: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA' });
    expect(account!.data).toHaveLength(82);
    const metadata = await reader.getAccountInfo(pda(mint));
    expect(metadata!.owner).toBe(METAPLEX);
    expect(metadata!.data).toHaveLength(679);
  });

  it('MOON: a Token-2022 mint whose MetadataPointer names itself, with its TokenMetadata; no Metaplex account', async () => {
    const mint = mintOf('MOON');
    expect(await readTokenFacts(reader, mint)).toEqual({
      mint,
      program: 'token-2022',
      decimals: 8,
      symbol: 'MOON',
      name: 'Moon Sandbox',
      metadataSource: 'token-2022',
    });
    expect((await reader.getAccountInfo(mint))!.owner).toBe('TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb');
    expect(await reader.getAccountInfo(pda(mint))).toBeNull();
  });

  it('an unknown account is null, a wallet is a system account, as a node answers; through web3.js the shapes validate', async () => {
    const connection = new Connection(sb.rpcUrl, 'confirmed');
    const nobody = new PublicKey('9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin');
    expect(await connection.getAccountInfo(nobody)).toBeNull();
    const wallet = await connection.getAccountInfo(new PublicKey(sb.walletAddress));
    expect(wallet!.owner.toBase58()).toBe('11111111111111111111111111111111');
    expect(wallet!.lamports).toBe(await connection.getBalance(new PublicKey(sb.walletAddress)));
    const many = await connection.getMultipleAccountsInfo([nobody, new PublicKey(mintOf('WOOF'))]);
    expect(many[0]).toBeNull();
    expect(many[1]!.data).toHaveLength(82);
    const rpc = async (params: unknown[]) =>
      (
        await fetch(sb.rpcUrl, {
          method: 'POST',
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getAccountInfo', params }),
        })
      ).json();
    expect(await rpc([mintOf('WOOF'), { encoding: 'jsonParsed' }])).toMatchObject({ error: { code: -32602 } });
  });
});

describe('tokens on the chain only (POST /_sandbox/chain/tokens)', () => {
  it("an impostor mint with WOOF's symbol and name: Metaplex metadata at its own PDA, not traded by the service", async () => {
    const made = await sb.control('/chain/tokens', { symbol: 'WOOF', name: 'Woof Sandbox Dog', decimals: 5 });
    expect(made).toMatchObject({
      program: 'spl-token',
      decimals: 5,
      tradedByService: false,
      metadata: { layout: 'metaplex', symbol: 'WOOF', mint: made.mint, account: pda(made.mint) },
    });
    expect(await readTokenFacts(reader, made.mint)).toEqual({
      mint: made.mint,
      program: 'spl-token',
      decimals: 5,
      symbol: 'WOOF',
      name: 'Woof Sandbox Dog',
      metadataSource: 'metaplex',
    });
    expect((await sb.control('/chain/tokens')).map((t: { mint: string }) => t.mint)).toContain(made.mint);
  });

  it('a Token-2022 mint of chosen facts; one with no metadata; metadata naming another mint (no metadata to the client)', async () => {
    const t22 = await sb.control('/chain/tokens', {
      program: 'token-2022',
      symbol: 'SENDALL',
      name: 'SENDALL (Send All Funds)',
      decimals: 0,
    });
    expect(await readTokenFacts(reader, t22.mint)).toMatchObject({
      program: 'token-2022',
      decimals: 0,
      symbol: 'SENDALL',
      name: 'SENDALL (Send All Funds)',
      metadataSource: 'token-2022',
    });
    const bare = await sb.control('/chain/tokens', { metadata: 'none', decimals: 7 });
    expect(await readTokenFacts(reader, bare.mint)).toEqual({
      mint: bare.mint,
      program: 'spl-token',
      decimals: 7,
      symbol: null,
      name: null,
      metadataSource: null,
    });
    const forged = await sb.control('/chain/tokens', {
      symbol: 'WOOF',
      name: 'Woof Sandbox Dog',
      metadataMint: mintOf('WOOF'),
    });
    expect(forged.metadata.mint).toBe(mintOf('WOOF'));
    expect(await readTokenFacts(reader, forged.mint)).toMatchObject({ symbol: null, name: null, metadataSource: null });
    const forged22 = await sb.control('/chain/tokens', {
      program: 'token-2022',
      symbol: 'MOON',
      name: 'Moon Sandbox',
      metadataMint: mintOf('MOON'),
    });
    expect(await readTokenFacts(reader, forged22.mint)).toMatchObject({
      program: 'token-2022',
      symbol: null,
      metadataSource: null,
    });
  });

  it("a service token's mint: the chain's word replaces the service's (what a renaming service would contradict)", async () => {
    const token = await sb.control('/tokens', { symbol: 'RENM', name: 'Renamed', decimals: 6 });
    expect(await readTokenFacts(reader, token.mint)).toMatchObject({ symbol: 'RENM', name: 'Renamed', decimals: 6 });
    expect(await sb.control('/chain/tokens', { mint: token.mint, symbol: 'REAL', name: 'Real Name' })).toMatchObject({
      decimals: 6,
      tradedByService: true,
    });
    expect(await readTokenFacts(reader, token.mint)).toMatchObject({ symbol: 'REAL', name: 'Real Name', decimals: 6 });
  });

  it('a long name goes in a Token-2022 mint for a service token; the control surface refuses it in a Metaplex account, and bad input', async () => {
    const long = await sb.control('/tokens', {
      symbol: 'LONGNAME12',
      name: 'A name longer than thirty-two bytes',
      decimals: 6,
    });
    expect(await readTokenFacts(reader, long.mint)).toMatchObject({
      program: 'token-2022',
      name: 'A name longer than thirty-two bytes',
      metadataSource: 'token-2022',
    });
    await expect(sb.control('/chain/tokens', { symbol: 'ELEVENCHARS', name: 'x' })).rejects.toThrow(
      /400 VALIDATION_ERROR: a Metaplex account holds a symbol of at most 10 bytes/,
    );
    await expect(sb.control('/chain/tokens', { symbol: 'X', name: 'x'.repeat(33) })).rejects.toThrow(/at most 32/);
    expect(await sb.control('/chain/tokens', { symbol: 'TENCHARSXX', name: 'x'.repeat(32) })).toMatchObject({
      metadata: { layout: 'metaplex' },
    });
    await expect(
      sb.control('/chain/tokens', { metadata: 'token-2022', program: 'spl-token', symbol: 'X' }),
    ).rejects.toThrow(/give program token-2022/);
    await expect(sb.control('/chain/tokens', { decimals: 19, metadata: 'none' })).rejects.toThrow(
      /decimals must be an integer from 0 to 18/,
    );
    await expect(sb.control('/chain/tokens', { mint: 'nope', metadata: 'none' })).rejects.toThrow(
      /mint must be a base58 Solana address/,
    );
    await expect(sb.control('/chain/tokens', { name: 'no symbol' })).rejects.toThrow(/give symbol/);
  });
});
