/**
 * The test and lint commands a repository's instructions for agents name (`npm test` in a fenced block under
 * "## Testing", "Lint with `pnpm lint`."), for verification where the repository declares none elsewhere. Only
 * what reads as a plain check is taken: a known tool or a script of the repository first, no placeholders,
 * no watch mode, nothing that writes files, pushes, publishes or fetches. Whatever is taken runs in the sandbox
 * like any other command of the repository.
 */

export interface InstructionCommand {
  key: 'test' | 'lint';
  command: string;
  /** The heading it stood under, when there was one. */
  section?: string;
}

/** Words by which a heading or a sentence says it is about checking the code. */
const CHECK_CONTEXT =
  /\b(?:tests?|testing|unit|lint(?:s|ing|er)?|check(?:s|ing)?|verif(?:y|ication)|validat(?:e|ion)|quality|ci|pre-?commit|before (?:you )?(?:commit|push|submit|open)|commands?|development|workflow|scripts?|type-?check(?:ing)?|static analysis|formatting)\b/i;
/** A sentence about one test rather than the suite: not the command to check a change with. */
const ONE_TEST = /\b(?:single|one|specific|individual|particular|a (?:single )?file)\b/i;

const TEST_COMMAND = /\b(?:test|tests|testing|pytest|jest|vitest|mocha|ava|rspec|phpunit|ctest|tox|unittest)\b/i;
const LINT_COMMAND =
  /\b(?:lint|linter|eslint|ruff|flake8|pylint|biome|clippy|golangci-lint|rubocop|stylelint|prettier|typecheck|type-check|check-types|tsc|mypy|pyright|vet|black|isort|shellcheck|fmt|format)\b/i;
/** A formatter is a check only when told to check. */
const FORMATTER = /(?:^|[\s:/])(?:prettier|black|isort|fmt|format|gofmt)(?=$|[\s:])/i;
const CHECK_FLAG = /\s(?:--check|--diff|-l|--list-different)(?=$|\s)/;

const RUNNERS = new Set([
  'npm',
  'pnpm',
  'yarn',
  'bun',
  'npx',
  'pnpx',
  'bunx',
  'deno',
  'node',
  'make',
  'just',
  'task',
  'go',
  'cargo',
  'python',
  'python3',
  'pytest',
  'uv',
  'uvx',
  'poetry',
  'pipenv',
  'hatch',
  'pdm',
  'tox',
  'nox',
  'ruff',
  'mypy',
  'pyright',
  'flake8',
  'pylint',
  'black',
  'isort',
  'mvn',
  './mvnw',
  'gradle',
  './gradlew',
  'bundle',
  'rake',
  'rspec',
  'rubocop',
  'composer',
  'mix',
  'dotnet',
  'swift',
  'ctest',
  'bazel',
  'bazelisk',
  'tsc',
  'eslint',
  'biome',
  'prettier',
  'vitest',
  'jest',
  'mocha',
  'golangci-lint',
  'gofmt',
  'shellcheck',
  'stylelint',
  'sbt',
  'stack',
  'cabal',
  'zig',
]);
/** A script of the repository's own: `./scripts/test.sh`, `bin/lint`, `vendor/bin/phpunit`. */
const OWN_SCRIPT = /^(?:\.\/)?(?:scripts?|bin|tools|vendor\/bin|ci|hack)\/[\w./-]+$|^\.\/[\w.-]+$/;

/** Not a check: placeholders, substitutions, redirection, watch mode, or something that writes, pushes or fetches. */
const REFUSED =
  /[<>`]|\$\(|\{\{|(?<!\/)\.\.\.|…|(?<!\|)\|(?!\|)|\bpath\/to\b|--watch\b|(?:^|[\s:])watch\b|:watch\b|--fix\b|--write\b|\bsudo\b|\bcurl\b|\bwget\b|\bssh\b|\bscp\b|\bgit\s+(?:push|commit|reset|clean|checkout)\b|\bpublish\b|\brm\s+-/i;

/** The first test command and the first lint command the text names, each with its heading. */
export function instructionCommands(markdown: string): { test?: InstructionCommand; lint?: InstructionCommand } {
  const found: { test?: InstructionCommand; lint?: InstructionCommand } = {};
  const offer = (candidate: string, section: string | undefined, sentence: string) => {
    const context = `${section ?? ''}\n${sentence}`;
    if (!CHECK_CONTEXT.test(context) || ONE_TEST.test(sentence)) return;
    const command = plainCommand(candidate);
    if (!command) return;
    const key = commandKey(command, section, sentence);
    if (key && !found[key]) found[key] = { key, command, ...(section ? { section } : {}) };
  };

  let section: string | undefined;
  let fence: { marker: string; shell: boolean; sentence: string } | undefined;
  let previous = '';
  for (const raw of markdown.split(/\r?\n/)) {
    const line = raw.trimEnd();
    if (fence) {
      if (line.trim().startsWith(fence.marker)) fence = undefined;
      else if (fence.shell) offer(line, section, fence.sentence);
      continue;
    }
    const opening = /^\s{0,3}(`{3,}|~{3,})\s*([\w-]*)/.exec(line);
    if (opening?.[1]) {
      const language = (opening[2] ?? '').toLowerCase();
      fence = {
        marker: opening[1],
        shell: ['', 'sh', 'bash', 'shell', 'console', 'zsh', 'terminal', 'shell-session', 'text'].includes(language),
        sentence: previous,
      };
      continue;
    }
    const heading = /^\s{0,3}#{1,6}\s+(.+?)\s*#*$/.exec(line);
    if (heading?.[1]) {
      section = heading[1].replace(/[*_`]/g, '').trim();
      previous = '';
      continue;
    }
    for (const span of line.matchAll(/(?<!`)`([^`\n]+)`(?!`)/g)) if (span[1]) offer(span[1], section, line);
    if (line.trim()) previous = line;
  }
  return found;
}

/** The command as it would run, or undefined when it does not read as one check Wrench may run. */
function plainCommand(text: string): string | undefined {
  const command = text
    .trim()
    .replace(/^(?:\$|>|%)\s+/, '')
    .replace(/\s+#\s.*$/, '')
    .trim();
  if (!command || command.startsWith('#') || command.length > 300 || command.endsWith('\\') || REFUSED.test(command)) return undefined;
  const words = command.split(/\s+/);
  const first = words.find((word) => !/^[A-Z_][A-Z0-9_]*=\S*$/.test(word));
  if (!first || !(RUNNERS.has(first) || OWN_SCRIPT.test(first))) return undefined;
  // Every part of a chain must be such a command too (`npm ci && npm test`, not `npm test && curl …`).
  for (const part of command.split(/\s*(?:&&|\|\||;)\s*/).slice(1)) {
    const head = part.split(/\s+/).find((word) => !/^[A-Z_][A-Z0-9_]*=\S*$/.test(word));
    if (!head || !(RUNNERS.has(head) || OWN_SCRIPT.test(head))) return undefined;
  }
  return command;
}

/** Test or lint, by the command itself, else by the words around it (`make check` under "Linting"). */
function commandKey(command: string, section: string | undefined, sentence: string): 'test' | 'lint' | undefined {
  if (FORMATTER.test(command) && !CHECK_FLAG.test(command) && !/\bfmt\s+--\s+--check\b/.test(command)) return undefined;
  // An option does not make a command a linter (`pytest --format=…`); `node --test` is a test runner.
  const lint = LINT_COMMAND.test(command.replace(/(?:^|\s)--?[\w-]+(?:=\S*)?/g, ' '));
  const test = TEST_COMMAND.test(command);
  if (test && !lint) return 'test';
  if (lint && !test) return 'lint';
  if (lint && test) return undefined;
  if (!/\b(?:check|ci|verify|validate)\b|^\.?\/?(?:scripts?|bin|tools|ci|hack)\//.test(command)) return undefined;
  const context = `${sentence} ${section ?? ''}`;
  if (/\btest/i.test(sentence) || (!/\blint|\btype-?check|\bformat/i.test(sentence) && /\btest/i.test(section ?? ''))) return 'test';
  if (/\blint|\btype-?check|\bformat/i.test(context)) return 'lint';
  return undefined;
}
