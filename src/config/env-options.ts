import { z } from 'zod';

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

/** The environment contract of DESIGN.md. Every key is optional here; `requireSettings` says what each role needs. */
export const envSchema = z.object({
  SLACK_BOT_TOKEN: nonEmpty.optional(),
  SLACK_SIGNING_SECRET: nonEmpty.optional(),
  SLACK_APP_TOKEN: nonEmpty.optional(),
  SLACK_API_URL: url('SLACK_API_URL').default('https://slack.com/api/'),
  ANTHROPIC_API_KEY: nonEmpty.optional(),
  ANTHROPIC_BASE_URL: url('ANTHROPIC_BASE_URL').optional(),
  WRENCH_MODEL: nonEmpty.default('claude-sonnet-5-5'),
  /** Fast model that reads each new instruction after the acknowledgement; `none`: the rules alone. */
  WRENCH_READER_MODEL: nonEmpty.default('claude-haiku-5-5'),
  /** How long the model reader may take before the rules decide. */
  WRENCH_READER_TIMEOUT_MS: z.coerce.number({ message: 'WRENCH_READER_TIMEOUT_MS must be a number of milliseconds' }).int().min(100).max(30_000).default(4000),
  GITHUB_TOKEN: nonEmpty.optional(),
  GITHUB_APP_ID: nonEmpty.optional(),
  /** PEM text; `\n` escapes (one-line environment values) are turned into newlines. */
  GITHUB_APP_PRIVATE_KEY: nonEmpty
    .transform((value) => value.replace(/\\n/g, '\n'))
    .refine((value) => /-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(value), {
      message: 'GITHUB_APP_PRIVATE_KEY must be the PEM private key of the GitHub App (-----BEGIN RSA PRIVATE KEY-----...)',
    })
    .optional(),
  /** A file holding the App's private key; read once by loadConfig into GITHUB_APP_PRIVATE_KEY. */
  GITHUB_APP_PRIVATE_KEY_PATH: nonEmpty.optional(),
  GITHUB_WEBHOOK_SECRET: nonEmpty.optional(),
  GITHUB_API_URL: url('GITHUB_API_URL').default('https://api.github.com'),
  GIT_BASE_URL: url('GIT_BASE_URL').default('https://github.com'),
  PAGERDUTY_API_TOKEN: nonEmpty.optional(),
  PAGERDUTY_FROM_EMAIL: z.string().trim().email({ message: 'PAGERDUTY_FROM_EMAIL must be an email address' }).optional(),
  PAGERDUTY_API_URL: url('PAGERDUTY_API_URL').default('https://api.pagerduty.com'),
  PAGERDUTY_WEBHOOK_SECRETS: z
    .string()
    .optional()
    .transform((value) =>
      (value ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  REDIS_URL: z
    .string()
    .trim()
    .regex(/^rediss?:\/\//, { message: 'REDIS_URL must start with redis:// or rediss://' })
    .optional(),
  /** Redis Sentinel: the sentinels as host:port,host:port; REDIS_URL's host then names the master group (src/redis/redis-options.ts). */
  REDIS_SENTINELS: hostPortList('REDIS_SENTINELS', '10.0.0.1:26379,10.0.0.2:26379'),
  /**
   * Redis Cluster: more nodes of the cluster as host:port,host:port (REDIS_URL is one of them, with the password and
   * rediss:// for all); every connection is then an ioredis Cluster. WRENCH_QUEUE_PREFIX must be a hash tag (load-config.ts).
   */
  REDIS_CLUSTER_NODES: hostPortList('REDIS_CLUSTER_NODES', '10.0.0.2:6379,10.0.0.3:6379'),
  /** Password of the sentinels themselves (their requirepass), when they have one. */
  REDIS_SENTINEL_PASSWORD: nonEmpty.optional(),
  /** PEM CA certificate that signed a `rediss://` REDIS_URL's server certificate (default: the system's CAs). */
  WRENCH_REDIS_CA_FILE: nonEmpty.optional(),
  PORT: z.coerce
    .number({ message: 'PORT must be a number' })
    .int()
    .min(0, { message: 'PORT must be between 0 and 65535' })
    .max(65535, { message: 'PORT must be between 0 and 65535' })
    .default(3000),
  WRENCH_CONFIG: nonEmpty.optional(),
  WRENCH_DATA_DIR: nonEmpty.default('./.wrench'),
  /** Where provisioned Node.js versions are kept (one folder per version); default WRENCH_DATA_DIR/runtimes. */
  WRENCH_RUNTIMES_DIR: nonEmpty.optional(),
  /**
   * Prefix of every key (BullMQ's and Wrench's); lets several installations (or tests) share one Redis. In braces
   * (`{wrench}`), a Redis Cluster hash tag: every key in one slot, as BullMQ's and Wrench's Lua scripts need there.
   */
  WRENCH_QUEUE_PREFIX: z
    .string()
    .trim()
    .regex(/^([A-Za-z0-9_.-]+|\{[a-z0-9_.-]+\})$/, {
      message: 'WRENCH_QUEUE_PREFIX must be letters, digits, _ . - (e.g. wrench), or a lowercase Redis Cluster hash tag in braces (e.g. {wrench})',
    })
    .default('wrench'),
  /**
   * How many events BullMQ keeps in each queue's events stream (its `streams.events.maxLen`, trimmed approximately, in
   * nodes of 100). Only live readers use them (runners/job-waits.ts, which also looks again every minute), so a
   * shorter stream loses nothing Wrench needs; every process should say the same (the last queue to start sets it).
   */
  WRENCH_QUEUE_EVENTS_MAX_LEN: z.coerce
    .number({ message: 'WRENCH_QUEUE_EVENTS_MAX_LEN must be a number of events' })
    .int()
    .min(100, { message: 'WRENCH_QUEUE_EVENTS_MAX_LEN must be at least 100' })
    .default(10_000),
  /**
   * How many failed jobs each queue keeps (newest first, besides the week's age bound): a burst of failures (a poison
   * payload replayed, an outage) keeps at most this many jobs' data in Redis. Written into each job when it is queued.
   */
  WRENCH_QUEUE_FAILED_MAX: z.coerce
    .number({ message: 'WRENCH_QUEUE_FAILED_MAX must be a number of jobs' })
    .int()
    .min(1, { message: 'WRENCH_QUEUE_FAILED_MAX must be at least 1' })
    .default(1000),
  /**
   * Host affinity (src/queue/host-affinity.ts): how long a task may wait for a worker that holds its repository warm and
   * has a free slot, before any worker takes it; 0 turns affinity off.
   */
  WRENCH_AFFINITY_MS: z.coerce.number({ message: 'WRENCH_AFFINITY_MS must be a number of milliseconds' }).int().min(0).max(60_000).default(2000),
  /** This worker's name in affinity heartbeats (one per data dir in practice); default hostname and process id. */
  WRENCH_HOST_ID: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_.-]{1,100}$/, { message: 'WRENCH_HOST_ID must be letters, digits, _ . - (up to 100)' })
    .optional(),
  /** On SIGTERM/SIGINT, running jobs get this long to finish before they are stopped (work kept, thread told). */
  WRENCH_SHUTDOWN_GRACE_SECONDS: z.coerce.number({ message: 'WRENCH_SHUTDOWN_GRACE_SECONDS must be a number of seconds' }).min(0).default(25),
  /**
   * After the grace, how long stopped jobs get to hand their work back (push, draft pull request, thread told) before
   * shutdown goes on without them; a job left running is then found stalled and restarted by another worker.
   */
  WRENCH_SHUTDOWN_HAND_BACK_SECONDS: z.coerce.number({ message: 'WRENCH_SHUTDOWN_HAND_BACK_SECONDS must be a number of seconds' }).min(0).default(30),
  /** The bound of every other shutdown step (closing connections, queues, the outbox): one that takes longer is left behind. */
  WRENCH_SHUTDOWN_STEP_SECONDS: z.coerce.number({ message: 'WRENCH_SHUTDOWN_STEP_SECONDS must be a number of seconds' }).positive().default(3),
  /** Sign in with Slack (OpenID Connect) for run pages, besides signed links: the app's client id and secret. */
  SLACK_CLIENT_ID: nonEmpty.optional(),
  SLACK_CLIENT_SECRET: nonEmpty.optional(),
  /** Base of links to run pages (https://wrench.example.com); unset: no links. */
  WRENCH_PUBLIC_URL: url('WRENCH_PUBLIC_URL').optional(),
  /** HMAC key of run-page links; default: derived from SLACK_SIGNING_SECRET (or SLACK_APP_TOKEN). */
  WRENCH_RUN_LINK_SECRET: z.string().trim().min(16, { message: 'WRENCH_RUN_LINK_SECRET must be at least 16 characters' }).optional(),
  /** How long run records (and their links) are kept. */
  WRENCH_RUN_RETENTION_DAYS: z.coerce
    .number({ message: 'WRENCH_RUN_RETENTION_DAYS must be a number of days' })
    .positive({ message: 'WRENCH_RUN_RETENTION_DAYS must be more than 0' })
    .default(30),
  /** How long the bundles of pushes refused for a secret are kept under WRENCH_DATA_DIR/held. */
  WRENCH_HELD_RETENTION_DAYS: z.coerce
    .number({ message: 'WRENCH_HELD_RETENTION_DAYS must be a number of days' })
    .positive({ message: 'WRENCH_HELD_RETENTION_DAYS must be more than 0' })
    .default(14),
  /**
   * How long a thread's session (what a follow-up in the thread continues from, its pull request's way back to the
   * thread) is kept after the thread's last change; longer than `limits.questionTimeoutHours` (load-config.ts).
   */
  WRENCH_THREAD_RETENTION_DAYS: z.coerce
    .number({ message: 'WRENCH_THREAD_RETENTION_DAYS must be a number of days' })
    .positive({ message: 'WRENCH_THREAD_RETENTION_DAYS must be more than 0' })
    .default(90),
  /** Size cap of one run's record; later steps are dropped with a note once it is reached. */
  WRENCH_RUN_MAX_KB: z.coerce
    .number({ message: 'WRENCH_RUN_MAX_KB must be a number of kilobytes' })
    .int()
    .min(16, { message: 'WRENCH_RUN_MAX_KB must be at least 16' })
    .default(2048),
  /** GET /metrics: off (404) unless on; with WRENCH_METRICS_TOKEN set it is on and needs that bearer token. */
  WRENCH_METRICS: z.enum(['on', 'off'], { message: 'WRENCH_METRICS must be on or off' }).default('off'),
  WRENCH_METRICS_TOKEN: z.string().trim().min(16, { message: 'WRENCH_METRICS_TOKEN must be at least 16 characters' }).optional(),
  /** How long a web process holds a mention it is handling; one that died with it is taken over after this. */
  WRENCH_MENTION_CLAIM_SECONDS: z.coerce
    .number({ message: 'WRENCH_MENTION_CLAIM_SECONDS must be a number of seconds' })
    .int()
    .min(1, { message: 'WRENCH_MENTION_CLAIM_SECONDS must be at least 1' })
    .default(60),
  /** A thread reply Slack keeps refusing is retried this long, then logged as undeliverable (`wrench doctor`). */
  WRENCH_SLACK_DELIVERY_HOURS: z.coerce
    .number({ message: 'WRENCH_SLACK_DELIVERY_HOURS must be a number of hours' })
    .positive({ message: 'WRENCH_SLACK_DELIVERY_HOURS must be more than 0' })
    .default(24),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type EnvOptions = z.infer<typeof envSchema>;

/** Empty strings count as unset, as in most twelve-factor services. */
export function withoutEmptyValues(env: NodeJS.ProcessEnv): Record<string, string> {
  const entries = Object.entries(env).filter((entry): entry is [string, string] => !!entry[1]?.trim());
  return Object.fromEntries(entries);
}
