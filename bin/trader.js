#!/usr/bin/env node
// The `trader` binary: everything lives in the built entry point.
import '../dist/main.js';
