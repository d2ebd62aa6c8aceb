// An RPC in front of the sandbox's that fails chosen JSON-RPC calls with -32005 "node is behind"
// (a common public-RPC error) and passes the rest: the chain unreadable for one mint only, or
// readable for mints only, as a test needs.
import { startScriptedProxy } from './scripted-proxy.js';

/** Starts the proxy; `fails(body)` picks the calls answered with the error. Returns its RPC URL and close. */
export async function startRpcFaultProxy(
  sandboxUrl: string,
  fails: (body: string) => boolean,
): Promise<{ rpcUrl: string; close(): Promise<void> }> {
  const proxy = await startScriptedProxy(sandboxUrl, async (req, forward) => {
    if (!req.path.startsWith('/rpc') || !fails(req.body)) return forward(req);
    const behind = (call: { id: unknown }) => ({
      jsonrpc: '2.0',
      id: call.id,
      error: { code: -32005, message: 'node is behind' },
    });
    const parsed = JSON.parse(req.body);
    return { status: 200, text: JSON.stringify(Array.isArray(parsed) ? parsed.map(behind) : behind(parsed)) };
  });
  return { rpcUrl: `${proxy.url}/rpc`, close: () => proxy.close() };
}

/**
 * Fails every call but the account reads that give mints' facts (the buy's token reads) and the
 * rent-exempt minimum (web3.js prints a plain line to stderr when that read fails).
 */
export const allButAccountReads = (body: string): boolean =>
  !/"(getAccountInfo|getMinimumBalanceForRentExemption)"/.test(body);
