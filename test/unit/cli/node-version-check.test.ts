import { readFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { nodeVersionProblem } from '../../../bin/node-version-check.mjs';

const root = path.resolve(import.meta.dirname, '../../..');
const engines: string = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).engines.node;

describe('nodeVersionProblem', () => {
  it.each(['24.0.0', '24.11.1', 'v24.3.0', '26.0.0', '26.10.0'])('accepts Node.js %s', (version) => {
    expect(nodeVersionProblem(version)).toBeUndefined();
  });

  it.each(['20.20.2', 'v20.19.0', '22.21.0', '23.11.0', '25.2.1', '27.0.0', '18.20.8', 'not-a-version'])('refuses Node.js %s in one line', (version) => {
    const problem = nodeVersionProblem(version);
    expect(problem).toBe(`wrench: Node.js ${version} is not supported; run Wrench on Node.js 24 or 26 (the LTS lines).`);
  });

  it("agrees with package.json's engines.node (what npm's engine-strict enforces on install)", () => {
    for (const version of ['20.20.2', '22.21.0', '23.0.0', '24.0.0', '24.11.1', '25.9.0', '26.0.0', '26.10.0', '27.0.0']) {
      expect(nodeVersionProblem(version) === undefined, version).toBe(semver.satisfies(version, engines));
    }
  });

  it('agrees with the README', () => {
    expect(readFileSync(path.join(root, 'README.md'), 'utf8')).toContain('Node.js 24 or 26');
  });
});
