#!/usr/bin/env node
const major = Number(process.versions.node.split('.')[0]);
if (major < 22) {
  process.stderr.write(`wrench: Node.js ${process.versions.node} is past its end of life; run Wrench on Node.js 24 or 26 (LTS).\n`);
  process.exit(1);
}

const { main } = await import('../src/cli/main.js');
main(process.argv.slice(2)).then(
  (code) => {
    if (code !== undefined) process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`wrench: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
