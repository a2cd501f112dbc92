import { renderProgress } from '../../../src/reporting/progress.js';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { WebClient } from '@slack/web-api';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backgroundSettled } from '../../../runners/background-work.js';
import { runPipeline, type StageEvent } from '../../../runners/pipeline/run-pipeline.js';
import { revertProfile } from '../../../runners/profiles/revert-profile.js';
import { runRevert } from '../../../runners/revert-runner.js';
import { pollFor } from '../../fakes/shared/wait-for.js';
import type { TriageDeps } from '../../../runners/triage-deps.js';
import { loadConfig } from '../../../src/config/load-config.js';
import { createOctokit } from '../../../src/github/create-octokit.js';
import { createLogger } from '../../../src/logging/logger.js';
import { IncidentThreadStore } from '../../../src/pagerduty/incident-thread-store.js';
import { createQueues } from '../../../src/queue/queues.js';
import type { RunReporter } from '../../../src/reporting/run-result.js';
import { createRedactor } from '../../../src/security/redact.js';
import { fastOutbox } from '../../helpers/fast-outbox.js';
import { TriageRecordStore, type TriageRecord } from '../../../src/triage/triage-record.js';
import { normalizeTriageReport } from '../../../src/triage/triage-report.js';
import { startGitHubFake, type GitHubFake } from '../../fakes/github-fake.js';
import { startSlackFake, type SlackFake } from '../../fakes/slack-fake.js';
import { startRedisServer, type RedisServer } from '../../helpers/redis-server.js';
import { scriptedModel } from '../../helpers/scripted-model.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';
import { uniqueName } from '../../helpers/unique-name.js';

/** The revert profile run directly by `runPipeline`: no agent, real git, the GitHub fake, real Redis; no child process. */
describe('runPipeline with the revert profile', () => {
  let dir: TempDir;
  let redisServer: RedisServer;
  let redis: Redis;
  let slack: SlackFake;
  let github: GitHubFake;
  let deps: TriageDeps;
  let suspect: string;
  let docs: string;

  beforeAll(async () => {
    [dir, redisServer, slack, github] = await Promise.all([makeTempDir('wrench-revert-profile-'), startRedisServer(), startSlackFake(), startGitHubFake()]);
    redis = new Redis(redisServer.url, { maxRetriesPerRequest: null });
    await github.createRepo('acme', 'checkout', {
      'src/cart.js': 'export const total = (items) => items.length;\n',
      'README.md': '# checkout\n',
      'check.mjs':
        "import { total } from './src/cart.js';\nif (total([1, 2]) !== 2) { console.error('total is wrong'); process.exit(1); }\nconsole.log('1 passed');\n",
    });
    docs = await github.commit('acme', 'checkout', 'main', { message: 'Docs: describe payments', files: { 'README.md': '# checkout\n\nPays for carts.\n' } });
    suspect = await github.commit('acme', 'checkout', 'main', { message: 'Refactor totals', files: { 'src/cart.js': 'export const total = () => 0;\n' } });
    await github.commit('acme', 'checkout', 'main', { message: 'Docs: rewrite', files: { 'README.md': '# checkout\n\nTakes payments.\n' } });
    mkdirSync(path.join(dir.path, 'data'), { recursive: true });
    const configPath = path.join(dir.path, 'wrench.config.yml');
    writeFileSync(configPath, 'sandbox: { mode: none }\nverification:\n  acme/checkout: { test: node check.mjs }\n');
    const prefix = uniqueName('revert-profile');
    const config = loadConfig(
      {
        WRENCH_CONFIG: configPath,
        WRENCH_DATA_DIR: path.join(dir.path, 'data'),
        WRENCH_QUEUE_PREFIX: prefix,
        GIT_BASE_URL: github.gitBaseUrl,
        SLACK_API_URL: slack.apiUrl,
      },
      dir.path,
    );
    const logger = createLogger({ level: 'silent' });
    const redact = createRedactor([]);
    const outbox = fastOutbox(redis, prefix, slack.apiUrl, redact, logger);
    deps = {
      config,
      logger,
      redact,
      anthropic: scriptedModel([]).client,
      github: createOctokit({ token: 'ghp_test', baseUrl: github.url, logger }),
      gitCredential: async () => 'ghp_test',
      secrets: [],
      slack: new WebClient('xoxb-test', { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } }),
      pagerduty: null,
      redis,
      queues: createQueues(redis, prefix),
      prefix,
      threads: new IncidentThreadStore(redis, prefix),
      records: new TriageRecordStore(redis, prefix),
      outbox,
    };
    outbox.start();
  });
  afterAll(async () => {
    await backgroundSettled();
    await deps?.outbox.stop();
    await deps?.queues.close();
    redis?.disconnect();
    await Promise.all([redisServer?.stop(), slack?.stop(), github?.stop()]);
    await dir?.remove();
  });

  const record = (language?: string): TriageRecord => ({
    language,
    triageId: uniqueName('triage'),
    repo: { owner: 'acme', name: 'checkout' },
    baseBranch: 'main',
    channel: 'C0INC',
    threadTs: '1700000400.000100',
    description: 'totals are zero',
    report: normalizeTriageReport({
      whatIsGoingOn: 'Totals are zero.',
      verdict: 'Totals broke in the refactor',
      likelyCause: null,
      suspectCommits: [{ sha: suspect.slice(0, 7), reason: 'rewrites total()', confidence: 'high' }],
      ruledOut: [],
      nextSteps: [],
    }),
    suspects: [{ sha: suspect, resolved: true, reason: 'rewrites total()', confidence: 'high' }],
    links: {},
    reportTs: [],
    createdAt: new Date().toISOString(),
  });
  const revert = async (sha: string, language?: string) => {
    const stages: StageEvent[] = [];
    const told: string[] = [];
    const progress: string[] = [];
    const reporter: RunReporter = {
      phase: async (_p, detail) => void progress.push(detail ? renderProgress(detail) : ''),
      finished: async () => {},
      failed: async () => {},
    };
    const job = { kind: 'revert' as const, triageId: 'triage-1', sha, requester: 'U0LEAD', requestedAt: new Date().toISOString() };
    const context = { jobId: uniqueName('revert'), reporter, signal: new AbortController().signal, onStage: (e: StageEvent) => stages.push(e) };
    const profile = revertProfile(deps, async (text) => void told.push(text));
    const outcome = await runPipeline(profile, { job, record: record(language) }, context, deps);
    return { outcome, stages: stages.filter((e) => e.status === 'started').map((e) => e.stage), told, progress };
  };

  it('reverts the suspect on a new branch without an agent, pushes it and opens a draft PR; a second press points at that PR', async () => {
    const first = await revert(suspect);
    // The revert goes through the change's stages: the baseline (prepare), the verify stage, the publish stage.
    expect(first.stages).toEqual(['gather', 'prepare', 'prepare', 'before', 'verify', 'publish', 'report']);
    expect(first.outcome).toMatchObject({ status: 'pr_opened', pullRequest: { number: 1 } });
    expect(first.told).toEqual([expect.stringMatching(/^:rewind: Opened draft PR #1 reverting `[0-9a-f]{7}`/)]);
    expect(first.progress).toContain('running the tests after the revert');
    const [pull] = github.pulls('acme', 'checkout');
    expect(pull).toMatchObject({ draft: true, headRef: `wrench/revert-${suspect.slice(0, 7)}`, baseRef: 'main' });
    expect(pull!.body).toContain('rewrites total()');
    // What was measured is the ChangeVerifier's: the repository's check failing on the base commit, passing after the revert.
    expect(first.told[0]).toContain('Checks run by Wrench on the base commit and after the change: **improved**.');
    expect(pull!.body).toContain('`node check.mjs`: before failed (exit code 1) → after 1 passed, 0 failed.');
    const git = (...args: string[]) => execFileSync('git', ['--git-dir', github.gitDir('acme', 'checkout'), ...args], { encoding: 'utf8' });
    const head = `refs/heads/${pull!.headRef}`;
    expect(git('diff', `${head}~1`, head)).toBe(git('diff', suspect, `${suspect}~1`));
    expect(git('show', `${head}:README.md`)).toContain('Takes payments.');

    const again = await revert(suspect);
    expect(again.stages).toEqual(['gather', 'report']);
    expect(again.outcome).toMatchObject({ status: 'already_reverting', pullRequest: { number: 1 } });
    expect(again.told[0]).toContain('already being reverted in PR #1');
    expect(github.pulls('acme', 'checkout')).toHaveLength(1);
  });

  it('ends a conflicting revert in its before stage and pushes nothing', async () => {
    const { outcome, stages, told } = await revert(docs);
    expect(stages).toEqual(['gather', 'prepare', 'prepare', 'before', 'report']);
    expect(outcome.status).toBe('conflict');
    expect(told[0]).toContain('README.md');
    expect(told[0]).toContain('Nothing was pushed.');
    expect(await github.branchSha('acme', 'checkout', `wrench/revert-${docs.slice(0, 7)}`)).toBeUndefined();
  });

  it('a revert pressed on a triage asked for in German answers in German: a conflict and a revert already open', async () => {
    const conflict = await revert(docs, 'de');
    expect(conflict.outcome.status).toBe('conflict');
    expect(conflict.told).toEqual([
      `:warning: Ich konnte \`${docs.slice(0, 7)}\` nicht sauber reverten: Der Revert von ${docs.slice(0, 12)} kollidiert mit späteren Änderungen in README.md; reverte ihn von Hand oder bitte Wrench, genau diese Änderungen rückgängig zu machen. Nichts wurde gepusht.`,
    ]);
    const again = await revert(suspect, 'fr');
    expect(again.outcome.status).toBe('already_reverting');
    expect(again.told[0]).toMatch(/^:information_source: `[0-9a-f]{7}` est déjà en cours d’annulation dans la PR #1 : \S+\. Rien de nouveau n’a été poussé\.$/);
  });

  it("a revert of a German triage that fails says so in German, from its status line's start to the push git refused", async () => {
    const later = await github.commit('acme', 'checkout', 'main', { message: 'Add a note', files: { 'NOTE.md': 'note\n' } });
    const triage = {
      ...record('de'),
      threadTs: '1700000500.000100',
      suspects: [{ sha: later, resolved: true, reason: 'adds a note', confidence: 'low' as const }],
    };
    await deps.records.save(triage);
    const hook = path.join(github.gitDir('acme', 'checkout'), 'hooks', 'pre-receive');
    writeFileSync(hook, '#!/bin/sh\nexit 1\n');
    chmodSync(hook, 0o755);
    try {
      const job = { kind: 'revert' as const, triageId: triage.triageId, sha: later, requester: 'U0LEAD', requestedAt: new Date().toISOString() };
      await expect(runRevert(job, { jobId: uniqueName('revert'), signal: new AbortController().signal }, deps)).rejects.toMatchObject({ code: 'push_failed' });
    } finally {
      rmSync(hook);
    }
    const short = later.slice(0, 7);
    const said = () => slack.messages('C0INC', triage.threadTs).map((m) => m.text);
    const failed = await pollFor(
      () => said().find((t) => t.startsWith(':x:')),
      10_000,
      () => JSON.stringify(said()),
    );
    expect(failed).toMatch(
      new RegExp(
        `^:x: Der Revert von \`${short}\` ist fehlgeschlagen: Ich konnte den Branch "wrench/revert-${short}" nicht pushen: .*pre-receive hook declined.*; prüfe, ob der GitHub-Zugang in dieses Repository pushen darf\\.$`,
      ),
    );
    // Every status line on the way said it in German too.
    const updates = slack.calls
      .filter((c) => /^chat\.(postMessage|update)$/.test(c.method) && String(c.args.text).includes(short))
      .map((c) => String(c.args.text));
    expect(updates[0]).toBe(`:rewind: Revert von \`${short}\` auf \`main\` auf Wunsch von <@U0LEAD>: Branch wird vorbereitet`);
    expect(updates.join('\n')).not.toMatch(/Reverting|failed/);
  });
});
