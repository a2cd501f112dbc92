import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createBwrapSandbox } from '../../../src/sandbox/bwrap-sandbox.js';
import type { EgressRefusal } from '../../../src/sandbox/egress/egress-proxy.js';
import { runSetup } from '../../../src/verification/run-verification.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';

/** Issue 27: the egress policy must not break a normal install: `npm install` from the npm registry the host uses. */
let workspace: TempDir;
beforeAll(async () => {
  workspace = await makeTempDir('wrench-real-install-');
});
afterAll(() => workspace.remove());

it('installs a small package from the real npm registry through the egress proxy', async () => {
  const refused: EgressRefusal[] = [];
  const sandbox = createBwrapSandbox({ root: workspace.path, onEgressRefused: (refusal) => refused.push(refusal) });
  const setup = await runSetup({
    sandbox,
    dir: workspace.path,
    commands: { setup: 'npm init -y >/dev/null && npm install --no-audit --no-fund is-number@7.0.0', sources: [] },
    timeoutMs: 120_000,
  });
  expect(setup?.outputTail).not.toContain('ERR!');
  expect(setup?.passed).toBe(true);
  expect(JSON.parse(await readFile(path.join(workspace.path, 'node_modules', 'is-number', 'package.json'), 'utf8')).version).toBe('7.0.0');
  expect(refused).toEqual([]);
}, 150_000);
