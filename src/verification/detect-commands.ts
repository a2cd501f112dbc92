import { isWrenchError } from '../errors.js';
import { ROOT_INSTRUCTION_FILES } from '../repository-instructions/instruction-files.js';
import { readCiJob, readCopilotSetup, type CiJob } from './ci-workflow.js';
import { detectAgentInstructions } from './detect-agent-instructions.js';
import { detectGo } from './detect-go.js';
import { readDevcontainerSetup } from './devcontainer.js';
import { detectMake } from './detect-make.js';
import { detectNode } from './detect-node.js';
import { detectPython } from './detect-python.js';
import { detectRust } from './detect-rust.js';
import type { Detection } from './detection.js';
import { repoFiles, type RepoFiles } from './repo-files.js';
import { readRepositoryChecks, REPOSITORY_CHECKS_FILE, type RepositoryChecks } from './repository-checks-file.js';
import type { CommandKey, RuntimeHints, VerificationCommands, VerificationOverride } from './verification-types.js';

// The repository's instructions for agents come last: a command they name counts only where nothing else declares one.
const DETECTORS: ReadonlyArray<(files: RepoFiles) => Promise<Detection[]>> = [
  detectNode,
  detectMake,
  detectPython,
  detectGo,
  detectRust,
  detectAgentInstructions,
];
const KEYS: readonly CommandKey[] = ['setup', 'test', 'lint', 'coverage'];

/**
 * The repository's own setup, test, lint and coverage commands. Per key, the first that gives one wins: the
 * override in wrench.config.yml (an empty one turns the command off), the repository's `.wrench.yml`, the job of
 * its CI workflow that runs the tests (setup also from `copilot-setup-steps.yml`, and else the dev container's
 * lifecycle commands), then detection by ecosystem
 * (package.json, Makefile, Python, Go, Rust), and last the test and lint commands the repository's instructions for
 * agents name (AGENTS.md, CLAUDE.md, .github/copilot-instructions.md).
 */
export async function detectCommands(dir: string, override: VerificationOverride = {}): Promise<VerificationCommands> {
  const files = repoFiles(dir);
  const notes: string[] = [];
  const own = await readRepositoryChecks(files).catch((error: unknown) => {
    if (!isWrenchError(error)) throw error;
    notes.push(error.message);
    return undefined;
  });
  const ci = await readCiJob(files);
  const copilot = await readCopilotSetup(files);
  const chosen = new Map<CommandKey, Detection>();
  const offer = (found: Detection) => {
    if (!chosen.has(found.key)) chosen.set(found.key, found);
  };
  for (const key of KEYS) if (own?.[key]) offer({ key, command: own[key], reason: REPOSITORY_CHECKS_FILE });
  if (copilot?.setup.length) offer({ key: 'setup', command: copilot.setup.join(' && '), reason: copilot.source });
  if (ci?.setup.length) offer({ key: 'setup', command: ci.setup.join(' && '), reason: ci.source });
  const devcontainer = await readDevcontainerSetup(files);
  if (devcontainer) offer({ key: 'setup', command: devcontainer.command, reason: devcontainer.source });
  if (ci?.test) offer({ key: 'test', command: ci.test, reason: ci.source });
  if (ci?.lint) offer({ key: 'lint', command: ci.lint, reason: ci.lintSource ?? ci.source });
  for (const detect of DETECTORS) for (const found of await detect(files)) offer(found);

  const commands: VerificationCommands = { sources: [] };
  for (const key of KEYS) {
    const wanted = override[key];
    if (wanted !== undefined) {
      if (wanted.trim()) {
        commands[key] = wanted.trim();
        commands.sources.push(`${key}: \`${wanted.trim()}\` (override in wrench.config.yml)`);
      } else {
        commands.sources.push(`${key}: turned off by an empty override in wrench.config.yml`);
      }
      continue;
    }
    const found = chosen.get(key);
    if (!found) continue;
    commands[key] = found.command;
    commands.sources.push(`${key}: \`${found.command}\` (${found.reason})`);
  }
  commands.origin = origin(commands, chosen, override);
  const env = { ...(ci?.env ?? {}), ...(own?.env ?? {}) };
  if (Object.keys(env).length) commands.env = env;
  if (ci && (commands.test === ci.test || commands.lint === ci.lint)) notes.push(...ci.notes);
  if (ci?.testUnreadable && !ci.test && commands.test && !override.test) {
    notes.push(`A test step of ${ci.source} needs a \`\${{ }}\` expression Wrench cannot evaluate, so the test command was detected instead.`);
  }
  if (ci?.skippedEnv.length) notes.push(`Not passed from ${ci.source}: ${ci.skippedEnv.map((name) => `\`${name}\``).join(', ')} (secrets or expressions).`);
  if (notes.length) commands.notes = notes;
  const keyFiles = override.dependencyKeyFiles ?? own?.dependencyKeyFiles;
  if (keyFiles?.length) commands.dependencyKeyFiles = keyFiles;
  const refresh = (override.refresh ?? own?.refresh)?.trim();
  if (refresh) commands.refresh = refresh;
  const hints = runtimeHints(own, ci);
  if (hints) commands.runtimeHints = hints;
  return commands;
}

/** Where the test and lint commands came from, said once for the report. */
function origin(commands: VerificationCommands, chosen: Map<CommandKey, Detection>, override: VerificationOverride): string | undefined {
  const reasons = new Set<string>();
  for (const key of ['test', 'lint'] as const) {
    if (!commands[key]) continue;
    const reason = chosen.get(key)?.reason ?? '';
    if (override[key]?.trim()) reasons.add('the override in wrench.config.yml');
    else
      reasons.add(instructionFile(reason) ?? (reason === REPOSITORY_CHECKS_FILE || reason.startsWith('.github/') ? reason : 'the repository files (detected)'));
  }
  return reasons.size ? `checks from ${[...reasons].join(' and ')}` : undefined;
}

/** The instruction file that named a command (its reason starts with the file's path), if one did. */
function instructionFile(reason: string): string | undefined {
  return ROOT_INSTRUCTION_FILES.find((path) => reason === path || reason.startsWith(`${path},`));
}

function runtimeHints(own: RepositoryChecks | undefined, ci: CiJob | undefined): RuntimeHints | undefined {
  const hints: RuntimeHints = {};
  if (own?.runtime.node) hints.node = { versions: [own.runtime.node], source: REPOSITORY_CHECKS_FILE };
  else if (ci?.nodeVersions.length) hints.node = { versions: ci.nodeVersions, source: ci.source };
  if (ci?.nodeVersionFile) hints.nodeVersionFile = ci.nodeVersionFile;
  if (ci?.packageManager) hints.packageManager = { spec: ci.packageManager, source: `pnpm/action-setup of ${ci.source}` };
  if (own?.runtime.python) hints.python = { versions: [own.runtime.python], source: REPOSITORY_CHECKS_FILE };
  else if (ci?.pythonVersions.length) hints.python = { versions: ci.pythonVersions, source: ci.source };
  return Object.keys(hints).length ? hints : undefined;
}
