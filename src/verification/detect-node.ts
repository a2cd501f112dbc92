import { detection, type Detection } from './detection.js';
import type { RepoFiles } from './repo-files.js';

interface PackageJson {
  scripts?: Record<string, unknown>;
  packageManager?: unknown;
  dependencies?: Record<string, unknown>;
  devDependencies?: Record<string, unknown>;
  optionalDependencies?: Record<string, unknown>;
  workspaces?: unknown;
}

interface PackageManager {
  name: 'npm' | 'pnpm' | 'yarn' | 'bun';
  install: string;
  reason: string;
}

const NPM_PLACEHOLDER_TEST = /no test specified/i;
const COVERAGE_SCRIPTS = ['test:coverage', 'coverage', 'test:cov', 'cov'];

/** package.json scripts, run with the package manager its lockfile names. */
export async function detectNode(files: RepoFiles): Promise<Detection[]> {
  const text = await files.read('package.json');
  if (text === undefined) return [];
  const pkg = parsePackageJson(text);
  if (!pkg) return [];
  const scripts = stringScripts(pkg.scripts);
  const pm = await packageManager(files, pkg);
  const found: Detection[] = [];

  if (scripts.test && !NPM_PLACEHOLDER_TEST.test(scripts.test)) {
    found.push(detection('test', pm.name === 'bun' ? 'bun run test' : `${pm.name} test`, 'package.json scripts.test'));
  }
  if (scripts.lint) found.push(detection('lint', `${pm.name} run lint`, 'package.json scripts.lint'));
  const coverage = COVERAGE_SCRIPTS.find((name) => scripts[name]) ?? Object.keys(scripts).find((name) => /coverage/i.test(name));
  if (coverage) found.push(detection('coverage', `${pm.name} run ${coverage}`, `package.json scripts.${coverage}`));
  if (hasDependencies(pkg) && !(await files.isDirectory('node_modules'))) {
    found.push(detection('setup', pm.install, `${pm.reason}; node_modules is absent`));
  }
  return found;
}

function parsePackageJson(text: string): PackageJson | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as PackageJson) : undefined;
  } catch {
    return undefined;
  }
}

function stringScripts(scripts: PackageJson['scripts']): Record<string, string> {
  const result: Record<string, string> = {};
  if (!scripts || typeof scripts !== 'object') return result;
  for (const [name, value] of Object.entries(scripts)) if (typeof value === 'string' && value.trim()) result[name] = value;
  return result;
}

function hasDependencies(pkg: PackageJson): boolean {
  const count = (deps: unknown) => (deps && typeof deps === 'object' ? Object.keys(deps).length : 0);
  return count(pkg.dependencies) + count(pkg.devDependencies) + count(pkg.optionalDependencies) > 0 || pkg.workspaces !== undefined;
}

async function packageManager(files: RepoFiles, pkg: PackageJson): Promise<PackageManager> {
  if (await files.exists('pnpm-lock.yaml')) return { name: 'pnpm', install: 'pnpm install --frozen-lockfile', reason: 'pnpm-lock.yaml' };
  if (await files.exists('yarn.lock')) {
    const berry = (await files.exists('.yarnrc.yml')) || /^yarn@[2-9]/.test(String(pkg.packageManager ?? ''));
    return { name: 'yarn', install: berry ? 'yarn install --immutable' : 'yarn install --frozen-lockfile', reason: 'yarn.lock' };
  }
  if ((await files.exists('bun.lockb')) || (await files.exists('bun.lock'))) {
    return { name: 'bun', install: 'bun install --frozen-lockfile', reason: 'bun lockfile' };
  }
  if (await files.exists('package-lock.json')) return { name: 'npm', install: 'npm ci', reason: 'package-lock.json' };
  if (await files.exists('npm-shrinkwrap.json')) return { name: 'npm', install: 'npm ci', reason: 'npm-shrinkwrap.json' };
  const declared = /^(npm|pnpm|yarn|bun)@/.exec(String(pkg.packageManager ?? ''))?.[1] as PackageManager['name'] | undefined;
  if (declared && declared !== 'npm') return { name: declared, install: `${declared} install`, reason: `package.json packageManager (no lockfile)` };
  return { name: 'npm', install: 'npm install', reason: 'package.json without a lockfile' };
}
