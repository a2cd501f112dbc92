import Anthropic from '@anthropic-ai/sdk';
import { WebClient } from '@slack/web-api';
import type { RedisClient } from '../../src/redis/redis-connection.js';
import { handleHealth, handleLive } from '../../handlers/health.js';
import { handlePagerDutyWebhook, pagerDutyWebhookDisabled } from '../../handlers/pagerduty-webhook.js';
import { gitHubWebhookDisabled, gitHubWebhookHandler } from '../../handlers/github-webhook.js';
import { startGitHubWorker, type GitHubWorker } from '../../runners/github-worker.js';
import { createHandlerDeps } from '../../handlers/handler-deps.js';
import { registerHandlers } from '../../handlers/register-handlers.js';
import { resumeUnfinishedMentions, type MentionResumer } from '../../handlers/resume-mentions.js';
import { startTaskWorker, type TaskWorker } from '../../runners/task-worker.js';
import { refreshTreesOnPush } from '../../runners/refresh-on-push.js';
import { pruneHeldWorkDaily } from '../../runners/prune-held-work.js';
import { backgroundSettled } from '../../runners/background-work.js';
import { startTriageWorker, type TriageWorker } from '../../runners/triage-worker.js';
import { ConfigError } from '../../src/config/config-error.js';
import type { Config } from '../../src/config/load-config.js';
import { checkSandbox } from '../../src/sandbox/check-sandbox.js';
import { usrSocketWatch } from '../../src/sandbox/usr-sockets.js';
import { requireSettings, type Role } from '../../src/config/require-settings.js';
import { startHealthServer } from '../../src/http/health-server.js';
import { createLogger, type Logger } from '../../src/logging/logger.js';
import { createQueues, type Queues } from '../../src/queue/queues.js';
import { hostId } from '../../src/queue/host-id.js';
import { startEmbeddedRedis, type EmbeddedRedis } from '../../src/redis/embedded-redis.js';
import { createRedis } from '../../src/redis/redis-connection.js';
import { readOrCreateRedisPassword, redisPasswordPath } from '../../src/redis/redis-password.js';
import { redisConnectionOptions } from '../../src/redis/redis-options.js';
import { createRedactor, type Redactor, secretsOf } from '../../src/security/redact.js';
import { upstreamProxyCredentials } from '../../src/sandbox/egress/upstream-proxy.js';
import { ThreadSessionStore } from '../../src/sessions/thread-session-store.js';
import { createSlackApp, type SlackApp } from '../../src/slack/create-slack-app.js';
import { SlackNameDirectory } from '../../src/slack/slack-name-directory.js';
import { slackReporterFactory } from '../../src/slack/slack-reporter-factory.js';
import { outboxSlackClient, ThreadOutbox } from '../../src/slack/thread-outbox.js';
import { RunWatchdog } from '../../src/slack/run-watchdog.js';
import { UpdateRateLimiter } from '../../src/slack/update-rate-limiter.js';
import { buildRunnerDeps } from './build-runner-deps.js';
import { ModelBudget } from '../../src/agent/model-budget.js';
import { metricsHandler } from '../../handlers/metrics.js';
import { runPageHandlers } from '../../handlers/run-page.js';
import { channelMembership } from '../../src/run-log/channel-members.js';
import { metrics } from '../../src/metrics/metrics.js';
import { countingFetch, countSlackCalls } from '../../src/metrics/count-api-calls.js';
import { readerTimeLeft, readWithModel } from '../../src/instruction/model-reader.js';
import { repositoryView } from '../../src/workspace/repository-view.js';
import { pickByTree } from '../../src/repository/pick-by-tree.js';
import { createGitHubAccess } from '../../src/github/github-access.js';
import type { RepoRef } from '../../src/repository/resolve-repository.js';
import { RunLinks } from '../../src/run-log/run-links.js';
import { RunLogStore } from '../../src/run-log/run-log-store.js';
import { SIGN_IN_CALLBACK_PATH, SlackSignIn } from '../../src/run-log/slack-sign-in.js';
import { buildTriageDeps } from './build-triage-deps.js';
import { QuestionDesk } from '../../src/questions/question-desk.js';
import { SteeringInbox } from '../../src/sessions/steering-inbox.js';
import { RunSlots } from '../../src/queue/run-slots.js';
import { HostAffinity } from '../../src/queue/host-affinity.js';
import { readdir } from 'node:fs/promises';
import type { Server } from 'node:http';
import path from 'node:path';
import { PausedRunStore } from '../../src/questions/paused-run-store.js';
import { ShutdownSteps, type ShutdownOutcome } from './shutdown-steps.js';
import { IntakeJournal, intakeJournalDir, keepMention } from '../../src/slack/intake-journal.js';
import { RedisEpoch } from '../../src/redis/redis-epoch.js';
import type { Worker } from 'bullmq';
import { ScheduleBook } from '../../src/schedules/schedule-queue.js';
import { ScheduleStore } from '../../src/schedules/schedule-store.js';
import { syncConfigSchedules } from '../../src/schedules/config-schedules.js';
import { startScheduleWorker } from './schedule-worker.js';

/** What Redis is given of Slack's 3 s to store a mention before it is acknowledged from the local journal alone. */
const REDIS_BEFORE_ACK_MS = 1000;

/** Workers refuse to start when bubblewrap does not work, rather than failing every job. */
async function requireWorkingSandbox(config: Config): Promise<void> {
  if (config.file.sandbox.mode === 'none') return;
  // Begun now and left running: the first sandboxed command waits only for what is left of the first scan.
  usrSocketWatch.start();
  const check = await checkSandbox();
  if (!check.ok) {
    throw new ConfigError(
      `The sandbox does not work: ${check.problem}\nFix: ${check.fix}\n(Or run without isolation, explicitly, with sandbox: { mode: none } in wrench.config.yml.)`,
    );
  }
}

export interface RunningService {
  logger: Logger;
  redisUrl: string;
  /** Shuts down step by step, each step within its bound; says which were cut. */
  stop(): Promise<ShutdownOutcome>;
}

/** A signal came before start-up was done: what it had opened is shut down; `cut` names the steps that did not finish. */
export class StoppedWhileStarting extends Error {
  constructor(
    readonly signal: string,
    readonly cut: string[],
  ) {
    super(`stopped by ${signal} while starting`);
  }
}

/** What start-up has opened so far: shutdown closes these, whether start-up finished or was stopped partway. */
interface Opened {
  embedded?: EmbeddedRedis;
  redis?: RedisClient;
  queues?: Queues;
  sessions?: ThreadSessionStore;
  outbox?: ThreadOutbox;
  app?: SlackApp;
  mentionResumer?: MentionResumer;
  schedules?: ScheduleBook;
  scheduleWorker?: Worker;
  watchdog?: RunWatchdog;
  epoch?: RedisEpoch;
  healthServer?: Server;
  affinity?: HostAffinity;
  worker?: TaskWorker;
  triageWorker?: TriageWorker;
  gitHubWorker?: GitHubWorker;
  stopRefreshOnPush?: () => Promise<void>;
  stopPruningHeldWork?: () => Promise<void>;
  workerConnections: RedisClient[];
}

/**
 * `wrench start`: web (Slack, webhooks, health), worker (runners), or both in one process. Should `abort` fire before
 * start-up is done (SIGTERM while Redis does not answer), the step it waits on is left behind, what was opened is shut
 * down as after a normal start, and it throws StoppedWhileStarting.
 */
export async function startService(config: Config, role: Exclude<Role, 'run'>, abort?: AbortSignal): Promise<RunningService> {
  requireSettings(config, role);
  // The embedded Redis's password is one of Wrench's secrets: masked everywhere, kept out of sandboxes and pushes.
  const embeddedPassword = config.env.REDIS_URL ? undefined : readOrCreateRedisPassword(config.dataDir);
  const credentials = [
    ...secretsOf(config.env),
    ...upstreamProxyCredentials(config),
    ...(embeddedPassword ? [{ name: 'embedded Redis password', value: embeddedPassword }] : []),
  ];
  const secrets = credentials.map((secret) => secret.value);
  const redact = createRedactor(secrets);
  const logger = createLogger({ level: config.env.LOG_LEVEL, redact });
  const redisOptions = redisConnectionOptions(config.env);
  const opened: Opened = { workerConnections: [] };
  let stopping: Promise<ShutdownOutcome> | undefined;
  const stop = () => (stopping ??= shutDown(opened, config, logger));
  try {
    const redisUrl = await openService(config, role, { logger, redact, secrets, credentials, embeddedPassword, redisOptions }, opened, startingStep(abort));
    return { logger, redisUrl, stop };
  } catch (error) {
    if (!abort?.aborted) throw error;
    logger.warn({ signal: abort.reason }, 'stopped while starting; closing what was opened');
    const { cut } = await stop();
    throw new StoppedWhileStarting(String(abort.reason), cut);
  }
}

/** Races each step of start-up with `abort`: the step still waiting when it fires is left behind. */
function startingStep(abort: AbortSignal | undefined): <T>(step: Promise<T>) => Promise<T> {
  if (!abort) return (step) => step;
  const aborted = new Promise<never>((_, reject) => {
    if (abort.aborted) reject(abort.reason);
    else abort.addEventListener('abort', () => reject(abort.reason), { once: true });
  });
  aborted.catch(() => undefined);
  return (step) => Promise.race([step, aborted]);
}

interface StartingWith {
  logger: Logger;
  redact: Redactor;
  secrets: string[];
  credentials: ReturnType<typeof secretsOf>;
  embeddedPassword: string | undefined;
  redisOptions: ReturnType<typeof redisConnectionOptions>;
}

/** Opens the service's parts one by one into `opened`, each wait through `starting`; resolves with the Redis URL. */
async function openService(
  config: Config,
  role: Exclude<Role, 'run'>,
  { logger, redact, secrets, credentials, embeddedPassword, redisOptions }: StartingWith,
  opened: Opened,
  starting: <T>(step: Promise<T>) => Promise<T>,
): Promise<string> {
  if (role !== 'web') await starting(requireWorkingSandbox(config));
  let embedded: EmbeddedRedis | undefined;
  if (embeddedPassword) {
    // Not left behind on a signal: a redis-server started is one to stop.
    embedded = opened.embedded = await startEmbeddedRedis(config.dataDir, embeddedPassword);
    logger.info({ port: embedded.port, passwordFile: redisPasswordPath(config.dataDir) }, 'started embedded redis-server (set REDIS_URL to use your own)');
  }
  const redisUrl = config.env.REDIS_URL ?? embedded?.url;
  if (!redisUrl) throw new Error('Neither REDIS_URL nor the embedded redis-server gives a Redis to connect to.');
  const redis: RedisClient = (opened.redis = createRedis(redisUrl, logger, 'main', redisOptions));
  const queues: Queues = (opened.queues = createQueues(redis, config.env.WRENCH_QUEUE_PREFIX, logger, {
    eventsMaxLen: config.env.WRENCH_QUEUE_EVENTS_MAX_LEN,
    failedMax: config.env.WRENCH_QUEUE_FAILED_MAX,
  }));
  const sessions = (opened.sessions = new ThreadSessionStore(redis, config.env.WRENCH_QUEUE_PREFIX, {
    retentionDays: config.env.WRENCH_THREAD_RETENTION_DAYS,
  }));
  // Redis that comes back without its data is noticed (start, every reconnection, every 30 s) and said: log, /healthz,
  // doctor, and the threads of the mentions this process still holds in its journal.
  const epoch = (opened.epoch = new RedisEpoch(redis, config.env.WRENCH_QUEUE_PREFIX, config.dataDir, logger, {
    onLoss: async () => opened.mentionResumer?.retakeLost(),
  }));
  const dataLoss = () => epoch.lost();
  const modelBudget = new ModelBudget(redis, config.env.WRENCH_QUEUE_PREFIX, config.file.modelBudget, { metrics });
  // Stores both the handlers and the runners use, built once.
  const steering = new SteeringInbox(redis, config.env.WRENCH_QUEUE_PREFIX);
  const pausedRuns = new PausedRunStore(redis, config.env.WRENCH_QUEUE_PREFIX);
  const slackClient = new WebClient(config.env.SLACK_BOT_TOKEN, { slackApiUrl: config.env.SLACK_API_URL });
  countSlackCalls(slackClient, metrics);
  const runLog = new RunLogStore(redis, config.env.WRENCH_QUEUE_PREFIX, { retentionDays: config.env.WRENCH_RUN_RETENTION_DAYS });
  const runLinks = RunLinks.fromEnv(config.env);
  const serveMetrics = metricsHandler(config.env, metrics, queues);
  const runLogOptions = { store: runLog, maxBytes: config.env.WRENCH_RUN_MAX_KB * 1024, links: runLinks, metrics };
  // Replies to threads: stored in Redis first, delivered in order by whichever process is up, retried while Slack fails.
  const outboxClient = outboxSlackClient(config.env.SLACK_BOT_TOKEN, config.env.SLACK_API_URL);
  countSlackCalls(outboxClient, metrics);
  const outbox = (opened.outbox = new ThreadOutbox(redis, config.env.WRENCH_QUEUE_PREFIX, outboxClient, redact, logger, {
    deadlineMs: config.env.WRENCH_SLACK_DELIVERY_HOURS * 3600_000,
    onUndeliverable: (message) => metrics.slackUndeliverable.inc({ error: message.error }),
    onRetry: () => metrics.apiRetries.inc({ service: 'slack' }),
    onQuarantine: () => metrics.slackQuarantined.inc(),
  }));
  outbox.start();
  // Lookups that only add detail to a run (permalink, names): Slack failing must not hold the run up.
  const quickSlackClient = new WebClient(config.env.SLACK_BOT_TOKEN, {
    slackApiUrl: config.env.SLACK_API_URL,
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
    timeout: 5000,
  });

  if (role === 'all' || role === 'web') {
    // Name lookups for people's messages: one quick retry, so a Slack outage does not hold up a mention.
    const names = new SlackNameDirectory(
      new WebClient(config.env.SLACK_BOT_TOKEN, { slackApiUrl: config.env.SLACK_API_URL, retryConfig: { retries: 1 }, timeout: 5000 }),
      logger,
    );
    const readInstruction = instructionReader(config, logger, modelBudget);
    const journal = new IntakeJournal(intakeJournalDir(config.dataDir));
    const pickRepository = repositoryPicker(config, logger);
    const schedules = (opened.schedules = new ScheduleBook(
      redis,
      config.env.WRENCH_QUEUE_PREFIX,
      new ScheduleStore(redis, config.env.WRENCH_QUEUE_PREFIX),
      logger,
    ));
    const deps = createHandlerDeps(
      { config, queues, redis, redact, logger, sessions, names, runLog, runLinks, outbox, readInstruction, pickRepository, metrics, schedules },
      { steering, pausedRuns, journal },
    );
    const signIn = SlackSignIn.fromEnv(config.env, workspaceTeamOf(slackClient));
    const runPage = runPageHandlers({
      runLog,
      links: runLinks,
      signIn,
      logger,
      isChannelMember: channelMembership(quickSlackClient),
      actions: { deps, client: slackClient },
    });
    const app = (opened.app = createSlackApp(
      config,
      logger,
      [
        { path: '/healthz', method: ['GET'], handler: (req, res) => void handleHealth(req, res, { ...deps, dataLoss }) },
        { path: '/livez', method: ['GET'], handler: handleLive },
        { path: '/metrics', method: ['GET'], handler: (req, res) => void serveMetrics(req, res) },
        { path: '/runs/:id', method: ['GET'], handler: runPage.page },
        { path: '/runs/:id/events', method: ['GET'], handler: runPage.events },
        { path: '/runs/:id/record.json', method: ['GET'], handler: runPage.record },
        { path: SIGN_IN_CALLBACK_PATH, method: ['GET'], handler: runPage.signInCallback },
        { path: '/runs/:id/stop', method: ['POST'], handler: runPage.stop },
        { path: '/runs/:id/steer', method: ['POST'], handler: runPage.steer },
        config.env.PAGERDUTY_WEBHOOK_SECRETS.length > 0
          ? { path: '/pagerduty/webhook', method: ['POST'], handler: (req, res) => void handlePagerDutyWebhook(req, res, deps) }
          : { path: '/pagerduty/webhook', method: ['POST', 'GET'], handler: pagerDutyWebhookDisabled },
        config.env.GITHUB_WEBHOOK_SECRET
          ? { path: '/github/webhook', method: ['POST'], handler: gitHubWebhookHandler(deps, config.env.GITHUB_WEBHOOK_SECRET) }
          : { path: '/github/webhook', method: ['POST', 'GET'], handler: gitHubWebhookDisabled },
      ],
      // A mention is in Redis or on the local disk (both, normally) before Slack hears 200: a process that dies after that
      // loses nothing; kept in neither, Slack hears 503 and sends it again.
      { beforeAck: (rawBody) => keepMention(rawBody, { intake: deps.stores.intake, journal }, logger, REDIS_BEFORE_ACK_MS) },
    ));
    countSlackCalls(app.client, metrics);
    registerHandlers(app, deps);
    await starting(app.start());
    opened.mentionResumer = resumeUnfinishedMentions(app.client, deps);
    // wrench.config.yml's schedules into Redis once it answers (start-up does not wait for Redis: the web process listens
    // and keeps mentions in its journal while Redis is down), then the occurrences of every schedule taken by one process.
    syncConfigSchedules(schedules, config.file, logger).catch((error: unknown) =>
      logger.error({ err: error }, 'could not put the schedules of wrench.config.yml in Redis; they run once Wrench restarts with Redis answering'),
    );
    const scheduleConnection = createRedis(redisUrl, logger, 'schedule-worker', redisOptions);
    opened.workerConnections.push(scheduleConnection);
    opened.scheduleWorker = startScheduleWorker(scheduleConnection, app.client, { ...deps, schedules });
    // Runs whose thread got no last word in time are said to be so there, once across web processes.
    opened.watchdog = new RunWatchdog({
      redis,
      prefix: config.env.WRENCH_QUEUE_PREFIX,
      outbox,
      jobState: (jobId) => queues.tasks.getJobState(jobId),
      log: logger,
      marginMs: config.file.limits.silenceMarginMinutes * 60_000,
    });
    opened.watchdog.start();
    logger.info({ port: config.env.PORT, socketMode: !!config.env.SLACK_APP_TOKEN }, 'Wrench is listening');
  }
  if (role === 'worker') {
    opened.healthServer = await starting(
      startHealthServer(config.env.PORT, {
        '/healthz': (req, res) => void handleHealth(req, res, { redis, queues, dataLoss, config }),
        '/livez': handleLive,
        '/metrics': (req, res) => void serveMetrics(req, res),
      }),
    );
  }

  if (role === 'all' || role === 'worker') {
    const [triageConnection, workerConnection, gitHubConnection] = ['triage-worker', 'task-worker', 'github-worker'].map((name) =>
      createRedis(redisUrl, logger, name, redisOptions),
    ) as [RedisClient, RedisClient, RedisClient];
    opened.workerConnections.push(triageConnection, workerConnection, gitHubConnection);
    const jobLock = { lockDuration: config.env.WRENCH_JOB_LOCK_SECONDS * 1000, stalledInterval: config.env.WRENCH_STALLED_CHECK_SECONDS * 1000 };
    const runnerDeps = buildRunnerDeps(config, logger, redact, secrets, credentials, modelBudget);
    runnerDeps.questions = new QuestionDesk({
      store: pausedRuns,
      sessions,
      outbox,
      queue: queues.tasks,
      timeoutMs: config.file.limits.questionTimeoutHours * 3_600_000,
      logger,
    });
    const limiter = new UpdateRateLimiter(redis, config.env.WRENCH_QUEUE_PREFIX);
    // Also with a bound of 0 (no job held back): each job's log still says whether its repository was warm here.
    const affinity = (opened.affinity = new HostAffinity({
      redis,
      prefix: config.env.WRENCH_QUEUE_PREFIX,
      host: hostId(config.env),
      concurrency: config.file.limits.concurrency,
      boundMs: config.env.WRENCH_AFFINITY_MS,
    }));
    await starting(mirroredRepositories(config.dataDir).then((repositories) => affinity.start(repositories)));
    opened.worker = await starting(
      startTaskWorker(
        {
          connection: workerConnection,
          redis,
          prefix: config.env.WRENCH_QUEUE_PREFIX,
          concurrency: config.file.limits.concurrency,
          queue: queues.tasks,
          sessions,
          steering,
          slots: new RunSlots(redis, config.env.WRENCH_QUEUE_PREFIX, config.file.limits),
          // A mention is taken over one claim after its handler died, then queued by the new one.
          queueingGraceMs: 2 * config.env.WRENCH_MENTION_CLAIM_SECONDS * 1000,
          outbox,
          reporterFor: slackReporterFactory(quickSlackClient, outbox, limiter, logger),
          runLog: runLogOptions,
          affinity,
          jobLock,
        },
        runnerDeps,
      ),
    );
    opened.triageWorker = await starting(
      startTriageWorker(
        { connection: triageConnection, concurrency: config.file.limits.concurrency, jobLock },
        buildTriageDeps(runnerDeps, { slack: slackClient, redis, queues, prefix: config.env.WRENCH_QUEUE_PREFIX, outbox, limiter, runLog: runLogOptions }),
      ),
    );
    opened.gitHubWorker = await starting(
      startGitHubWorker(
        { connection: gitHubConnection, jobLock },
        { runner: runnerDeps, redis, queues, sessions, outbox, prefix: config.env.WRENCH_QUEUE_PREFIX },
      ),
    );
    opened.stopPruningHeldWork = pruneHeldWorkDaily(config.dataDir, config.env.WRENCH_HELD_RETENTION_DAYS, logger);
    if (config.file.cache.trees) opened.stopRefreshOnPush = refreshTreesOnPush(runnerDeps, redis, config.env.WRENCH_QUEUE_PREFIX);
    logger.info({ concurrency: config.file.limits.concurrency }, 'Wrench worker is running');
  }
  // Last, so a loss noticed at start finds the mention resumer to take the lost mentions again.
  await starting(epoch.start());

  return redisUrl;
}

/** Shuts down what start-up opened, step by step, each step within its bound. */
async function shutDown(opened: Opened, config: Config, logger: Logger): Promise<ShutdownOutcome> {
  const { embedded, redis, queues, sessions, outbox, app, mentionResumer, healthServer, affinity, worker, triageWorker, gitHubWorker, stopRefreshOnPush } =
    opened;
  logger.info('shutting down');
  const graceMs = config.env.WRENCH_SHUTDOWN_GRACE_SECONDS * 1000;
  const stepMs = config.env.WRENCH_SHUTDOWN_STEP_SECONDS * 1000;
  const steps = new ShutdownSteps(logger, stepMs);
  await steps.run('redis epoch', () => opened.epoch?.stop());
  await steps.run('mention resumer', () => mentionResumer?.stop());
  await steps.run('run watchdog', () => opened.watchdog?.stop());
  await steps.run('slack app', () => app?.stop());
  // An occurrence being handled finishes (it only posts and queues); one cut short is taken again after its lock expires.
  await steps.run('schedule worker', () => opened.scheduleWorker?.close(), { onCut: () => opened.scheduleWorker?.disconnect() });
  await steps.run('health server', () => new Promise((resolve) => (healthServer ? healthServer.close(resolve) : resolve(undefined))));
  // Withdrawn first: no job is held back for a worker that is leaving.
  await steps.run('host affinity', () => affinity?.stop());
  // Running jobs get the grace, then stop and hand their work back. A job still running when its step is cut
  // keeps its lock until it expires: BullMQ's stalled check then gives it to another worker, as after a crash
  // (its thread says it restarted after an interruption).
  const handBack = { boundMs: graceMs + config.env.WRENCH_SHUTDOWN_HAND_BACK_SECONDS * 1000 };
  const handBackUntil = Date.now() + handBack.boundMs;
  await Promise.all([
    steps.run('task jobs', () => worker?.stopJobs(graceMs), handBack),
    steps.run('triage jobs', () => triageWorker?.stopJobs(graceMs), handBack),
    steps.run('github jobs', () => gitHubWorker?.stopJobs(), handBack),
  ]);
  // BullMQ records how the jobs ended and closes its connections, each of which may be between two primaries.
  await Promise.all([
    steps.run('task worker', () => worker?.close(graceMs), { onCut: () => worker?.worker.disconnect() }),
    steps.run('triage worker', () => triageWorker?.close(graceMs), {
      onCut: () => Promise.all([triageWorker?.worker.disconnect(), triageWorker?.incidentWorker.disconnect()]),
    }),
    steps.run('github worker', () => gitHubWorker?.close(), { onCut: () => gitHubWorker?.worker.disconnect() }),
    steps.run('tree refresh', () => stopRefreshOnPush?.()),
    steps.run('held bundles pruning', () => opened.stopPruningHeldWork?.()),
  ]);
  // What jobs left to do after their reply (a tree given back to the pool, a note on GitHub) is part of their hand-back.
  await steps.run('background work', () => backgroundSettled(), { boundMs: Math.max(stepMs, handBackUntil - Date.now()) });
  await steps.run('outbox', () => outbox?.stop());
  await steps.run('queues', () => Promise.all([queues?.close(), opened.schedules?.close()]));
  sessions?.close();
  for (const connection of opened.workerConnections) connection.disconnect();
  redis?.disconnect();
  await steps.run('embedded redis', () => embedded?.stop());
  logger.flush();
  return steps.outcome();
}

/** The bot's own workspace (auth.test), asked once when first needed. */
function workspaceTeamOf(client: WebClient): () => Promise<string> {
  let team: Promise<string> | undefined;
  return () =>
    (team ??= client.auth.test().then(
      (answer) => String(answer.team_id ?? ''),
      (error) => {
        team = undefined;
        throw error;
      },
    ));
}

/**
 * The fast model reads each instruction (after the acknowledgement); without a model key, the rules alone. It shares
 * the fleet's model budget but never waits past its time limit for it: the rules decide then.
 */
function instructionReader(config: Config, logger: Logger, modelBudget: ModelBudget) {
  const model = config.env.ANTHROPIC_API_KEY ? config.env.WRENCH_READER_MODEL : 'none';
  const client = new Anthropic({
    apiKey: config.env.ANTHROPIC_API_KEY ?? 'missing',
    baseURL: config.env.ANTHROPIC_BASE_URL,
    maxRetries: 0,
    fetch: countingFetch('anthropic', metrics),
    middleware: [modelBudget.middleware()],
  });
  const timeoutMs = config.env.WRENCH_READER_TIMEOUT_MS;
  return async (text: string, history: string[], repo?: RepoRef) => {
    if (model === 'none') return readWithModel(text, history, { client, model, timeoutMs, logger });
    // The repository's view comes out of the same time limit: at most a quarter of it, from the cached mirror only.
    const started = performance.now();
    const view = repo
      ? await repositoryView({ dataDir: config.dataDir, owner: repo.owner, repo: repo.name, text, timeoutMs: Math.min(1000, timeoutMs / 4) })
      : undefined;
    return readWithModel(text, history, { client, model, timeoutMs: readerTimeLeft(timeoutMs, performance.now() - started), logger }, view);
  };
}

/** How long a mention in a channel with several repositories may spend reading their trees to pick one. */
const PICK_REPOSITORY_MS = 15_000;

/** Picks a channel's repository by the paths and symbols of the instruction, on the mirrors (brought up to date first). */
function repositoryPicker(config: Config, logger: Logger) {
  const credential = createGitHubAccess(config.env, logger)?.gitCredential;
  return (text: string, candidates: RepoRef[]) =>
    pickByTree(text, candidates, { dataDir: config.dataDir, gitBaseUrl: config.env.GIT_BASE_URL, credential, timeoutMs: PICK_REPOSITORY_MS });
}

/** Repositories (`owner/name`) whose mirrors are in the data dir: warm from the start (src/workspace/mirror-cache.ts). */
async function mirroredRepositories(dataDir: string): Promise<string[]> {
  const root = path.join(dataDir, 'mirrors');
  const owners = await readdir(root).catch(() => [] as string[]);
  const lists = await Promise.all(
    owners.map(async (owner) =>
      (await readdir(path.join(root, owner)).catch(() => [] as string[])).filter((n) => n.endsWith('.git')).map((n) => `${owner}/${n.slice(0, -4)}`),
    ),
  );
  return lists.flat();
}
