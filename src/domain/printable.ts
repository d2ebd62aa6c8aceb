// What of a typed value an error message may echo: every parser's refusal names what was typed,
// and a typed value may hold anything a terminal would act on.

/** `U+200B`: a character by its code point, as every message and screen names one it will not show. */
export const codePoint = (ch: string): string => `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/** A value safe to echo in an error message: control characters removed, length bounded. */
export function printable(value: string): string {
  const clean = value.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');
  return clean.length > 80 ? `${clean.slice(0, 77)}...` : clean;
}
