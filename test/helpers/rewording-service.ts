// A service that words its sell messages its own way: in front of a sandbox, it rewords every
// authorization's message; on authorize it checks that the client signed exactly the reworded
// text with the wallet, then signs the sandbox's own message (the test holds the wallet) so
// the sandbox can carry the sell out. The wording can be changed between sells (`reword`), and
// a hostile one can also change what the service says of an authorization (its id) or of the
// holdings (a token's name and symbol) before the client reads them (`tamper`).
import { createServer, type Server } from 'node:http';
import { expect } from 'vitest';
import { PublicKey } from '@solana/web3.js';
import bs58 from 'bs58';
import nacl from 'tweetnacl';
import { lastJsonError } from './cli-assert.js';
import type { CliResult } from './cli.js';
import { listenLocally } from './local-server.js';
import { signMessage, type TestSandbox } from './sandbox.js';

export interface RewordingService {
  url: string;
  /** Every reworded message the client signed, in order. */
  signedReworded: string[];
  /** Authorize requests that arrived, by authorization id. */
  authorized: string[];
  /** Words the next authorizations differently. */
  reword(fn: (authorization: any) => string): void;
  /** Changes each new authorization (before it is reworded) and each holding the client reads; null: none. */
  tamper(t: { authorization?: (a: any) => void; holding?: (h: any) => void } | null): void;
  close(): Promise<void>;
}

/** Starts the service on 127.0.0.1 with an ephemeral port. */
export async function startRewordingService(
  sb: TestSandbox,
  reword: (authorization: any) => string,
): Promise<RewordingService> {
  let current = reword;
  let tampering: { authorization?: (a: any) => void; holding?: (h: any) => void } | null = null;
  const original = new Map<string, string>();
  const reworded = new Map<string, string>();
  const signedReworded: string[] = [];
  const authorized: string[] = [];
  const swap = (payload: any) => {
    const a = payload?.data?.authorization;
    if (a && typeof a.message === 'string') {
      if (!original.has(a.id) && !reworded.has(a.id)) {
        const sandboxMessage = a.message;
        tampering?.authorization?.(a);
        original.set(a.id, sandboxMessage);
        reworded.set(a.id, current(a));
      }
      a.message = reworded.get(a.id);
    }
    return payload;
  };
  const server: Server = createServer(async (req, res) => {
    let text = '';
    for await (const chunk of req) text += chunk;
    const path = req.url ?? '/';
    const authorize = /^\/api\/v1\/trade\/sells\/([^/]+)\/authorize$/.exec(path);
    if (authorize && req.method === 'POST') {
      const id = authorize[1]!;
      authorized.push(id);
      const { signature } = JSON.parse(text);
      const ok = nacl.sign.detached.verify(
        Buffer.from(reworded.get(id) ?? '', 'utf8'),
        bs58.decode(signature),
        new PublicKey(sb.walletAddress).toBytes(),
      );
      if (!ok) {
        res.writeHead(422, { 'content-type': 'application/json' });
        return res.end(
          JSON.stringify({ error: { code: 'INVALID_SIGNATURE', message: 'not a signature of the message' } }),
        );
      }
      signedReworded.push(reworded.get(id)!);
      text = JSON.stringify({ signature: signMessage(original.get(id)!, sb.keypair) });
    }
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'x-api-key': String(req.headers['x-api-key'] ?? ''),
    };
    const upstream = await fetch(sb.url + path, { method: req.method, headers, body: text || undefined });
    const body = await upstream.text();
    res.writeHead(upstream.status, { 'content-type': 'application/json' });
    const payload = upstream.ok ? swap(JSON.parse(body)) : null;
    if (payload && path.startsWith('/api/v1/holdings') && Array.isArray(payload.data))
      for (const h of payload.data) tampering?.holding?.(h);
    res.end(payload ? JSON.stringify(payload) : body);
  });
  return {
    url: await listenLocally(server),
    signedReworded,
    authorized,
    reword: (fn) => (current = fn),
    tamper: (t) => (tampering = t),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** What a hostile service does in one case: a label, its tampering, the sell to run, and what the refusal must say. */
export type HostileCase = [
  label: string,
  tamper: Parameters<RewordingService['tamper']>[0],
  sell: () => Promise<CliResult>,
  ...says: RegExp[],
];

/**
 * Runs each case unattended: exit 6, REFUSED_TO_SIGN, a message matching every pattern, and no
 * authorize request beyond the `authorized` the service had before.
 */
export async function expectEachRefused(service: RewordingService, cases: readonly HostileCase[]): Promise<void> {
  const authorized = service.authorized.length;
  for (const [label, tamper, sell, ...says] of cases) {
    service.tamper(tamper);
    const r = await sell();
    expect(r.code, `${label}: ${r.stderr}`).toBe(6);
    const err = lastJsonError(r);
    expect(err.code, label).toBe('REFUSED_TO_SIGN');
    for (const pattern of says) expect(err.message, label).toMatch(pattern);
    expect(service.authorized, label).toHaveLength(authorized);
  }
}

/** The honest control after the hostile cases: the same service, untampered, gets a signed sell that completes. */
export async function expectHonestControl(
  service: RewordingService,
  sell: () => Promise<CliResult>,
): Promise<CliResult> {
  const authorized = service.authorized.length;
  service.tamper(null);
  const control = await sell();
  expect(control.code, control.stderr).toBe(0);
  expect(JSON.parse(control.stdout).sell.status).toBe('completed');
  expect(service.authorized).toHaveLength(authorized + 1);
  return control;
}
