#!/usr/bin/env node
import { main } from '../src/cli/main.js';

main(process.argv.slice(2)).then(
  (code) => {
    if (code !== undefined) process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`wrench: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
