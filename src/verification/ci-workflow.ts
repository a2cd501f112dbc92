import { parse as parseYaml } from 'yaml';
import type { RepoFiles } from './repo-files.js';
import { evaluateCondition } from './workflow-condition.js';

const WORKFLOW_DIR = '.github/workflows';
const COPILOT_SETUP = 'copilot-setup-steps';
const INSTALL =
  /^(?:npm (?:ci|install|i)\b|yarn(?: install)?\b|pnpm (?:install|i|ci)\b|bun install\b|(?:python3? -m )?pip3? install\b|poetry install\b|uv (?:sync|pip install)\b|pipenv install\b|go mod download\b|corepack (?:enable|prepare|install)\b|bundle install\b)/;
const TEST = /\b(?:test|tests|pytest|jest|vitest|mocha|ava|tap|uvu|tox|nox|cargo test|go test)\b/i;
const LINT = /\b(?:lint|eslint|biome|prettier --check|ruff|flake8|pylint|mypy|typecheck|check|tsc|go vet|clippy|fmt --check|format:check)\b/i;
/** Steps that only publish or report (coverage uploads, releases): never part of the checks. */
const REPORTING = /\b(?:codecov|coveralls|upload|publish|deploy|release|curl|wget)\b/i;
/** Steps that only print versions or the environment (`node --version`, `npm -v`, `env`): left out. */
const INFORMATIONAL = /^(?:(?:[\w.-]+ (?:--version|-v|-V|version)|env|printenv|pwd|ls(?: -\w+)*|echo\b[^&|;]*)\s*(?:&&\s*|\n|$))+$/;
const EXPRESSION = /\$\{\{\s*([^}]*?)\s*\}\}/g;
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** A coverage tool wrapped around a test command (`c8 npm test`, `npx nyc --reporter=lcov mocha`). */
const COVERAGE_WRAPPER = /^(?:npx\s+)?(?:c8|nyc)((?:\s+-[^\s]+)*)\s+(?=\S)/;
/** `corepack enable`: writes shims next to the `node` binary, which the sandbox shows read-only; Wrench puts the package manager on PATH itself. */
const COREPACK_ENABLE = /^corepack enable(?:\s+[\w-]+)*\s*$/;
/** A script line that needs the lines around it (control flow, continuations, heredocs): such a script runs whole. */
const COMPOUND_LINE = /\\$|^(if|then|else|elif|fi|for|while|until|do|done|case|esac|function)\b|[{}]$|<<|^\w+\(\)/;

/** What the job of a repository's CI that runs its tests does, as far as Wrench can do the same. */
export interface CiJob {
  /** e.g. `.github/workflows/ci.yml (job test)`. */
  source: string;
  /** Install steps before the tests, one command each. */
  setup: string[];
  /** The steps that test, joined with `&&`, with the steps before them that build. */
  test?: string;
  lint?: string;
  /** A test step needs an expression Wrench cannot evaluate: detection gives the test command, the job its runtimes. */
  testUnreadable?: boolean;
  /** The job the lint steps came from when the test job has none (a separate lint job). */
  lintSource?: string;
  /** The workflow's and the job's `env:` with plain literal values. */
  env: Record<string, string>;
  /** Names of `env:` entries left out: secrets and other expressions Wrench cannot evaluate. */
  skippedEnv: string[];
  /** What was changed from the workflow's own commands, for the report. */
  notes: string[];
  /** The Node versions the job's `setup-node` asks for, newest first (a matrix gives several). */
  nodeVersions: string[];
  /** `node-version-file` of `setup-node`, when it names one. */
  nodeVersionFile?: string;
  pythonVersions: string[];
  /** `pnpm@VERSION` from `pnpm/action-setup`'s `version:` (a major such as `9` too). */
  packageManager?: string;
}

interface Step {
  name?: unknown;
  run?: unknown;
  uses?: unknown;
  with?: Record<string, unknown>;
  env?: unknown;
  if?: unknown;
  shell?: unknown;
  'working-directory'?: unknown;
}

interface Job {
  steps?: unknown;
  env?: unknown;
  strategy?: { matrix?: unknown };
  'runs-on'?: unknown;
  defaults?: unknown;
}

/**
 * The CI job that runs the repository's tests (GitHub Actions): its install, build, test and lint `run:` steps,
 * its plain `env:` and the runtime versions it sets up. Jobs named or running "test" come first; a matrix is
 * read as its newest Node/Python entry on Linux. Undefined when no workflow has a job with a test step.
 */
export async function readCiJob(files: RepoFiles): Promise<CiJob | undefined> {
  const candidates: Array<{ score: number; job: CiJob }> = [];
  const linters: CiJob[] = [];
  for (const file of await workflowFiles(files)) {
    const workflow = parseWorkflow(await files.read(`${WORKFLOW_DIR}/${file}`));
    if (!workflow) continue;
    for (const [id, job] of Object.entries(workflow.jobs)) {
      if (id === COPILOT_SETUP || !job || typeof job !== 'object') continue;
      const read = readJob(`${WORKFLOW_DIR}/${file}`, id, job as Job, workflow);
      if (read?.lint && !read.test && !read.testUnreadable) linters.push(read);
      if (!read?.test && !read?.testUnreadable) continue;
      const score = (/test/i.test(id) ? 2 : 0) + (/\b(ci|test|build)\b/i.test(file) ? 1 : 0);
      candidates.push({ score, job: read });
    }
  }
  candidates.sort((a, b) => b.score - a.score);
  const chosen = candidates[0]?.job;
  if (chosen && !chosen.lint && linters[0]) {
    chosen.lint = linters[0].lint;
    chosen.lintSource = linters[0].source;
  }
  return chosen;
}

/** The install steps of `.github/workflows/copilot-setup-steps.yml` (what the repository prepares for coding agents). */
export async function readCopilotSetup(files: RepoFiles): Promise<CiJob | undefined> {
  for (const file of ['copilot-setup-steps.yml', 'copilot-setup-steps.yaml']) {
    const workflow = parseWorkflow(await files.read(`${WORKFLOW_DIR}/${file}`));
    const job = workflow?.jobs[COPILOT_SETUP];
    if (!job || typeof job !== 'object') continue;
    const read = readJob(`${WORKFLOW_DIR}/${file}`, COPILOT_SETUP, job as Job, workflow, true);
    if (read?.setup.length) return read;
  }
  return undefined;
}

async function workflowFiles(files: RepoFiles): Promise<string[]> {
  return (await files.list(WORKFLOW_DIR)).filter((name) => /\.ya?ml$/.test(name) && !name.startsWith(COPILOT_SETUP)).sort();
}

interface Workflow {
  jobs: Record<string, unknown>;
  env: unknown;
  /** `defaults.run.working-directory` of the workflow. */
  directory?: string;
}

function parseWorkflow(text: string | undefined): Workflow | undefined {
  if (!text) return undefined;
  try {
    const value = parseYaml(text) as { jobs?: unknown; env?: unknown; defaults?: unknown } | null;
    if (!value || typeof value !== 'object' || !value.jobs || typeof value.jobs !== 'object') return undefined;
    return { jobs: value.jobs as Record<string, unknown>, env: value.env, directory: defaultDirectory(value.defaults) };
  } catch {
    return undefined;
  }
}

/** `defaults: { run: { working-directory } }` of a workflow or job. */
function defaultDirectory(defaults: unknown): string | undefined {
  const directory = (defaults as { run?: { 'working-directory'?: unknown } } | undefined)?.run?.['working-directory'];
  return typeof directory === 'string' && directory.trim() ? directory.trim() : undefined;
}

function readJob(file: string, id: string, job: Job, workflow: Workflow, allSetup = false): CiJob | undefined {
  if (!Array.isArray(job.steps)) return undefined;
  const matrix = chooseMatrix(job.strategy?.matrix);
  const runsOn = substitute(String(job['runs-on'] ?? 'ubuntu-latest'), matrix.values);
  if (runsOn !== undefined && /windows|macos/i.test(runsOn) && !/ubuntu|linux/i.test(runsOn)) return undefined;
  const env = plainEnv(workflow.env, matrix.values);
  const directory = defaultDirectory(job.defaults) ?? workflow.directory;
  const jobEnv = plainEnv(job.env, matrix.values);
  const result: CiJob = {
    source: `${file} (job ${id})`,
    setup: [],
    env: { ...env.values, ...jobEnv.values },
    skippedEnv: [...env.skipped, ...jobEnv.skipped],
    notes: [],
    nodeVersions: [],
    pythonVersions: [],
  };
  const tests: string[] = [];
  const lints: string[] = [];
  let pending: string[] = [];
  for (const step of job.steps as Step[]) {
    if (!step || typeof step !== 'object') continue;
    // A matrix-only `if:` is evaluated for the chosen combination; one Wrench cannot evaluate leaves the step out.
    const applies = step.if === undefined ? true : evaluateCondition(step.if, matrix.values);
    if (applies === false) continue;
    if (typeof step.uses === 'string') {
      if (applies) readSetupAction(step, matrix, result);
      continue;
    }
    if (typeof step.run !== 'string' || !bashShell(step.shell)) continue;
    if (applies === undefined) {
      if (!allSetup && !REPORTING.test(step.run) && TEST.test(`${String(step.name ?? '')}\n${step.run}`)) result.testUnreadable = true;
      continue;
    }
    const { install, rest } = splitInstall(step.run, result);
    if (install) {
      const command = stepCommand({ ...step, run: install }, matrix.values, result.skippedEnv, directory);
      if (command) result.setup.push(command);
    }
    if (!rest) continue;
    const text = `${String(step.name ?? '')}\n${rest}`;
    const [firstLine = ''] = rest.trim().split('\n', 1);
    const reporting = REPORTING.test(rest);
    const kind = allSetup || INSTALL.test(firstLine.trim()) ? 'setup' : reporting ? 'report' : TEST.test(text) ? 'test' : LINT.test(text) ? 'lint' : 'other';
    if (kind === 'report' || (kind === 'other' && INFORMATIONAL.test(rest.trim()))) continue;
    const command = stepCommand(
      { ...step, run: rest },
      matrix.values,
      result.skippedEnv,
      directory,
      kind === 'test' ? (script) => withoutCoverage(script, result) : undefined,
    );
    if (!command) {
      if (kind === 'test') result.testUnreadable = true;
      continue;
    }
    if (kind === 'setup') result.setup.push(command);
    else if (kind === 'test') {
      tests.push(...pending, command);
      pending = [];
    } else if (kind === 'lint') lints.push(command);
    else if (tests.length === 0) pending.push(command);
  }
  if (tests.length) result.test = tests.join(' && ');
  if (lints.length) result.lint = lints.join(' && ');
  return result;
}

/**
 * A `run:` script split into its leading install lines (`npm ci`, `pnpm install`: setup, never part of the test
 * command) and the rest; `corepack enable` lines are dropped with a note. A script with control flow stays whole.
 */
function splitInstall(script: string, job: CiJob): { install?: string; rest?: string } {
  const lines = script.trim().split('\n');
  const meaningful = lines.map((line) => line.trim()).filter((line) => line && !line.startsWith('#'));
  if (meaningful.some((line) => COMPOUND_LINE.test(line))) return { rest: script };
  const install: string[] = [];
  const rest: string[] = [];
  for (const line of meaningful) {
    if (COREPACK_ENABLE.test(line)) {
      job.notes.push(
        `\`${line}\` from ${job.source} is left out: it would write next to the sandbox's read-only Node.js, and Wrench itself puts the pnpm or Yarn that package.json \`packageManager\` or \`pnpm/action-setup\` names first on PATH.`,
      );
    } else if (rest.length === 0 && INSTALL.test(line)) install.push(line);
    else rest.push(line);
  }
  return { install: install.join('\n') || undefined, rest: rest.join('\n') || undefined };
}

/**
 * A test step without the coverage tool around it: Wrench compares test results, not coverage, and the globally
 * installed latest release of such a tool often no longer runs on the older Node the CI matrix names.
 */
function withoutCoverage(command: string, job: CiJob): string {
  const match = COVERAGE_WRAPPER.exec(command);
  if (!match) return command;
  const inner = command.slice(match[0].length);
  job.notes.push(`\`${command}\` from ${job.source} runs as \`${inner}\` (without its coverage tool).`);
  return inner;
}

interface Matrix {
  values: Record<string, string>;
  /** Every value of each key, for the versions a matrix lists. */
  lists: Record<string, string[]>;
}

/** One combination of the matrix: the newest version of a version-like key, an ubuntu `os`, else the first value. */
function chooseMatrix(matrix: unknown): Matrix {
  const values: Record<string, string> = {};
  const lists: Record<string, string[]> = {};
  if (!matrix || typeof matrix !== 'object' || Array.isArray(matrix)) return { values, lists };
  for (const [key, raw] of Object.entries(matrix as Record<string, unknown>)) {
    if (key === 'include' || key === 'exclude' || !Array.isArray(raw)) continue;
    const list = raw.filter((value) => typeof value === 'string' || typeof value === 'number').map(String);
    const [first] = list;
    if (first === undefined) continue;
    lists[key] = list;
    const linux = list.find((value) => /ubuntu|linux/i.test(value));
    values[key] = linux ?? (/version|node|python/i.test(key) ? (newestFirst(list)[0] ?? first) : first);
  }
  // A matrix of `include:` entries only: the first Linux entry is the combination, and each key lists every entry's value.
  const include = (matrix as { include?: unknown }).include;
  const entries = Array.isArray(include) ? include.filter((entry): entry is Record<string, unknown> => !!entry && typeof entry === 'object') : [];
  const linux = entries.find((entry) => !/windows|macos/i.test(String(entry.os ?? ''))) ?? entries[0];
  if (Object.keys(values).length === 0 && linux !== undefined) {
    for (const [key, value] of Object.entries(linux)) if (typeof value === 'string' || typeof value === 'number') values[key] = String(value);
    for (const entry of entries) {
      for (const [key, value] of Object.entries(entry)) {
        if (typeof value !== 'string' && typeof value !== 'number') continue;
        lists[key] = [...new Set([...(lists[key] ?? []), String(value)])];
      }
    }
  }
  return { values, lists };
}

/** Version strings ordered newest first by their numbers (`26.x` before `24`, `3.12` before `3.9`). */
export function newestFirst(versions: readonly string[]): string[] {
  const numbers = (version: string) => (version.match(/\d+/g) ?? []).map(Number);
  return [...versions].sort((a, b) => {
    const [x, y] = [numbers(a), numbers(b)];
    for (let i = 0; i < Math.max(x.length, y.length); i++) if ((x[i] ?? -1) !== (y[i] ?? -1)) return (y[i] ?? -1) - (x[i] ?? -1);
    return 0;
  });
}

/** `actions/setup-node` and `actions/setup-python`: the versions they install (each of a matrix's, newest first). */
function readSetupAction(step: Step, matrix: Matrix, job: CiJob): void {
  const uses = String(step.uses);
  const inputs = step.with ?? {};
  const versions = (input: unknown): string[] => {
    if (typeof input !== 'string' && typeof input !== 'number') return [];
    const text = String(input).trim();
    const key = /^\$\{\{\s*matrix\.([\w-]+)\s*\}\}$/.exec(text)?.[1];
    if (key) return newestFirst(matrix.lists[key] ?? (matrix.values[key] ? [matrix.values[key]] : []));
    if (text.includes('${{')) return [];
    return newestFirst(
      text
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean),
    );
  };
  if (/^actions\/setup-node@/.test(uses)) {
    job.nodeVersions.push(...versions(inputs['node-version']));
    if (typeof inputs['node-version-file'] === 'string') job.nodeVersionFile = inputs['node-version-file'];
  }
  if (/^actions\/setup-python@/.test(uses)) job.pythonVersions.push(...versions(inputs['python-version']));
  if (/^pnpm\/action-setup@/.test(uses)) {
    const [version] = versions(inputs.version);
    if (version) job.packageManager = `pnpm@${version.replace(/^v/, '')}`;
    // `run_install: true` installs the dependencies as the action's own step.
    if (inputs.run_install === true || inputs.run_install === 'true') job.setup.push('pnpm install');
  }
}

function bashShell(shell: unknown): boolean {
  return shell === undefined || (typeof shell === 'string' && /^(bash|sh)\b/.test(shell));
}

/** A `run:` step as one shell command: its lines joined with `&&` (CI's bash stops at the first failure), its env and directory applied. */
function stepCommand(
  step: Step,
  matrix: Record<string, string>,
  skipped: string[],
  defaultDirectory: string | undefined,
  transform = (script: string) => script,
): string | undefined {
  const substituted = substitute(String(step.run), matrix);
  if (substituted === undefined) return undefined;
  const script = transform(substituted.trim());
  const lines = script
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  if (!lines.length) return undefined;
  const simple = lines.every((line) => !COMPOUND_LINE.test(line));
  let command = simple ? lines.join(' && ') : `bash -e -c ${quote(script)}`;
  const given = typeof step['working-directory'] === 'string' ? step['working-directory'] : defaultDirectory;
  const directory = given ? substitute(given, matrix) : undefined;
  if (directory) command = `cd ${quote(directory)} && ${command}`;
  const env = plainEnv(step.env, matrix);
  skipped.push(...env.skipped);
  const assignments = Object.entries(env.values).map(([name, value]) => `export ${name}=${quote(value)}`);
  return assignments.length ? `(${[...assignments, command].join(' && ')})` : command;
}

/** `env:` entries whose values are plain literals (matrix values filled in); secrets and other expressions are skipped. */
function plainEnv(env: unknown, matrix: Record<string, string>): { values: Record<string, string>; skipped: string[] } {
  const values: Record<string, string> = {};
  const skipped: string[] = [];
  if (!env || typeof env !== 'object' || Array.isArray(env)) return { values, skipped };
  for (const [name, raw] of Object.entries(env as Record<string, unknown>)) {
    const value = typeof raw === 'string' || typeof raw === 'number' || typeof raw === 'boolean' ? substitute(String(raw), matrix) : undefined;
    if (value === undefined || !VARIABLE_NAME.test(name)) skipped.push(name);
    else values[name] = value;
  }
  return { values, skipped };
}

/** The text with `${{ matrix.KEY }}` filled in; undefined when any other expression (secrets, contexts) is in it. */
function substitute(text: string, matrix: Record<string, string>): string | undefined {
  let unknown = false;
  const result = text.replace(EXPRESSION, (_whole, inner: string) => {
    const key = /^matrix\.([\w-]+)$/.exec(inner)?.[1];
    if (key && matrix[key] !== undefined) return matrix[key];
    unknown = true;
    return '';
  });
  return unknown || result.includes('${{') ? undefined : result;
}

function quote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
