// How two sell templates differ, word by word, for the prompt and a refusal: the words (and the
// spaces and line breaks between them) kept, removed and added, in order.

export interface DiffPart {
  op: '=' | '-' | '+';
  text: string;
}

/** Words, whitespace runs, and a template's slots (⟦…⟧, one word each). */
const tokens = (text: string): string[] => text.match(/⟦[^⟧]*⟧|\s+|[^\s⟦]+/g) ?? [];
const isWord = (token: string) => token.trim() !== '';

/**
 * The word diff of two texts: a longest common subsequence of their words and whitespace runs.
 * Texts with less than half their words in common are shown whole, old then new: the diff of a
 * rewritten text is noise.
 */
export function wordDiff(old: string, now: string): DiffPart[] {
  const a = tokens(old);
  const b = tokens(now);
  // lcs[i][j]: how much a[i..] and b[j..] share, a word 2 and a whitespace run 1. Templates are a few hundred words.
  const lcs = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--)
      lcs[i]![j] =
        a[i] === b[j] ? lcs[i + 1]![j + 1]! + (isWord(a[i]!) ? 2 : 1) : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  }
  const spaces = Math.min(a.length - a.filter(isWord).length, b.length - b.filter(isWord).length);
  if (lcs[0]![0]! < Math.max(a.filter(isWord).length, b.filter(isWord).length) + spaces) {
    return [
      { op: '-', text: old },
      { op: '+', text: now },
    ];
  }
  const parts: DiffPart[] = [];
  const push = (op: DiffPart['op'], text: string) => {
    const last = parts[parts.length - 1];
    if (last?.op === op) last.text += text;
    else parts.push({ op, text });
  };
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      push('=', a[i]!);
      i++;
      j++;
    } else if (j < b.length && (i === a.length || lcs[i]![j + 1]! >= lcs[i + 1]![j]!)) push('+', b[j++]!);
    else push('-', a[i++]!);
  }
  return parts;
}
