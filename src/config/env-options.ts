import { z } from 'zod';
import { parseUpstreamProxyUrl } from '../sandbox/egress/upstream-proxy.js';

const url = (name: string) =>
  z
    .string()
    .trim()
    .url({ message: `${name} must be a URL, for example https://example.com` });

const nonEmpty = z.string().trim().min(1);

/** `host:port,host:port` (IPv6 in brackets), refused naming the variable and the entry. */
const hostPortList = (name: string, example: string) =>
  z
    .string()
    .optional()
    .transform((value, context) => {
      const entries = (value ?? '')
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean);
      const list: { host: string; port: number }[] = [];
      for (const entry of entries) {
        const match = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(entry);
        const port = Number(match?.[2]);
        if (!match?.[1] || port < 1 || port > 65535) {
          context.addIssue({ code: 'custom', message: `${name} must be host:port entries separated by commas (e.g. ${example}); "${entry}" is not` });
          return z.NEVER;
        }
        list.push({ host: match[1].replace(/^\[|\]$/g, ''), port });
      }
      return list.length > 0 ? list : undefined;
    });

/** An HTTP proxy URL in `name`, refused naming the variable (`HTTPS_PROXY must be an http:// proxy URL …`). */
const proxyUrl = (name: string) =>
  z
    .string()
    .trim()
    .superRefine((text, context) => {
      try {
        parseUpstreamProxyUrl(text);
      } catch (error) {
        context.addIssue({ code: 'custom', message: `${name} ${(error as Error).message}` });
      }
    });

/** The environment contract of DESIGN.md. Every key is optional here; `requireSettings` says what each role needs. */
export const envSchema = z.object({
  SLACK_BOT_TOKEN: nonEmpty.optional().meta({
    description: "The Slack app's Bot User OAuth Token (`xoxb-…`), from **Install App** ([getting started](getting-started.md#the-slack-app)).",
    unset: 'required for the Slack bot',
  }),
  SLACK_SIGNING_SECRET: nonEmpty.optional().meta({
    description: "The Slack app's signing secret (**Basic Information → Signing Secret**): events over HTTP are verified with it.",
    unset: 'required over HTTP (not in Socket Mode)',
  }),
  SLACK_APP_TOKEN: nonEmpty.optional().meta({
    description:
      'An app-level token (`xapp-…`, scope `connections:write`): when set, Wrench connects to Slack in Socket Mode instead of receiving events over HTTP.',
    unset: 'HTTP events on `PORT`',
  }),
  SLACK_API_URL: url('SLACK_API_URL').default('https://slack.com/api/').meta({ description: 'Base URL of the Slack Web API.' }),
  ANTHROPIC_API_KEY: nonEmpty.optional().meta({ description: 'The Anthropic API key the agent and the model reader use.', unset: 'required for the agent' }),
  ANTHROPIC_BASE_URL: url('ANTHROPIC_BASE_URL')
    .optional()
    .meta({ description: "The Messages API's endpoint (a proxy or gateway).", unset: "the SDK's default" }),
  WRENCH_MODEL: nonEmpty.default('claude-sonnet-5-5').meta({ description: 'Model id of the agent.' }),
  WRENCH_READER_MODEL: nonEmpty.default('claude-haiku-5-5').meta({
    description:
      "Fast model that reads each new instruction after the acknowledgement (category, complexity, verdict, questions in the requester's language); `none`: the deterministic rules alone.",
  }),
  WRENCH_READER_TIMEOUT_MS: z.coerce
    .number({ message: 'WRENCH_READER_TIMEOUT_MS must be a number of milliseconds' })
    .int()
    .min(100)
    .max(30_000)
    .default(4000)
    .meta({
      description:
        "How long the model reader may take before the deterministic rules decide (the repository's view comes out of it; the model always gets at least a tenth of it).",
    }),
  GITHUB_TOKEN: nonEmpty.optional().meta({
    description: 'A token that can push branches and open pull requests on the linked repositories.',
    unset: 'the GitHub App; one of the two is required for pull requests',
  }),
  GITHUB_APP_ID: nonEmpty
    .optional()
    .meta({ description: 'A GitHub App instead of a token ([GitHub App](github-app.md)): its App id; used when `GITHUB_TOKEN` is unset.', unset: 'no App' }),
  GITHUB_APP_PRIVATE_KEY: nonEmpty
    .transform((value) => value.replace(/\\n/g, '\n'))
    .refine((value) => /-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(value), {
      message: 'GITHUB_APP_PRIVATE_KEY must be the PEM private key of the GitHub App (-----BEGIN RSA PRIVATE KEY-----...)',
    })
    .optional()
    .meta({ description: "The GitHub App's private key, PEM (`\\n` escapes allowed for a one-line value).", unset: '`GITHUB_APP_PRIVATE_KEY_PATH`' }),
  GITHUB_APP_PRIVATE_KEY_PATH: nonEmpty
    .optional()
    .meta({ description: "A file holding the GitHub App's PEM private key, read once at start-up.", unset: '`GITHUB_APP_PRIVATE_KEY`' }),
  GITHUB_WEBHOOK_SECRET: nonEmpty.optional().meta({
    description: "Secret of the App's (or repository's) webhook, for `POST /github/webhook` ([GitHub front door](front-doors.md#github)).",
    unset: 'GitHub webhook off (404)',
  }),
  GITHUB_API_URL: url('GITHUB_API_URL').default('https://api.github.com').meta({ description: 'GitHub REST API (GitHub Enterprise: `https://HOST/api/v3`).' }),
  GIT_BASE_URL: url('GIT_BASE_URL').default('https://github.com').meta({ description: 'Wrench clones and pushes `${GIT_BASE_URL}/${owner}/${repo}.git`.' }),
  PAGERDUTY_API_TOKEN: nonEmpty
    .optional()
    .meta({ description: 'PagerDuty REST API token, for incident triage ([incident triage](incident-triage.md)).', unset: 'no PagerDuty' }),
  PAGERDUTY_FROM_EMAIL: z
    .string()
    .trim()
    .email({ message: 'PAGERDUTY_FROM_EMAIL must be an email address' })
    .optional()
    .meta({ description: "The `From` header of the notes Wrench writes on incidents (a PagerDuty user's email).", unset: 'no PagerDuty notes' }),
  PAGERDUTY_API_URL: url('PAGERDUTY_API_URL').default('https://api.pagerduty.com').meta({ description: 'PagerDuty REST API.' }),
  PAGERDUTY_WEBHOOK_SECRETS: z
    .string()
    .optional()
    .transform((value) =>
      (value ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .meta({ description: 'Comma-separated V3 webhook subscription secrets, for `POST /pagerduty/webhook`.', unset: 'PagerDuty webhook off' }),
  REDIS_URL: z
    .string()
    .trim()
    .regex(/^rediss?:\/\//, { message: 'REDIS_URL must start with redis:// or rediss://' })
    .optional()
    .meta({
      description:
        'Redis for the queue and sessions: `redis://:PASSWORD@host:port` or `redis://USER:PASSWORD@host:port`, TLS as `rediss://` ([security](security.md#redis)).',
      unset: 'an embedded `redis-server` with its data under `WRENCH_DATA_DIR` and a generated password in `WRENCH_DATA_DIR/redis/password` (mode 0600)',
    }),
  REDIS_SENTINELS: hostPortList('REDIS_SENTINELS', '10.0.0.1:26379,10.0.0.2:26379').meta({
    description:
      'Redis Sentinel: the sentinels as `host:port,host:port,...`; `REDIS_URL` then names the master group as its host, without a port (`redis://:PASSWORD@mymaster`). Every connection follows a failover ([scaling](scaling.md#redis-sentinel-and-cluster)).',
    unset: '`REDIS_URL` is one server',
  }),
  REDIS_CLUSTER_NODES: hostPortList('REDIS_CLUSTER_NODES', '10.0.0.2:6379,10.0.0.3:6379').meta({
    description:
      'Redis Cluster: more nodes as `host:port,host:port,...`; `REDIS_URL` is then one node (database 0) whose user, password and `rediss://` apply to every node, and `WRENCH_QUEUE_PREFIX` must be a hash tag such as `{wrench}` ([scaling](scaling.md#redis-sentinel-and-cluster)).',
    unset: '`REDIS_URL` is one server',
  }),
  REDIS_SENTINEL_PASSWORD: nonEmpty.optional().meta({
    description: 'Password of the sentinels themselves (their `requirepass`); the sentinels are spoken to without TLS.',
    unset: 'the sentinels take no password',
  }),
  WRENCH_REDIS_CA_FILE: nonEmpty
    .optional()
    .meta({ description: "PEM certificate of the CA that signed a `rediss://` Redis's certificate.", unset: "the system's CAs" }),
  PORT: z.coerce
    .number({ message: 'PORT must be a number' })
    .int()
    .min(0, { message: 'PORT must be between 0 and 65535' })
    .max(65535, { message: 'PORT must be between 0 and 65535' })
    .default(3000)
    .meta({ description: 'HTTP port: Slack events and interactivity, the PagerDuty and GitHub webhooks, run pages, `/healthz` and `/metrics`.' }),
  WRENCH_CONFIG: nonEmpty.optional().meta({ description: 'Path of the YAML configuration ([the keys](#wrenchconfigyml)).', unset: '`./wrench.config.yml`' }),
  WRENCH_DATA_DIR: nonEmpty
    .default('./.wrench')
    .meta({ description: "Working trees, the repository mirror cache, warm caches and the embedded Redis's data." }),
  WRENCH_MIN_FREE_MB: z.coerce
    .number({ message: 'WRENCH_MIN_FREE_MB must be a number of megabytes' })
    .int({ message: 'WRENCH_MIN_FREE_MB must be a whole number of megabytes' })
    .min(0, { message: 'WRENCH_MIN_FREE_MB must be 0 or more' })
    .default(1024)
    .meta({
      description:
        'Free space the data dir must have for a new run to start: below it the run waits, said in its thread, and `/healthz` and `wrench doctor` say the data dir is low (0: never wait).',
    }),
  WRENCH_RUNTIMES_DIR: nonEmpty.optional().meta({
    description: "Node.js versions provisioned for repositories' checks, one folder per version ([checks](checks.md)).",
    unset: '`WRENCH_DATA_DIR/runtimes`',
  }),
  WRENCH_QUEUE_PREFIX: z
    .string()
    .trim()
    .regex(/^([A-Za-z0-9_.-]+|\{[a-z0-9_.-]+\})$/, {
      message: 'WRENCH_QUEUE_PREFIX must be letters, digits, _ . - (e.g. wrench), or a lowercase Redis Cluster hash tag in braces (e.g. {wrench})',
    })
    .default('wrench')
    .meta({
      description:
        'Prefix of every Redis key, to share one Redis between installations. In braces, lowercase (`{wrench}`), it is a Redis Cluster hash tag (required with `REDIS_CLUSTER_NODES`). Changing it starts from empty queues and sessions.',
    }),
  WRENCH_QUEUE_EVENTS_MAX_LEN: z.coerce
    .number({ message: 'WRENCH_QUEUE_EVENTS_MAX_LEN must be a number of events' })
    .int()
    .min(100, { message: 'WRENCH_QUEUE_EVENTS_MAX_LEN must be at least 100' })
    .default(10_000)
    .meta({
      description:
        "Events kept in each BullMQ queue's events stream (trimmed approximately; about 90 B an event). Wrench reads them only as they come, so lowering it loses nothing; set the same on every process ([scaling](scaling.md#redis-per-job)).",
    }),
  WRENCH_QUEUE_FAILED_MAX: z.coerce
    .number({ message: 'WRENCH_QUEUE_FAILED_MAX must be a number of jobs' })
    .int()
    .min(1, { message: 'WRENCH_QUEUE_FAILED_MAX must be at least 1' })
    .default(1000)
    .meta({
      description:
        'Failed jobs kept in each queue, the newest (besides the 7-day age bound): a failed task job is about 2 KB. Written into each job when it is queued; set the same on every process ([scaling](scaling.md#redis-per-job)).',
    }),
  WRENCH_CONCURRENCY: z.coerce
    .number({ message: 'WRENCH_CONCURRENCY must be a whole number of jobs' })
    .int({ message: 'WRENCH_CONCURRENCY must be a whole number of jobs' })
    .min(1, { message: 'WRENCH_CONCURRENCY must be between 1 and 64' })
    .max(64, { message: 'WRENCH_CONCURRENCY must be between 1 and 64' })
    .optional()
    .meta({
      description:
        "Jobs at once per worker process, in place of the config file's `limits.concurrency`: on Kubernetes the one value the workers and the autoscaler's threshold both read ([scaling](scaling.md#kubernetes)).",
      unset: '`limits.concurrency`',
    }),
  WRENCH_AFFINITY_MS: z.coerce.number({ message: 'WRENCH_AFFINITY_MS must be a number of milliseconds' }).int().min(0).max(60_000).default(2000).meta({
    description:
      'Host affinity: how long a task may wait for a worker that holds its repository warm (with a free slot, or busy while the worker that picked the task has other jobs to take) before any worker takes it; past it, the task waits on only for a busy warm worker expected to free a slot within this time, never five times it in all; `0`: none is held back ([hosts](hosts.md)).',
  }),
  WRENCH_HOST_ID: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_.-]{1,100}$/, { message: 'WRENCH_HOST_ID must be letters, digits, _ . - (up to 100)' })
    .optional()
    .meta({
      description: "This worker's name (letters, digits, `_ . -`), in the affinity heartbeats and in the thread of a push refused for a secret.",
      unset: 'hostname and process id',
    }),
  WRENCH_SHUTDOWN_GRACE_SECONDS: z.coerce
    .number({ message: 'WRENCH_SHUTDOWN_GRACE_SECONDS must be a number of seconds' })
    .min(0)
    .default(25)
    .meta({ description: 'On SIGTERM/SIGINT, how long running jobs may finish before they stop (work kept, thread told).' }),
  WRENCH_SHUTDOWN_HAND_BACK_SECONDS: z.coerce.number({ message: 'WRENCH_SHUTDOWN_HAND_BACK_SECONDS must be a number of seconds' }).min(0).default(30).meta({
    description:
      'After the grace, how long stopped jobs have to hand their work back (push, draft pull request, thread told); one still running is then restarted by another worker.',
  }),
  WRENCH_JOB_LOCK_SECONDS: z.coerce
    .number({ message: 'WRENCH_JOB_LOCK_SECONDS must be a number of seconds' })
    .min(1, { message: 'WRENCH_JOB_LOCK_SECONDS must be at least 1' })
    .default(30)
    .meta({
      description:
        "How long a worker's lock on a running job lasts (renewed every half of it): a worker silent longer (dead, paused, starved) loses the job to another, and its run stops before acting ([durability](durability.md#one-run-per-job-the-effect-fence)).",
    }),
  WRENCH_STALLED_CHECK_SECONDS: z.coerce
    .number({ message: 'WRENCH_STALLED_CHECK_SECONDS must be a number of seconds' })
    .min(1, { message: 'WRENCH_STALLED_CHECK_SECONDS must be at least 1' })
    .default(30)
    .meta({ description: 'How often each worker looks for running jobs whose lock expired, and hands them to the queue again.' }),
  WRENCH_SHUTDOWN_STEP_SECONDS: z.coerce.number({ message: 'WRENCH_SHUTDOWN_STEP_SECONDS must be a number of seconds' }).positive().default(3).meta({
    description:
      'The bound of every other shutdown step (closing Slack, workers, queues, the outbox): a step still waiting after it is logged, left behind, and the process exits 1 ([operations](operations.md#shutdown)).',
  }),
  SLACK_CLIENT_ID: nonEmpty.optional().meta({
    description:
      "Sign in with Slack (OpenID Connect) for run pages: the app's client id. With `SLACK_CLIENT_SECRET` and `WRENCH_PUBLIC_URL`, people of the workspace open a run page without a signed link (redirect URL `WRENCH_PUBLIC_URL/auth/slack/callback`; [run pages](run-pages.md)).",
    unset: 'signed links only',
  }),
  SLACK_CLIENT_SECRET: nonEmpty
    .optional()
    .meta({ description: "Sign in with Slack for run pages: the app's client secret (see `SLACK_CLIENT_ID`).", unset: 'signed links only' }),
  WRENCH_PUBLIC_URL: url('WRENCH_PUBLIC_URL').optional().meta({
    description: "Wrench's public base URL (`https://wrench.example.com`), the base of run-page links in threads and App Home.",
    unset: 'no run-page links',
  }),
  WRENCH_RUN_LINK_SECRET: z.string().trim().min(16, { message: 'WRENCH_RUN_LINK_SECRET must be at least 16 characters' }).optional().meta({
    description: 'HMAC key of run-page links (16+ characters); rotating it invalidates every link.',
    unset: 'derived from `SLACK_SIGNING_SECRET` (or `SLACK_APP_TOKEN`)',
  }),
  WRENCH_RUN_RETENTION_DAYS: z.coerce
    .number({ message: 'WRENCH_RUN_RETENTION_DAYS must be a number of days' })
    .positive({ message: 'WRENCH_RUN_RETENTION_DAYS must be more than 0' })
    .default(30)
    .meta({ description: 'How long run records (and their links) are kept in Redis.' }),
  WRENCH_HELD_RETENTION_DAYS: z.coerce
    .number({ message: 'WRENCH_HELD_RETENTION_DAYS must be a number of days' })
    .positive({ message: 'WRENCH_HELD_RETENTION_DAYS must be more than 0' })
    .default(14)
    .meta({
      description:
        'How long the git bundles of pushes refused for a secret are kept in `WRENCH_DATA_DIR/held` (`wrench doctor` lists them; [security](security.md)).',
    }),
  WRENCH_THREAD_RETENTION_DAYS: z.coerce
    .number({ message: 'WRENCH_THREAD_RETENTION_DAYS must be a number of days' })
    .positive({ message: 'WRENCH_THREAD_RETENTION_DAYS must be more than 0' })
    .default(90)
    .meta({
      description:
        "How long a thread's session (what a follow-up continues from, its pull request's way back to the thread) stays in Redis after the thread's last change. Must be longer than `limits.questionTimeoutHours`.",
    }),
  WRENCH_RUN_MAX_KB: z.coerce
    .number({ message: 'WRENCH_RUN_MAX_KB must be a number of kilobytes' })
    .int()
    .min(16, { message: 'WRENCH_RUN_MAX_KB must be at least 16' })
    .default(2048)
    .meta({ description: "Size cap of one run's record; later steps are dropped with a note." }),
  WRENCH_EGRESS_MAX_CONNECTIONS: z.coerce
    .number({ message: 'WRENCH_EGRESS_MAX_CONNECTIONS must be a number of connections' })
    .int()
    .min(1, { message: 'WRENCH_EGRESS_MAX_CONNECTIONS must be at least 1' })
    .default(128)
    .meta({
      description:
        "Connections one sandboxed command may hold open through the egress proxy at once; each holds two of Wrench's file descriptors, and one more is closed at once, so a setup step cannot starve the process that serves Slack ([security](security.md#network-egress)).",
    }),
  WRENCH_EGRESS_IDLE_SECONDS: z.coerce
    .number({ message: 'WRENCH_EGRESS_IDLE_SECONDS must be a number of seconds' })
    .positive({ message: 'WRENCH_EGRESS_IDLE_SECONDS must be more than 0' })
    .default(120)
    .meta({ description: 'A connection through the egress proxy with no traffic either way for this long is closed (a tunnel left open, a slow request).' }),
  HTTPS_PROXY: proxyUrl('HTTPS_PROXY').optional().meta({
    description:
      "Wrench's own HTTP proxy (`http://user:password@proxy.corp:3128`; `https_proxy` is read too; an `https://` one is spoken to over TLS by the egress proxy): by default also the upstream the sandbox's egress proxy sends the setup step's allowed destinations through (`sandbox.egress.upstreamProxy`, [security](security.md#an-upstream-proxy)).",
    unset: 'none',
  }),
  HTTP_PROXY: proxyUrl('HTTP_PROXY')
    .optional()
    .meta({ description: 'As `HTTPS_PROXY` (`http_proxy` is read too), when `HTTPS_PROXY` is not set.', unset: 'none' }),
  NO_PROXY: z.string().trim().optional().meta({
    description:
      'Destinations (comma-separated: `host`, `.domain`, `host:port`, an IP, a CIDR, `*`) the egress proxy connects to directly instead of through the upstream proxy (`no_proxy` is read too; `sandbox.egress.noProxy` replaces it).',
    unset: 'none',
  }),
  WRENCH_METRICS: z
    .enum(['on', 'off'], { message: 'WRENCH_METRICS must be on or off' })
    .default('off')
    .meta({ description: '`on`: serve `GET /metrics` to anyone who can reach `PORT` ([operations](operations.md#health-and-metrics)).' }),
  WRENCH_METRICS_TOKEN: z
    .string()
    .trim()
    .min(16, { message: 'WRENCH_METRICS_TOKEN must be at least 16 characters' })
    .optional()
    .meta({ description: 'Serve `GET /metrics` only with `Authorization: Bearer <token>` (16+ characters; turns metrics on).', unset: 'no token' }),
  WRENCH_MENTION_CLAIM_SECONDS: z.coerce
    .number({ message: 'WRENCH_MENTION_CLAIM_SECONDS must be a number of seconds' })
    .int()
    .min(1, { message: 'WRENCH_MENTION_CLAIM_SECONDS must be at least 1' })
    .default(60)
    .meta({
      description: 'How long a web process holds a mention it is handling; a mention whose process died after acknowledging it is taken over after this.',
    }),
  WRENCH_SCHEDULE_MIN_SECONDS: z.coerce
    .number({ message: 'WRENCH_SCHEDULE_MIN_SECONDS must be a number of seconds' })
    .int()
    .min(1, { message: 'WRENCH_SCHEDULE_MIN_SECONDS must be at least 1' })
    .default(900)
    .meta({
      description: 'The shortest interval a schedule made in Slack may run at ("every 5 minutes" is refused below it); config schedules are not bound.',
    }),
  WRENCH_SLACK_DELIVERY_HOURS: z.coerce
    .number({ message: 'WRENCH_SLACK_DELIVERY_HOURS must be a number of hours' })
    .positive({ message: 'WRENCH_SLACK_DELIVERY_HOURS must be more than 0' })
    .default(24)
    .meta({ description: 'How long a thread reply Slack keeps refusing is retried before it is logged as undeliverable (listed by `wrench doctor`).' }),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
    .default('info')
    .meta({ description: 'pino log level (JSON logs on stderr).' }),
});

export type EnvOptions = z.infer<typeof envSchema>;

/** Empty strings count as unset, as in most twelve-factor services. */
export function withoutEmptyValues(env: NodeJS.ProcessEnv): Record<string, string> {
  const entries = Object.entries(env).filter((entry): entry is [string, string] => !!entry[1]?.trim());
  const values = Object.fromEntries(entries);
  // The proxy variables are read in either case, as curl and Node.js read them; the upper-case one wins.
  for (const name of ['HTTPS_PROXY', 'HTTP_PROXY', 'NO_PROXY']) {
    const lower = values[name.toLowerCase()];
    if (values[name] === undefined && lower !== undefined) values[name] = lower;
  }
  return values;
}
