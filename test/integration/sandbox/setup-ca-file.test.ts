import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox } from '../../../src/sandbox/create-sandbox.js';
import { runSetup, runVerification } from '../../../src/verification/run-verification.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';

const PEM = '-----BEGIN CERTIFICATE-----\nMIIBcorporateproxyca\n-----END CERTIFICATE-----\n';
const SHOW =
  'echo "node=$NODE_EXTRA_CA_CERTS npm=$npm_config_cafile pip=$PIP_CERT requests=$REQUESTS_CA_BUNDLE git=$GIT_SSL_CAINFO curl=$CURL_CA_BUNDLE"; echo "npm says $(npm config get cafile)"; cat "$NODE_EXTRA_CA_CERTS"';

/** `sandbox.setupCaFile`: a TLS-intercepting proxy's CA, given to the setup step (the command with network) only. */
describe.each(['bwrap', 'none'] as const)('the setup step trusts the configured CA bundle (%s)', (mode) => {
  let workspace: TempDir;
  let outside: TempDir;
  let caFile: string;

  beforeAll(async () => {
    workspace = await makeTempDir('wrench-setup-ca-ws-');
    // Outside the workspace and the system directories: bwrap shows it only because the config names it.
    outside = await makeTempDir('wrench-setup-ca-');
    caFile = path.join(outside.path, 'corporate-ca.pem');
    await writeFile(caFile, PEM);
  });
  afterAll(async () => {
    await Promise.all([workspace?.remove(), outside?.remove()]);
  });

  it('names it in every CA variable of the setup step, npm reads it, and the file is there to read; the checks do not get it', async () => {
    const sandbox = createSandbox({ mode, root: workspace.path, setupCaFile: caFile });
    const commands = { sources: [], setup: SHOW, test: SHOW };
    const setup = await runSetup({ sandbox, dir: workspace.path, commands, timeoutMs: 60_000 });
    expect(setup?.outputTail).toContain(`node=${caFile} npm=${caFile} pip=${caFile} requests=${caFile} git=${caFile} curl=${caFile}`);
    expect(setup?.outputTail).toContain(`npm says ${caFile}`);
    expect(setup?.outputTail).toContain('MIIBcorporateproxyca');
    const checks = await runVerification({ sandbox, dir: workspace.path, commands, timeoutMs: 60_000 });
    // (The host's own NODE_EXTRA_CA_CERTS and the like pass as before: only the configured bundle is the setup step's.)
    expect(checks.test?.outputTail).not.toContain(caFile);
    expect(checks.test?.outputTail).not.toContain('MIIBcorporateproxyca');
  }, 120_000);
});
