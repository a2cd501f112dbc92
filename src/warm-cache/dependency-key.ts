import { createHash } from 'node:crypto';
import { isTreePattern } from '../config/tree-pattern.js';
import { execFile } from 'node:child_process';
import { glob, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { WrenchError } from '../errors.js';

/**
 * Files at the top of the tree whose content decides what the setup step installs: each package manager's manifest,
 * lock file and settings (npm, yarn classic and berry, pnpm, bun; pip, Poetry, uv, Pipenv, PDM; Bundler; Composer; Go
 * modules and workspaces; Cargo), and the files naming a runtime version.
 */
export const DEPENDENCY_FILES = [
  'package.json',
  'package-lock.json',
  'npm-shrinkwrap.json',
  '.npmrc',
  'yarn.lock',
  '.yarnrc',
  '.yarnrc.yml',
  'pnpm-lock.yaml',
  'pnpm-workspace.yaml',
  'bun.lock',
  'bun.lockb',
  'bunfig.toml',
  '.nvmrc',
  '.node-version',
  '.tool-versions',
  'pyproject.toml',
  'poetry.lock',
  'uv.lock',
  'Pipfile',
  'Pipfile.lock',
  'pdm.lock',
  'setup.py',
  'setup.cfg',
  '.python-version',
  'Gemfile',
  'Gemfile.lock',
  'composer.json',
  'composer.lock',
  'go.mod',
  'go.sum',
  'go.work',
  'go.work.sum',
  'Cargo.toml',
  'Cargo.lock',
  'rust-toolchain',
  'rust-toolchain.toml',
];
/** pip's requirement files at the top of the tree (`requirements.txt`, `requirements-dev.txt`, `dev-requirements.txt`, …). */
const REQUIREMENTS = /^(?:[\w.-]*[-_.])?requirements(?:[-_.][\w.-]*)?\.(?:txt|in)$/;
/** Never searched by a repository's own key files: installed dependencies and git's own data. */
const NOT_SEARCHED = new Set(['.git', 'node_modules', 'vendor', '.venv']);
const MAX_KEY_FILES = 2000;

const run = promisify(execFile);
let toolVersions: Promise<string> | undefined;

/** Versions of the tools a setup step may use, read once per process (a missing tool reads as "none"). */
function readToolVersions(): Promise<string> {
  toolVersions ??= Promise.all(
    (
      [
        ['node', '--version'],
        ['npm', '--version'],
        ['python3', '--version'],
      ] as const
    ).map(([tool, flag]) =>
      run(tool, [flag], { timeout: 10_000 }).then(
        (out) => `${tool} ${out.stdout.trim()}`,
        () => `${tool} none`,
      ),
    ),
  ).then((versions) => [`${process.platform}-${process.arch}`, ...versions].join('\n'));
  return toolVersions;
}

/**
 * A hash naming what the setup step produces in `dir`: the lock files and manifests at the top of the tree, the files
 * the repository adds (`keyFiles`: paths or globs inside the tree, such as `prisma/schema.prisma`, for inputs a setup
 * step turns into generated files), the setup command and the tool versions. The same key means the same installed
 * dependencies.
 */
export async function dependencyKey(dir: string, setupCommand: string | undefined, keyFiles: readonly string[] = []): Promise<string> {
  const hash = createHash('sha256');
  hash.update(`setup\0${setupCommand ?? ''}\0tools\0${await readToolVersions()}\0`);
  const top = await readdir(dir).catch(() => [] as string[]);
  const files = [...DEPENDENCY_FILES, ...top.filter((name) => REQUIREMENTS.test(name)).sort()];
  for (const file of files) {
    const content = await readFile(path.join(dir, file)).catch(() => undefined);
    if (content) hash.update(`${file}\0${content.length}\0`).update(content);
  }
  if (keyFiles.length > 0) {
    hash.update(`keyFiles\0${keyFiles.join('\0')}\0`);
    for (const file of await matchingFiles(dir, keyFiles)) {
      const content = await readFile(path.join(dir, file));
      hash.update(`${file}\0${content.length}\0`).update(content);
    }
  }
  return hash.digest('hex');
}

/** The regular files of the tree matching `patterns` (symbolic links and what lies outside the tree ignored), sorted. */
async function matchingFiles(dir: string, patterns: readonly string[]): Promise<string[]> {
  const found = new Set<string>();
  for await (const entry of glob(patterns.filter(isTreePattern) as string[], { cwd: dir, withFileTypes: true, exclude: (e) => NOT_SEARCHED.has(e.name) })) {
    if (!entry.isFile()) continue;
    const relative = path.relative(dir, path.join(entry.parentPath, entry.name));
    if (relative.startsWith('..') || path.isAbsolute(relative)) continue;
    found.add(relative.split(path.sep).join('/'));
    if (found.size > MAX_KEY_FILES)
      throw new WrenchError('dependency_key_files_too_many', `cache.dependencyKeyFiles matches more than ${MAX_KEY_FILES} files; name fewer.`);
  }
  return [...found].sort();
}
