// The import graph of src/: every `import … from`, `export … from` and `import(…)` of every file,
// type-only and lazy ones included (a circle through a type or a lazy import is still a circle).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** One import: the file that imports (relative to the root), and what (a file relative to the root, or a package name). */
export interface ImportEdge {
  from: string;
  /** A file of the tree (`api/types.ts`), or for a package its name (`undici`, `node:http`). */
  to: string;
  /** False for a package or a node: built-in. */
  local: boolean;
}

/** The folder a file belongs to: its first directory under the root, or `(root)`. */
export function folderOf(file: string): string {
  const parts = file.split('/');
  return parts.length === 1 ? '(root)' : parts[0]!;
}

/** The imports of the .ts files under `root`. */
export function readImports(root: string): { files: string[]; edges: ImportEdge[] } {
  const base = resolve(root);
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (path.endsWith('.ts')) files.push(relative(base, path));
    }
  };
  walk(base);
  const edges: ImportEdge[] = [];
  for (const file of files) edges.push(...importsOf(file, readFileSync(join(base, file), 'utf8')));
  return { files, edges };
}

/** The imports written in one file's text. */
export function importsOf(file: string, text: string): ImportEdge[] {
  const found = new Map<string, ImportEdge>();
  for (const m of text.matchAll(
    /(?:^|[;\s])(?:import|export)\s[^'";]*?\sfrom\s+['"]([^'"]+)['"]|(?:^|[;\s])import\s+['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
  )) {
    const spec = (m[1] ?? m[2] ?? m[3])!;
    const local = spec.startsWith('.');
    const to = local ? join(dirname(file), spec).replace(/\.js$/, '.ts') : packageName(spec);
    found.set(to, { from: file, to, local });
  }
  return [...found.values()];
}

/** `@scope/name/sub/path.js` → `@scope/name`; `name/sub` → `name`; `node:x` stays. */
function packageName(spec: string): string {
  const parts = spec.split('/');
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/** The strongly connected parts of more than one node (each a circle), by Tarjan's algorithm. */
export function circles(nodes: readonly string[], next: (node: string) => readonly string[]): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter);
    counter++;
    stack.push(v);
    onStack.add(v);
    for (const w of next(v)) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const part: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        part.push(w);
      } while (w !== v);
      if (part.length > 1 || next(v).includes(v)) out.push(part.sort());
    }
  };
  for (const v of nodes) if (!index.has(v)) visit(v);
  return out;
}

/** The arrows between folders: `from -> to` for every import that crosses one, each with an example file. */
export function folderArrows(edges: readonly ImportEdge[]): Map<string, string> {
  const arrows = new Map<string, string>();
  for (const e of edges) {
    if (!e.local) continue;
    const a = folderOf(e.from);
    const b = folderOf(e.to);
    if (a !== b && !arrows.has(`${a} -> ${b}`)) arrows.set(`${a} -> ${b}`, `${e.from} imports ${e.to}`);
  }
  return arrows;
}
