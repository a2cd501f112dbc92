import { chmod, mkdir, mkdtemp, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import semver from 'semver';
import { WrenchError } from '../errors.js';
import type { NodeRuntimes } from './node-runtimes.js';

export interface PackageManagerInstall {
  name: 'pnpm' | 'yarn';
  version: string;
  /** Holds `bin/` (one launcher per command of the package, run by the `node` on PATH) and `package/`. */
  home: string;
  downloaded: boolean;
}

/**
 * The pnpm or Yarn release package.json `packageManager` names (`pnpm@9.15.0`, `yarn@4.5.0+sha512…`), fetched from the
 * npm registry the way corepack fetches it (`pnpm`, `yarn` for 1.x, `@yarnpkg/cli-dist` for 2 and later), unpacked
 * once per version under the runtimes folder. Undefined when the field names another tool or no exact version.
 */
export async function installPackageManager(runtimes: NodeRuntimes, field: string): Promise<PackageManagerInstall | undefined> {
  const [, tool, asked] = /^(pnpm|yarn)@([^+\s]+)/.exec(field.trim()) ?? [];
  if (asked === undefined) return undefined;
  const name = tool === 'pnpm' ? 'pnpm' : 'yarn';
  // A range (`pnpm/action-setup`'s `version: 9`, `latest`) is the newest release the registry has in it.
  const version =
    semver.valid(asked) ?? (name === 'pnpm' && (asked === 'latest' || semver.validRange(asked)) ? await runtimes.newestRelease('pnpm', asked) : undefined);
  if (!version) return undefined;
  const registryName = name === 'pnpm' ? 'pnpm' : semver.major(version) < 2 ? 'yarn' : '@yarnpkg/cli-dist';
  const home = path.join(runtimes.root, name, version);
  if (await exists(path.join(home, 'bin'))) return { name, version, home, downloaded: false };
  await mkdir(path.dirname(home), { recursive: true });
  const scratch = await mkdtemp(path.join(path.dirname(home), `.${version}-`));
  try {
    const staged = path.join(scratch, 'home');
    await mkdir(path.join(staged, 'package'), { recursive: true });
    await runtimes.unpackPackage(`${registryName}@${version}`, path.join(staged, 'package'), scratch);
    await writeLaunchers(staged, `${registryName}@${version}`);
    await rename(staged, home).catch(async (error: NodeJS.ErrnoException) => {
      if (!(await exists(path.join(home, 'bin')))) throw error;
    });
    return { name, version, home, downloaded: true };
  } catch (error) {
    if (error instanceof WrenchError) throw error;
    throw new WrenchError('runtime_unavailable', `${name} ${version} could not be unpacked (${(error as Error).message.split('\n')[0]})`, { cause: error });
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** One shell launcher in `bin/` per entry of the package's `bin`, running it with the `node` first on PATH. */
async function writeLaunchers(home: string, spec: string): Promise<void> {
  const manifest = JSON.parse(await readFile(path.join(home, 'package', 'package.json'), 'utf8')) as { bin?: unknown };
  const bins = typeof manifest.bin === 'object' && manifest.bin ? Object.entries(manifest.bin as Record<string, unknown>) : [];
  if (!bins.length) throw new WrenchError('runtime_unavailable', `${spec} names no command to run`);
  await mkdir(path.join(home, 'bin'));
  for (const [command, target] of bins) {
    if (!/^[\w.-]+$/.test(command) || typeof target !== 'string') continue;
    const script = path.join(home, 'package', path.normalize(target));
    if (!script.startsWith(path.join(home, 'package') + path.sep)) continue;
    const launcher = path.join(home, 'bin', command);
    await writeFile(launcher, `#!/bin/sh\nexec node "$(dirname "$0")/../package/${path.relative(path.join(home, 'package'), script)}" "$@"\n`);
    await chmod(launcher, 0o755);
  }
}

async function exists(file: string): Promise<boolean> {
  return (await stat(file).catch(() => undefined)) !== undefined;
}
