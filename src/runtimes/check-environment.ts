import type { ProgressDetail } from '../reporting/progress.js';
import path from 'node:path';
import { isWrenchError } from '../errors.js';
import { repoFiles } from '../verification/repo-files.js';
import type { CheckEnvironment, RuntimeHints } from '../verification/verification-types.js';
import { hostRuntimeLine, hostVersion, type HostRuntime, type RuntimeProbe } from './host-runtimes.js';
import type { NodeRuntimes } from './node-runtimes.js';
import { resolveNodeVersion, satisfiesNode } from './node-versions.js';
import { installPackageManager } from './package-managers.js';
import { requestedRuntimes, type RuntimeRequest, type RuntimeRequests } from './requested-runtimes.js';

export interface CheckEnvironmentOptions {
  /** Where Node.js versions are provisioned and cached; without it the checks run on Wrench's own Node. */
  nodeRuntimes?: NodeRuntimes;
  /** Asks for a runtime's version where the checks run (the job's sandbox); default: on this host. */
  probe?: RuntimeProbe;
  /** Told before a download starts (it can take a minute). */
  onProgress?: (detail: ProgressDetail) => Promise<void>;
}

/**
 * The runtimes a repository's setup and checks run on: the Node.js version it asks for, provisioned from the npm
 * registry and put first on PATH (else Wrench's own Node, and the report says why); Python, Go and Rust as the host
 * has them, with a warning line when that is not the version asked for.
 */
export async function prepareCheckEnvironment(dir: string, hints: RuntimeHints | undefined, options: CheckEnvironmentOptions): Promise<CheckEnvironment> {
  const requests = await requestedRuntimes(repoFiles(dir), hints);
  const environment: CheckEnvironment = { path: [], readOnlyDirs: [], env: {}, lines: [], key: '' };
  if (requests.nodeProject || requests.node) await provideNode(requests, environment, options);
  if (requests.packageManager) await providePackageManager(requests.packageManager, environment, options);
  for (const runtime of ['python', 'go', 'rust'] as HostRuntime[]) {
    const request = requests[runtime];
    if (request) environment.lines.push(await hostRuntimeLine(runtime, request, hostVersion(runtime, options.probe)));
  }
  environment.key = JSON.stringify([environment.path, environment.lines]);
  const mismatches = environment.lines.filter((line) => line.startsWith('⚠'));
  if (mismatches.length) environment.mismatches = mismatches;
  return environment;
}

async function provideNode(requests: RuntimeRequests, environment: CheckEnvironment, options: CheckEnvironmentOptions): Promise<void> {
  const own = process.versions.node;
  const useOwn = (line: string) => {
    environment.path.push(path.dirname(process.execPath));
    environment.lines.push(line);
  };
  const request = requests.node;
  if (!request) return useOwn(`Node.js ${own}, Wrench's own: the repository names no version.`);
  const asked = describe(request);
  const [minimum] = request.versions;
  if (request.minimum && minimum !== undefined && satisfiesNode(own, minimum)) return useOwn(`Node.js ${own} (Wrench's own), for ${asked}.`);
  if (!options.nodeRuntimes) return useOwn(`⚠ ${capital(asked)} was asked for, but Wrench provisions no runtimes here: the checks ran on Node.js ${own}.`);

  const runtimes = options.nodeRuntimes;
  const available = await runtimes.available();
  const candidates = request.minimum ? request.versions : supported(request.versions, requests.nodeEngines, available);
  const version = candidates.map((wanted) => resolveNodeVersion(wanted, available)).find(Boolean);
  if (!version) {
    const why = runtimes.lookupFailure ? `${runtimes.lookupFailure}, and no such build is cached` : 'the npm registry has no such Node.js build';
    return useOwn(`⚠ ${capital(asked)} was asked for, but ${why}: the checks ran on Node.js ${own}.`);
  }
  if (version === own) return useOwn(`Node.js ${own} (Wrench's own), for ${asked}.`);
  try {
    if (!(await runtimes.cached()).includes(version)) await options.onProgress?.({ key: 'installingNode', version, source: request.source });
    const install = await runtimes.install(version);
    environment.path.push(path.join(install.home, 'bin'));
    environment.readOnlyDirs.push(install.home);
    // node-gyp builds native modules against the headers of this version in place of downloading them from nodejs.org.
    environment.env.npm_config_nodedir = install.home;
    const how = install.downloaded ? 'from the npm registry, downloaded for this run' : 'from the npm registry, cached';
    environment.lines.push(`Node.js ${version} (${how}), for ${asked}.`);
  } catch (error) {
    if (!isWrenchError(error)) throw error;
    useOwn(`⚠ ${capital(asked)} was asked for, but ${error.message}: the checks ran on Node.js ${own}.`);
  }
}

/**
 * pnpm or Yarn at the version package.json `packageManager` pins (else the CI's `pnpm/action-setup` asks for), first on
 * PATH, as corepack would give it.
 */
async function providePackageManager(
  { spec, source }: { spec: string; source: string },
  environment: CheckEnvironment,
  options: CheckEnvironmentOptions,
): Promise<void> {
  if (!options.nodeRuntimes) {
    environment.lines.push(`⚠ ${spec} (${source}) was asked for, but Wrench provisions no runtimes here: the host's is used, if any.`);
    return;
  }
  try {
    const install = await installPackageManager(options.nodeRuntimes, spec);
    if (!install) return;
    environment.path.unshift(path.join(install.home, 'bin'));
    environment.readOnlyDirs.push(install.home);
    const how = install.downloaded ? 'from the npm registry, downloaded for this run' : 'from the npm registry, cached';
    environment.lines.push(`${install.name} ${install.version} (${how}), for ${source}.`);
  } catch (error) {
    if (!isWrenchError(error)) throw error;
    environment.lines.push(`⚠ ${spec} (${source}) was asked for, but ${error.message}: the host's is used, if any.`);
  }
}

/** A CI matrix's versions that package.json `engines.node` still allows (all of them when none does). */
function supported(versions: string[], engines: string | undefined, available: string[]): string[] {
  if (!engines || versions.length < 2) return versions;
  const allowed = versions.filter((wanted) => {
    const version = resolveNodeVersion(wanted, available);
    return version && satisfiesNode(version, engines);
  });
  return allowed.length ? allowed : versions;
}

function describe(request: RuntimeRequest): string {
  if (request.versions.length > 1) return `the newest of Node.js ${request.versions.join(', ')} that the repository supports (matrix of ${request.source})`;
  return `Node.js ${request.versions[0]} (${request.source})`;
}

function capital(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}
