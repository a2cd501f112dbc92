import { execFileSync } from 'node:child_process';
import { SlackNameDirectory } from '../../../src/slack/slack-name-directory.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { WebClient } from '@slack/web-api';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHandlerDeps } from '../../../handlers/handler-deps.js';
import { handleDismissAction, handleOpenFixAction } from '../../../handlers/triage-actions.js';
import { backgroundSettled } from '../../../runners/background-work.js';
import { runPipeline, type StageEvent } from '../../../runners/pipeline/run-pipeline.js';
import { triageProfile } from '../../../runners/profiles/triage-profile.js';
import type { TriageDeps } from '../../../runners/triage-deps.js';
import { loadConfig } from '../../../src/config/load-config.js';
import { createLogger } from '../../../src/logging/logger.js';
import { IncidentThreadStore } from '../../../src/pagerduty/incident-thread-store.js';
import { createQueues } from '../../../src/queue/queues.js';
import type { TriageRunJob } from '../../../src/queue/triage-job.js';
import { createRedactor } from '../../../src/security/redact.js';
import { ThreadSessionStore } from '../../../src/sessions/thread-session-store.js';
import { slackTriageReporterFactory } from '../../../src/slack/slack-reporter-factory.js';
import { fastOutbox } from '../../helpers/fast-outbox.js';
import { encodeTriageValue } from '../../../src/slack/triage-action-ids.js';
import { TriageRecordStore } from '../../../src/triage/triage-record.js';
import { pollFor } from '../../fakes/shared/wait-for.js';
import { startSlackFake, type SlackFake } from '../../fakes/slack-fake.js';
import { startRedisServer, type RedisServer } from '../../helpers/redis-server.js';
import { scriptedModel, toolUse } from '../../helpers/scripted-model.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';
import { uniqueName } from '../../helpers/unique-name.js';

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();

/** A bare remote acme/checkout under `root` (GIT_BASE_URL=file://root) whose last commit breaks empty carts. */
function remoteRepo(root: string): string {
  const work = path.join(root, 'work');
  mkdirSync(path.join(work, 'src'), { recursive: true });
  git(work, 'init', '-q', '-b', 'main');
  const commit = (message: string) => git(work, '-c', 'user.name=Dev', '-c', 'user.email=dev@acme.test', 'commit', '-qam', message);
  writeFileSync(path.join(work, 'src/cart.js'), 'export const cartTotal = (items) => items.reduce((sum, i) => sum + i.price, 0);\n');
  // The repository's instructions for agents: the root's, and src/'s own.
  writeFileSync(path.join(work, 'AGENTS.md'), '# Checkout\n\nLogs are in UTC; the payment provider is Stripe.\n');
  writeFileSync(path.join(work, 'src/AGENTS.md'), 'Money is in integer cents in src/.\n');
  git(work, 'add', '.');
  commit('Initial commit');
  writeFileSync(
    path.join(work, 'src/cart.js'),
    'export const cartTotal = (items) => (items.length ? items.reduce((sum, i) => sum + i.price, 0) : undefined);\n',
  );
  commit('Refactor cart totals');
  const suspect = git(work, 'rev-parse', 'HEAD');
  mkdirSync(path.join(root, 'remote', 'acme'), { recursive: true });
  git(root, 'clone', '-q', '--bare', work, path.join(root, 'remote', 'acme', 'checkout.git'));
  return suspect;
}

const triageFinish = (suspect: string) =>
  toolUse('finish_task', {
    whatIsGoingOn: 'Checkout answers 500 for empty carts.',
    verdict: `Empty carts return undefined since ${suspect.slice(0, 7)}`,
    likelyCause: {
      summary: 'cartTotal() returns undefined for empty carts.',
      confidence: 'high',
      evidence: [{ claim: 'empty carts return undefined', kind: 'file', ref: 'src/cart.js:1' }],
    },
    suspectCommits: [{ sha: suspect.slice(0, 7), reason: 'changes cartTotal', confidence: 'high' }],
    ruledOut: [],
    nextSteps: ['Revert the suspect commit'],
  });

/** The triage profile run directly by `runPipeline`: scripted model, real git, real Redis, the Slack fake; no child process. */
describe('runPipeline with the triage profile', () => {
  let dir: TempDir;
  let redisServer: RedisServer;
  let redis: Redis;
  let slack: SlackFake;
  let suspect: string;
  let deps: TriageDeps;
  const channel = 'C0INC';

  beforeAll(async () => {
    [dir, redisServer, slack] = await Promise.all([makeTempDir('wrench-triage-profile-'), startRedisServer(), startSlackFake()]);
    redis = new Redis(redisServer.url, { maxRetriesPerRequest: null });
    suspect = remoteRepo(dir.path);
    const configPath = path.join(dir.path, 'wrench.config.yml');
    writeFileSync(configPath, `channels:\n  ${channel}: { repo: acme/checkout, baseBranch: main }\naccess:\n  approvers: [U0LEAD]\nsandbox: { mode: none }\n`);
    const prefix = uniqueName('triage-profile');
    const config = loadConfig(
      {
        WRENCH_CONFIG: configPath,
        WRENCH_DATA_DIR: path.join(dir.path, 'data'),
        WRENCH_QUEUE_PREFIX: prefix,
        GIT_BASE_URL: `file://${path.join(dir.path, 'remote')}`,
        SLACK_API_URL: slack.apiUrl,
      },
      dir.path,
    );
    const logger = createLogger({ level: 'silent' });
    const redact = createRedactor([]);
    const outbox = fastOutbox(redis, prefix, slack.apiUrl, redact, logger);
    outbox.start();
    deps = {
      config,
      logger,
      redact,
      anthropic: scriptedModel([]).client,
      github: null,
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
  });
  afterEach(() => slack.recover());
  afterAll(async () => {
    // Each run's tree is readied for the next job after its report (fetching the mirror): done before the files go.
    await backgroundSettled();
    await deps?.outbox.stop();
    await deps?.queues.close();
    redis?.disconnect();
    await Promise.all([redisServer?.stop(), slack?.stop()]);
    await dir?.remove();
  });

  const manualJob = (threadTs: string): TriageRunJob => ({
    kind: 'triage',
    triageId: uniqueName('triage'),
    source: { type: 'manual', description: 'checkout returns 500 on POST /pay', messageTs: threadTs },
    repo: { owner: 'acme', name: 'checkout', baseBranch: 'main' },
    channel,
    threadTs,
    requester: 'U0LEAD',
    requestedAt: new Date().toISOString(),
  });
  const run = async (job: TriageRunJob, stages: StageEvent[] = []) => {
    const model = scriptedModel([toolUse('bash', { command: 'git log --oneline -3' }), triageFinish(suspect)]);
    const reporter = await slackTriageReporterFactory(deps.outbox, undefined, deps.logger)(job, job.triageId);
    const context = { jobId: job.triageId, reporter, signal: new AbortController().signal, onStage: (e: StageEvent) => stages.push(e) };
    return runPipeline(triageProfile({ ...deps, anthropic: model.client }), job, context, { ...deps, anthropic: model.client });
  };

  it('runs its stages in order, posts the report through the outbox and ends the status line with the verdict', async () => {
    const threadTs = '1700000200.000100';
    const stages: StageEvent[] = [];
    const outcome = await run(manualJob(threadTs), stages);

    expect(stages.filter((e) => e.status === 'started').map((e) => e.stage)).toEqual(['gather', 'prepare', 'before', 'agent', 'after', 'publish', 'report']);
    expect(stages.some((e) => e.status === 'failed')).toBe(false);
    expect(outcome.record.suspects).toMatchObject([{ sha: suspect, resolved: true }]);
    expect(outcome.record.reportKeys).toHaveLength(1);
    expect(await deps.records.get(outcome.record.triageId)).toMatchObject({ reportKeys: outcome.record.reportKeys });
    const thread = () => slack.messages(channel, threadTs).map((m) => m.text);
    await pollFor(
      () => (thread().some((t) => t.startsWith(':white_check_mark: Triage finished')) ? true : undefined),
      10_000,
      () => JSON.stringify(thread()),
    );
    // The status line was posted first and edited in place; the report came after it.
    expect(thread()[0]).toMatch(/^:white_check_mark: Triage finished in .*: Empty carts return undefined since/);
    expect(thread()[1]).toContain('Triage of acme/checkout');
  });

  it("gives the agent the repository's instructions: the root AGENTS.md in its task, src/AGENTS.md with the first call that reads under src/", async () => {
    const job = manualJob('1700000250.000100');
    const model = scriptedModel([toolUse('bash', { command: 'cat src/cart.js' }), triageFinish(suspect)]);
    const reporter = await slackTriageReporterFactory(deps.outbox, undefined, deps.logger)(job, job.triageId);
    const context = { jobId: job.triageId, reporter, signal: new AbortController().signal };
    await runPipeline(triageProfile({ ...deps, anthropic: model.client }), job, context, { ...deps, anthropic: model.client });
    const text = (request: (typeof model.requests)[number] | undefined, at: number) => JSON.stringify(request?.messages.at(at)?.content);
    expect(text(model.requests[0], 0)).toContain(
      '<untrusted source=\\"repository-instructions\\" path=\\"AGENTS.md\\" applies-to=\\"/\\">\\n# Checkout\\n\\nLogs are in UTC',
    );
    // Named there, given later (the diff of the window's commits shows its text too, as a change, not as instructions).
    expect(text(model.requests[0], 0)).toContain('src/AGENTS.md. Each is given to you the first time you work under its directory.');
    expect(text(model.requests[0], 0)).not.toContain('path=\\"src/AGENTS.md\\"');
    expect(text(model.requests[1], -1)).toContain('path=\\"src/AGENTS.md\\" applies-to=\\"src/\\">\\nMoney is in integer cents in src/.');
  });

  it('a report Slack refused at first is delivered later, and Dismiss then edits that very message', async () => {
    const threadTs = '1700000300.000100';
    slack.startOutage({ status: 500 }, { methods: ['chat.postMessage', 'chat.update'] });
    const { record } = await run(manualJob(threadTs));
    expect(slack.messages(channel, threadTs)).toHaveLength(0);
    slack.recover();
    const reportTs = await pollFor(
      () => slack.messages(channel, threadTs).find((m) => JSON.stringify(m.blocks ?? []).includes('wrench_triage_dismiss'))?.ts,
      15_000,
      () => 'the report did not reach the thread after Slack recovered',
    );

    const outcome = await handleDismissAction(
      { client: deps.slack, user: 'U0LEAD', channel, value: encodeTriageValue({ triageId: record.triageId }) },
      createHandlerDeps({
        config: deps.config,
        queues: deps.queues,
        redis,
        sessions: new ThreadSessionStore(redis, deps.prefix),
        redact: deps.redact,
        logger: deps.logger,
        outbox: deps.outbox,
        names: new SlackNameDirectory(deps.slack),
      }),
    );
    expect(outcome).toBe('dismissed');
    const edit = await slack.waitFor(
      (c) => c.method === 'chat.update' && c.args.ts === reportTs && JSON.stringify(c.args.blocks).includes('Dismissed by'),
      10_000,
    );
    expect(edit.status).toBe(200);
    expect(JSON.stringify(edit.args.blocks)).not.toContain('wrench_triage_revert');
  });

  it('a triage a person asked for in German speaks German: its status line, report, dismissal and the fix run it starts', async () => {
    const threadTs = '1700000400.000100';
    const { record } = await run({ ...manualJob(threadTs), language: 'de' });
    expect(record.language).toBe('de');
    const thread = () => slack.messages(channel, threadTs).map((m) => m.text);
    await pollFor(
      () => (thread().some((t) => t.startsWith(':white_check_mark: Triage nach')) ? true : undefined),
      10_000,
      () => JSON.stringify(thread()),
    );
    expect(thread()[0]).toMatch(/^:white_check_mark: Triage nach \S+ abgeschlossen: Empty carts return undefined since/);
    expect(thread()[1]).toMatch(/^Triage von acme\/checkout: Empty carts return undefined since /);
    const report = slack.messages(channel, threadTs)[1];
    expect(JSON.stringify(report?.blocks)).toContain('*Wahrscheinliche Ursache* (Lesart des Agenten, Sicherheit: *hoch*)');
    expect(JSON.stringify(report?.blocks)).toContain('"text":"Fix-PR öffnen"');

    const handlerDeps = createHandlerDeps({
      config: deps.config,
      queues: deps.queues,
      redis,
      sessions: new ThreadSessionStore(redis, deps.prefix),
      redact: deps.redact,
      logger: deps.logger,
      outbox: deps.outbox,
      names: new SlackNameDirectory(deps.slack),
    });
    const value = encodeTriageValue({ triageId: record.triageId });
    expect(await handleOpenFixAction({ client: deps.slack, user: 'U0LEAD', channel, value }, handlerDeps)).toBe('queued');
    expect((await handlerDeps.sessions.get(channel, threadTs))?.language).toBe('de');
    await slack.waitFor(
      (c) => c.method === 'chat.postMessage' && c.args.thread_ts === threadTs && /^Aufgabe \(Fehlerbehebung\) in acme\/checkout/.test(String(c.args.text)),
      10_000,
    );
    // Only the presser sees these, in the triage's language too: a second fix, and someone who may not press.
    expect(await handleOpenFixAction({ client: deps.slack, user: 'U0LEAD', channel, value }, handlerDeps)).toBe('already');
    expect(slack.ephemerals.find((e) => e.user === 'U0LEAD')?.text).toBe('Aus dieser Triage wurde schon ein Fix-Lauf gestartet; verfolge ihn im Thread.');
    expect(await handleDismissAction({ client: deps.slack, user: 'U0BOB', channel, value }, handlerDeps)).toBe('not_allowed');
    expect(slack.ephemerals.find((e) => e.user === 'U0BOB')?.text).toBe(
      'Nur Personen mit Freigaberecht können „Verwerfen“ bei einer Triage verwenden. Frag jemanden, der in wrench.config.yml unter `access.approvers` steht.',
    );
    expect(await handleDismissAction({ client: deps.slack, user: 'U0LEAD', channel, value }, handlerDeps)).toBe('dismissed');
    await slack.waitFor((c) => c.method === 'chat.update' && JSON.stringify(c.args.blocks).includes('Von <@U0LEAD> verworfen'), 10_000);
  });
});
