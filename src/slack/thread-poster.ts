import type { WebClient } from '@slack/web-api';
import type { KnownBlock } from '@slack/types';
import type { Redactor } from '../security/redact.js';

export interface ThreadMessage {
  text: string;
  blocks?: KnownBlock[];
}

/** Every message Wrench sends to Slack goes through here, so it is always redacted. */
export class ThreadPoster {
  constructor(
    private readonly client: WebClient,
    private readonly redact: Redactor,
  ) {}

  async reply(channel: string, threadTs: string, message: ThreadMessage): Promise<string | undefined> {
    const result = await this.client.chat.postMessage({
      channel,
      thread_ts: threadTs,
      text: this.redact(message.text),
      blocks: message.blocks ? this.redact.deep(message.blocks) : undefined,
      unfurl_links: false,
      unfurl_media: false,
    });
    return result.ts;
  }

  async update(channel: string, ts: string, message: ThreadMessage): Promise<void> {
    await this.client.chat.update({
      channel,
      ts,
      text: this.redact(message.text),
      blocks: message.blocks ? this.redact.deep(message.blocks) : [],
    });
  }

  async ephemeral(channel: string, user: string, threadTs: string | undefined, text: string): Promise<void> {
    await this.client.chat.postEphemeral({ channel, user, thread_ts: threadTs, text: this.redact(text) });
  }

  async react(channel: string, ts: string, name: string): Promise<void> {
    try {
      await this.client.reactions.add({ channel, timestamp: ts, name });
    } catch (error) {
      if ((error as { data?: { error?: string } }).data?.error !== 'already_reacted') throw error;
    }
  }
}
