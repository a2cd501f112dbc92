import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { runTask } from '../../runners/run-task.js';
import { loadConfig } from '../../src/config/load-config.js';
import { requireSettings } from '../../src/config/require-settings.js';
import { WrenchError } from '../../src/errors.js';
import { readInstruction } from '../../src/instruction/read-instruction.js';
import { createLogger } from '../../src/logging/logger.js';
import type { TaskJob } from '../../src/queue/task-job.js';
import type { RepoRef } from '../../src/repository/resolve-repository.js';
import { ConsoleReporter } from '../../src/reporting/console-reporter.js';
import { createRedactor, secretsOf } from '../../src/security/redact.js';
import { upstreamProxyCredentials } from '../../src/sandbox/egress/upstream-proxy.js';
import { buildRunnerDeps } from '../service/build-runner-deps.js';
import { runGit } from '../../src/workspace/run-git.js';
import type { CliIo } from './cli-io.js';
import { LastBranches } from './last-branch.js';

/** The branch the last run on this repository left, checked to exist (locally) before a run builds on it. */
async function branchToContinue(lastBranches: LastBranches, repository: string, localPath: string | undefined): Promise<string> {
  const branch = await lastBranches.get(repository);
  if (!branch) throw new WrenchError('usage', `No earlier \`wrench run\` on ${repository} left a branch to continue; run without --continue.`);
  if (localPath) {
    const exists = await runGit(['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`], { cwd: localPath }).then(
      () => true,
      () => false,
    );
    if (!exists) throw new WrenchError('usage', `The last branch Wrench left in ${localPath}, \`${branch}\`, no longer exists; run without --continue.`);
  }
  return branch;
}

const OWNER_NAME = /^([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+)$/;

/** A local checkout under its folder's name, else owner/name; undefined when `--repo` is neither. */
function repositoryOf(repo: string, local: boolean): RepoRef | undefined {
  if (local) return { owner: 'local', name: path.basename(path.resolve(repo)) };
  const [, owner, name] = OWNER_NAME.exec(repo) ?? [];
  return owner !== undefined && name !== undefined ? { owner, name } : undefined;
}

/** `wrench run --repo PATH|owner/name [--base BRANCH | --continue] TEXT`: the same runner as Slack jobs, reporting to the terminal. */
export async function runCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: { repo: { type: 'string' }, base: { type: 'string' }, continue: { type: 'boolean' } },
    allowPositionals: true,
    strict: true,
  });
  const text = positionals.join(' ').trim();
  if (!values.repo) throw new WrenchError('usage', 'Pass the repository: wrench run --repo PATH|owner/name "your task".');
  if (!text) throw new WrenchError('usage', 'Pass the task text: wrench run --repo PATH|owner/name "your task".');

  const config = loadConfig();
  requireSettings(config, 'run');
  const local = existsSync(values.repo) || values.repo.startsWith('.') || values.repo.startsWith('/');
  const repo = repositoryOf(values.repo, local);
  if (!repo) throw new WrenchError('usage', `--repo must be a local checkout or owner/name; "${values.repo}" is neither.`);
  if (local && !existsSync(values.repo)) throw new WrenchError('usage', `${values.repo} does not exist.`);

  if (values.continue && values.base) throw new WrenchError('usage', '--continue goes on from the last branch; it cannot be combined with --base.');
  const localPath = local ? path.resolve(values.repo) : undefined;
  const repositoryKey = localPath ?? values.repo;
  const lastBranches = new LastBranches(config.dataDir);
  const continueBranch = values.continue ? await branchToContinue(lastBranches, repositoryKey, localPath) : undefined;

  const credentials = [...secretsOf(config.env), ...upstreamProxyCredentials(config)];
  const secrets = credentials.map((secret) => secret.value);
  const redact = createRedactor(secrets);
  const logger = createLogger({ level: config.env.LOG_LEVEL === 'info' ? 'warn' : config.env.LOG_LEVEL, redact });
  const reading = readInstruction(text);
  const job: TaskJob = {
    kind: 'task',
    origin: { type: 'cli' },
    repo: { ...repo, baseBranch: values.base },
    localPath,
    instruction: text,
    category: reading.category,
    complexity: reading.complexity,
    elements: reading.elements as Record<string, unknown>,
    requester: { slackUserId: 'cli', name: process.env.USER ?? 'cli' },
    requestedAt: new Date().toISOString(),
  };
  io.stdout(
    `Task: ${reading.category}, ${reading.complexity}${reading.verdict !== 'well-formed' ? ` (${reading.verdict}: missing ${reading.missing.join(', ')})` : ''}`,
  );
  const controller = new AbortController();
  const cancel = () => controller.abort(new Error('interrupted'));
  process.once('SIGINT', cancel);
  try {
    const reporter = new ConsoleReporter((line) => io.stdout(redact(line)));
    const result = await runTask(
      job,
      { jobId: `cli-${Date.now()}`, reporter, signal: controller.signal, requesterName: job.requester.name, continueBranch },
      buildRunnerDeps(config, logger, redact, secrets, credentials),
    );
    // Only a branch that really exists now: one the run pushed to, or the one it continued.
    if (result.branch && (result.pushedTo || result.pullRequest)) await lastBranches.set(repositoryKey, result.branch);
    return result.status === 'stopped' ? 3 : 0;
  } finally {
    process.off('SIGINT', cancel);
    logger.flush();
  }
}
