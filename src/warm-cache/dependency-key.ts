import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

/** Files whose content decides what the setup step installs. */
export const DEPENDENCY_FILES = [
  'package.json',
  'package-lock.json',
  'npm-shrinkwrap.json',
  'yarn.lock',
  'pnpm-lock.yaml',
  'bun.lockb',
  '.npmrc',
  '.nvmrc',
  'requirements.txt',
  'requirements-dev.txt',
  'pyproject.toml',
  'poetry.lock',
  'uv.lock',
  'Pipfile.lock',
  'Gemfile',
  'Gemfile.lock',
  'composer.json',
  'composer.lock',
  'go.mod',
  'go.sum',
  'Cargo.toml',
  'Cargo.lock',
];

const run = promisify(execFile);
let toolVersions: Promise<string> | undefined;

/** Versions of the tools a setup step may use, read once per process (a missing tool reads as "none"). */
function readToolVersions(): Promise<string> {
  toolVersions ??= Promise.all(
    [
      ['node', '--version'],
      ['npm', '--version'],
      ['python3', '--version'],
    ].map(([tool, flag]) =>
      run(tool!, [flag!], { timeout: 10_000 }).then(
        (out) => `${tool} ${out.stdout.trim()}`,
        () => `${tool} none`,
      ),
    ),
  ).then((versions) => [`${process.platform}-${process.arch}`, ...versions].join('\n'));
  return toolVersions;
}

/**
 * A hash naming what the setup step produces in `dir`: the lock files and manifests at the top of the tree, the
 * setup command and the tool versions. The same key means the same installed dependencies.
 */
export async function dependencyKey(dir: string, setupCommand: string | undefined): Promise<string> {
  const hash = createHash('sha256');
  hash.update(`setup\0${setupCommand ?? ''}\0tools\0${await readToolVersions()}\0`);
  for (const file of DEPENDENCY_FILES) {
    const content = await readFile(path.join(dir, file)).catch(() => undefined);
    if (content) hash.update(`${file}\0${content.length}\0`).update(content);
  }
  return hash.digest('hex');
}
