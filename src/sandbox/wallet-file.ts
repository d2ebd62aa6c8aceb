// The main wallet's keypair file in Solana CLI format (a JSON array of 64 byte values).
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Keypair } from '@solana/web3.js';
import { keypairFromSecretKey } from './sandbox-keys.js';

/** Read a Solana CLI keypair file. */
export async function readKeypairFile(path: string): Promise<Keypair> {
  const parsed: unknown = JSON.parse(await readFile(path, 'utf8'));
  if (
    !Array.isArray(parsed) ||
    parsed.length !== 64 ||
    !parsed.every((n) => Number.isInteger(n) && n >= 0 && n <= 255)
  ) {
    throw new Error(`${path} is not a Solana keypair file (a JSON array of 64 byte values)`);
  }
  return keypairFromSecretKey(Uint8Array.from(parsed as number[]));
}

/** Write a keypair to a fresh temp dir with mode 0600; returns the file path. */
export async function writeTempKeypair(secretKey: Uint8Array): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'trader-sandbox-'));
  const path = join(dir, 'id.json');
  await writeFile(path, JSON.stringify(Array.from(secretKey)), { mode: 0o600 });
  return path;
}
