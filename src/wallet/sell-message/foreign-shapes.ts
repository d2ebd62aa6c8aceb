// Text in the shape of something other than a sell: another signing protocol (a login for a
// website, an off-chain message), or a statement that authorizes something besides this sale.
// An owner signature over such text could be replayed where that text means something.

/** Line labels of Sign-In-With-Solana / EIP-4361 messages. */
const SIWS_LABEL = /^(URI|Version|Chain ID|Nonce|Issued At|Expiration Time|Not Before|Request ID|Resources):/gim;
const SIWS_CORE = new Set(['uri', 'chain id', 'issued at']);

function looksLikeSignIn(message: string): boolean {
  if (/wants you to sign in/i.test(message)) return true;
  const labels = new Set([...message.matchAll(SIWS_LABEL)].map((m) => m[1]!.toLowerCase()));
  const core = [...labels].filter((l) => SIWS_CORE.has(l)).length;
  // "Nonce:" or "Expiration Time:" alone is ordinary wording; with URI/Chain ID/Issued At it is a login.
  return core >= 2 || (core === 1 && labels.size >= 2);
}

const SHAPES: Array<{ test: (message: string) => boolean; what: string }> = [
  { test: looksLikeSignIn, what: 'a Sign-In-With-Solana / EIP-4361 login' },
  // The off-chain message preamble is "\xffsolana offchain"; its text form is refused too.
  { test: (m) => /solana[\s_-]*off[\s_-]*chain/i.test(m) || m.startsWith('\u00ff'), what: 'a Solana off-chain message' },
  { test: (m) => /\bwithdraw/i.test(m), what: 'a withdrawal' },
  { test: (m) => /\btransfer\w*\b[^\n.;]{0,60}?\bto\b/i.test(m), what: 'a transfer to someone' },
  { test: (m) => /\bapprov(e|es|ed|al|ing)\b/i.test(m), what: 'an approval' },
  { test: (m) => /\bdelegat/i.test(m), what: 'a delegation' },
  { test: (m) => /\b(set|change|transfer|new)[\s_-]*(\w+[\s_-]+)?authority\b/i.test(m), what: 'a change of authority' },
  { test: (m) => /\b(log|sign)[\s_-]?(in|on|up)\b|\blogin\b|\bauthenticat/i.test(m), what: 'a log-in' },
  { test: (m) => /\b(grant|revoke)\w*\b/i.test(m), what: 'a grant or revocation of access' },
  { test: (m) => /\bclose[\s_-]*(the[\s_-]*)?account\b/i.test(m), what: 'closing an account' },
];

/** Problems for text shaped like anything but this sell (empty = none). */
export function foreignShapeProblems(message: string): string[] {
  return SHAPES.filter((s) => s.test(message)).map(
    (s) => `the message reads as ${s.what}, not only this sell; signing it could authorize that`,
  );
}
