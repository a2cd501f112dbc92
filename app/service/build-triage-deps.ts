import type { WebClient } from '@slack/web-api';
import type { RedisClient } from '../../src/redis/redis-connection.js';
import type { RunnerDeps } from '../../runners/runner-deps.js';
import type { TriageDeps } from '../../runners/triage-deps.js';
import { IncidentThreadStore } from '../../src/pagerduty/incident-thread-store.js';
import { PagerDutyClient } from '../../src/pagerduty/pagerduty-client.js';
import type { Queues } from '../../src/queue/queues.js';
import type { RunLogOptions } from '../../src/run-log/run-recorder.js';
import { TriageRecordStore } from '../../src/triage/triage-record.js';
import type { ThreadOutbox } from '../../src/slack/thread-outbox.js';
import type { UpdateRateLimiter } from '../../src/slack/update-rate-limiter.js';

/** The triage worker's clients: the runners' own, Slack, PagerDuty (when PAGERDUTY_API_TOKEN is set) and its Redis stores. */
export function buildTriageDeps(
  runner: RunnerDeps,
  extra: { slack: WebClient; redis: RedisClient; queues: Queues; prefix: string; runLog?: RunLogOptions; outbox: ThreadOutbox; limiter?: UpdateRateLimiter },
): TriageDeps {
  const env = runner.config.env;
  return {
    ...runner,
    ...extra,
    pagerduty: env.PAGERDUTY_API_TOKEN
      ? new PagerDutyClient({ token: env.PAGERDUTY_API_TOKEN, apiUrl: env.PAGERDUTY_API_URL, fromEmail: env.PAGERDUTY_FROM_EMAIL })
      : null,
    threads: new IncidentThreadStore(extra.redis, extra.prefix),
    records: new TriageRecordStore(extra.redis, extra.prefix),
  };
}
