import { parse as parseToml } from 'smol-toml';
import type { RepoFiles } from '../verification/repo-files.js';
import { REPOSITORY_CHECKS_FILE } from '../verification/repository-checks-file.js';
import type { RuntimeHints } from '../verification/verification-types.js';

/** A runtime version the repository asks for, and the file that says so. */
export interface RuntimeRequest {
  /** As written (`18`, `lts/*`, `>=3.9`, `1.21`); several for a CI matrix, newest first. */
  versions: string[];
  source: string;
  /** A minimum rather than a pin (`engines`, `requires-python`, go.mod's `go`): any newer version is fine. */
  minimum?: boolean;
}

export interface RuntimeRequests {
  node?: RuntimeRequest;
  /** package.json `engines.node`: a CI matrix entry outside it is not one the repository still supports. */
  nodeEngines?: string;
  /** package.json `packageManager` (`pnpm@9.1.0`), else the CI's `pnpm/action-setup` version (`pnpm@9`), as corepack would give it. */
  packageManager?: { spec: string; source: string };
  python?: RuntimeRequest;
  go?: RuntimeRequest;
  rust?: RuntimeRequest;
  /** Whether the repository is a Node project at all (package.json). */
  nodeProject: boolean;
}

/**
 * The runtime versions the repository names, most specific first: `.wrench.yml`, the version files developers' tools
 * read (`.nvmrc`, `.node-version`, `.tool-versions`, Volta, `.python-version`, `rust-toolchain.toml`), its CI's
 * setup-node/setup-python, then the ranges of its manifests (`engines`, `requires-python`, go.mod).
 */
export async function requestedRuntimes(files: RepoFiles, hints: RuntimeHints = {}): Promise<RuntimeRequests> {
  const pkg = parseJson(await files.read('package.json'));
  const toolVersions = parseToolVersions(await files.read('.tool-versions'));
  const requests: RuntimeRequests = { nodeProject: pkg !== undefined };
  const engines = stringAt(pkg, 'engines', 'node');
  if (engines) requests.nodeEngines = engines;
  const packageManager = stringAt(pkg, 'packageManager');
  if (packageManager && /^(pnpm|yarn)@\d/.test(packageManager))
    requests.packageManager = { spec: packageManager.split('+')[0] ?? packageManager, source: 'package.json packageManager' };
  else if (hints.packageManager) requests.packageManager = hints.packageManager;

  const fromFile = async (file: string | undefined) => (file ? firstWord(await files.read(file)) : undefined);
  const nodeCandidates: Array<RuntimeRequest | undefined> = [
    hints.node?.source === REPOSITORY_CHECKS_FILE ? hints.node : undefined,
    single(await fromFile('.nvmrc'), '.nvmrc'),
    single(await fromFile('.node-version'), '.node-version'),
    single(toolVersions.nodejs ?? toolVersions.node, '.tool-versions'),
    single(stringAt(pkg, 'volta', 'node'), 'package.json volta.node'),
    hints.nodeVersionFile ? single(await fromFile(hints.nodeVersionFile), hints.nodeVersionFile) : undefined,
    hints.node,
    engines ? { versions: [engines], source: 'package.json engines.node', minimum: true } : undefined,
  ];
  requests.node = nodeCandidates.find((request) => request?.versions.length);

  const pyproject = parseTomlText(await files.read('pyproject.toml'));
  const requiresPython = stringAt(pyproject, 'project', 'requires-python') ?? stringAt(pyproject, 'tool', 'poetry', 'dependencies', 'python');
  const pythonCandidates: Array<RuntimeRequest | undefined> = [
    hints.python?.source === REPOSITORY_CHECKS_FILE ? hints.python : undefined,
    single(await fromFile('.python-version'), '.python-version'),
    single(toolVersions.python, '.tool-versions'),
    hints.python,
    requiresPython ? { versions: [requiresPython], source: 'pyproject.toml requires-python', minimum: true } : undefined,
  ];
  requests.python = pythonCandidates.find((request) => request?.versions.length);

  const goMod = await files.read('go.mod');
  const goLine = goMod && /^go\s+(\d+\.\d+(?:\.\d+)?)\s*$/m.exec(goMod)?.[1];
  const toolchain = goMod && /^toolchain\s+go(\d+\.\d+(?:\.\d+)?)\s*$/m.exec(goMod)?.[1];
  if (toolVersions.golang) requests.go = { versions: [toolVersions.golang], source: '.tool-versions' };
  else if (toolchain) requests.go = { versions: [toolchain], source: 'go.mod toolchain', minimum: true };
  else if (goLine) requests.go = { versions: [goLine], source: 'go.mod', minimum: true };

  const rustToolchain = parseTomlText(await files.read('rust-toolchain.toml'));
  const channel = stringAt(rustToolchain, 'toolchain', 'channel') ?? (await fromFile('rust-toolchain'));
  if (channel) requests.rust = { versions: [channel], source: (await files.exists('rust-toolchain.toml')) ? 'rust-toolchain.toml' : 'rust-toolchain' };
  else if (toolVersions.rust) requests.rust = { versions: [toolVersions.rust], source: '.tool-versions' };
  return requests;
}

function single(version: string | undefined, source: string): RuntimeRequest | undefined {
  return version ? { versions: [version], source } : undefined;
}

/** The first word of a version file (comments and blank lines skipped). */
function firstWord(text: string | undefined): string | undefined {
  for (const line of (text ?? '').split('\n')) {
    const word = line.replace(/#.*/, '').trim().split(/\s+/)[0];
    if (word) return word;
  }
  return undefined;
}

/** asdf/mise `.tool-versions`: `tool version [fallback…]` per line. */
function parseToolVersions(text: string | undefined): Record<string, string> {
  const tools: Record<string, string> = {};
  for (const line of (text ?? '').split('\n')) {
    const [tool, version] = line.replace(/#.*/, '').trim().split(/\s+/);
    if (tool && version) tools[tool] = version;
  }
  return tools;
}

function parseJson(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return {};
  }
}

function parseTomlText(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return parseToml(text);
  } catch {
    return undefined;
  }
}

function stringAt(value: unknown, ...keys: string[]): string | undefined {
  let node = value;
  for (const key of keys) {
    if (!node || typeof node !== 'object' || Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return typeof node === 'string' && node.trim() ? node.trim() : undefined;
}
