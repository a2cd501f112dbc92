import { writeFile } from 'node:fs/promises';
import { withoutSlack } from '../../helpers/without-slack.js';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHandlerDeps, type HandlerDeps } from '../../../handlers/handler-deps.js';
import { handlePagerDutyWebhook, pagerDutyWebhookDisabled } from '../../../handlers/pagerduty-webhook.js';
import { loadConfig } from '../../../src/config/load-config.js';
import { createLogger } from '../../../src/logging/logger.js';
import { createQueues, type Queues } from '../../../src/queue/queues.js';
import { createRedis, type RedisClient } from '../../../src/redis/redis-connection.js';
import { createRedactor } from '../../../src/security/redact.js';
import { ThreadSessionStore } from '../../../src/sessions/thread-session-store.js';
import { incidentAnnotatedWebhook, incidentWebhook, sendPagerDutyWebhook } from '../../fakes/pagerduty-webhook-sender.js';
import { freePort } from '../../helpers/free-port.js';
import { startRedisServer, type RedisServer } from '../../helpers/redis-server.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';
import { uniqueName } from '../../helpers/unique-name.js';

const SECRET = 'integration-secret-0123456789';
const incident = (id: string, service = 'PABC123') => ({
  id,
  incident_number: 7,
  title: 'Checkout 500s',
  status: 'triggered',
  service: { id: service, summary: 'Checkout' },
});

describe('POST /pagerduty/webhook with real Redis and BullMQ', () => {
  let redis: RedisServer;
  let dir: TempDir;
  let connection: RedisClient;
  let queues: Queues;
  let server: Server;
  let url: string;
  let deps: HandlerDeps;
  const logs: string[] = [];

  beforeAll(async () => {
    [redis, dir] = await Promise.all([startRedisServer(), makeTempDir('wrench-pdwh-')]);
    const configPath = path.join(dir.path, 'wrench.config.yml');
    await writeFile(configPath, 'pagerduty:\n  services:\n    PABC123: { repo: acme/checkout, channel: C0INC }\n');
    const config = loadConfig(
      {
        PAGERDUTY_WEBHOOK_SECRETS: `old-secret-abcdef,${SECRET}`,
        WRENCH_CONFIG: configPath,
        WRENCH_QUEUE_PREFIX: uniqueName('pdwh'),
        WRENCH_DATA_DIR: dir.path,
      },
      dir.path,
    );
    connection = createRedis(redis.url);
    queues = createQueues(connection, config.env.WRENCH_QUEUE_PREFIX);
    const destination = new Writable({ write: (chunk, _enc, done) => (logs.push(String(chunk)), done()) });
    const redact = createRedactor([SECRET]);
    deps = createHandlerDeps({
      config,
      queues,
      redis: connection,
      sessions: new ThreadSessionStore(connection, config.env.WRENCH_QUEUE_PREFIX),
      redact,
      logger: createLogger({ level: 'debug', destination, redact }),
      ...withoutSlack(connection, config.env.WRENCH_QUEUE_PREFIX, redact),
    });
    const port = await freePort();
    server = createServer((req, res) => void handlePagerDutyWebhook(req, res, deps));
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${port}/pagerduty/webhook`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server?.close(() => resolve()));
    await queues?.close();
    deps?.sessions.close();
    connection?.disconnect();
    await redis?.stop();
    await dir?.remove();
  });

  it('queues one job for many concurrent deliveries of the same event, with the event id as job id', async () => {
    const payload = incidentWebhook('incident.triggered', incident('QCONC'), { id: 'EV-CONC' });
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => sendPagerDutyWebhook(url, payload, { secrets: SECRET, webhookId: `delivery-${i % 3}` })),
    );
    expect(answers.filter((a) => a.status === 202)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 200 && (a.json as { status: string }).status === 'duplicate')).toHaveLength(9);
    const job = await queues.incidents.getJob('pd-EV-CONC');
    expect(job?.data).toMatchObject({ kind: 'incident-triggered', incident: { id: 'QCONC' }, repo: { owner: 'acme', name: 'checkout' }, channel: 'C0INC' });
    expect(await queues.incidents.count()).toBe(1);
  });

  it('never queues a second triage for an incident, and leaves unmapped services and unknown incidents alone', async () => {
    const second = await sendPagerDutyWebhook(url, incidentWebhook('incident.triggered', incident('QCONC'), { id: 'EV-CONC-2' }), { secrets: SECRET });
    expect(second).toMatchObject({ status: 200, json: { status: 'ignored', reason: 'incident already being triaged' } });
    const unmapped = await sendPagerDutyWebhook(url, incidentWebhook('incident.triggered', incident('QELSE', 'POTHER')), { secrets: SECRET });
    expect(unmapped.json).toMatchObject({ status: 'ignored' });
    const note = await sendPagerDutyWebhook(url, incidentAnnotatedWebhook(incident('QUNKNOWN'), { content: 'hello' }), { secrets: SECRET });
    expect(note.json).toMatchObject({ status: 'ignored' });
    expect(await queues.incidents.count()).toBe(1);
    expect(logs.join('')).toContain('service POTHER is not in pagerduty.services');
  });

  it('queues notes and lifecycle events of a known incident, and accepts the rotated-out secret', async () => {
    const note = await sendPagerDutyWebhook(url, incidentAnnotatedWebhook(incident('QCONC'), { id: 'PN1', content: 'rolled back' }), {
      secrets: 'old-secret-abcdef',
    });
    expect(note.status).toBe(202);
    const acked = await sendPagerDutyWebhook(url, incidentWebhook('incident.acknowledged', { ...incident('QCONC'), status: 'acknowledged' }), {
      secrets: [SECRET, 'unknown-secret'],
    });
    expect(acked.status).toBe(202);
    const kinds = (await queues.incidents.getJobs(['waiting'])).map((j) => j.data.kind).sort();
    expect(kinds).toEqual(['incident-annotated', 'incident-triggered', 'incident-updated']);
  });

  it('answers 503 and gives its claims back when the queue fails, so the retry is queued', async () => {
    const payload = incidentWebhook('incident.triggered', incident('QRETRY'), { id: 'EV-RETRY' });
    const add = queues.incidents.add.bind(queues.incidents);
    queues.incidents.add = (async () => {
      throw new Error('redis is down');
    }) as typeof queues.incidents.add;
    const failed = await sendPagerDutyWebhook(url, payload, { secrets: SECRET, webhookId: 'delivery-retry' });
    queues.incidents.add = add;
    expect(failed.status).toBe(503);
    const retried = await sendPagerDutyWebhook(url, payload, { secrets: SECRET, webhookId: 'delivery-retry' });
    expect(retried.status).toBe(202);
    expect(await queues.incidents.getJob('pd-EV-RETRY')).toBeDefined();
  });

  it('refuses unsigned and badly signed deliveries before reading Redis', async () => {
    const payload = incidentWebhook('incident.triggered', incident('QBAD'), { id: 'EV-BAD' });
    expect((await sendPagerDutyWebhook(url, payload, { secrets: SECRET, badSignature: true })).status).toBe(401);
    expect((await sendPagerDutyWebhook(url, payload, { secrets: SECRET, unsigned: true })).status).toBe(401);
    expect(await queues.triage.getJob('pd-EV-BAD')).toBeUndefined();
    // A refused delivery claims nothing: the same event, signed, is still accepted.
    expect((await sendPagerDutyWebhook(url, payload, { secrets: SECRET })).status).toBe(202);
  });

  it('answers 404 with what to set when the webhook is off', async () => {
    const off = createServer((req, res) => pagerDutyWebhookDisabled(req, res));
    const port = await freePort();
    await new Promise<void>((resolve) => off.listen(port, '127.0.0.1', resolve));
    const answer = await sendPagerDutyWebhook(`http://127.0.0.1:${port}/pagerduty/webhook`, incidentWebhook('incident.triggered', incident('QOFF')), {
      secrets: SECRET,
    });
    await new Promise<void>((resolve) => off.close(() => resolve()));
    expect(answer.status).toBe(404);
    expect(answer.json).toMatchObject({ error: 'pagerduty_webhook_disabled', message: expect.stringContaining('PAGERDUTY_WEBHOOK_SECRETS') });
  });
});
