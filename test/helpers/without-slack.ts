import type { RedisClient } from '../../src/redis/redis-connection.js';
import { createLogger } from '../../src/logging/logger.js';
import type { SlackNames } from '../../src/slack/message-text.js';
import type { Redactor } from '../../src/security/redact.js';
import { fastOutbox } from './fast-outbox.js';

/**
 * The Slack side of handler deps for handlers under test that must not reach Slack: an outbox aimed at a closed port
 * (never started, so anything posted stays queued in Redis where a test can see it) and names nobody has.
 */
export function withoutSlack(redis: RedisClient, prefix: string, redact: Redactor): { outbox: ReturnType<typeof fastOutbox>; names: SlackNames } {
  return {
    outbox: fastOutbox(redis, prefix, 'http://127.0.0.1:9/api/', redact, createLogger({ level: 'silent' })),
    names: { userName: async () => undefined, channelName: async () => undefined },
  };
}
