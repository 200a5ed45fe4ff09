#!/usr/bin/env node
// `tool-conformance` as npm puts it on PATH (node_modules/.bin, npx): runs the platform's binary
// with the same arguments, standard streams and exit code.
import { spawnSync } from 'node:child_process';
import { binaryPath } from '../binary.js';

let binary;
try {
  binary = binaryPath();
} catch (why) {
  console.error(why.message);
  process.exit(2);
}
const ran = spawnSync(binary, process.argv.slice(2), { stdio: 'inherit' });
if (ran.error) {
  console.error(`tool-conformance: cannot run ${binary}: ${ran.error.message}`);
  process.exit(2);
}
if (ran.signal) process.kill(process.pid, ran.signal);
process.exit(ran.status ?? 1);
