import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { prepareCheckEnvironment } from '../../../src/runtimes/check-environment.js';
import { NodeRuntimes } from '../../../src/runtimes/node-runtimes.js';
import { startNpmRegistryFake, type NpmRegistryFake } from '../../fakes/npm-registry-fake.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';

const NODE_BUILDS = ['20.19.5', '22.12.0', '24.3.0', '26.1.0'];
const PACKAGE = `node-linux-${process.arch}`;

describe('the Node.js version lookup against a registry under load (npm registry fake)', () => {
  let dir: TempDir;
  const fakes: NpmRegistryFake[] = [];
  /** Wrench's own npm pointed at `registry`, with a cache of its own so nothing answers from an earlier test. */
  const runtimes = (registry: string, lookupTimeoutMs: number) =>
    new NodeRuntimes(join(dir.path, 'runtimes'), {
      lookupTimeoutMs,
      env: { npm_config_registry: registry, npm_config_cache: join(dir.path, `npm-cache-${fakes.length}`) },
    });
  const registry = async (delayMs: number | ((index: number) => number)) => {
    const fake = await startNpmRegistryFake({ [PACKAGE]: NODE_BUILDS }, { delayMs });
    fakes.push(fake);
    return fake;
  };

  beforeEach(async () => {
    dir = await makeTempDir('wrench-node-lookup-');
  });
  afterEach(async () => {
    for (const fake of fakes.splice(0)) await fake.stop();
    await dir.remove();
  });

  it('retries a lookup that ran out of time with twice the limit, and keeps the list for when the registry does not answer', async () => {
    // The first request is answered too late for the first limit; the retry's at once.
    const slow = await registry((index) => (index === 0 ? 60_000 : 0));
    const first = runtimes(slow.url, 5_000);
    expect(await first.available()).toEqual(NODE_BUILDS);
    expect(first.lookupFailure).toBeUndefined();
    expect(slow.requests.filter((path) => path.includes(PACKAGE))).toHaveLength(2);

    // Another process, a registry that answers too late for both tries: the list kept from the last lookup is used.
    const slower = await registry(60_000);
    const second = runtimes(slower.url, 300);
    expect(await second.available()).toEqual(NODE_BUILDS);
    expect(second.lookupFailure).toBe('the npm registry did not answer the Node.js version lookup in time (0.3 s, then 0.6 s)');
  });

  it('says the registry was slow, not unreachable, when nothing is kept, and marks the checks as not matching', async () => {
    await writeFile(join(dir.path, 'package.json'), '{"scripts":{"test":"node --test"}}');
    await writeFile(join(dir.path, '.nvmrc'), '22\n');
    const slow = await registry(60_000);
    const environment = await prepareCheckEnvironment(dir.path, undefined, { nodeRuntimes: runtimes(slow.url, 300) });
    const line = `⚠ Node.js 22 (.nvmrc) was asked for, but the npm registry did not answer the Node.js version lookup in time (0.3 s, then 0.6 s), and no such build is cached: the checks ran on Node.js ${process.versions.node}.`;
    expect(environment.lines).toEqual([line]);
    expect(environment.mismatches).toEqual([line]);
  });

  it('says the registry could not be reached when nothing listens', async () => {
    const gone = await registry(0);
    await gone.stop();
    fakes.pop();
    const offline = runtimes(gone.url, 2_000);
    expect(await offline.available()).toEqual([]);
    expect(offline.lookupFailure).toMatch(/^the npm registry could not be reached \(.*(ECONNREFUSED|connect).*\)$/i);
  });
});
