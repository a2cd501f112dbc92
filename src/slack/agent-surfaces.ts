import { scanKeys, type RedisClient } from '../redis/redis-connection.js';
import { redisKeys } from '../redis/redis-keys.js';

/** Slack's methods for agents (the status under a thread, streamed replies), which a workspace may not offer. */
export type AgentMethod = 'assistant.threads.setStatus' | 'chat.startStream';

/**
 * Slack's answers meaning "not in this workspace": the method is off (Agents & AI Apps not enabled, an Enterprise
 * policy, an old plan), gone, or needs a scope or token the app lacks. No retry changes them.
 */
const REFUSALS = new Set([
  'not_allowed',
  'method_deprecated',
  'deprecated_endpoint',
  'unknown_method',
  'missing_scope',
  'not_allowed_token_type',
  'feature_disabled',
  'enterprise_is_restricted',
  'access_denied',
  'no_permission',
  'team_access_not_granted',
]);

/** A refusal is remembered this long: an administrator who enables the feature sees it used the next day at the latest. */
export const REFUSAL_MEMORY_SECONDS = 24 * 3600;

/** Answers meaning "not in this conversation" (a channel type the method does not serve): skipped there, not remembered. */
const CHANNEL_REFUSALS = new Set(['method_not_supported_for_channel_type', 'channel_type_not_supported']);

export function isRefusal(error: string): boolean {
  return REFUSALS.has(error);
}

export function isChannelRefusal(error: string): boolean {
  return CHANNEL_REFUSALS.has(error);
}

/** Which agent methods each workspace refused, remembered in Redis so every process falls back at once. */
export class AgentSurfaces {
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
  ) {}

  /** Slack's error when `team` refused `method` lately, else undefined (the method is tried). */
  async refusal(team: string, method: AgentMethod): Promise<string | undefined> {
    return (await this.redis.hget(this.key(team), method)) ?? undefined;
  }

  async rememberRefusal(team: string, method: AgentMethod, error: string): Promise<void> {
    await this.redis.multi().hset(this.key(team), method, error).expire(this.key(team), REFUSAL_MEMORY_SECONDS).exec();
  }

  private key(team: string): string {
    return redisKeys(this.prefix).slackSurfaces(team);
  }
}

/** Every workspace's remembered refusals under `prefix` (for `wrench doctor`): team, method and Slack's error. */
export async function readRefusals(redis: RedisClient, prefix: string): Promise<{ team: string; method: string; error: string }[]> {
  const pattern = redisKeys(prefix).slackSurfaces('*');
  const found: { team: string; method: string; error: string }[] = [];
  for (const key of await scanKeys(redis, pattern, 100)) {
    const team = key.slice(pattern.length - 1);
    for (const [method, error] of Object.entries(await redis.hgetall(key))) found.push({ team, method, error });
  }
  return found.sort((a, b) => a.team.localeCompare(b.team) || a.method.localeCompare(b.method));
}
