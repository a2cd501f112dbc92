/**
 * Warm starts (issue 15): the time from a job's start to its first model request, through the real runner path
 * (runPipeline with the change profile: mirror, working tree, dependency setup, baseline, agent), for the first job
 * on a repository and for later ones, beside the same preparation done by hand. Two generated repositories:
 *   (a) a Node repository with real npm dependencies (vitest, zod, date-fns; the npm registry must be reachable)
 *       and a vitest suite (no lock file: the setup step is `npm install`); by hand: git clone + npm install + vitest run;
 *   (b) 20,000 files in 20 commits, no dependencies; by hand: a plain git clone.
 * The model is the scripted Anthropic fake (test/fakes); GitHub is the GitHub fake, whose real bare repositories are
 * served over Git's smart HTTP protocol (git http-backend), so the clone by hand and the jobs fetch alike.
 * Each job changes one file, so verification, push and pull request run as in production (after the timed part).
 * Back to back: after those, `--back-to-back` more jobs (default 3), each submitted the instant the previous one's reply
 * is posted, while its tree is still being readied (a person answering a reply with the next task at once).
 * Usage: npm run bench:warm-start [-- --jobs 3] [--back-to-back 3] [--only a|b]      Prints figures; asserts nothing.
 */
import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import Anthropic from '@anthropic-ai/sdk';
import { backgroundSettled } from '../runners/background-work.js';
import { runPipeline, type StageEvent } from '../runners/pipeline/run-pipeline.js';
import { changeProfile } from '../runners/profiles/change-profile.js';
import type { RunnerDeps } from '../runners/runner-deps.js';
import { loadConfig } from '../src/config/load-config.js';
import { createOctokit } from '../src/github/create-octokit.js';
import { createLogger } from '../src/logging/logger.js';
import type { TaskJob } from '../src/queue/task-job.js';
import type { RunReporter } from '../src/reporting/run-result.js';
import { checkSandbox } from '../src/sandbox/check-sandbox.js';
import { createRedactor } from '../src/security/redact.js';
import { startAnthropicFake, toolUseResponse } from '../test/fakes/anthropic-fake.js';
import { startGitHubFake } from '../test/fakes/github-fake.js';
import { makeTempDir } from '../test/helpers/temp-dir.js';
import { nodeRepositoryFiles } from './bench-repositories.js';

const exec = promisify(execFile);
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const ratio = (a: number, b: number) => `${(a / b).toFixed(1)}×`;
const jobsArg = process.argv.indexOf('--jobs');
const JOBS = Math.max(2, jobsArg > 0 ? Number(process.argv[jobsArg + 1]) : 3);
const chainArg = process.argv.indexOf('--back-to-back');
const BACK_TO_BACK = Math.max(0, chainArg > 0 ? Number(process.argv[chainArg + 1]) : 3);
const onlyArg = process.argv.indexOf('--only');
const ONLY = onlyArg > 0 ? process.argv[onlyArg + 1] : undefined;
const TOKEN = 'ghp_benchbenchbenchbenchbenchbench1234';
const sh = (cwd: string, command: string, env: Record<string, string> = {}) =>
  exec('sh', ['-c', command], { cwd, env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024 });
const gitEnv = { GIT_AUTHOR_NAME: 'Bench', GIT_AUTHOR_EMAIL: 'bench@example.com', GIT_COMMITTER_NAME: 'Bench', GIT_COMMITTER_EMAIL: 'bench@example.com' };

const scratch = await makeTempDir('wrench-bench-warm-');
const anthropic = await startAnthropicFake([], { validate: false });
const github = await startGitHubFake({ root: path.join(scratch.path, 'github') });
const sandboxMode = (await checkSandbox()).ok ? 'bwrap' : 'none';
const quiet = createLogger({ level: process.env.BENCH_LOG ?? 'silent' });

/** Commits the tree in `work` as the history of `owner/repo` in the GitHub fake. */
async function publishRepo(owner: string, repo: string, work: string): Promise<void> {
  await github.createRepo(owner, repo, { 'README.md': 'placeholder\n' });
  await sh(work, `git push --quiet --force ${github.gitDir(owner, repo)} HEAD:refs/heads/main`, gitEnv);
}

async function nodeRepository(): Promise<string> {
  const work = path.join(scratch.path, 'gen-node');
  for (const [file, content] of Object.entries(nodeRepositoryFiles())) {
    await mkdir(path.dirname(path.join(work, file)), { recursive: true });
    await writeFile(path.join(work, file), content);
  }
  await sh(work, 'git init --quiet -b main && git add -A && git commit --quiet -m "Node repository with a vitest suite"', gitEnv);
  await publishRepo('bench', 'node-app', work);
  return work;
}

async function largeRepository(): Promise<string> {
  const work = path.join(scratch.path, 'gen-large');
  await mkdir(work, { recursive: true });
  await sh(work, 'git init --quiet -b main', gitEnv);
  const files = 20_000;
  const perCommit = files / 20;
  for (let c = 0; c < 20; c++) {
    for (let i = c * perCommit; i < (c + 1) * perCommit; i++) {
      const dir = path.join(work, `pkg${Math.floor(i / 500)}`, `mod${Math.floor(i / 50) % 10}`);
      await mkdir(dir, { recursive: true });
      await writeFile(
        path.join(dir, `file${i}.ts`),
        `// file ${i}\nexport const value${i} = ${i};\nexport function f${i}(x: number): number {\n  return x * ${i} + ${c};\n}\n`,
      );
    }
    await sh(work, `git add -A && git commit --quiet -m "Commit ${c + 1}: ${perCommit} files"`, gitEnv);
  }
  await publishRepo('bench', 'large', work);
  return work;
}

function depsFor(dataDir: string, configPath: string): RunnerDeps {
  const env = { WRENCH_DATA_DIR: dataDir, WRENCH_CONFIG: configPath, GIT_BASE_URL: github.gitBaseUrl, GITHUB_API_URL: github.url, GITHUB_TOKEN: TOKEN };
  const config = loadConfig(env, scratch.path);
  return {
    config,
    logger: quiet,
    redact: createRedactor([TOKEN]),
    anthropic: new Anthropic({ apiKey: 'sk-bench', baseURL: anthropic.url, maxRetries: 0 }),
    github: createOctokit({ token: TOKEN, baseUrl: github.url, logger: quiet }),
    gitCredential: async () => TOKEN,
    secrets: [TOKEN],
  };
}

const silentReporter: RunReporter = { phase: async () => undefined, finished: async () => undefined, failed: async () => undefined };

/** One job through runPipeline; the milliseconds from its start to the fake's first model request. */
async function timedJob(
  deps: RunnerDeps,
  owner: string,
  name: string,
  n: number,
  onReplied?: () => void,
): Promise<{ ms: number; checks: string; stages: string }> {
  anthropic.setScript([
    toolUseResponse([{ name: 'bash', input: { command: `echo "job ${n}" > WARM_START_${n}.md` } }]),
    toolUseResponse([{ name: 'finish_task', input: { summary: `Job ${n}.`, verification: 'none', filesChanged: [`WARM_START_${n}.md`], openQuestions: [] } }]),
  ]);
  const before = anthropic.requests.length;
  const gitBefore = github.requests.length;
  const job: TaskJob = {
    kind: 'task',
    origin: { type: 'cli' },
    repo: { owner, name, baseBranch: 'main' },
    instruction: `Add WARM_START_${n}.md saying which job wrote it`,
    category: 'feature',
    complexity: 'simple',
    elements: {},
    requester: { slackUserId: 'U0BENCH' },
    requestedAt: new Date().toISOString(),
  };
  // Where the time goes before the model: the workspace, the setup (dependencies, the baseline started), the before stage.
  const marks: string[] = [];
  const stageStart = new Map<string, number>();
  let agentStart = 0;
  let reported = 0;
  const onStage = (event: StageEvent) => {
    if (event.stage === 'report' && event.status === 'finished') {
      reported = event.at;
      onReplied?.();
    }
    if (event.status === 'started') stageStart.set(event.stage, event.at);
    if (event.status === 'started' && event.stage === 'agent' && !agentStart) agentStart = event.at;
    if (event.status !== 'finished' || agentStart) return;
    const label = event.stage === 'prepare' ? (marks.length === 0 ? 'workspace' : 'setup') : event.stage;
    marks.push(`${label} ${seconds(event.at - (stageStart.get(event.stage) ?? event.at))}`);
  };
  const started = Date.now();
  const result = await runPipeline(
    changeProfile(),
    job,
    { jobId: `bench-${name}-${n}`, reporter: silentReporter, signal: new AbortController().signal, onStage },
    deps,
  );
  // The job ends at its reply; its tree is readied for the next job after it.
  await backgroundSettled();
  const returned = Date.now();
  const first = anthropic.requests[before];
  if (!first) throw new Error(`job ${n} on ${owner}/${name} never asked the model (${result.status}: ${result.answer ?? result.stopReason ?? ''})`);
  if (!result.pullRequest)
    throw new Error(`job ${n} on ${owner}/${name} opened no pull request (${result.status}: ${result.stopReason ?? result.answer ?? ''})`);
  const checks = result.verification?.split('\n').find((line) => line.includes('→')) ?? result.verification?.split('\n')[0] ?? 'no checks';
  marks.push(`agent → first request ${seconds(first.at - agentStart)}`);
  // What the job asked GitHub's git endpoint before the model, and whether git or Wrench itself (in process) asked it.
  const asked = github.requests
    .slice(gitBefore)
    .filter((r) => r.path.includes('.git/') && r.at >= started && r.at <= first.at)
    .map(
      (r) =>
        `${(r.body as { command?: string }).command ?? r.path.split('.git/')[1]}${r.headers['user-agent']?.includes('wrench') ? ' in process' : ' by git'}`,
    );
  marks.push(`GitHub asked: ${asked.join(', ') || 'nothing'}`);
  marks.push(`reply → tree readied ${seconds(returned - reported)}`);
  return { ms: first.at - started, checks: checks.replace(/^- /, ''), stages: marks.join(', ') };
}

/** The same work by hand, `times` times (the median), each into a new directory with a fresh HOME. */
async function byHand(label: string, command: (dir: string) => string, times = 1): Promise<number> {
  const took: number[] = [];
  for (let i = 0; i < times; i++) {
    const dir = path.join(scratch.path, `by-hand-${label}-${i}`);
    const home = path.join(scratch.path, `by-hand-home-${label}-${i}`);
    await mkdir(home, { recursive: true });
    const started = Date.now();
    // A fresh HOME, as a job's setup step has: npm's download cache starts empty.
    await sh(scratch.path, command(dir), { HOME: home, npm_config_cache: path.join(home, '.npm') });
    took.push(Date.now() - started);
  }
  if (times > 1) console.log(`  by hand (${label}): ${took.map(seconds).join(', ')}; median ${seconds(median(took))}`);
  return median(took);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

interface Row {
  repository: string;
  first: number;
  later: number[];
  /** Jobs submitted the instant the previous job's reply was posted (its tree still being readied). */
  backToBack: number[];
  hand: number;
  handLabel: string;
}

/**
 * `count` jobs, each submitted the instant the previous one's reply is posted (while its tree is being readied), as a
 * person answering a reply with the next task at once; each timed from its submission to its first model request.
 */
async function backToBack(deps: RunnerDeps, owner: string, name: string, repository: string, first: number, count: number): Promise<number[]> {
  const times: number[] = [];
  const run = async (n: number): Promise<void> => {
    let next: Promise<void> | undefined;
    const { ms, stages } = await timedJob(deps, owner, name, n, () => {
      if (n < first + count - 1) next = run(n + 1);
    });
    times.push(ms);
    console.log(`  ${repository}: back-to-back job ${n} reached the model after ${seconds(ms)} (${stages})`);
    await next;
  };
  await run(first);
  return times;
}

async function scenario(
  repository: string,
  owner: string,
  name: string,
  hand: () => Promise<number>,
  handLabel: string,
  cache: string,
  backToBackJobs = BACK_TO_BACK,
): Promise<Row> {
  const dataDir = path.join(scratch.path, `data-${name}`);
  const configPath = path.join(scratch.path, `wrench-${name}.yml`);
  await writeFile(configPath, `sandbox: { mode: ${sandboxMode}, network: setup-only }\n${cache}`);
  const deps = depsFor(dataDir, configPath);
  const times: number[] = [];
  // The back-to-back chain starts the instant the last patient job's reply is posted.
  let chain: Promise<number[]> | undefined;
  for (let n = 1; n <= JOBS; n++) {
    const startChain = n === JOBS && backToBackJobs > 0 ? () => (chain = backToBack(deps, owner, name, repository, JOBS + 1, backToBackJobs)) : undefined;
    const { ms, checks, stages } = await timedJob(deps, owner, name, n, startChain);
    times.push(ms);
    console.log(`  ${repository}: job ${n} reached the model after ${seconds(ms)} (${stages}); Wrench's checks: ${checks}`);
  }
  const chained = (await chain) ?? [];
  return { repository, first: times[0]!, later: times.slice(1), backToBack: chained, hand: await hand(), handLabel };
}

try {
  console.log(
    `warm-start bench: ${JOBS} jobs per repository, sandbox ${sandboxMode}, git ${(await exec('git', ['--version'])).stdout.trim()}, node ${process.version}`,
  );
  if (ONLY !== 'b') await nodeRepository();
  if (ONLY !== 'a') await largeRepository();
  const nodeUrl = github.cloneUrl('bench', 'node-app');
  const largeUrl = github.cloneUrl('bench', 'large');
  const rows: Row[] = [];
  if (ONLY !== 'b')
    rows.push(
      await scenario(
        '(a) Node + vitest, zod, date-fns',
        'bench',
        'node-app',
        () =>
          byHand(
            'node',
            (dir) => `git clone --quiet ${nodeUrl} ${dir} && cd ${dir} && npm install --no-audit --no-fund --loglevel=error && npx vitest run >/dev/null`,
          ),
        'git clone + npm install + vitest run',
        '',
      ),
    );
  if (ONLY !== 'a')
    rows.push(
      await scenario(
        '(b) 20,000 files, 20 commits',
        'bench',
        'large',
        () => byHand('large', (dir) => `git clone --quiet ${largeUrl} ${dir}`, 5),
        'plain git clone, median of 5',
        '',
      ),
    );
  if (ONLY === undefined)
    rows.push(
      await scenario(
        '(a) with every cache off',
        'bench',
        'node-app',
        () => Promise.resolve(NaN),
        '',
        'cache: { baseline: false, dependencies: false, trees: false }\n',
        0,
      ),
    );

  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
  const list = (values: number[]) => (values.length ? values.map(seconds).join(', ') : '–');
  const versus = (hand: number, values: number[]) => (Number.isNaN(hand) || values.length === 0 ? '–' : `${ratio(hand, mean(values))}`);
  console.log('\njob submitted → first model request (runPipeline, change profile)\n');
  console.log('| repository | first job | later jobs (patient) | back to back | by hand | patient vs by hand | back to back vs by hand |');
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  for (const row of rows) {
    const hand = Number.isNaN(row.hand) ? '–' : `${seconds(row.hand)} (${row.handLabel})`;
    console.log(
      `| ${row.repository} | ${seconds(row.first)} | ${list(row.later)} | ${list(row.backToBack)} | ${hand} | ${versus(row.hand, row.later)} | ${versus(row.hand, row.backToBack)} |`,
    );
  }
  const a = rows.find((row) => row.repository.startsWith('(a) Node'));
  const b = rows.find((row) => row.repository.startsWith('(b)'));
  const goal = (label: string, hand: number, values: number[], target: number) =>
    values.length &&
    console.log(`goal ${label} ≥ ${target}× faster than by hand: ${ratio(hand, mean(values))} → ${hand / mean(values) >= target ? 'met' : 'NOT met'}`);
  console.log('');
  if (a) {
    goal('(a) later job (patient)', a.hand, a.later, 10);
    goal('(a) back to back', a.hand, a.backToBack, 10);
    console.log(`(a) later job vs the first: ${ratio(a.first, mean(a.later))}`);
  }
  if (b) {
    goal('(b) later job (patient)', b.hand, b.later, 5);
    goal('(b) back to back', b.hand, b.backToBack, 5);
  }
} finally {
  await anthropic.stop();
  await github.stop();
  await exec('chmod', ['-R', 'u+w', scratch.path]).catch(() => undefined);
  await scratch.remove();
}
