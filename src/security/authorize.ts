import type { ConfigFile } from '../config/config-file.js';

export type Permission = { allowed: true } | { allowed: false; reason: string };

/** May this person start work? `access.users` empty means everyone in a configured channel. */
export function canStartWork(access: ConfigFile['access'], userId: string): Permission {
  if (access.users.length === 0 || access.users.includes(userId)) return { allowed: true };
  return { allowed: false, reason: 'not_in_access_users' };
}

/** May this person press approve, revert, re-triage or dismiss? `approvers` empty means the same as users. */
export function canApprove(access: ConfigFile['access'], userId: string): Permission {
  const approvers = access.approvers.length > 0 ? access.approvers : access.users;
  if (approvers.length === 0 || approvers.includes(userId)) return { allowed: true };
  return { allowed: false, reason: 'not_an_approver' };
}

/** Direct messages and Slack Connect channels follow the config; both are off by default. */
export function channelKindAllowed(access: ConfigFile['access'], channel: { type?: string; shared?: boolean }): Permission {
  if (channel.type === 'im' && !access.directMessages) return { allowed: false, reason: 'direct_messages_off' };
  if (channel.shared && !access.sharedChannels) return { allowed: false, reason: 'shared_channels_off' };
  return { allowed: true };
}
