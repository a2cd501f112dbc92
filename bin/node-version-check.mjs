#!/usr/bin/env node
// Plain JavaScript on purpose: `npm start` and `npm test` run this first, before anything is built, so that an
// unsupported Node.js (which cannot run TypeScript) is refused in one line instead of after a long build.
// package.json's engines.node, the README and the Dockerfile name the same lines.
import { pathToFileURL } from 'node:url';

/** The Node.js major versions Wrench supports: the current LTS lines. */
export const SUPPORTED_NODE_MAJORS = [24, 26];

/**
 * The one-line reason a Node.js version cannot run Wrench, or undefined when it can.
 * @param {string} version a version such as `process.versions.node` ("26.10.0", with or without a leading "v")
 * @returns {string | undefined}
 */
export function nodeVersionProblem(version) {
  const major = Number(/^v?(\d+)\./.exec(version)?.[1]);
  if (SUPPORTED_NODE_MAJORS.includes(major)) return undefined;
  const supported = SUPPORTED_NODE_MAJORS.join(' or ');
  return `wrench: Node.js ${version} is not supported; run Wrench on Node.js ${supported} (the LTS lines).`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const problem = nodeVersionProblem(process.versions.node);
  if (problem) {
    process.stderr.write(`${problem}\n`);
    process.exit(1);
  }
}
