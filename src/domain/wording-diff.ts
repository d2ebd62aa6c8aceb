// How two sell-message wordings differ, for the prompt, a refusal and `config trust`.

/** The lines that differ, old against new ("- …" / "+ …"), for the prompt and `config trust`. */
export function wordingDiff(pinned: string, current: string): string[] {
  const old = pinned.split('\n');
  const now = current.split('\n');
  // Common head and tail are context; what lies between changed. Messages are a few lines long.
  let head = 0;
  while (head < old.length && head < now.length && old[head] === now[head]) head++;
  let tail = 0;
  while (tail < old.length - head && tail < now.length - head && old[old.length - 1 - tail] === now[now.length - 1 - tail]) tail++;
  return [
    ...old.slice(head, old.length - tail).map((l) => `- ${l}`),
    ...now.slice(head, now.length - tail).map((l) => `+ ${l}`),
  ];
}

/** One line saying what changed, for a refusal under --yes. */
export function describeWordingChange(pinned: string, current: string): string {
  const diff = wordingDiff(pinned, current);
  const removed = diff.filter((l) => l.startsWith('- ')).map((l) => l.slice(2));
  const added = diff.filter((l) => l.startsWith('+ ')).map((l) => l.slice(2));
  const quote = (lines: string[]) => (lines.length === 0 ? 'nothing' : `"${clip(lines.join(' / '))}"`);
  return `${quote(removed)} became ${quote(added)}`;
}

function clip(text: string): string {
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}
