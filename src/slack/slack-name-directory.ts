import type { WebClient } from '@slack/web-api';
import type { Logger } from '../logging/logger.js';
import type { SlackNames } from './message-text.js';

const TTL_MS = 60 * 60 * 1000;
const MAX_ENTRIES = 5000;

/**
 * Display names of users (users.info) and names of channels (conversations.info), cached for an hour.
 * A lookup that fails (missing scope, unknown id, Slack down) answers undefined and the id is shown;
 * a failure is not cached for long, so the name appears once Slack answers again.
 */
export class SlackNameDirectory implements SlackNames {
  private readonly cache = new Map<string, { name: string | undefined; expires: number }>();

  constructor(
    private readonly client: WebClient,
    private readonly logger?: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  userName(userId: string): Promise<string | undefined> {
    return this.cached(`u:${userId}`, async () => {
      const { user } = await this.client.users.info({ user: userId });
      const profile = user?.profile;
      return profile?.display_name || profile?.real_name || user?.real_name || user?.name || undefined;
    });
  }

  userLocale(userId: string): Promise<string | undefined> {
    return this.cached(`l:${userId}`, async () => (await this.client.users.info({ user: userId, include_locale: true })).user?.locale || undefined);
  }

  userTimeZone(userId: string): Promise<string | undefined> {
    return this.cached(`z:${userId}`, async () => (await this.client.users.info({ user: userId })).user?.tz || undefined);
  }

  channelName(channelId: string): Promise<string | undefined> {
    return this.cached(`c:${channelId}`, async () => {
      const { channel } = await this.client.conversations.info({ channel: channelId });
      return channel?.name || undefined;
    });
  }

  private async cached(key: string, look: () => Promise<string | undefined>): Promise<string | undefined> {
    const hit = this.cache.get(key);
    if (hit && hit.expires > this.now()) return hit.name;
    let name: string | undefined;
    let ttl = TTL_MS;
    try {
      name = await look();
    } catch (error) {
      this.logger?.debug({ key, error: (error as Error).message }, 'could not look up a Slack name; showing the id');
      ttl = 60_000;
    }
    if (this.cache.size >= MAX_ENTRIES) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(key, { name, expires: this.now() + ttl });
    return name;
  }
}
