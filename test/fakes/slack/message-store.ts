import { compareTs, nextSlackTs, observeSlackTs } from './ts-clock.js';
import type { SlackMessage } from './types.js';

export interface NewMessage {
  text: string;
  ts?: string;
  user?: string;
  bot_id?: string;
  thread_ts?: string;
  subtype?: string;
  blocks?: unknown[];
  [key: string]: unknown;
}

/** Channel histories with threads and reactions, as Slack keeps them. */
export class MessageStore {
  private readonly byChannel = new Map<string, SlackMessage[]>();
  private readonly reactions = new Map<string, Map<string, string[]>>();

  add(channel: string, message: NewMessage): SlackMessage {
    const ts = message.ts ?? nextSlackTs();
    observeSlackTs(ts);
    const stored = { ...message, type: 'message', channel, ts } as SlackMessage;
    if (stored.thread_ts === ts) delete stored.thread_ts;
    const list = this.list(channel);
    list.push(stored);
    list.sort((a, b) => compareTs(a.ts, b.ts));
    if (stored.thread_ts) this.noteReply(channel, stored);
    return stored;
  }

  find(channel: string, ts: string): SlackMessage | undefined {
    return this.list(channel).find((message) => message.ts === ts);
  }

  update(channel: string, ts: string, changes: Partial<SlackMessage>): SlackMessage | undefined {
    const message = this.find(channel, ts);
    if (message) Object.assign(message, changes);
    return message;
  }

  remove(channel: string, ts: string): boolean {
    const list = this.list(channel);
    const index = list.findIndex((message) => message.ts === ts);
    if (index >= 0) list.splice(index, 1);
    return index >= 0;
  }

  /** Top-level messages (and thread broadcasts), oldest first. */
  history(channel: string): SlackMessage[] {
    return this.list(channel)
      .filter((m) => !m.thread_ts || m.thread_ts === m.ts || m.subtype === 'thread_broadcast')
      .map((m) => this.view(m));
  }

  /** The parent (when known) followed by its replies, oldest first. */
  thread(channel: string, threadTs: string): SlackMessage[] {
    return this.list(channel)
      .filter((m) => m.ts === threadTs || m.thread_ts === threadTs)
      .map((m) => this.view(m));
  }

  all(channel?: string): SlackMessage[] {
    const lists = channel ? [this.list(channel)] : [...this.byChannel.values()];
    return lists.flat().map((m) => this.view(m));
  }

  addReaction(channel: string, ts: string, name: string, user: string): 'ok' | 'already_reacted' {
    const users = this.reactionUsers(channel, ts, name);
    if (users.includes(user)) return 'already_reacted';
    users.push(user);
    return 'ok';
  }

  removeReaction(channel: string, ts: string, name: string, user: string): 'ok' | 'no_reaction' {
    const users = this.reactionUsers(channel, ts, name);
    const index = users.indexOf(user);
    if (index < 0) return 'no_reaction';
    users.splice(index, 1);
    return 'ok';
  }

  /** Reaction names on a message with the users who added them. */
  reactionsOn(channel: string, ts: string): { name: string; users: string[]; count: number }[] {
    const byName = this.reactions.get(`${channel}/${ts}`) ?? new Map<string, string[]>();
    return [...byName.entries()].filter(([, users]) => users.length > 0).map(([name, users]) => ({ name, users: [...users], count: users.length }));
  }

  private view(message: SlackMessage): SlackMessage {
    const reactions = this.reactionsOn(message.channel, message.ts);
    const copy = structuredClone(message);
    if (reactions.length > 0) copy.reactions = reactions;
    return copy;
  }

  private reactionUsers(channel: string, ts: string, name: string): string[] {
    const key = `${channel}/${ts}`;
    const byName = this.reactions.get(key) ?? new Map<string, string[]>();
    this.reactions.set(key, byName);
    const users = byName.get(name) ?? [];
    byName.set(name, users);
    return users;
  }

  private noteReply(channel: string, reply: SlackMessage): void {
    const parent = this.find(channel, reply.thread_ts ?? '');
    if (!parent) return;
    const replies = this.list(channel).filter((m) => m.thread_ts === parent.ts && m.ts !== parent.ts);
    parent.thread_ts = parent.ts;
    parent.reply_count = replies.length;
    parent.reply_users = [...new Set(replies.map((m) => m.user ?? m.bot_id ?? ''))].filter(Boolean);
    parent.latest_reply = replies.at(-1)?.ts;
  }

  private list(channel: string): SlackMessage[] {
    let list = this.byChannel.get(channel);
    if (!list) {
      list = [];
      this.byChannel.set(channel, list);
    }
    return list;
  }
}
