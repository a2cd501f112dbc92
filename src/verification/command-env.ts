import path from 'node:path';
import type { VerificationCommands } from './verification-types.js';

const DEFAULT_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
/** Variables a repository's CI `env:` or `.wrench.yml` may not set: they would undo the sandbox's own or change how a shell starts. */
const RESERVED = new Set(['PATH', 'HOME', 'CI', 'TERM', 'SHELL', 'USER', 'TMPDIR', 'BASH_ENV', 'ENV', 'SHELLOPTS', 'BASHOPTS', 'IFS', 'PS4', 'VIRTUAL_ENV']);
const RESERVED_PREFIX = /^(LD_|DYLD_|BASH_FUNC_|npm_config_prefix$|npm_config_nodedir$)/i;

/** Where `npm install -g` puts tools in a checkout: with its dependencies (kept and restored with them), out of git's sight. */
export const GLOBAL_NPM_DIR = path.join('node_modules', '.wrench-global');
/**
 * The virtualenv of a Python setup step, inside the checkout's `.git` (out of git's sight, never committed): the
 * sandbox's python3 is the system's, which refuses `pip install` (externally managed), where CI's setup-python gives a
 * Python of its own. It sees the system's site-packages too, and gives `python` and `pip` as on a CI runner.
 */
export const PYTHON_VENV_DIR = path.join('.git', 'wrench-venv');
const PIP_INSTALL = /\bpip3?\s+install\b|-m\s+pip\s+install\b|\bpip3?\s+sync\b/;

export interface CommandRunEnv {
  env?: Record<string, string>;
  readOnlyDirs?: readonly string[];
}

/** Whether the setup step installs Python packages with pip (and so runs in a virtualenv of its own). */
export function usesPythonVenv(commands: VerificationCommands): boolean {
  return PIP_INSTALL.test(commands.setup ?? '');
}

/**
 * A shell prelude that makes the checkout's virtualenv afresh for each setup step (nothing an earlier job's commands
 * left in a reused tree's `.git` is kept); a failure leaves the system's Python in use.
 */
export function pythonVenvPrelude(dir: string): string {
  const venv = path.join(dir, PYTHON_VENV_DIR);
  return `{ [ ! -d '${dir}/.git' ] || { rm -rf '${venv}'; python3 -m venv --system-site-packages '${venv}' >/dev/null 2>&1; } || true; }; `;
}

/**
 * The environment of the repository's setup step and checks in `dir`: the CI job's (or `.wrench.yml`'s) plain
 * variables, the provisioned runtimes first on PATH and visible read-only, the Python virtualenv of a pip setup,
 * and npm's global installs (CI steps such as `npm install -g c8`) kept inside the checkout, since the runtimes
 * themselves are read-only.
 */
export function commandRunEnv(commands: VerificationCommands, dir: string, base: NodeJS.ProcessEnv = process.env): CommandRunEnv {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(commands.env ?? {})) if (!RESERVED.has(name) && !RESERVED_PREFIX.test(name)) env[name] = value;
  const environment = commands.environment;
  const venv = usesPythonVenv(commands) ? path.join(dir, PYTHON_VENV_DIR) : undefined;
  if (!environment && !venv) return Object.keys(env).length ? { env } : {};
  Object.assign(env, environment?.env);
  const paths = [...(environment?.path ?? [])];
  if (venv) {
    env.VIRTUAL_ENV = venv;
    paths.unshift(path.join(venv, 'bin'));
  }
  if (environment) {
    const globalDir = path.join(dir, GLOBAL_NPM_DIR);
    env.npm_config_prefix = globalDir;
    paths.push(path.join(globalDir, 'bin'));
  }
  env.PATH = [...paths, base.PATH || DEFAULT_PATH].join(':');
  return { env, readOnlyDirs: environment?.readOnlyDirs };
}
