// The Node.js the tool needs, checked by bin/trader.js before anything else is loaded, so an
// older Node says so in one line instead of failing somewhere inside. This module must load on
// any Node that runs ES modules: no imports, nothing newer than ES2020.

/** The oldest Node.js the tool runs on: package.json "engines" says the same (a unit test holds them together). */
export const MIN_NODE_VERSION = '20.18.1';

/** Null when `version` (process.versions.node, `20.18.1`) is new enough; else the one-line error. */
export function unsupportedNode(version: string): string | null {
  const have = version.split('.').map((part) => Number.parseInt(part, 10));
  const need = MIN_NODE_VERSION.split('.').map(Number);
  for (let i = 0; i < need.length; i++) {
    const h = have[i] ?? 0;
    if (Number.isNaN(h)) break;
    if (h > need[i]!) return null;
    if (h < need[i]!) return `trader needs Node.js ${MIN_NODE_VERSION} or newer; this is Node.js ${version}`;
  }
  return null;
}
