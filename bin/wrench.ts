#!/usr/bin/env node
import { nodeVersionProblem } from './node-version-check.mjs';

const problem = nodeVersionProblem(process.versions.node);
if (problem) {
  process.stderr.write(`${problem}\n`);
  process.exit(1);
}

const { main } = await import('../app/cli/main.js');
main(process.argv.slice(2)).then(
  (code) => {
    if (code !== undefined) process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`wrench: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
