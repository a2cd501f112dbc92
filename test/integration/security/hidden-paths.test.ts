import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { jobSandbox } from '../../../runners/job-sandbox.js';
import { loadConfig } from '../../../src/config/load-config.js';
import { createLogger } from '../../../src/logging/logger.js';

/**
 * Issue 27, part 4: what a sandboxed command must never read, each with a secret file in it: the service's own HOME
 * (wherever it is, not only under /root or /home), the directory of WRENCH_CONFIG, WRENCH_DATA_DIR outside the job's
 * own tree (held bundles of refused pushes included), and a path the operator lists in `sandbox.hidden`. All live under /var/tmp (the sandbox's /tmp is its own,
 * so a file in the host's /tmp would prove nothing).
 */
let base: string;
const saved = { HOME: process.env.HOME, WRENCH_CONFIG: process.env.WRENCH_CONFIG, WRENCH_DATA_DIR: process.env.WRENCH_DATA_DIR };
const places = ['home', 'config', 'data', 'data/held', 'operator-listed'] as const;
const secretOf = (place: string) => `secret-of-${place}-${process.pid}`;

beforeAll(async () => {
  base = await mkdtemp('/var/tmp/wrench-hidden-');
  for (const place of places) {
    await mkdir(path.join(base, place), { recursive: true });
    await writeFile(path.join(base, place, 'secret.txt'), secretOf(place));
  }
  await writeFile(path.join(base, 'config', 'wrench.config.yml'), `sandbox:\n  hidden: [${path.join(base, 'operator-listed')}]\n`);
  process.env.HOME = path.join(base, 'home');
  process.env.WRENCH_CONFIG = path.join(base, 'config', 'wrench.config.yml');
  process.env.WRENCH_DATA_DIR = path.join(base, 'data');
});

afterAll(async () => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await rm(base, { recursive: true, force: true });
});

it('hides the service HOME, the config directory, the data directory and sandbox.hidden from a sandboxed command', async () => {
  const config = loadConfig(process.env, base);
  const workspace = path.join(config.dataDir, 'workspaces', 'job-1');
  await mkdir(workspace, { recursive: true });
  await writeFile(path.join(workspace, 'own.txt'), 'the job reads its own tree');
  const sandbox = jobSandbox({ config, secrets: [] }, workspace, { readOnly: false, log: createLogger({ level: 'silent' }) });
  const reads = places.map((place) => `cat ${path.join(base, place, 'secret.txt')} 2>&1; ls -A ${path.join(base, place)}`).join('; ');
  for (const network of [false, true]) {
    const result = await sandbox.exec(`${reads}; cat own.txt`, { cwd: workspace, timeoutMs: 20_000, network });
    for (const place of places) expect(result.output, place).not.toContain(secretOf(place));
    expect(result.output).not.toContain('wrench.config.yml');
    expect(result.output).toContain('No such file or directory');
    expect(result.output).toContain('the job reads its own tree');
  }
}, 60_000);
