import type { IncomingMessage, ServerResponse } from 'node:http';
import { channelHasRepository, channelRepositories } from '../src/config/config-file.js';
import { redisKeys } from '../src/redis/redis-keys.js';
import { Webhooks } from '@octokit/webhooks';
import { isWrenchError } from '../src/errors.js';
import { mentions, type ReadEvent, readIssueEvent, readPushEvent, readStatusEvent, readWebhookEvent } from '../src/github/read-webhook-event.js';
import { BranchMoves } from '../src/workspace/branch-moves.js';
import { readBody } from '../src/http/read-body.js';
import { enqueueGitHubEvent } from '../src/queue/queues.js';
import type { GitHubEvent } from '../src/queue/github-job.js';
import { jobIdFor } from '../src/queue/task-job.js';
import type { HandlerDeps } from './handler-deps.js';
import { headerValue, replyJson } from '../src/http/webhook-http.js';

/** GitHub caps webhook payloads at 25 MB; those Wrench acts on are far smaller. */
export const GITHUB_WEBHOOK_BODY_LIMIT = 5 * 1024 * 1024;
const DELIVERY_TTL_SECONDS = 7 * 24 * 3600;

/**
 * POST /github/webhook. Verifies X-Hub-Signature-256 with @octokit/webhooks, reads the event, keeps only
 * pull requests Wrench opened (a Redis lookup), deduplicates by X-GitHub-Delivery and queues the work; the
 * answer comes before any GitHub API call, well inside GitHub's 10 s. 401 bad or missing signature, 400 not
 * JSON, 413 too large, 503 when the queue is unavailable, 202 queued, 200 for pings, duplicates and events
 * left alone.
 */
export function gitHubWebhookHandler(deps: HandlerDeps, secret: string) {
  const webhooks = new Webhooks({ secret });
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    try {
      await processDelivery(req, res, deps, webhooks);
    } catch (error) {
      deps.logger.error({ err: error, component: 'github-webhook' }, 'GitHub webhook failed');
      replyJson(res, 500, { error: 'internal_error', message: 'Wrench could not handle this delivery; redeliver it from the App settings.' });
    }
  };
}

async function processDelivery(req: IncomingMessage, res: ServerResponse, deps: HandlerDeps, webhooks: Webhooks): Promise<void> {
  const deliveryId = headerValue(req, 'x-github-delivery');
  const eventName = headerValue(req, 'x-github-event') ?? '';
  const log = deps.logger.child({ component: 'github-webhook', deliveryId, event: eventName });
  let raw: string;
  try {
    raw = (await readBody(req, GITHUB_WEBHOOK_BODY_LIMIT)).toString('utf8');
  } catch (error) {
    if (isWrenchError(error) && error.code === 'body_too_large') return replyJson(res, 413, { error: 'body_too_large', message: error.message });
    throw error;
  }
  const signature = headerValue(req, 'x-hub-signature-256');
  if (!signature || !raw || !(await webhooks.verify(raw, signature))) {
    log.warn({ signed: !!signature }, 'refused: GitHub webhook signature missing or wrong');
    return replyJson(res, 401, { error: 'invalid_signature', message: 'X-Hub-Signature-256 is missing or does not match GITHUB_WEBHOOK_SECRET.' });
  }
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    return replyJson(res, 400, { error: 'malformed_json', message: 'The body is not JSON; set the webhook content type to application/json.' });
  }
  if (eventName === 'ping') return replyJson(res, 200, { status: 'ok', message: 'pong' });
  if (!deliveryId) return replyJson(res, 400, { error: 'missing_delivery', message: 'X-GitHub-Delivery is missing.' });

  if (eventName === 'push') return announcePush(body, res, deps, log);
  if (eventName === 'issues') return queueIssue(body, deliveryId, res, deps, log);
  const mention = deps.config.file.github.mention;
  const read = eventName === 'status' ? await statusEvents(body, deps) : readWebhookEvent(eventName, body, { mention });
  if (read.ignored !== undefined) {
    log.info({ reason: read.ignored }, 'GitHub event left alone');
    return replyJson(res, 200, { status: 'ignored', reason: read.ignored });
  }
  const work: Array<{ event: (typeof read.events)[number]; thread: { channel: string; threadTs: string } }> = [];
  const guests: Array<{ event: Extract<GitHubEvent, { kind: 'comment' }>; channel: string }> = [];
  const keys = redisKeys(deps.config.env.WRENCH_QUEUE_PREFIX);
  for (const event of read.events) {
    // A passing check matters only to a pull request whose last fix round was about it.
    if (event.kind === 'check-passed' && !(await deps.redis.exists(keys.fixWatch(event.repo.owner, event.repo.name, event.pull)))) continue;
    const thread =
      event.kind === 'reopened'
        ? await deps.sessions.threadOfClosedPullRequest(event.repo.owner, event.repo.name, event.pull)
        : await deps.sessions.threadOfPullRequest(event.repo.owner, event.repo.name, event.pull);
    if (thread) work.push({ event, thread });
    else if (event.kind === 'comment' && event.guestPull && mention && mentions(event.body, mention)) {
      const channel = linkedChannel(deps, event.repo);
      if (channel) guests.push({ event, channel: channel[0] });
    }
  }
  if (work.length === 0 && guests.length > 0) return queueGuestPulls(guests, deliveryId, res, deps, log);
  if (work.length === 0) {
    if (read.events.every((e) => e.kind === 'check-passed'))
      return replyJson(res, 200, { status: 'ignored', reason: 'a passing check on no pull request waiting for a fix round' });
    log.info({ pulls: read.events.map((e) => `${e.repo.owner}/${e.repo.name}#${e.pull}`) }, 'GitHub event on a pull request Wrench did not open');
    return replyJson(res, 200, { status: 'ignored', reason: 'not a pull request Wrench opened (or its thread has ended)' });
  }

  const deliveryKey = keys.githubDelivery(deliveryId);
  if ((await deps.redis.set(deliveryKey, '1', 'EX', DELIVERY_TTL_SECONDS, 'NX')) !== 'OK') {
    log.info('duplicate GitHub delivery ignored');
    return replyJson(res, 200, { status: 'duplicate' });
  }
  try {
    for (const { event, thread } of work) {
      await enqueueGitHubEvent(deps.queues, jobIdFor('gh', `${deliveryId}-${event.pull}`), { kind: 'github-event', deliveryId, event, thread });
    }
  } catch (error) {
    log.error({ err: error }, 'could not queue the GitHub event');
    await deps.redis.del(deliveryKey).catch(() => undefined);
    return replyJson(res, 503, { error: 'queue_unavailable', message: 'Wrench could not queue this event; redeliver it from the App settings.' });
  }
  log.info({ kinds: work.map((w) => w.event.kind), thread: work[0]?.thread.threadTs }, 'GitHub event queued');
  return replyJson(res, 202, { status: 'accepted' });
}

/**
 * An issue labelled with `github.issueLabel` (or assigned to `github.issueAssignee`) in a repository linked to a
 * channel: a job that starts a run whose pull request closes it, with its thread in that channel. One run per issue.
 */
async function queueIssue(body: unknown, deliveryId: string, res: ServerResponse, deps: HandlerDeps, log: HandlerDeps['logger']): Promise<void> {
  const issue = readIssueEvent(body);
  if ('ignored' in issue) return replyJson(res, 200, { status: 'ignored', reason: issue.ignored });
  const { issueLabel, issueAssignee } = deps.config.file.github;
  const same = (a: string | undefined, b: string | undefined) => !!a && !!b && a.toLowerCase() === b.toLowerCase();
  const via = same(issue.label, issueLabel)
    ? `labelled \`${issue.label}\``
    : same(issue.assignee, issueAssignee)
      ? `assigned to @${issue.assignee}`
      : undefined;
  if (!via) return replyJson(res, 200, { status: 'ignored', reason: 'a label or assignee that does not ask for Wrench' });
  const repository = `${issue.repo.owner}/${issue.repo.name}`.toLowerCase();
  const link = linkedChannel(deps, issue.repo);
  if (!link) return replyJson(res, 200, { status: 'ignored', reason: 'not a repository linked to a channel' });
  const [channel, { baseBranch }] = link;
  const deliveryKey = redisKeys(deps.config.env.WRENCH_QUEUE_PREFIX).githubDelivery(deliveryId);
  if ((await deps.redis.set(deliveryKey, '1', 'EX', DELIVERY_TTL_SECONDS, 'NX')) !== 'OK') return replyJson(res, 200, { status: 'duplicate' });
  try {
    await enqueueGitHubEvent(deps.queues, jobIdFor('gh-issue', `${repository}-${issue.number}`), {
      kind: 'github-issue',
      deliveryId,
      issue: { repo: issue.repo, number: issue.number, url: issue.url, title: issue.title, body: issue.body, author: issue.author, via },
      channel,
      ...(baseBranch ? { baseBranch } : {}),
    });
  } catch (error) {
    log.error({ err: error }, 'could not queue the GitHub issue');
    await deps.redis.del(deliveryKey).catch(() => undefined);
    return replyJson(res, 503, { error: 'queue_unavailable', message: 'Wrench could not queue this event; redeliver it from the App settings.' });
  }
  log.info({ issue: `${repository}#${issue.number}`, via, channel }, 'GitHub issue queued');
  return replyJson(res, 202, { status: 'accepted' });
}

/** `@wrench` on pull requests Wrench did not open, in linked repositories: a job per pull request starts its thread. */
async function queueGuestPulls(
  guests: Array<{ event: Extract<GitHubEvent, { kind: 'comment' }>; channel: string }>,
  deliveryId: string,
  res: ServerResponse,
  deps: HandlerDeps,
  log: HandlerDeps['logger'],
): Promise<void> {
  const deliveryKey = redisKeys(deps.config.env.WRENCH_QUEUE_PREFIX).githubDelivery(deliveryId);
  if ((await deps.redis.set(deliveryKey, '1', 'EX', DELIVERY_TTL_SECONDS, 'NX')) !== 'OK') return replyJson(res, 200, { status: 'duplicate' });
  try {
    for (const { event, channel } of guests)
      await enqueueGitHubEvent(deps.queues, jobIdFor('gh', `${deliveryId}-${event.pull}`), { kind: 'github-guest-pull', deliveryId, event, channel });
  } catch (error) {
    log.error({ err: error }, 'could not queue the GitHub mention');
    await deps.redis.del(deliveryKey).catch(() => undefined);
    return replyJson(res, 503, { error: 'queue_unavailable', message: 'Wrench could not queue this event; redeliver it from the App settings.' });
  }
  log.info({ pulls: guests.map((g) => g.event.pull) }, 'mention on a pull request Wrench did not open queued');
  return replyJson(res, 202, { status: 'accepted' });
}

/** The channel linked to a repository (its first, in the configuration's order), with its settings. */
function linkedChannel(deps: HandlerDeps, repo: { owner: string; name: string }) {
  const repository = `${repo.owner}/${repo.name}`.toLowerCase();
  return Object.entries(deps.config.file.channels).find(([, channel]) => channelHasRepository(channel, repository));
}

/** A failed commit status, as one event per pull request Wrench opened from a branch whose tip it is on. */
async function statusEvents(body: unknown, deps: HandlerDeps): Promise<ReadEvent> {
  const status = readStatusEvent(body);
  if ('ignored' in status) return status;
  const events: GitHubEvent[] = [];
  for (const branch of status.branches) {
    const pull = await deps.sessions.pullRequestOfBranch(status.owner, status.repo, branch);
    if (pull === null) continue;
    events.push({
      kind: 'status-failed',
      repo: { owner: status.owner, name: status.repo },
      pull,
      url: status.targetUrl ?? '',
      headSha: status.sha,
      context: status.context,
      description: status.description,
      targetUrl: status.targetUrl,
    });
  }
  return events.length ? { events } : { ignored: 'a commit status on no branch of a pull request Wrench opened' };
}

/**
 * A push to the base branch of a linked repository: every worker hears of it and brings its pooled working trees of
 * the repository up to date now, so the next job there does not fetch. 202 when announced, 200 when left alone.
 */
async function announcePush(body: unknown, res: ServerResponse, deps: HandlerDeps, log: HandlerDeps['logger']): Promise<void> {
  const push = readPushEvent(body);
  if ('ignored' in push) return replyJson(res, 200, { status: 'ignored', reason: push.ignored });
  const repository = `${push.owner}/${push.repo}`.toLowerCase();
  const links = Object.values(deps.config.file.channels).filter((channel) => channelHasRepository(channel, repository));
  const [link] = links;
  if (!link) return replyJson(res, 200, { status: 'ignored', reason: 'not a repository linked to a channel' });
  const bases = new Set(links.map((channel) => channel.baseBranch ?? push.defaultBranch));
  if (!bases.has(push.branch)) return replyJson(res, 200, { status: 'ignored', reason: `a push to ${push.branch}, not to a base branch Wrench works from` });
  if (!deps.config.file.cache.trees) return replyJson(res, 200, { status: 'ignored', reason: 'working trees are not kept (cache.trees is off)' });
  try {
    // Named as the channels name it: the pools and mirrors are kept under that name.
    const named = channelRepositories(link).find((repo) => repo.toLowerCase() === repository) ?? repository;
    const [owner = push.owner, repo = push.repo] = named.split('/');
    const workers = await new BranchMoves(deps.redis, deps.config.env.WRENCH_QUEUE_PREFIX).announce({ owner, repo, branch: push.branch, after: push.after });
    log.info({ repository, branch: push.branch, workers }, 'base branch moved: pooled working trees are brought up to date');
  } catch (error) {
    log.warn({ err: error }, 'could not announce a push');
    return replyJson(res, 503, { error: 'redis_unavailable', message: 'Wrench could not pass this push on; redeliver it from the App settings.' });
  }
  return replyJson(res, 202, { status: 'accepted' });
}

/** The 404 the route answers when GITHUB_WEBHOOK_SECRET is not set. */
export function gitHubWebhookDisabled(_req: IncomingMessage, res: ServerResponse): void {
  replyJson(res, 404, {
    error: 'github_webhook_disabled',
    message: 'The GitHub webhook is off: set GITHUB_WEBHOOK_SECRET to the secret of the GitHub App (or repository) webhook.',
  });
}
