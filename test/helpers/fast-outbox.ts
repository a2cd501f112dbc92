import type { RedisClient } from '../../src/redis/redis-connection.js';
import type { Logger } from '../../src/logging/logger.js';
import type { Redactor } from '../../src/security/redact.js';
import { outboxSlackClient, ThreadOutbox } from '../../src/slack/thread-outbox.js';

/** A thread outbox against the Slack fake with shrunken retry and poll timers, for runner tests (not started). */
export function fastOutbox(redis: RedisClient, prefix: string, slackApiUrl: string, redact: Redactor, logger: Logger): ThreadOutbox {
  return new ThreadOutbox(redis, prefix, outboxSlackClient('xoxb-test', slackApiUrl), redact, logger, { baseDelayMs: 20, maxDelayMs: 100, pollMs: 20 });
}
