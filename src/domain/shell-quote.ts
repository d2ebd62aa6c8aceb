// Values shown inside a command line the user may copy (hints, export lines).

/** Quotes a value for a POSIX shell when it needs quoting. */
export function shellQuote(value: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}
