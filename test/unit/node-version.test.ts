import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MIN_NODE_VERSION, unsupportedNode } from '../../src/node-version.js';

describe('the Node.js version check', () => {
  it('is the version package.json "engines" names', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    expect(pkg.engines.node).toBe(`>=${MIN_NODE_VERSION}`);
  });

  it.each(['20.18.1', '20.18.2', '20.19.0', '20.20.2', '21.0.0', '22.1.0', '24.0.0'])(
    'accepts %s (at the limit and above)',
    (v) => {
      expect(unsupportedNode(v)).toBeNull();
    },
  );

  it.each(['20.18.0', '20.17.9', '19.9.9', '18.20.4', '16.0.0'])(
    'refuses %s (one below the limit and older) in one line naming both versions',
    (v) => {
      expect(unsupportedNode(v)).toBe(`trader needs Node.js 20.18.1 or newer; this is Node.js ${v}`);
    },
  );
});
