// The character rules of a sell message: what is signed must be what the user reads. Any
// character that renders as nothing, as a space that is not a space, as a digit that is not an
// ASCII digit, or that reorders or decorates text, is refused outright.

const MAX_MESSAGE_BYTES = 2_048;

// Each rule that matches is reported once, at its first occurrence.
const RULES: Array<{ pattern: RegExp; what: string }> = [
  { pattern: /\p{Bidi_Control}/u, what: 'a bidi control, which reorders what is shown' },
  { pattern: /(?![\t\n])\p{Cc}/u, what: 'a control character' },
  { pattern: /\p{DI}/u, what: 'an invisible (default-ignorable) character' },
  { pattern: /[\p{Cf}\p{Co}\p{Cs}\p{Cn}]/u, what: 'a format, private-use or unassigned character' },
  { pattern: /(?! )[\p{Zs}\p{Zl}\p{Zp}]/u, what: 'a space or separator other than the plain space' },
  { pattern: /(?![0-9])\p{N}/u, what: 'a digit or numeral outside 0-9' },
  // A combining mark on an ASCII character can strike, hide or restyle a digit or letter.
  { pattern: /(?<=[\x00-\x7f])\p{M}/u, what: 'a combining mark on a plain character' },
];

/** The problems with the message's characters and size, one line each (empty = fine). */
export function characterProblems(message: string): string[] {
  const problems: string[] = [];
  for (const rule of RULES) {
    const hit = rule.pattern.exec(message);
    if (!hit) continue;
    const cp = hit[0].codePointAt(0)!;
    problems.push(
      `the message contains ${rule.what} (U+${cp.toString(16).toUpperCase().padStart(4, '0')} at position ${hit.index}), which can hide what is being signed`,
    );
  }
  const bytes = new TextEncoder().encode(message).length;
  if (bytes > MAX_MESSAGE_BYTES) problems.push(`the message is ${bytes} bytes long, more than the ${MAX_MESSAGE_BYTES} allowed`);
  return problems;
}
