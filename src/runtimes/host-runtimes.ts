import { execFile } from 'node:child_process';
import { tmpdir } from 'node:os';
import { promisify } from 'node:util';
import semver from 'semver';
import type { RuntimeRequest } from './requested-runtimes.js';

const run = promisify(execFile);

/** The runtimes Wrench does not provision: only the host's own versions are there. */
export type HostRuntime = 'python' | 'go' | 'rust';

const PROBES: Record<HostRuntime, { label: string; file: string; args: string[]; version: RegExp }> = {
  python: { label: 'Python', file: 'python3', args: ['--version'], version: /Python (\d+\.\d+\.\d+)/ },
  go: { label: 'Go', file: 'go', args: ['version'], version: /go(\d+\.\d+(?:\.\d+)?)/ },
  rust: { label: 'Rust', file: 'rustc', args: ['--version'], version: /rustc (\d+\.\d+\.\d+(?:-\w+)?)/ },
};

const probed = new Map<HostRuntime, Promise<string | undefined>>();

/** Runs a shell command where the checks run (the job's sandbox) and gives its output, or undefined when it failed. */
export type RuntimeProbe = (command: string) => Promise<string | undefined>;

/**
 * The version of a runtime the checks would get: asked through `probe` in the job's sandbox (which hides home
 * directories, so a pyenv or rustup there is not what the checks see), else on this host, once per process.
 */
export function hostVersion(runtime: HostRuntime, probe?: RuntimeProbe): Promise<string | undefined> {
  const { file, args, version } = PROBES[runtime];
  if (probe) return probe(`cd /tmp && ${file} ${args.join(' ')}`).then((output) => version.exec(output ?? '')?.[1]);
  let pending = probed.get(runtime);
  if (!pending) {
    pending = run(file, args, { timeout: 15_000, cwd: tmpdir() }).then(
      ({ stdout, stderr }) => version.exec(`${stdout}${stderr}`)?.[1],
      () => undefined,
    );
    probed.set(runtime, pending);
  }
  return pending;
}

/**
 * One report line on a runtime the repository asks for that only the host can give: the host's version when it meets
 * the request, else a plain warning that the checks run on another version (or cannot run at all).
 */
export async function hostRuntimeLine(runtime: HostRuntime, request: RuntimeRequest, version = hostVersion(runtime)): Promise<string> {
  const { label } = PROBES[runtime];
  const host = await version;
  const asked = `${label} ${request.versions.length > 1 ? request.versions.join(', ') : request.versions[0]} (${request.source})`;
  if (!host) return `⚠ ${asked} was asked for, but the checks have no ${PROBES[runtime].file} here: checks that need it cannot run.`;
  if (meets(runtime, host, request)) return `${label} ${host} (the host's) meets ${asked}.`;
  return `⚠ ${asked} was asked for, but only the host's ${label} ${host} is here (Wrench provisions Node.js only): the checks ran on ${host}.`;
}

function meets(runtime: HostRuntime, host: string, request: RuntimeRequest): boolean {
  const version = semver.coerce(host)?.version;
  if (!version) return false;
  return request.versions.some((wanted) => {
    const text = wanted.trim().toLowerCase();
    if (text === 'system' || (runtime === 'rust' && text === 'stable' && !/-(beta|nightly)/.test(host))) return true;
    if (request.minimum) {
      const range = runtime === 'python' ? pep440Range(text) : `>=${semver.coerce(text)?.version ?? text}`;
      return !!semver.validRange(range) && semver.satisfies(version, range);
    }
    // A pin (`3.11`, `3.11.7`, `1.70`, `3.x`): the host's version starts with it.
    const pin = text.replace(/^(python|py|go)/, '').replace(/\.x$/, '');
    return /^\d+(\.\d+)*$/.test(pin) && `${version}.`.startsWith(`${pin}.`);
  });
}

/** A PEP 440 specifier (`>=3.8,<4`, `~=3.9`, `==3.10.*`, Poetry's `^3.8`) as a semver range; `!=` clauses are dropped. */
function pep440Range(spec: string): string {
  return spec
    .split(',')
    .map((clause) => clause.trim())
    .filter((clause) => clause && !clause.startsWith('!='))
    .map((clause) =>
      clause
        .replace(/^~=\s*(\d+\.\d+)$/, '^$1')
        .replace(/^~=\s*/, '~')
        .replace(/^===?\s*/, '')
        .replace(/\.\*$/, '.x'),
    )
    .join(' ');
}
