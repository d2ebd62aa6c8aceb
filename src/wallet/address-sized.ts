// Which random values of a sell message can be an account address. A value of 32 bytes (64 hex
// digits, or 43-44 base58 characters) is an address's size, and every 32 bytes may be a public
// key: the tool cannot tell a nonce from another party's address there, and reads no prose to
// learn what the wording makes of it ("Pay proceeds to: ⟦64 hex⟧"). So a person approving such
// a template is told so (views/wording.ts), and a value that is an address the tool knows in a role of its own (the
// mint, your wallet, the service's treasury) is refused, as any base58 address outside the
// mint's and the wallet's slots is (both judged here, for sell-template/extract.ts and match.ts).
import bs58 from 'bs58';
import { isAddress } from '../domain/address.js';

type Part = string | { opaque?: string; length?: number; fact?: string };
type Slot = Exclude<Part, string>;

/** Whether a slot is a random value pinned at exactly 32 bytes: 64 hex digits, or 43-44 base58 characters. */
export function isAddressSized(p: Slot): boolean {
  return (
    ((p.opaque === 'hex' || p.opaque === 'HEX') && p.length === 64) ||
    (p.opaque === 'base58' && (p.length === 43 || p.length === 44))
  );
}

/** The role of a known address that a run of 64 hex digits is written in hex, or null. */
export function knownHexAddress(run: string, known: Record<string, string | null | undefined>): string | null {
  if (!/^[0-9a-fA-F]{64}$/.test(run)) return null;
  const address = bs58.encode(Buffer.from(run, 'hex'));
  return Object.entries(known).find(([, a]) => a === address)?.[0] ?? null;
}

/**
 * Why a run of a sell message is an account, not a random value: base58 of 32 bytes (outside the
 * mint's and the wallet's slots, which are matched first), or 64 hex digits that are the mint, the
 * wallet or the treasury; null when it is neither.
 */
export function accountIn(
  run: string,
  facts: { mint: string; owner: string; treasury?: string | null },
): string | null {
  if (isAddress(run)) return `the address ${run}, which is neither the mint nor your wallet`;
  const role = knownHexAddress(run, {
    'the mint': facts.mint,
    'your wallet': facts.owner,
    "the service's treasury": facts.treasury,
  });
  return role ? `${run}, ${role} written in hex: an account, not a random value` : null;
}
