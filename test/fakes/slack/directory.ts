import type { SlackIdentity } from './types.js';

export interface SeedUser {
  id: string;
  name?: string;
  real_name?: string;
  email?: string;
  is_bot?: boolean;
  is_admin?: boolean;
  tz?: string;
  /** Returned by users.info only with include_locale (as Slack does). */
  locale?: string;
}

export interface SeedChannel {
  id: string;
  name?: string;
  is_private?: boolean;
  is_member?: boolean;
  topic?: string;
  purpose?: string;
  /** Its members (conversations.members); the bot alone when not given. */
  members?: string[];
}

/** Users and channels the fake knows; unknown ids are answered with plausible defaults. */
export class Directory {
  private readonly users = new Map<string, SeedUser>();
  private readonly channels = new Map<string, SeedChannel>();

  constructor(private readonly identity: SlackIdentity) {}

  addUser(user: SeedUser): void {
    this.users.set(user.id, user);
  }

  addChannel(channel: SeedChannel): void {
    this.channels.set(channel.id, channel);
  }

  user(id: string, options: { includeLocale?: boolean } = {}): Record<string, unknown> {
    const seed = this.users.get(id) ?? { id, is_bot: id === this.identity.botUserId };
    const name = seed.name ?? (id === this.identity.botUserId ? 'wrench' : `user-${id.toLowerCase()}`);
    const realName = seed.real_name ?? name;
    return {
      id,
      team_id: this.identity.teamId,
      name,
      deleted: false,
      real_name: realName,
      tz: seed.tz ?? 'Europe/London',
      tz_label: 'Greenwich Mean Time',
      tz_offset: 0,
      is_admin: seed.is_admin ?? false,
      is_owner: false,
      is_bot: seed.is_bot ?? false,
      is_app_user: false,
      updated: 1_700_000_000,
      ...(options.includeLocale ? { locale: seed.locale ?? 'en-US' } : {}),
      profile: {
        real_name: realName,
        display_name: name,
        real_name_normalized: realName,
        display_name_normalized: name,
        email: seed.email ?? `${name}@example.com`,
        image_72: `https://example.com/avatars/${id}.png`,
        team: this.identity.teamId,
        ...(seed.is_bot ? { bot_id: this.identity.botId } : {}),
      },
    };
  }

  members(id: string): string[] {
    return this.channels.get(id)?.members ?? [this.identity.botUserId];
  }

  channel(id: string): Record<string, unknown> {
    const seed = this.channels.get(id) ?? { id };
    const name = seed.name ?? `channel-${id.toLowerCase()}`;
    return {
      id,
      name,
      name_normalized: name,
      is_channel: !id.startsWith('D'),
      is_group: false,
      is_im: id.startsWith('D'),
      is_mpim: false,
      is_private: seed.is_private ?? false,
      is_archived: false,
      is_general: false,
      is_shared: false,
      is_ext_shared: false,
      is_org_shared: false,
      is_member: seed.is_member ?? true,
      created: 1_700_000_000,
      creator: 'U0CREATOR',
      context_team_id: this.identity.teamId,
      topic: { value: seed.topic ?? '', creator: '', last_set: 0 },
      purpose: { value: seed.purpose ?? '', creator: '', last_set: 0 },
      num_members: seed.members?.length ?? 3,
    };
  }
}
