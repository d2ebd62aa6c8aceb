// Whether the owner wallet can pay a deposit, as the chain says: the deposit, plus the network
// fee the tool computed from the transaction, plus what a system account must keep to stay
// rent-exempt. Pure: the chain read is done by src/chain/funds-check.ts.
import { formatSol } from './amounts.js';

export type Funds =
  | {
      checked: true;
      balanceLamports: bigint;
      depositLamports: bigint;
      networkFeeLamports: bigint;
      /** Rent-exempt minimum of a system account: what the wallet must keep. */
      keepLamports: bigint;
      /**
       * The chain knew the deposit's recentBlockhash (read before signing): only then may this
       * chain later prove the deposit absent (an RPC on another cluster knows neither).
       */
      blockhashKnown?: boolean;
    }
  /** The chain could not be read: the buy goes on, and says so. */
  | { checked: false; reason: string };

const sol = (lamports: bigint) => `${formatSol(lamports)} SOL`;

/** Deposit + network fee + the rent-exempt minimum. */
export function requiredLamports(f: Extract<Funds, { checked: true }>): bigint {
  return f.depositLamports + f.networkFeeLamports + f.keepLamports;
}

/** What the wallet holds after the deposit and its fee. */
export function afterLamports(f: Extract<Funds, { checked: true }>): bigint {
  return f.balanceLamports - f.depositLamports - f.networkFeeLamports;
}

/** True when the chain shows the wallet cannot pay. */
export function fundsShort(f: Funds | null): f is Extract<Funds, { checked: true }> {
  return f !== null && f.checked && f.balanceLamports < requiredLamports(f);
}

/** The refusal: what the wallet holds, what the deposit needs, how it adds up. */
export function fundsShortMessage(f: Extract<Funds, { checked: true }>): string {
  return (
    `the wallet holds ${sol(f.balanceLamports)} and this deposit needs ${sol(requiredLamports(f))}: ` +
    `${sol(f.depositLamports)} plus a network fee of at most ${sol(f.networkFeeLamports)} plus ${sol(f.keepLamports)} the wallet must keep (rent-exempt minimum)`
  );
}

/** The review's wallet line: before and after, or why it is not known. */
export function fundsLine(f: Funds): string {
  if (!f.checked) return `not checked on chain: ${f.reason}`;
  return `${sol(f.balanceLamports)} now, at least ${sol(afterLamports(f))} after (on chain)`;
}
