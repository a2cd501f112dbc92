import { renderProgress } from '../../../src/reporting/progress.js';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { backgroundSettled } from '../../../runners/background-work.js';
import { runPipeline, type StageEvent } from '../../../runners/pipeline/run-pipeline.js';
import { changeProfile } from '../../../runners/profiles/change-profile.js';
import type { RunnerDeps } from '../../../runners/runner-deps.js';
import { loadConfig } from '../../../src/config/load-config.js';
import { createLogger } from '../../../src/logging/logger.js';
import type { TaskJob } from '../../../src/queue/task-job.js';
import type { RunPhase, RunReporter } from '../../../src/reporting/run-result.js';
import { createRedactor } from '../../../src/security/redact.js';
import { finish, scriptedModel, toolUse } from '../../helpers/scripted-model.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';
import { ADD_PROJECT, makeRepo } from '../../helpers/git-repo.js';

const job = (localPath: string, instruction: string): TaskJob => ({
  kind: 'task',
  origin: { type: 'cli' },
  repo: { owner: 'local', name: 'demo', baseBranch: 'main' },
  localPath,
  instruction,
  category: 'feature',
  complexity: 'simple',
  elements: {},
  requester: { slackUserId: 'U1' },
  requestedAt: new Date().toISOString(),
});

describe('warm starts through runPipeline (scripted model, real git, pooled trees)', () => {
  let dir: TempDir;
  let repo: string;
  let gate: string;
  let counter: string;
  const runs = () => (existsSync(counter) ? readFileSync(counter, 'utf8').split('\n').filter(Boolean) : []);
  const deps = (anthropic: RunnerDeps['anthropic']): RunnerDeps => {
    // The test command waits for the gate, so a baseline can be held running for as long as a test needs.
    const test = `while [ ! -e ${gate} ]; do sleep 0.02; done; echo "$PWD" >> ${counter}; node --test`;
    writeFileSync(path.join(dir.path, 'wrench.config.yml'), `sandbox: { mode: none }\nverification:\n  local/demo: { test: '${test}' }\n`);
    const config = loadConfig({ WRENCH_DATA_DIR: path.join(dir.path, 'data') }, dir.path);
    return { config, logger: createLogger({ level: 'silent' }), redact: createRedactor([]), anthropic, github: null, secrets: [] };
  };
  const reporter = (phases: Array<{ phase: RunPhase; detail?: string }>): RunReporter => ({
    phase: async (phase, detail) => void phases.push({ phase, detail: detail && renderProgress(detail) }),
    finished: async () => undefined,
    failed: async () => undefined,
  });

  beforeEach(async () => {
    dir = await makeTempDir('wrench-warm-pipeline-');
    repo = makeRepo(path.join(dir.path, 'repo'), { ...ADD_PROJECT, 'package.json': JSON.stringify({ name: 'demo', private: true }) });
    gate = path.join(dir.path, 'gate');
    counter = path.join(dir.path, 'test-runs');
  });
  afterEach(async () => {
    await backgroundSettled();
    await dir.remove();
  });

  it('starts the agent while the baseline runs in its own base tree, and the verify stage waits for it', async () => {
    let gateOpenWhenAsked: boolean | undefined;
    const model = scriptedModel([
      () => {
        gateOpenWhenAsked = existsSync(gate);
        return toolUse('bash', { command: "printf 'exports.add = (a, b) => a + b;\\nexports.sub = (a, b) => a - b;\\n' > add.js" });
      },
      finish('Added sub.', 'node --test passes'),
    ]);
    const phases: Array<{ phase: RunPhase; detail?: string }> = [];
    const stages: StageEvent[] = [];
    const result = await runPipeline(
      changeProfile(),
      job(repo, 'Add a sub function to add.js'),
      {
        jobId: 'job-1',
        reporter: reporter(phases),
        signal: new AbortController().signal,
        onStage: (event) => {
          stages.push(event);
          // Only once the agent is done may the baseline finish.
          if (event.stage === 'agent' && event.status === 'finished') writeFileSync(gate, '');
        },
      },
      deps(model.client),
    );

    expect(gateOpenWhenAsked).toBe(false);
    expect(model.calls).toBe(2);
    expect(phases.map((p) => p.detail)).toContain('waiting for the tests on the base commit');
    expect(stages.some((e) => e.status === 'failed')).toBe(false);
    expect(result.verificationVerdict).toBe('unchanged');
    expect(result.verification).toContain('same as before: 1 passed, 0 failed');
    const [baseline, after, ...rest] = runs();
    expect(rest).toEqual([]);
    expect(baseline).toMatch(/-base$/);
    expect(after).toBe(path.join(dir.path, 'data', 'trees', readdirSync(path.join(dir.path, 'data', 'trees'))[0]!, '0'));
    expect(existsSync(baseline!)).toBe(false);
  });

  it('a second job on the same base commit reuses the tree and the baseline: the base tests ran once for two jobs', async () => {
    writeFileSync(gate, '');
    const first = scriptedModel([
      toolUse('bash', { command: "printf 'exports.add = (a, b) => b + a;\\n' > add.js && echo scratch > notes.txt" }),
      finish('Tidied.'),
    ]);
    const one = await runPipeline(
      changeProfile(),
      job(repo, 'Tidy add.js'),
      { jobId: 'job-1', reporter: reporter([]), signal: new AbortController().signal },
      deps(first.client),
    );
    expect(one.verificationVerdict).toBe('unchanged');
    expect(runs()).toHaveLength(2);

    let leftovers: string | undefined;
    const second = scriptedModel([
      toolUse('bash', { command: 'ls; git stash list; cat add.js' }),
      (params) => {
        const last = params.messages.at(-1)!.content as Array<{ type: string; content?: unknown }>;
        leftovers = JSON.stringify(last.find((block) => block.type === 'tool_result')?.content);
        return toolUse('bash', { command: "printf 'exports.add = (a, b) => a + b + 0;\\n' > add.js" });
      },
      finish('Tidied again.'),
    ]);
    const phases: Array<{ phase: RunPhase; detail?: string }> = [];
    const two = await runPipeline(
      changeProfile(),
      job(repo, 'Tidy add.js again'),
      { jobId: 'job-2', reporter: reporter(phases), signal: new AbortController().signal },
      deps(second.client),
    );
    expect(two.verificationVerdict).toBe('unchanged');
    expect(runs()).toHaveLength(3);
    expect(leftovers).not.toContain('notes.txt');
    expect(leftovers).toContain('a + b');
    expect(leftovers).not.toContain('b + a');
    // The job ended at its reply; its tree is back in the pool once the release after it is done.
    await backgroundSettled();
    const pool = path.join(dir.path, 'data', 'trees', readdirSync(path.join(dir.path, 'data', 'trees'))[0]!);
    expect(readdirSync(pool).sort()).toEqual(['0', '0.index', '0.json']);
    expect(runs()[2]).toBe(path.join(pool, '0'));
    expect(phases.map((p) => p.detail)).not.toContain('running the tests on the base commit');
  });

  it('a setup that fails only in the base tree is said, and the change is compared with nothing rather than with checks run without dependencies', async () => {
    writeFileSync(gate, '');
    const setup = 'case "$PWD" in *-base) echo "registry unreachable" >&2; exit 3;; esac';
    const model = scriptedModel([toolUse('bash', { command: "printf 'exports.add = (a, b) => b + a;\\n' > add.js" }), finish('Tidied.')]);
    const base = deps(model.client);
    const config = { ...base.config, file: { ...base.config.file, verification: { 'local/demo': { setup, test: 'node --test' } } } };
    const result = await runPipeline(
      changeProfile(),
      job(repo, 'Tidy add.js'),
      { jobId: 'job-1', reporter: reporter([]), signal: new AbortController().signal },
      { ...base, config },
    );
    expect(result.verification).toContain(`**Could not install dependencies on the base commit**: \`${setup}\` exited with code 3 there`);
    expect(result.verification).toContain('the base commit was not checked');
    expect(result.verification).not.toContain('same as before');
  });
});
