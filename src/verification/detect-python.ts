import { detection, type Detection } from './detection.js';
import { firstExisting, type RepoFiles } from './repo-files.js';
import { tomlTable } from './toml-table.js';

const PROJECT_FILES = ['pyproject.toml', 'setup.cfg', 'setup.py', 'pytest.ini', 'tox.ini'];
const REQUIREMENTS = ['requirements.txt', 'requirements-dev.txt', 'requirements-test.txt', 'dev-requirements.txt', 'test-requirements.txt'];
const TEST_DIRS = ['tests', 'test'];
const TEST_FILE = /^(test_.*|.*_test)\.py$/;
const EXTRAS = ['test', 'tests', 'testing', 'dev'];

/** pytest for Python projects, ruff or flake8 when configured, pip install when there is something to install. */
export async function detectPython(files: RepoFiles): Promise<Detection[]> {
  const marker = await firstExisting(files, PROJECT_FILES);
  const testDir = await testDirectory(files);
  if (!marker && !testDir) return [];
  const pyproject = (await files.read('pyproject.toml')) ?? '';
  const setupCfg = (await files.read('setup.cfg')) ?? '';
  const toxIni = (await files.read('tox.ini')) ?? '';
  const found: Detection[] = [detection('test', 'python3 -m pytest -q', marker ?? `${testDir}/ with test_*.py files`)];

  const ruff = (await firstExisting(files, ['ruff.toml', '.ruff.toml'])) ?? (tomlTable(pyproject, 'tool.ruff') ? 'pyproject.toml [tool.ruff]' : undefined);
  const flake8 =
    (await firstExisting(files, ['.flake8'])) ??
    (hasIniSection(setupCfg, 'flake8') ? 'setup.cfg [flake8]' : hasIniSection(toxIni, 'flake8') ? 'tox.ini [flake8]' : undefined);
  if (ruff) found.push(detection('lint', 'python3 -m ruff check .', ruff));
  else if (flake8) found.push(detection('lint', 'python3 -m flake8', flake8));

  const setup = await setupSteps(files, pyproject);
  if (setup.commands.length) found.push(detection('setup', setup.commands.join(' && '), setup.reasons.join(', ')));
  return found;
}

async function testDirectory(files: RepoFiles): Promise<string | undefined> {
  if ((await files.list('.')).some((name) => TEST_FILE.test(name))) return '.';
  for (const dir of TEST_DIRS) if (await containsTests(files, dir, 2)) return dir;
  return undefined;
}

async function containsTests(files: RepoFiles, dir: string, depth: number): Promise<boolean> {
  const names = await files.list(dir);
  if (names.some((name) => TEST_FILE.test(name))) return true;
  if (depth === 0) return false;
  for (const name of names) {
    if (name.startsWith('.') || name === '__pycache__') continue;
    if ((await files.isDirectory(`${dir}/${name}`)) && (await containsTests(files, `${dir}/${name}`, depth - 1))) return true;
  }
  return false;
}

async function setupSteps(files: RepoFiles, pyproject: string): Promise<{ commands: string[]; reasons: string[] }> {
  const commands: string[] = [];
  const reasons: string[] = [];
  for (const path of REQUIREMENTS) {
    if (!(await files.exists(path))) continue;
    commands.push(`python3 -m pip install -r ${path}`);
    reasons.push(path);
  }
  const installable = (await files.exists('setup.py')) || !!tomlTable(pyproject, 'project') || !!tomlTable(pyproject, 'build-system');
  if (installable) {
    const extras = tomlTable(pyproject, 'project.optional-dependencies') ?? {};
    const extra = EXTRAS.find((name) => name in extras);
    commands.push(extra ? `python3 -m pip install -e '.[${extra}]'` : 'python3 -m pip install -e .');
    reasons.push((await files.exists('setup.py')) ? 'setup.py' : 'pyproject.toml');
  }
  return { commands, reasons };
}

/** An INI file (setup.cfg, tox.ini) with a `[name]` section. */
function hasIniSection(text: string, name: string): boolean {
  return text.split('\n').some((line) => line.trim() === `[${name}]`);
}
