// The <token> argument of buy and sell: a mint address, or the symbol or mint prefix of a token
// the account knows, looked up once the service is reachable.
import { UsageError } from '../errors.js';
import { MIN_MINT_PREFIX } from '../trade/token-lookup.js';
import { isAddress } from '../wallet/address.js';
import { printable } from './arguments.js';

export type TokenArgument = { kind: 'mint'; mint: string } | { kind: 'lookup'; text: string };

const SYMBOL = /^\$?[A-Za-z0-9._-]{1,16}$/;
const MINT_PREFIX = new RegExp(`^[1-9A-HJ-NP-Za-km-z]{${MIN_MINT_PREFIX},44}$`);

/** Checks a typed token before any request; `whose` says which tokens a symbol may name. */
export function parseTokenArgument(value: string, whose: string): TokenArgument {
  if (isAddress(value)) return { kind: 'mint', mint: value };
  if (SYMBOL.test(value) || MINT_PREFIX.test(value)) return { kind: 'lookup', text: value };
  throw new UsageError(
    `token must be a mint address (base58, 32 bytes), or the symbol or first ${MIN_MINT_PREFIX}+ characters of the mint of a token ${whose}; got "${printable(value)}"`,
  );
}
