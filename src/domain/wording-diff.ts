// How two sell templates differ, word by word, for the prompt and a refusal: the words (and the
// spaces and line breaks between them) kept, removed and added, in order.

export interface DiffPart {
  op: '=' | '-' | '+';
  text: string;
}

/** The word diff of two texts: a longest common subsequence of their words and whitespace runs. */
export function wordDiff(old: string, now: string): DiffPart[] {
  const a = old.split(/(\s+)/).filter(Boolean);
  const b = now.split(/(\s+)/).filter(Boolean);
  // lcs[i][j]: the longest common subsequence of a[i..] and b[j..]. Templates are a few hundred words.
  const lcs = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) for (let j = b.length - 1; j >= 0; j--) lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const parts: DiffPart[] = [];
  const push = (op: DiffPart['op'], text: string) => {
    const last = parts[parts.length - 1];
    if (last?.op === op) last.text += text;
    else parts.push({ op, text });
  };
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) push('=', a[i++]! + (j++, ''));
    else if (j < b.length && (i === a.length || lcs[i]![j + 1]! >= lcs[i + 1]![j]!)) push('+', b[j++]!);
    else push('-', a[i++]!);
  }
  return parts;
}

/** The changed words only, for a one-line refusal: `"Minimum" became "Floor"`. */
export function describeWordingChange(old: string, now: string): string {
  const parts = wordDiff(old, now);
  const said = (op: '-' | '+') => parts.filter((p) => p.op === op).map((p) => p.text.replace(/\s+/g, ' ').trim()).filter(Boolean);
  const quote = (words: string[]) => (words.length === 0 ? 'nothing' : `"${clip(words.join(' … '))}"`);
  return `${quote(said('-'))} became ${quote(said('+'))}`;
}

function clip(text: string): string {
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}
