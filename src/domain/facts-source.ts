// Where the token facts a refused trade kept for a person came from: the service's lists alone,
// or the service's lists and the chain alike. Kept with the facts (config/trust-store.ts), so the
// refusal and `trader config trust` say the same of them, from this one module.

/** Who names a kept token's facts: the service alone, or the service and the chain alike. */
export type FactsSource = 'service' | 'service+chain';

/** The source of kept facts; facts an earlier version kept without one read as the weaker claim. */
export const sourceOf = (kept: { source?: FactsSource }): FactsSource =>
  kept.source === 'service+chain' ? 'service+chain' : 'service';

/** The source of a binding's facts: the service's alone wherever neither the chain nor a person vouches for one of them. */
export const bindingSource = (binding: { unbound: readonly unknown[] }): FactsSource =>
  binding.unbound.length === 0 ? 'service+chain' : 'service';

/** Where kept facts came from, in the words every sentence about them uses. */
export function factsSourcePhrase(source: FactsSource): string {
  return source === 'service+chain'
    ? "as the service's lists and the chain name it"
    : "the service's word, which neither the chain nor you confirmed";
}
