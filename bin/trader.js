#!/usr/bin/env node
// The `trader` binary: the Node.js version check, then everything lives in the built entry point.
import { unsupportedNode } from '../dist/node-version.js';

const problem = unsupportedNode(process.versions.node);
if (problem) {
  process.stderr.write(`error: ${problem}\n`);
  process.exit(2);
}
await import('../dist/main.js');
