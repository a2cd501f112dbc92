import { execFile } from 'node:child_process';
import { channelRepositories } from '../../src/config/config-file.js';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import Anthropic from '@anthropic-ai/sdk';
import { LogLevel, WebClient } from '@slack/web-api';
import { Cluster, Redis, type RedisOptions } from 'ioredis';
import type { Config } from '../../src/config/load-config.js';
import { isWrenchError } from '../../src/errors.js';
import { repoRefOf } from '../../src/repository/resolve-repository.js';
import { createOctokit } from '../../src/github/create-octokit.js';
import { createGitHubAccess } from '../../src/github/github-access.js';
import type { InstallationAuth } from '../../src/github/installation-auth.js';
import { createLogger } from '../../src/logging/logger.js';
import { openRedis, type RedisClient } from '../../src/redis/redis-connection.js';
import { describeRedis, redisConnectionOptions, type RedisConnectionOptions } from '../../src/redis/redis-options.js';
import { checkSandbox } from '../../src/sandbox/check-sandbox.js';
import { cacheSizes, humanBytes } from './cache-sizes.js';
import { heldWorkDir, listHeldTrees, listHeldWork } from '../../src/workspace/hold-refused-work.js';
import { dataDirLow } from '../../src/workspace/disk-space.js';
import { checkMonitoringSources } from './monitoring-check.js';
import { checkUpstreamProxy } from './upstream-proxy-check.js';
import { readQuarantined, readUndeliverable } from '../../src/slack/thread-outbox.js';
import { readRefusals } from '../../src/slack/agent-surfaces.js';
import { epochFile, epochKeys, recordedLosses } from '../../src/redis/redis-epoch.js';
import { IntakeJournal, intakeJournalDir } from '../../src/slack/intake-journal.js';

const run = promisify(execFile);

export interface CheckResult {
  name: string;
  ok: boolean;
  /** What was found, or what is wrong. */
  detail: string;
  /** What to do when it is not ok. */
  fix?: string;
  /** Optional parts (PagerDuty) that are off are not failures. */
  skipped?: boolean;
  /** Works, but is unsafe: shown as WARN with its fix, not counted as a failure. */
  warning?: boolean;
}

type Check = (config: Config) => Promise<CheckResult>;

const errorText = (error: unknown) => (error as { data?: { error?: string } }).data?.error ?? (error as Error).message;

type Cause = 'unreachable' | 'refused' | 'timed out' | 'unauthorized' | 'forbidden' | 'not found' | 'other';

/** What actually went wrong with a call to a service, from Node's network codes or the HTTP status. */
export function failureCause(error: unknown): Cause {
  const seen = new Set<unknown>();
  for (
    let e = error as { code?: unknown; status?: unknown; statusCode?: unknown; cause?: unknown; data?: { error?: unknown } } | undefined;
    e && !seen.has(e);
    e = e.cause as typeof e
  ) {
    seen.add(e);
    const code = typeof e.code === 'string' ? e.code : '';
    if (code === 'ECONNREFUSED') return 'refused';
    if (['ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNRESET'].includes(code)) return 'unreachable';
    if (['ETIMEDOUT', 'ESOCKETTIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT'].includes(code) || (e as Error).name === 'TimeoutError') return 'timed out';
    // Octokit and Anthropic errors carry `status`, the Slack client's HTTP errors `statusCode`.
    const status = e.status ?? e.statusCode;
    if (status === 401 || e.data?.error === 'invalid_auth' || e.data?.error === 'not_authed') return 'unauthorized';
    if (status === 403) return 'forbidden';
    if (status === 404) return 'not found';
  }
  return /connection refused|ECONNREFUSED/i.test(String((error as Error)?.message)) ? 'refused' : 'other';
}

const NETWORK_CAUSES: Cause[] = ['unreachable', 'refused', 'timed out'];

/** "cannot connect to URL (connection refused)" for network failures, else the service's own words. */
function failureDetail(error: unknown, url: string): string {
  const cause = failureCause(error);
  if (cause === 'refused') return `cannot connect to ${url} (connection refused)`;
  if (cause === 'unreachable') return `cannot reach ${url} (host unknown or network unreachable)`;
  if (cause === 'timed out') return `${url} did not answer in time`;
  return errorText(error);
}

export const checkRedis: Check = async (config) => {
  if (!config.env.REDIS_URL) {
    try {
      const { stdout } = await run('redis-server', ['--version']);
      return { name: 'Redis', ok: true, detail: `REDIS_URL unset: Wrench will start its own (${stdout.trim().split(' ').slice(0, 3).join(' ')})` };
    } catch {
      return {
        name: 'Redis',
        ok: false,
        detail: 'REDIS_URL is unset and no redis-server binary was found',
        fix: 'apt-get install redis-server, or set REDIS_URL',
      };
    }
  }
  const shown = describeRedis(config.env);
  let options;
  try {
    options = redisConnectionOptions(config.env);
  } catch (error) {
    return { name: 'Redis', ok: false, detail: errorText(error), fix: 'Fix WRENCH_REDIS_CA_FILE, REDIS_SENTINELS, REDIS_CLUSTER_NODES or REDIS_URL' };
  }
  if (options.clusterNodes) return await checkCluster(config.env.REDIS_URL, config.env.WRENCH_QUEUE_PREFIX, options, shown);
  const redis = new Redis(config.env.REDIS_URL, { ...options, ...ONE_TRY });
  // The connection's own error (ECONNREFUSED...) arrives as an event; connect() only says "Connection is closed".
  // Listening also keeps ioredis from printing it with a stack trace.
  let connectionError: unknown;
  redis.on('error', (error) => (connectionError ??= error));
  // What each sentinel said when it could not name the primary (unreachable, or no such master group).
  const sentinelErrors: string[] = [];
  redis.on('sentinelError', (error: Error) => sentinelErrors.push(error.message));
  let clusterNode = false;
  try {
    await redis.connect();
    await redis.ping();
    // INFO may be refused to Wrench's ACL user: then this is not known, and not held against the server.
    clusterNode = /^cluster_enabled:1\s*$/m.test(await redis.info('cluster').catch(() => ''));
  } catch (thrown) {
    const error = connectionError ?? thrown;
    if (options.sentinels) return await sentinelFailure(options, sentinelErrors, error);
    // ioredis's parser on a reply that is not RESP, e.g. `Unknown RESP type 72 "H"` from an HTTP server's "HTTP/1.1".
    const notResp = /Unknown RESP type (\d+)/.exec(errorText(error));
    if (notResp) {
      const first = String.fromCharCode(Number(notResp[1]));
      return {
        name: 'Redis',
        ok: false,
        detail: `${config.env.REDIS_URL} is not a Redis server: it answered in another protocol (first byte "${first}"${first === 'H' ? ', as an HTTP server does' : ''})`,
        fix: 'Point REDIS_URL at Redis itself (redis://HOST:6379 by default), not at a web or other service',
      };
    }
    const network = NETWORK_CAUSES.includes(failureCause(error));
    return {
      name: 'Redis',
      ok: false,
      detail: network ? failureDetail(error, shown) : `${shown}: ${errorText(error)}`,
      fix: network ? 'Start Redis (or fix REDIS_URL): Wrench keeps its queue and threads there' : 'Check REDIS_URL (password, database) and the Redis server',
    };
  } finally {
    redis.disconnect();
  }
  if (clusterNode) {
    return {
      name: 'Redis',
      ok: false,
      detail: `${shown} is a node of a Redis Cluster, but REDIS_CLUSTER_NODES is not set: Wrench would talk to this node alone, and it refuses the keys of the other nodes' slots (MOVED)`,
      fix: 'Set REDIS_CLUSTER_NODES to more nodes of the cluster (host:port,host:port) and WRENCH_QUEUE_PREFIX to a hash tag ({wrench}), or point REDIS_URL at a standalone Redis',
    };
  }
  if (await answersWithoutPassword(config.env.REDIS_URL, options)) {
    return {
      name: 'Redis',
      ok: true,
      warning: true,
      detail: `${shown} answers, and also accepts commands from a client that gives no password: any process that reaches it can read Wrench's threads and queue jobs that run with Wrench's GitHub credentials`,
      fix: 'Set requirepass (or ACL users) on that Redis and put the password in REDIS_URL (redis://:PASSWORD@host:port)',
    };
  }
  return { name: 'Redis', ok: true, detail: `${shown} answers, and refuses clients without its password` };
};

const ONE_TRY = {
  lazyConnect: true,
  maxRetriesPerRequest: 1,
  connectTimeout: 3000,
  retryStrategy: () => null,
  sentinelRetryStrategy: () => null,
  clusterOptions: { maxRedirections: 3 },
} as const;

/**
 * A Redis Cluster (REDIS_CLUSTER_NODES): reachable from the nodes given, cluster_state:ok, which master holds
 * WRENCH_QUEUE_PREFIX's slot (every key of Wrench's), and whether its nodes refuse clients without the password.
 */
async function checkCluster(url: string, prefix: string, options: RedisConnectionOptions, shown: string): Promise<CheckResult> {
  const cluster = openRedis(url, { ...options, ...ONE_TRY });
  const nodeErrors = new Map<string, string>();
  cluster.on('node error', (error: Error, address: string) => nodeErrors.set(address, errorText(error)));
  cluster.on('error', () => undefined);
  let state: string;
  let masters: number;
  let holder: string;
  try {
    await cluster.connect();
    const info = String(await cluster.cluster('INFO'));
    state = /^cluster_state:(\w+)/m.exec(info)?.[1] ?? 'unknown';
    masters = cluster instanceof Cluster ? cluster.nodes('master').length : 1;
    const slot = Number(await cluster.cluster('KEYSLOT', prefix));
    const owner = cluster instanceof Cluster ? cluster.slots[slot]?.[0] : undefined;
    holder = `slot ${slot}${owner ? ` on ${owner}` : ''}`;
  } catch (error) {
    // ioredis's own words are "None of startup nodes is available" or "Connection is closed": each node is asked again.
    const seeds = options.clusterNodes ?? [];
    const answers = await Promise.all(seeds.map((seed) => askClusterNode(url, seed, options)));
    const problems = seeds.flatMap((seed, i) => (answers[i] ? [`${seed.host}:${seed.port} ${answers[i]}`] : []));
    const detail =
      problems.length > 0 ? problems.join('; ') : [...nodeErrors].map(([address, message]) => `${address}: ${message}`).join('; ') || errorText(error);
    const auth = /NOAUTH|WRONGPASS|password|NOPERM/i.test(detail);
    const notCluster = /cluster support disabled/i.test(detail);
    return {
      name: 'Redis',
      ok: false,
      detail: `${shown}: ${detail}`,
      fix: notCluster
        ? "Unset REDIS_CLUSTER_NODES for a standalone Redis, or point REDIS_URL and REDIS_CLUSTER_NODES at the cluster's nodes"
        : auth
          ? "Check REDIS_URL's user and password: every node of the cluster is asked with them"
          : 'Start the cluster, or fix REDIS_URL and REDIS_CLUSTER_NODES (host:port of nodes of the cluster)',
    };
  } finally {
    cluster.disconnect();
  }
  if (state !== 'ok') {
    return {
      name: 'Redis',
      ok: false,
      detail: `${shown} says cluster_state:${state}: some slots have no master that answers, and the commands for their keys fail`,
      fix: 'Check the cluster (redis-cli --cluster check HOST:PORT): every slot needs a master',
    };
  }
  const found = `${shown} answers: cluster_state:ok, ${masters} master${masters === 1 ? '' : 's'}; Wrench's keys (${prefix}) are in ${holder}`;
  if (await answersWithoutPassword(url, options)) {
    return {
      name: 'Redis',
      ok: true,
      warning: true,
      detail: `${found}, and it also accepts commands from a client that gives no password: any process that reaches it can read Wrench's threads and queue jobs that run with Wrench's GitHub credentials`,
      fix: 'Set requirepass (or ACL users) on every node of the cluster and put the password in REDIS_URL (redis://:PASSWORD@host:port)',
    };
  }
  return { name: 'Redis', ok: true, detail: `${found}, and refuses clients without its password` };
}

/** Why no primary was found through the sentinels: none answered, none knows the group, or the primary they name fails. */
async function sentinelFailure(options: RedisOptions, sentinelErrors: string[], error: unknown): Promise<CheckResult> {
  const sentinels = options.sentinels ?? [];
  const listed = sentinels.map((s) => `${s.host}:${s.port}`).join(', ');
  const group = options.name;
  // ioredis only says "Connection is closed." of a sentinel it could not reach: each one is asked again for the cause.
  const answers = await Promise.all(sentinels.map((sentinel) => askSentinel(sentinel.host ?? '127.0.0.1', sentinel.port ?? 26379, options.sentinelPassword)));
  if (answers.every((answer) => answer !== undefined)) {
    return {
      name: 'Redis',
      ok: false,
      detail: `none of the sentinels in REDIS_SENTINELS answers: ${sentinels.map((s, i) => `${s.host}:${s.port} ${answers[i]}`).join('; ')}`,
      fix: 'Start the sentinels, or fix REDIS_SENTINELS (host:port of each sentinel, usually port 26379) and REDIS_SENTINEL_PASSWORD',
    };
  }
  if (sentinelErrors.length > 0 && sentinelErrors.every((message) => /got an invalid reply: null$/.test(message) || message.startsWith('failed to connect'))) {
    return {
      name: 'Redis',
      ok: false,
      detail: `the sentinels in REDIS_SENTINELS (${listed}) know no master group named "${group}" (REDIS_URL's host)`,
      fix: 'Put the group name of the sentinels\' "sentinel monitor" line as REDIS_URL\'s host (redis://:PASSWORD@mymaster)',
    };
  }
  const detail = errorText(error);
  return {
    name: 'Redis',
    ok: false,
    detail: `the primary of "${group}" named by sentinels ${listed}: ${detail}`,
    fix: /NOAUTH|WRONGPASS|password/i.test(detail)
      ? "Check REDIS_URL's password: it is the primary's and the replicas' (REDIS_SENTINEL_PASSWORD is the sentinels')"
      : `Check the primary the sentinels name (redis-cli -p 26379 sentinel get-master-addr-by-name ${group})`,
  };
}

/** Why one node given for a cluster cannot be used (refused, wrong password, not a cluster node...), or undefined. */
async function askClusterNode(url: string, node: { host: string; port: number }, options: RedisConnectionOptions): Promise<string | undefined> {
  const { clusterNodes: _, ...nodeOptions } = options;
  const parsed = new URL(url);
  parsed.host = node.host.includes(':') ? `[${node.host}]:${node.port}` : `${node.host}:${node.port}`;
  const redis = new Redis(parsed.toString(), { ...nodeOptions, ...ONE_TRY });
  let connectionError: unknown;
  redis.on('error', (error) => (connectionError ??= error));
  try {
    await redis.connect();
    const info = await redis.info('cluster').catch(() => '');
    return /^cluster_enabled:0\s*$/m.test(info) ? '(not a cluster node: cluster support disabled)' : undefined;
  } catch (thrown) {
    return whyNot(connectionError ?? thrown);
  } finally {
    redis.disconnect();
  }
}

/** Why one sentinel does not answer PING (connection refused, wrong password...), or undefined when it does. */
async function askSentinel(host: string, port: number, password: string | undefined): Promise<string | undefined> {
  const sentinel = new Redis({ host, port, ...(password ? { password } : {}), ...ONE_TRY });
  let connectionError: unknown;
  sentinel.on('error', (error) => (connectionError ??= error));
  try {
    await sentinel.connect();
    await sentinel.ping();
    return undefined;
  } catch (thrown) {
    return whyNot(connectionError ?? thrown);
  } finally {
    sentinel.disconnect();
  }
}

/** A connection's failure in a few words, in parentheses. */
function whyNot(error: unknown): string {
  const cause = failureCause(error);
  if (cause === 'refused') return '(connection refused)';
  if (cause === 'unreachable') return '(host unknown or network unreachable)';
  if (cause === 'timed out') return '(did not answer in time)';
  return `(${errorText(error)})`;
}

/** Whether a second connection to the same Redis, with no username and no password, gets PONG for PING. */
async function answersWithoutPassword(url: string, options: RedisConnectionOptions): Promise<boolean> {
  const anonymous = new URL(url);
  anonymous.username = '';
  anonymous.password = '';
  const redis = openRedis(anonymous.toString(), { ...options, ...ONE_TRY });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

/**
 * A check that reads what Wrench recorded in Redis: skipped (not failed) where only the embedded Redis would hold it,
 * or where Redis does not answer; `read` is given a connected client, disconnected after.
 */
async function readingRedis(config: Config, name: string, read: (redis: RedisClient) => Promise<CheckResult>): Promise<CheckResult> {
  if (!config.env.REDIS_URL) return { name, ok: true, skipped: true, detail: 'REDIS_URL unset: the embedded Redis is only read while Wrench runs' };
  let redis: RedisClient;
  try {
    redis = openRedis(config.env.REDIS_URL, { ...redisConnectionOptions(config.env), ...ONE_TRY });
  } catch (error) {
    return { name, ok: true, skipped: true, detail: `not checked: ${errorText(error)}` };
  }
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    return await read(redis);
  } catch (error) {
    return { name, ok: true, skipped: true, detail: `not checked: Redis did not answer (${errorText(error)})` };
  } finally {
    redis.disconnect();
  }
}

/**
 * Thread replies the outbox gave up on after WRENCH_SLACK_DELIVERY_HOURS of Slack refusing them, and those it set
 * aside (quarantined) because it could not read them or keep track of them.
 */
export const checkSlackDeliveries: Check = async (config) => {
  const name = 'Slack deliveries';
  return readingRedis(config, name, async (redis) => {
    const [undeliverable, quarantined] = await Promise.all([
      readUndeliverable(redis, config.env.WRENCH_QUEUE_PREFIX, 5),
      readQuarantined(redis, config.env.WRENCH_QUEUE_PREFIX, 5),
    ]);
    if (undeliverable.total === 0 && quarantined.total === 0) return { name, ok: true, detail: 'every thread reply was delivered (or is still being retried)' };
    const parts: string[] = [];
    if (undeliverable.total > 0) {
      const lines = undeliverable.recent.map(
        (m) => `  ${m.givenUpAt} ${m.channel} thread ${m.threadTs}: ${m.op}${m.text ? ` "${m.text.slice(0, 80)}"` : ''} (${m.error}, ${m.attempts} attempts)`,
      );
      const total = undeliverable.total;
      parts.push(`${total} thread repl${total === 1 ? 'y was' : 'ies were'} never delivered; the newest:\n${lines.join('\n')}`);
    }
    if (quarantined.total > 0) {
      const lines = quarantined.recent.map(
        (m) =>
          `  ${m.quarantinedAt} ${m.channel} ${m.threadTs ? `thread ${m.threadTs}` : '(channel)'}: ${m.op ?? 'unreadable item'}${m.text ? ` "${m.text.slice(0, 80)}"` : ''} (${m.error}; ${m.failures} failures; ${m.delivered ? 'Slack had taken it' : 'not delivered'})`,
      );
      const total = quarantined.total;
      parts.push(
        `${total} outbox item${total === 1 ? ' was' : 's were'} quarantined (kept in Redis under ${config.env.WRENCH_QUEUE_PREFIX}:outbox:quarantine); the newest:\n${lines.join('\n')}`,
      );
    }
    return {
      name,
      ok: false,
      detail: parts.join('\n'),
      fix:
        undeliverable.total > 0
          ? 'Check that the bot is still in those channels and its token is valid (the Slack check above); the people in those threads did not get these messages'
          : 'The messages after them were delivered; read the quarantined items in Redis and tell the people in those threads what they missed',
    };
  });
};

/** Which Slack agent methods (status line, streamed runs) a workspace refused lately: those runs show an ordinary message instead. */
export const checkSlackAgentSurfaces: Check = async (config) => {
  const name = 'Slack agent surfaces';
  return readingRedis(config, name, async (redis) => {
    const refusals = await readRefusals(redis, config.env.WRENCH_QUEUE_PREFIX);
    // slack.streamRuns is on by default; false is the operator's opt-out, and then every run shows the card.
    const streams =
      config.file?.slack.streamRuns === false
        ? 'slack.streamRuns: false, so every run shows the status card'
        : 'runs stream as one message where Slack allows it (slack.streamRuns, on by default)';
    if (refusals.length === 0) return { name, ok: true, detail: `no workspace refused the status line or streamed replies lately; ${streams}` };
    const lines = refusals.map((r) => `  ${r.team}: ${r.method} answered ${r.error}`);
    return {
      name,
      ok: true,
      // Not a failure: those runs show an ordinary message of the same shape. missing_scope: reinstall the app with chat:write; not_allowed or
      // feature_disabled: a workspace or Enterprise policy (docs/getting-started.md: the Slack app).
      detail: `refused lately (remembered for a day; no status line there, and each run's one message is an ordinary one instead of a stream; ${streams}):\n${lines.join('\n')}`,
    };
  });
};

export const checkGit: Check = async () => {
  try {
    const { stdout } = await run('git', ['--version']);
    return { name: 'git', ok: true, detail: stdout.trim() };
  } catch {
    return { name: 'git', ok: false, detail: 'git was not found', fix: 'apt-get install git' };
  }
};

export const checkSandboxWorks: Check = async (config) => {
  if (config.file.sandbox.mode === 'none')
    return { name: 'sandbox', ok: true, detail: 'sandbox.mode is none: agent commands run WITHOUT isolation (a warning is logged on every job)' };
  const result = await checkSandbox();
  return result.ok
    ? { name: 'sandbox', ok: true, detail: 'bubblewrap works' }
    : { name: 'sandbox', ok: false, detail: result.problem ?? 'bubblewrap does not work', fix: result.fix };
};

export const checkSlack: Check = async (config) => {
  if (!config.env.SLACK_BOT_TOKEN)
    return { name: 'Slack', ok: false, detail: 'SLACK_BOT_TOKEN is not set', fix: 'Set SLACK_BOT_TOKEN (xoxb-...) from OAuth & Permissions' };
  try {
    const auth = await new WebClient(config.env.SLACK_BOT_TOKEN, {
      slackApiUrl: config.env.SLACK_API_URL,
      retryConfig: { retries: 0 },
      logLevel: LogLevel.ERROR,
    }).auth.test();
    const mode = config.env.SLACK_APP_TOKEN
      ? 'Socket Mode'
      : config.env.SLACK_SIGNING_SECRET
        ? 'HTTP (POST /slack/events)'
        : 'no SLACK_SIGNING_SECRET or SLACK_APP_TOKEN';
    const ok = !!(config.env.SLACK_APP_TOKEN || config.env.SLACK_SIGNING_SECRET);
    return {
      name: 'Slack',
      ok,
      detail: `bot ${auth.user} in ${auth.team}; ${mode}`,
      fix: ok ? undefined : 'Set SLACK_SIGNING_SECRET, or SLACK_APP_TOKEN for Socket Mode',
    };
  } catch (error) {
    const cause = failureCause(error);
    if (cause === 'forbidden')
      return {
        name: 'Slack',
        ok: false,
        detail: `auth.test was refused with HTTP 403 at ${config.env.SLACK_API_URL}: SLACK_BOT_TOKEN is not permitted there (a permission problem, not the network)`,
        fix: 'Check that the app is still installed in the workspace and that SLACK_BOT_TOKEN may be used from this machine (OAuth & Permissions → Restrict API Token Usage: allowed IP addresses)',
      };
    const network = NETWORK_CAUSES.includes(cause);
    return network
      ? {
          name: 'Slack',
          ok: false,
          detail: `auth.test failed: ${failureDetail(error, config.env.SLACK_API_URL)}`,
          fix: 'Check SLACK_API_URL and the network (outbound HTTPS to Slack)',
        }
      : { name: 'Slack', ok: false, detail: `auth.test failed: ${errorText(error)}`, fix: 'Check SLACK_BOT_TOKEN (the Bot User OAuth Token, xoxb-...)' };
  }
};

export const checkAnthropic: Check = async (config) => {
  if (!config.env.ANTHROPIC_API_KEY) return { name: 'Anthropic', ok: false, detail: 'ANTHROPIC_API_KEY is not set', fix: 'Set ANTHROPIC_API_KEY' };
  try {
    const client = new Anthropic({ apiKey: config.env.ANTHROPIC_API_KEY, baseURL: config.env.ANTHROPIC_BASE_URL, maxRetries: 0, timeout: 10_000 });
    await client.messages.countTokens({ model: config.env.WRENCH_MODEL, messages: [{ role: 'user', content: 'ping' }] });
    return { name: 'Anthropic', ok: true, detail: `key accepted; model ${config.env.WRENCH_MODEL}` };
  } catch (error) {
    const status = (error as { status?: number }).status;
    const cause = failureCause(error);
    const url = config.env.ANTHROPIC_BASE_URL ?? 'https://api.anthropic.com';
    const fix =
      cause === 'unauthorized'
        ? 'Check ANTHROPIC_API_KEY'
        : cause === 'forbidden'
          ? `ANTHROPIC_API_KEY is not permitted to use ${config.env.WRENCH_MODEL} (a permission problem, not the network): use a key whose workspace may use that model, or set WRENCH_MODEL to one it may`
          : cause === 'not found'
            ? 'Check WRENCH_MODEL'
            : 'Check ANTHROPIC_BASE_URL and the network';
    const detail = NETWORK_CAUSES.includes(cause) || status === undefined ? failureDetail(error, url) : `HTTP ${status}: ${errorText(error)}`;
    return { name: 'Anthropic', ok: false, detail, fix };
  }
};

export const checkGitHub: Check = async (config) => {
  const url = config.env.GITHUB_API_URL;
  const webhook = config.env.GITHUB_WEBHOOK_SECRET ? 'webhook on' : 'webhook off (GITHUB_WEBHOOK_SECRET unset)';
  const repositories = [...new Set(Object.values(config.file.channels).flatMap(channelRepositories))];
  if (!config.env.GITHUB_TOKEN) {
    const access = createGitHubAccess(config.env);
    if (!access?.app)
      return {
        name: 'GitHub',
        ok: false,
        detail: 'no GitHub credential: GITHUB_TOKEN and GITHUB_APP_ID are unset',
        fix: 'Set GITHUB_TOKEN to a token that can push branches and open pull requests, or GITHUB_APP_ID with GITHUB_APP_PRIVATE_KEY_PATH for a GitHub App',
      };
    try {
      return await checkGitHubApp(access.app, repositories, webhook);
    } catch (error) {
      return { name: 'GitHub', ok: false, detail: failureDetail(error, url), fix: 'Check GITHUB_APP_ID, the private key and GITHUB_API_URL' };
    }
  }
  const octokit = createOctokit({ token: config.env.GITHUB_TOKEN, baseUrl: url, silent: true });
  try {
    await octokit.request('GET /rate_limit', { request: { retries: 0, signal: AbortSignal.timeout(10_000) } });
  } catch (error) {
    const cause = failureCause(error);
    if (cause === 'unauthorized')
      return { name: 'GitHub', ok: false, detail: `the token was refused at ${url} (HTTP 401)`, fix: 'Check GITHUB_TOKEN: it may be revoked or expired' };
    if (cause === 'forbidden') return gitHubForbidden(error, url);
    return {
      name: 'GitHub',
      ok: false,
      detail: failureDetail(error, url),
      fix: 'Check GITHUB_API_URL (GitHub Enterprise: https://HOST/api/v3) and the network',
    };
  }
  const unreadable: string[] = [];
  for (const fullName of repositories) {
    const { owner, name: repo } = repoRefOf(fullName);
    await octokit.repos.get({ owner, repo, request: { retries: 0 } }).catch((error) => {
      const cause = failureCause(error);
      unreadable.push(`${fullName} (${cause === 'forbidden' ? 'HTTP 403: no permission' : cause === 'other' ? errorText(error) : cause})`);
    });
  }
  if (unreadable.length)
    return {
      name: 'GitHub',
      ok: false,
      detail: `GITHUB_TOKEN cannot read ${unreadable.join(', ')}`,
      fix: `Give GITHUB_TOKEN access to these repositories with ${TOKEN_PERMISSIONS}`,
    };
  return { name: 'GitHub', ok: true, detail: `token works at ${url}; ${webhook}` };
};

/** The permissions Wrench uses (docs/github-app.md: creating the App). */
const APP_PERMISSIONS: Record<string, 'read' | 'write'> = {
  contents: 'write',
  pull_requests: 'write',
  issues: 'write',
  checks: 'read',
  actions: 'read',
  metadata: 'read',
};

const TOKEN_PERMISSIONS =
  'the permissions Wrench uses: a fine-grained token needs Contents, Pull requests and Issues: read and write, Checks, Actions and Metadata: read; a classic token the repo scope';

/** GitHub answers 403 both for a token without permission and for a used-up rate limit: say which. */
function gitHubForbidden(error: unknown, url: string): CheckResult {
  const message = errorText(error);
  if (/rate limit/i.test(message))
    return {
      name: 'GitHub',
      ok: false,
      detail: `GitHub's rate limit for GITHUB_TOKEN is used up at ${url} (HTTP 403: ${message})`,
      fix: 'Wait for the limit to reset (within the hour), or give Wrench a token of its own',
    };
  return {
    name: 'GitHub',
    ok: false,
    detail: `GITHUB_TOKEN was refused at ${url} (HTTP 403: ${message}): a permission problem, not the network`,
    fix: `Give GITHUB_TOKEN ${TOKEN_PERMISSIONS}; in an organisation with SAML single sign-on, also authorize the token for that organisation`,
  };
}

/** Can the App see each configured repository, and with which permissions? */
async function checkGitHubApp(app: InstallationAuth, repositories: string[], webhook: string): Promise<CheckResult> {
  await app.appToken();
  const problems: string[] = [];
  const seen: string[] = [];
  let refusedCredentials = false;
  for (const fullName of repositories) {
    const { owner, name: repo } = repoRefOf(fullName);
    try {
      const token = await app.tokenFor(owner, repo);
      const lacking = Object.entries(APP_PERMISSIONS)
        .filter(([name, level]) => !(token.permissions[name] === 'write' || (level === 'read' && token.permissions[name] === 'read')))
        .map(([name, level]) => `${name}: ${level}`);
      const granted = Object.entries(token.permissions)
        .map(([name, level]) => `${name}:${level}`)
        .join(', ');
      seen.push(`${fullName} (installation ${token.installationId}: ${granted || 'no permissions'})`);
      if (lacking.length) problems.push(`${fullName} lacks ${lacking.join(', ')}`);
    } catch (error) {
      if (isWrenchError(error) && error.code === 'github_app_credentials') refusedCredentials = true;
      problems.push(errorText(error));
    }
  }
  if (refusedCredentials)
    return {
      name: 'GitHub',
      ok: false,
      detail: `GitHub refused the App's signed token (GITHUB_APP_ID ${app.appId}): a credentials problem, not the installation (${problems[0]})`,
      fix: "Check that GITHUB_APP_ID is the App's id and that GITHUB_APP_PRIVATE_KEY_PATH (or GITHUB_APP_PRIVATE_KEY) is one of its current private keys (App settings → Private keys); a deleted key is refused the same way",
    };
  if (problems.length)
    return {
      name: 'GitHub',
      ok: false,
      detail: problems.join('; '),
      fix: 'Install the GitHub App on these repositories and grant the permissions listed in docs/github-app.md',
    };
  return { name: 'GitHub', ok: true, detail: `GitHub App works${seen.length ? `: ${seen.join('; ')}` : ' (no repositories configured)'}; ${webhook}` };
}

export const checkPagerDuty: Check = async (config) => {
  if (!config.env.PAGERDUTY_API_TOKEN) return { name: 'PagerDuty', ok: true, skipped: true, detail: 'off (PAGERDUTY_API_TOKEN unset)' };
  if (!config.env.PAGERDUTY_FROM_EMAIL)
    return {
      name: 'PagerDuty',
      ok: false,
      detail: 'PAGERDUTY_FROM_EMAIL is not set',
      fix: 'Set PAGERDUTY_FROM_EMAIL to the email of a PagerDuty user (the From header of notes)',
    };
  try {
    const response = await fetch(new URL('/abilities', config.env.PAGERDUTY_API_URL), {
      headers: { Authorization: `Token token=${config.env.PAGERDUTY_API_TOKEN}`, Accept: 'application/vnd.pagerduty+json;version=2' },
      signal: AbortSignal.timeout(10_000),
    });
    if (response.status === 401 || response.status === 403)
      return { name: 'PagerDuty', ok: false, detail: `the token was refused (HTTP ${response.status})`, fix: 'Check PAGERDUTY_API_TOKEN (a REST API key)' };
    if (!response.ok) return { name: 'PagerDuty', ok: false, detail: `HTTP ${response.status}`, fix: 'Check PAGERDUTY_API_URL' };
    const webhook = config.env.PAGERDUTY_WEBHOOK_SECRETS.length ? 'webhook on' : 'webhook off (PAGERDUTY_WEBHOOK_SECRETS unset)';
    return { name: 'PagerDuty', ok: true, detail: `token works; ${webhook}` };
  } catch (error) {
    return { name: 'PagerDuty', ok: false, detail: failureDetail(error, config.env.PAGERDUTY_API_URL), fix: 'Check PAGERDUTY_API_URL and the network' };
  }
};

export const checkCaches: Check = async (config) => {
  try {
    return { name: 'Warm-start caches', ok: true, detail: `${await cacheSizes(config, createLogger({ level: 'silent' }))} (under ${config.dataDir})` };
  } catch (error) {
    return { name: 'Warm-start caches', ok: false, detail: `cannot read them: ${errorText(error)}`, fix: `Check that ${config.dataDir} is readable` };
  }
};

/** Free space on the data dir: below WRENCH_MIN_FREE_MB new runs wait (said in their threads) instead of starting. */
export const checkDiskSpace: Check = async (config) => {
  const min = config.env.WRENCH_MIN_FREE_MB;
  try {
    const { low, freeMb, totalMb } = await dataDirLow(config.dataDir, min);
    const detail = `${freeMb} MB free of ${totalMb} MB on ${config.dataDir}${min > 0 ? `; new runs wait below ${min} MB (WRENCH_MIN_FREE_MB)` : '; WRENCH_MIN_FREE_MB is 0: runs never wait for space'}`;
    if (!low) return { name: 'Data dir free space', ok: true, detail };
    return {
      name: 'Data dir free space',
      ok: false,
      detail: `${detail}: new runs are waiting for space`,
      fix: `Free space on ${config.dataDir} (old held work in held/, caches: see docs/warm-starts.md) or give it a larger disk`,
    };
  } catch (error) {
    return {
      name: 'Data dir free space',
      ok: false,
      detail: `cannot read it: ${errorText(error)}`,
      fix: `Check that ${config.dataDir} exists and is readable`,
    };
  }
};

/** The bundles of pushes refused for a secret (src/workspace/hold-refused-work.ts): how many, their size, their ids. */
export const checkHeldWork: Check = async (config) => {
  const dir = heldWorkDir(config.dataDir);
  const kept = `removed after ${config.env.WRENCH_HELD_RETENTION_DAYS} days (WRENCH_HELD_RETENTION_DAYS)`;
  try {
    const bundles = await listHeldWork(dir);
    const trees = await listHeldTrees(dir);
    // Working trees kept whole by runs a full disk stopped (their ids, as their threads name them).
    const treesLine = trees.length
      ? `; ${trees.length} working tree(s) kept by runs a full disk stopped: ${trees.map((tree) => `${tree.id}.tree`).join(', ')}`
      : '';
    if (bundles.length === 0) return { name: 'Held work', ok: true, detail: `no bundles in ${dir}${treesLine}; they are ${kept}` };
    const bytes = bundles.reduce((sum, bundle) => sum + bundle.bytes, 0);
    const shown = bundles.slice(-10).map((bundle) => `${bundle.id} (${new Date(bundle.keptAt).toISOString().slice(0, 10)})`);
    const more = bundles.length > shown.length ? `, and ${bundles.length - shown.length} older` : '';
    return {
      name: 'Held work',
      ok: true,
      detail: `${bundles.length} bundle(s), ${humanBytes(bytes)}, in ${dir}: ${shown.join(', ')}${more}${treesLine}; ${kept}`,
    };
  } catch (error) {
    return { name: 'Held work', ok: false, detail: `cannot read ${dir}: ${errorText(error)}`, fix: `Check that ${dir} is readable by Wrench's user` };
  }
};

/**
 * Whether Redis kept Wrench's data: the losses Wrench noticed (src/redis/redis-epoch.ts) in the last day, and an epoch
 * key gone that this data dir remembers (Redis emptied while Wrench was stopped); the local intake journal's mentions
 * still waiting for Redis.
 */
export const checkRedisData: Check = async (config) => {
  const name = 'Redis data';
  const prefix = config.env.WRENCH_QUEUE_PREFIX;
  return readingRedis(config, name, async (redis) => {
    const [current, losses] = await Promise.all([redis.get(epochKeys(prefix).epoch), recordedLosses(redis, prefix)]);
    const remembered = await readFile(epochFile(config.dataDir, prefix), 'utf8').then(
      (text) => text.trim() || undefined,
      () => undefined,
    );
    const pending = (await new IntakeJournal(intakeJournalDir(config.dataDir)).entries('pending')).length;
    const waiting = pending > 0 ? `; ${pending} mention(s) in the local journal wait for Redis (${intakeJournalDir(config.dataDir)})` : '';
    const recent = losses.filter((loss) => Date.now() - Date.parse(loss.detectedAt) < 24 * 3_600_000);
    const fix =
      "Give Redis persistence (appendonly yes, or RDB snapshots on a volume) so a restart keeps Wrench's queue and threads; the threads Wrench could find were told, others must ask again";
    if (remembered && current === null)
      return {
        name,
        ok: false,
        detail: `Redis has lost its data since Wrench last ran with this data dir: its epoch key ${epochKeys(prefix).epoch} (${remembered}) is gone${waiting}`,
        fix,
      };
    if (recent.length > 0)
      return {
        name,
        ok: false,
        detail: `Redis lost its data ${recent.length} time(s) in the last day:\n${recent.map((loss) => `  ${loss.detectedAt}: ${loss.reason}`).join('\n')}${waiting}`,
        fix,
      };
    return { name, ok: true, detail: `Redis kept Wrench's data (epoch ${current ?? 'not written yet'})${waiting}` };
  });
};

export const ALL_CHECKS: Check[] = [
  checkRedis,
  checkRedisData,
  checkSlackDeliveries,
  checkSlackAgentSurfaces,
  checkGit,
  checkSandboxWorks,
  checkUpstreamProxy,
  checkCaches,
  checkDiskSpace,
  checkHeldWork,
  checkSlack,
  checkAnthropic,
  checkGitHub,
  checkPagerDuty,
  (config) => checkMonitoringSources(config),
];
