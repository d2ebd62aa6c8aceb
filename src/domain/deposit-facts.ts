// What the inspection of a buy's unsigned deposit found in it (wallet/deposit-inspection.ts makes
// it): shared by the buy flow, its review and the views, so it lives below all of them.

/** The deposit transaction's facts, as decoded before anything is signed. */
export interface DepositFacts {
  feePayer: string;
  /** Required signers, in order. */
  signers: string[];
  /** Recipient of the single System transfer, or null when there is not exactly one. */
  recipient: string | null;
  transferLamports: bigint | null;
  /** The text of the SPL Memo beside the transfer (printable, one line), or null when there is none. */
  memo: string | null;
  /** The compute-unit limit the fee is reckoned with: the requested one, or the runtime's default; capped as the runtime caps it. */
  computeUnitLimit: bigint;
  computeUnitPriceMicroLamports: bigint;
  networkFeeLamports: bigint;
  recentBlockhash: string;
  version: 'legacy' | 0;
  treasuryCheck: 'pinned' | 'first-use';
}
