import type { WebClient } from '@slack/web-api';

/** Whether a person is a member of a conversation; rejects when Slack cannot say. */
export type ChannelMembership = (channel: string, user: string) => Promise<boolean>;

/** How long a conversation's member list is trusted before Slack is asked again. */
const KEEP_MS = 5 * 60_000;

/**
 * Members of a conversation from `conversations.members` (every page; bot token, with `channels:read`, `groups:read`,
 * `im:read` and `mpim:read`), kept for five minutes per conversation so an open run page does not ask Slack on every
 * request. A conversation Wrench cannot see (`channel_not_found`, `not_in_channel`) has no members it can vouch for.
 */
export function channelMembership(client: WebClient, now: () => number = Date.now): ChannelMembership {
  const known = new Map<string, { members: Set<string>; until: number }>();
  return async (channel, user) => {
    let entry = known.get(channel);
    if (!entry || entry.until <= now()) {
      entry = { members: await membersOf(client, channel), until: now() + KEEP_MS };
      known.set(channel, entry);
    }
    return entry.members.has(user);
  };
}

async function membersOf(client: WebClient, channel: string): Promise<Set<string>> {
  const members = new Set<string>();
  let cursor: string | undefined;
  do {
    let page: Awaited<ReturnType<WebClient['conversations']['members']>>;
    try {
      page = await client.conversations.members({ channel, limit: 1000, ...(cursor ? { cursor } : {}) });
    } catch (error) {
      const code = (error as { data?: { error?: string } }).data?.error;
      if (code === 'channel_not_found' || code === 'not_in_channel') return members;
      throw error;
    }
    for (const member of page.members ?? []) members.add(member);
    cursor = page.response_metadata?.next_cursor || undefined;
  } while (cursor);
  return members;
}
