import path from 'node:path';
import type { VerificationCommands } from './verification-types.js';

const DEFAULT_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
/** Variables a repository's CI `env:` may not set here: they would undo the sandbox's own. */
const RESERVED = new Set(['PATH', 'HOME', 'CI', 'TERM', 'SHELL', 'USER', 'TMPDIR']);

/** Where `npm install -g` puts tools in a checkout: with its dependencies (kept and restored with them), out of git's sight. */
export const GLOBAL_NPM_DIR = path.join('node_modules', '.wrench-global');

export interface CommandRunEnv {
  env?: Record<string, string>;
  readOnlyDirs?: readonly string[];
}

/**
 * The environment of the repository's setup step and checks in `dir`: the CI job's (or `.wrench.yml`'s) plain
 * variables, the provisioned runtimes first on PATH and visible read-only, and npm's global installs (CI steps such
 * as `npm install -g c8`) kept inside the checkout, since the runtimes themselves are read-only.
 */
export function commandRunEnv(commands: VerificationCommands, dir: string, base: NodeJS.ProcessEnv = process.env): CommandRunEnv {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(commands.env ?? {})) if (!RESERVED.has(name)) env[name] = value;
  const environment = commands.environment;
  if (!environment) return Object.keys(env).length ? { env } : {};
  Object.assign(env, environment.env);
  const globalDir = path.join(dir, GLOBAL_NPM_DIR);
  env.npm_config_prefix = globalDir;
  env.PATH = [...environment.path, path.join(globalDir, 'bin'), base.PATH || DEFAULT_PATH].join(':');
  return { env, readOnlyDirs: environment.readOnlyDirs };
}
