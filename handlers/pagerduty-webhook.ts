import type { IncomingMessage, ServerResponse } from 'node:http';
import { channelHasRepository } from '../src/config/config-file.js';
import { isWrenchError } from '../src/errors.js';
import { readBody } from '../src/http/read-body.js';
import { verifyPagerDutySignature } from '../src/pagerduty/verify-signature.js';
import { parseWebhook, type ParsedWebhook } from '../src/queue/pagerduty-event.js';
import { enqueueTriage } from '../src/queue/queues.js';
import { jobIdFor } from '../src/queue/task-job.js';
import { repoRefOf } from '../src/repository/resolve-repository.js';
import type { TriageJob } from '../src/queue/triage-job.js';
import type { HandlerDeps } from './handler-deps.js';
import { headerValue, replyJson } from '../src/http/webhook-http.js';

/** PagerDuty V3 webhooks stay under 256 KB; anything past 1 MiB is refused unread. */
export const WEBHOOK_BODY_LIMIT = 1024 * 1024;

type Claim = ['delivery' | 'event' | 'incident', string];

/**
 * POST /pagerduty/webhook. Verifies the signature over the raw body, parses the V3 envelope,
 * deduplicates deliveries (X-Webhook-Id) and events (event id; and an incident is triaged once),
 * queues the work and answers. Only Redis is touched before the answer, well inside PagerDuty's 5 s.
 * 401 bad or missing signature, 400 when the body is not a V3 envelope, 413 too large, 503 when the
 * queue is unavailable (PagerDuty retries 5xx), 202 when queued, 200 for pings, duplicates, events
 * left alone and signed events whose data Wrench cannot use (logged with what was wrong).
 */
export async function handlePagerDutyWebhook(req: IncomingMessage, res: ServerResponse, deps: HandlerDeps): Promise<void> {
  try {
    await processWebhook(req, res, deps);
  } catch (error) {
    deps.logger.error({ err: error, component: 'pagerduty-webhook' }, 'PagerDuty webhook failed');
    replyJson(res, 500, { error: 'internal_error', message: 'Wrench could not handle this event; PagerDuty will retry.' });
  }
}

async function processWebhook(req: IncomingMessage, res: ServerResponse, deps: HandlerDeps): Promise<void> {
  const webhookId = headerValue(req, 'x-webhook-id');
  const log = deps.logger.child({ component: 'pagerduty-webhook', webhookId });
  if (req.method !== 'POST') return replyJson(res, 405, { error: 'method_not_allowed', message: 'Use POST.' });

  let raw: Buffer;
  try {
    raw = await readBody(req, WEBHOOK_BODY_LIMIT);
  } catch (error) {
    if (isWrenchError(error) && error.code === 'body_too_large') {
      log.warn({ limit: WEBHOOK_BODY_LIMIT }, 'refused: webhook body too large');
      return replyJson(res, 413, { error: 'body_too_large', message: error.message });
    }
    throw error;
  }
  if (!verifyPagerDutySignature(raw, req.headers['x-pagerduty-signature'], deps.config.env.PAGERDUTY_WEBHOOK_SECRETS)) {
    log.warn({ signed: !!req.headers['x-pagerduty-signature'] }, 'refused: PagerDuty webhook signature missing or wrong');
    return replyJson(res, 401, { error: 'invalid_signature', message: 'X-PagerDuty-Signature is missing or does not match any configured secret.' });
  }
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    return replyJson(res, 400, { error: 'malformed_json', message: 'The body is not JSON.' });
  }
  const parsed = parseWebhook(body);
  if (!parsed.ok && !parsed.envelope) {
    log.warn({ error: parsed.error }, 'refused: not a V3 webhook envelope');
    return replyJson(res, 400, { error: 'malformed_event', message: parsed.error });
  }
  if (!parsed.ok) {
    // A signed event Wrench cannot use: a 4xx would only make PagerDuty retry the same body.
    log.warn({ eventId: parsed.event?.id, eventType: parsed.event?.event_type, error: parsed.error }, 'acknowledged a PagerDuty event Wrench cannot use');
    return replyJson(res, 200, { status: 'ignored', reason: parsed.error });
  }
  const webhook = parsed.webhook;
  const eventLog = log.child({ eventId: webhook.event.id, eventType: webhook.event.event_type });
  if (webhook.kind === 'ping') {
    eventLog.info('PagerDuty ping');
    return replyJson(res, 200, { status: 'ok', message: 'pong' });
  }

  const claims = deps.stores.webhookClaims;
  const taken: Claim[] = [];
  const take = async (kind: Claim[0], id: string) => {
    const ok = await claims.claim(kind, id);
    if (ok) taken.push([kind, id]);
    return ok;
  };
  if (webhookId && !(await take('delivery', webhookId))) return duplicate(res, eventLog, 'delivery');
  if (!(await take('event', webhook.event.id))) return duplicate(res, eventLog, 'event');

  const decision = await decide(webhook, deps, take);
  if ('ignored' in decision) {
    eventLog.info({ reason: decision.ignored }, 'PagerDuty event left alone');
    return replyJson(res, 200, { status: 'ignored', reason: decision.ignored });
  }
  try {
    await enqueueTriage(deps.queues, jobIdFor('pd', webhook.event.id), decision.job);
  } catch (error) {
    eventLog.error({ err: error }, 'could not queue the PagerDuty event');
    await claims.release(taken).catch(() => undefined);
    if (isWrenchError(error) && error.code === 'invalid_job')
      return replyJson(res, 500, {
        error: 'invalid_job',
        message: `Wrench built a malformed job from this event (a bug in Wrench): ${error.message}`,
      });
    return replyJson(res, 503, { error: 'queue_unavailable', message: 'Wrench could not queue this event; PagerDuty will retry.' });
  }
  eventLog.info({ kind: decision.job.kind }, 'PagerDuty event queued');
  return replyJson(res, 202, { status: 'accepted' });
}

/** The 404 the route answers when PAGERDUTY_WEBHOOK_SECRETS is not set. */
export function pagerDutyWebhookDisabled(_req: IncomingMessage, res: ServerResponse): void {
  replyJson(res, 404, {
    error: 'pagerduty_webhook_disabled',
    message: 'The PagerDuty webhook is off: set PAGERDUTY_WEBHOOK_SECRETS to the secret(s) of your V3 webhook subscription.',
  });
}

async function decide(
  webhook: Exclude<ParsedWebhook, { kind: 'ping' }>,
  deps: HandlerDeps,
  take: (kind: Claim[0], id: string) => Promise<boolean>,
): Promise<{ job: TriageJob } | { ignored: string }> {
  const event = { id: webhook.event.id, type: webhook.event.event_type, occurredAt: webhook.event.occurred_at, agent: webhook.event.agent ?? null };
  switch (webhook.kind) {
    case 'triggered': {
      const service = deps.config.file.pagerduty.services[webhook.incident.service.id];
      if (!service) return { ignored: `service ${webhook.incident.service.id} is not in pagerduty.services` };
      if (!(await take('incident', webhook.incident.id))) return { ignored: 'incident already being triaged' };
      const channelConfig = deps.config.file.channels[service.channel];
      const baseBranch = channelHasRepository(channelConfig, service.repo) ? channelConfig?.baseBranch : undefined;
      return {
        job: {
          kind: 'incident-triggered',
          event,
          incident: webhook.incident,
          repo: { ...repoRefOf(service.repo), ...(baseBranch ? { baseBranch } : {}) },
          channel: service.channel,
        },
      };
    }
    case 'card': {
      if (!deps.config.file.pagerduty.services[webhook.incident.service.id])
        return { ignored: `service ${webhook.incident.service.id} is not in pagerduty.services` };
      return { job: { kind: 'incident-updated', event, incident: webhook.incident } };
    }
    case 'annotated': {
      const incidentId = webhook.note.incident.id;
      const known =
        (await deps.stores.webhookClaims.isClaimed('incident', incidentId)) || (await deps.redis.exists(deps.stores.incidentThreads.key(incidentId))) === 1;
      if (!known) return { ignored: `incident ${incidentId} has no Wrench thread` };
      return { job: { kind: 'incident-annotated', event, note: webhook.note } };
    }
    case 'other':
      return { ignored: `event type ${webhook.event.event_type} is not used` };
  }
}

function duplicate(res: ServerResponse, log: HandlerDeps['logger'], what: string): void {
  log.info({ what }, 'duplicate PagerDuty delivery ignored');
  replyJson(res, 200, { status: 'duplicate' });
}
