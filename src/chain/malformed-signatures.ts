// A signature the service names must be one: base58 of 64 bytes. One in any other form names no
// transaction, so it is the service's contradiction, decided here before any RPC call (it is
// never sent: an RPC's "invalid params" answer would read as the endpoint failing).
import type { Trade } from '../api/types.js';
import { printable } from '../domain/printable.js';
import { isSignatureText } from '../domain/address.js';
import type { Check } from './transfer-checks.js';

/** A check of verify-trade.ts's shape, for a value the service named in a role. */
export type MalformedCheck = Check & {
  signature: null;
  role: 'deposit' | 'swap' | 'payout' | 'refund';
  expected: string;
};

/**
 * The trade with every signature the service names that is not a transaction signature set
 * aside (the rest are checked on chain as usual), and a contradiction for each one set aside.
 */
export function setAsideMalformed(trade: Trade): { trade: Trade; checks: MalformedCheck[] } {
  const s = trade.signatures;
  const checks: MalformedCheck[] = [];
  const keep = (role: MalformedCheck['role'], value: string): boolean => {
    if (isSignatureText(value)) return true;
    checks.push(malformedCheck(role, value));
    return false;
  };
  const deposit = s.deposit !== null && !keep('deposit', s.deposit) ? null : s.deposit;
  const swaps = s.swaps.filter((x) => keep('swap', x));
  const payouts = s.payouts.filter((x) => keep('payout', x));
  const refund = s.refund !== null && !keep('refund', s.refund) ? null : s.refund;
  if (checks.length === 0) return { trade, checks };
  return { trade: { ...trade, signatures: { ...s, deposit, swaps, payouts, refund } }, checks };
}

/** The contradiction of one named value that is no transaction signature; the value shown escaped, never as the signature. */
function malformedCheck(role: MalformedCheck['role'], value: string): MalformedCheck {
  return {
    signature: null,
    role,
    expected: `a transaction signature (base58 of 64 bytes)`,
    mark: 'contradicts',
    chain: `the service names ${printable(JSON.stringify(shorten(value)))} as the ${role}, which names no transaction (not asked of the chain)`,
  };
}

/** At most 20 characters of what the service sent: enough to recognise it, never a screenful. */
function shorten(value: string): string {
  return value.length > 20 ? `${value.slice(0, 19)}…` : value;
}
