#!/usr/bin/env node
// The `trader` binary: the Node.js version check, then everything lives in the built entry point.
import { errorLine } from '../dist/io/error-line.js';
import { unsupportedNode } from '../dist/node-version.js';

const problem = unsupportedNode(process.versions.node);
if (problem) {
  process.stderr.write(`${errorLine(problem)}\n`);
  process.exit(2);
}
await import('../dist/main.js');
