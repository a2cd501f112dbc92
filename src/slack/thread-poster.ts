import type { WebClient } from '@slack/web-api';
import type { KnownBlock } from '@slack/types';
import type { ResultAttachment } from '../reporting/run-result.js';
import type { Redactor } from '../security/redact.js';

export interface ThreadMessage {
  text: string;
  blocks?: KnownBlock[];
  /**
   * A plain, short form of the message (a run's outcome and its pull request's link), said instead by the thread's
   * outbox when Slack refuses the message as written (`invalid_blocks`, `msg_too_long`...), so it is never dropped.
   */
  short?: string;
}

/** Slack message metadata: what a message is about, for Wrench to find it again (not shown to people). */
export interface MessageMetadata {
  event_type: string;
  event_payload: Record<string, string | number>;
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

  /** A new message in the channel, not a reply: it starts a thread of its own (a scheduled run's). */
  async postInChannel(channel: string, message: ThreadMessage, metadata?: MessageMetadata): Promise<string> {
    const result = await this.client.chat.postMessage({
      channel,
      text: this.redact(message.text),
      blocks: message.blocks ? this.redact.deep(message.blocks) : undefined,
      unfurl_links: false,
      unfurl_media: false,
      ...(metadata ? { metadata } : {}),
    });
    if (!result.ts) throw new Error('chat.postMessage answered without a ts');
    return result.ts;
  }

  /** A message's link, or undefined when Slack does not give it. */
  async permalink(channel: string, ts: string): Promise<string | undefined> {
    return (await this.client.chat.getPermalink({ channel, message_ts: ts }).catch(() => undefined))?.permalink;
  }

  async update(channel: string, ts: string, message: ThreadMessage): Promise<void> {
    await this.client.chat.update({
      channel,
      ts,
      text: this.redact(message.text),
      blocks: message.blocks ? this.redact.deep(message.blocks) : [],
    });
  }

  /** Shares files in the thread (Slack's external upload flow); text files are redacted, images go as they are. */
  async upload(channel: string, threadTs: string, files: ResultAttachment[], comment?: string): Promise<void> {
    if (files.length === 0) return;
    await this.client.filesUploadV2({
      channel_id: channel,
      thread_ts: threadTs,
      initial_comment: comment ? this.redact(comment) : undefined,
      file_uploads: files.map((file) => ({
        file: file.kind === 'text' ? Buffer.from(this.redact(file.content.toString('utf8'))) : file.content,
        filename: this.redact(file.filename),
        title: this.redact(file.title ?? file.filename),
      })),
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
