import type { WebClient } from '@slack/web-api';
import type { RedisClient } from '../src/redis/redis-connection.js';
import type { IncidentThreadStore } from '../src/pagerduty/incident-thread-store.js';
import type { PagerDutyClient } from '../src/pagerduty/pagerduty-client.js';
import type { Queues } from '../src/queue/queues.js';
import type { TriageRecordStore } from '../src/triage/triage-record.js';
import type { RunLogOptions } from '../src/run-log/run-recorder.js';
import type { ThreadOutbox } from '../src/slack/thread-outbox.js';
import type { UpdateRateLimiter } from '../src/slack/update-rate-limiter.js';
import type { RunnerDeps } from './runner-deps.js';

/** What the triage worker's runners need on top of every runner's clients. */
export interface TriageDeps extends RunnerDeps {
  slack: WebClient;
  /** null when PAGERDUTY_API_TOKEN is not set: triage then works from the webhook's data only. */
  pagerduty: PagerDutyClient | null;
  redis: RedisClient;
  queues: Queues;
  prefix: string;
  threads: IncidentThreadStore;
  records: TriageRecordStore;
  /** Where triage runs are recorded (run pages, App Home, metrics). */
  runLog?: RunLogOptions;
  /** The threads' outbox: every message of a triage, a revert and an incident goes through it, so Slack failing never holds up or fails one. */
  outbox: ThreadOutbox;
  /** The workspace-wide budget of status edits, shared with every run. */
  limiter?: UpdateRateLimiter;
}
