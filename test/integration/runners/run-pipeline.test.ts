import { renderProgress } from '../../../src/reporting/progress.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { backgroundSettled } from '../../../runners/background-work.js';
import { failureMessage } from '../../../runners/failure-message.js';
import { runPipeline, type RunContext, type StageEvent } from '../../../runners/pipeline/run-pipeline.js';
import { changeProfile } from '../../../runners/profiles/change-profile.js';
import { reviewProfile } from '../../../runners/profiles/review-profile.js';
import type { RunnerDeps } from '../../../runners/runner-deps.js';
import { loadConfig } from '../../../src/config/load-config.js';
import { createLogger } from '../../../src/logging/logger.js';
import type { TaskJob } from '../../../src/queue/task-job.js';
import type { RunPhase, RunReporter, RunResult } from '../../../src/reporting/run-result.js';
import { createRedactor } from '../../../src/security/redact.js';
import { LostClaimError, type JobClaim } from '../../../src/queue/job-claim.js';
import { finish, scriptedModel, toolUse } from '../../helpers/scripted-model.js';
import { startNpmRegistryFake } from '../../fakes/npm-registry-fake.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';
import { ADD_PROJECT, git, makeRepo } from '../../helpers/git-repo.js';

/** A local repository with a node test suite that passes. */
function recordingReporter() {
  const phases: Array<{ phase: RunPhase; detail?: string }> = [];
  const finished: RunResult[] = [];
  const reporter: RunReporter = {
    phase: async (phase, detail) => void phases.push({ phase, detail: detail && renderProgress(detail) }),
    finished: async (result) => void finished.push(result),
    failed: async () => undefined,
  };
  return { reporter, phases, finished };
}

const job = (localPath: string, instruction: string): TaskJob => ({
  kind: 'task',
  origin: { type: 'cli' },
  repo: { owner: 'local', name: 'demo', baseBranch: 'main' },
  localPath,
  instruction,
  category: 'bug-fixing',
  complexity: 'simple',
  elements: {},
  requester: { slackUserId: 'U1' },
  requestedAt: new Date().toISOString(),
});

describe('runPipeline with the change profile (scripted model, real git, no child process)', () => {
  let dir: TempDir;
  let repo: string;
  const deps = (anthropic: RunnerDeps['anthropic'], more = ''): RunnerDeps => {
    writeFileSync(path.join(dir.path, 'wrench.config.yml'), `sandbox: { mode: none }\n${more}`);
    const config = loadConfig({ WRENCH_DATA_DIR: path.join(dir.path, 'data') }, dir.path);
    return { config, logger: createLogger({ level: 'silent' }), redact: createRedactor([]), anthropic, github: null, secrets: [] };
  };

  beforeEach(async () => {
    dir = await makeTempDir('wrench-pipeline-');
    repo = makeRepo(path.join(dir.path, 'repo'), ADD_PROJECT);
  });
  afterEach(async () => {
    await backgroundSettled();
    await dir.remove();
  });

  it('runs every stage in order, verifies the change and pushes the branch back', async () => {
    const model = scriptedModel([
      toolUse('bash', { command: "printf 'exports.add = (a, b) => a + b;\\nexports.sub = (a, b) => a - b;\\n' > add.js" }),
      finish('Added sub.', 'node --test passes'),
    ]);
    const { reporter, finished } = recordingReporter();
    const stages: StageEvent[] = [];
    const result = await runPipeline(
      changeProfile(),
      job(repo, 'Add a sub function to add.js'),
      { jobId: 'job-1', reporter, signal: new AbortController().signal, onStage: (e) => stages.push(e) },
      deps(model.client),
    );

    expect(stages.filter((e) => e.status === 'started').map((e) => e.stage)).toEqual([
      'prepare',
      'prepare',
      'before',
      'agent',
      'verify',
      'after',
      'publish',
      'report',
    ]);
    expect(stages.some((e) => e.status === 'failed')).toBe(false);
    expect(result.verificationVerdict).toBe('unchanged');
    expect(result.pushedTo).toBe(repo);
    expect(result.branch).toBeTruthy();
    expect(git(repo, 'show', `${result.branch}:add.js`)).toContain('exports.sub');
    expect(finished).toEqual([result]);
  });

  it("commits and publishes only once Slack's lookups (requester, thread link), made beside the run, have answered", async () => {
    const model = scriptedModel([
      toolUse('bash', { command: "printf 'exports.add = (a, b) => a + b;\\nexports.sub = (a, b) => a - b;\\n' > add.js" }),
      finish('Added sub.', 'node --test passes'),
    ]);
    const { reporter } = recordingReporter();
    const context: RunContext = { jobId: 'job-lookups', reporter, signal: new AbortController().signal };
    let fill: () => void = () => undefined;
    context.lookups = new Promise<void>((resolve) => {
      fill = () => {
        Object.assign(context, { requesterName: 'Alice Doe', requesterEmail: 'alice@example.com', threadUrl: 'https://slack.example/archives/C1/p1' });
        resolve();
      };
    });
    // They answer only after the publishing stage has begun: it must wait for them.
    context.onStage = (event) => {
      if (event.stage === 'publish' && event.status === 'started') setTimeout(fill, 300);
    };
    const result = await runPipeline(changeProfile(), job(repo, 'Add a sub function to add.js'), context, deps(model.client));

    const message = git(repo, 'log', '-1', '--format=%B', result.branch!);
    expect(message).toContain('Co-authored-by: Alice Doe <alice@example.com>');
    expect(message).toContain('https://slack.example/archives/C1/p1');
  });

  it('an attempt that lost its job after the agent (another worker has it) pushes nothing and reports nothing', async () => {
    const model = scriptedModel([
      toolUse('bash', { command: "printf 'exports.add = (a, b) => a + b;\\nexports.sub = (a, b) => a - b;\\n' > add.js" }),
      finish('Added sub.', 'node --test passes'),
    ]);
    const { reporter, finished } = recordingReporter();
    let lost: LostClaimError | undefined;
    const held: string[] = [];
    const claim: JobClaim = {
      fence: undefined,
      get lost() {
        return lost;
      },
      lose: (effect) => (lost ??= new LostClaimError('job-1', effect)),
      hold: async (effect) => {
        held.push(effect);
        if (lost) throw lost;
      },
    };
    const branchesBefore = git(repo, 'branch', '--list');
    const run = runPipeline(
      changeProfile(),
      job(repo, 'Add a sub function to add.js'),
      // The job's lock expires while the agent works: its last model call is its last act.
      { jobId: 'job-1', reporter, signal: new AbortController().signal, claim, onAgentDone: async () => void claim.lose('lock renewal') },
      deps(model.client),
    );

    await expect(run).rejects.toBeInstanceOf(LostClaimError);
    expect(held).toEqual(['the publish stage']);
    expect(git(repo, 'branch', '--list')).toBe(branchesBefore);
    expect(finished).toEqual([]);
  });

  it("a review is given the repository's instructions too, names them in its report, and reads a nested AGENTS.md when it views a file under it", async () => {
    writeFileSync(path.join(repo, 'AGENTS.md'), '# Demo\n\nPrefer small pure functions.\n');
    mkdirSync(path.join(repo, 'lib'));
    writeFileSync(path.join(repo, 'lib', 'AGENTS.md'), 'lib/ is public API: never change a signature.\n');
    writeFileSync(path.join(repo, 'lib', 'mul.js'), 'exports.mul = (a, b) => a * b;\n');
    git(repo, 'add', '-A');
    git(repo, '-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'lib');
    const model = scriptedModel([
      toolUse('str_replace_based_edit_tool', { command: 'view', path: 'lib/mul.js' }),
      toolUse('finish_task', { summary: 'Fine.', findings: [] }),
    ]);
    const { reporter } = recordingReporter();
    const result = await runPipeline(
      reviewProfile(),
      { ...job(repo, 'Review lib/mul.js'), category: 'code-review' },
      { jobId: 'job-review', reporter, signal: new AbortController().signal },
      deps(model.client),
    );
    const task = JSON.stringify(model.requests[0]?.messages[0]?.content);
    expect(task).toContain('<untrusted source=\\"repository-instructions\\" path=\\"AGENTS.md\\" applies-to=\\"/\\">\\n# Demo');
    expect(JSON.stringify(model.requests[1]?.messages.at(-1)?.content)).toContain('lib/ is public API: never change a signature.');
    expect(result.instructionFiles).toEqual([{ path: 'AGENTS.md' }, { path: 'lib/AGENTS.md' }]);
  });

  it("without a GitHub credential a change for a GitHub repository stops before pushing, saying so in the thread's language", async () => {
    const remote = path.join(dir.path, 'remote');
    git(dir.path, 'clone', '-q', '--bare', repo, path.join(remote, 'acme', 'add.git'));
    const model = scriptedModel([
      toolUse('bash', { command: "printf 'exports.add = (a, b) => a + b;\\nexports.sub = (a, b) => a - b;\\n' > add.js" }),
      finish('Added sub.'),
    ]);
    const { reporter } = recordingReporter();
    const base = deps(model.client);
    const config = loadConfig({ WRENCH_DATA_DIR: path.join(dir.path, 'data'), GIT_BASE_URL: `file://${remote}` }, dir.path);
    const { localPath: _local, ...rest } = job(repo, 'Add a sub function to add.js');
    const failed = await runPipeline(
      changeProfile(),
      { ...rest, repo: { owner: 'acme', name: 'add', baseBranch: 'main' }, language: 'de' },
      { jobId: 'job-no-github', reporter, signal: new AbortController().signal },
      { ...base, config },
    ).catch((error: unknown) => error);
    expect(failed).toMatchObject({
      code: 'github_not_configured',
      message:
        'No GitHub credential is configured, so I cannot open a pull request. Set GITHUB_TOKEN, or GITHUB_APP_ID and GITHUB_APP_PRIVATE_KEY_PATH for a GitHub App.',
    });
    expect(failureMessage(failed, 'de')).toBe(
      'Der Lauf ist fehlgeschlagen: Es ist kein GitHub-Zugang eingerichtet, deshalb kann ich keinen Pull Request öffnen. Setze GITHUB_TOKEN oder, für eine GitHub App, GITHUB_APP_ID und GITHUB_APP_PRIVATE_KEY_PATH.',
    );
    // Nothing left the machine.
    expect(git(path.join(remote, 'acme', 'add.git'), 'branch', '--list', 'wrench/*')).toBe('');
  });

  it('a change that breaks a passing test gets one fix round; still failing, it gets a draft reason and the regressed verdict', async () => {
    const breakIt = toolUse('bash', { command: "printf 'exports.add = (a, b) => a - b;\\n' > add.js" });
    const model = scriptedModel([breakIt, finish('All tests pass.', 'all tests pass'), breakIt, finish('All tests pass.', 'all tests pass')]);
    const { reporter } = recordingReporter();
    const result = await runPipeline(
      changeProfile(),
      job(repo, 'Tidy add.js'),
      { jobId: 'job-2', reporter, signal: new AbortController().signal },
      deps(model.client),
    );

    expect(model.calls).toBe(4);
    expect(result.verificationVerdict).toBe('regressed');
    expect(result.draftReason).toMatch(/now fail/);
    // The agent finished: a draft for a reason of its own is not a run stopped early.
    expect(result.status).toBe('answered');
  });

  it('a change whose checks cannot run on the Node.js the repository asks for gets a draft reason that says why (npm registry fake)', async () => {
    writeFileSync(path.join(repo, '.nvmrc'), '23\n');
    git(repo, 'add', '.nvmrc');
    git(repo, '-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'pin node 23');
    // The registry Wrench's own npm asks lists no Node.js 23 build.
    const registry = await startNpmRegistryFake({ [`node-linux-${process.arch}`]: ['20.19.5', '22.12.0'] });
    const saved = { registry: process.env.npm_config_registry, cache: process.env.npm_config_cache };
    process.env.npm_config_registry = registry.url;
    process.env.npm_config_cache = path.join(dir.path, 'npm-cache');
    try {
      const model = scriptedModel([
        toolUse('bash', { command: "printf 'exports.add = (a, b) => a + b;\\nexports.sub = (a, b) => a - b;\\n' > add.js" }),
        finish('Added sub.', 'node --test passes'),
      ]);
      const result = await runPipeline(
        changeProfile(),
        job(repo, 'Add a sub function to add.js'),
        { jobId: 'job-runtime', reporter: recordingReporter().reporter, signal: new AbortController().signal },
        deps(model.client),
      );
      expect(registry.requests.some((request) => request.includes('node-linux-'))).toBe(true);
      expect(result.draftReason).toBe(
        `The checks could not run on the runtime the repository asks for, so they do not show what its CI would: Node.js 23 (.nvmrc) was asked for, but the npm registry has no such Node.js build: the checks ran on Node.js ${process.versions.node}.`,
      );
      expect(result.verification).toContain('⚠ Node.js 23 (.nvmrc) was asked for');
    } finally {
      for (const [name, value] of [
        ['npm_config_registry', saved.registry],
        ['npm_config_cache', saved.cache],
      ] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      await registry.stop();
    }
  });

  it('stops the agent at the configured token ceiling (limits.tokens)', async () => {
    const model = scriptedModel([
      toolUse('bash', { command: "printf 'exports.add = (a, b) => a + b;\\nexports.sub = (a, b) => a - b;\\n' > add.js" }),
      finish('Added sub.', 'node --test passes'),
    ]);
    const { reporter } = recordingReporter();
    // Every scripted reply reports 120 tokens: the first call uses the whole budget of 100.
    const result = await runPipeline(
      changeProfile(),
      job(repo, 'Add a sub function to add.js'),
      { jobId: 'job-3', reporter, signal: new AbortController().signal },
      deps(model.client, 'limits: { tokens: 100 }\n'),
    );

    expect(model.calls).toBe(1);
    expect(result.stopCode).toBe('token_limit');
    expect(result.stopReason).toMatch(/token budget \(100 tokens\)/);
  });
});
