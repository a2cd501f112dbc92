import type { WebClient } from '@slack/web-api';
import { WrenchError } from '../errors.js';
import type { InputFile, InputFileSource } from '../inputs/input-files.js';

interface SlackFile {
  id?: string;
  name?: string;
  title?: string;
  size?: number;
  mimetype?: string;
  mode?: string;
  url_private_download?: string;
  url_private?: string;
}

/**
 * The files attached to the message that asked for the work (or, when it has none, to the thread's first
 * message): read with conversations.replies, downloaded from `url_private` with the bot token. The token is
 * only ever sent to Slack's own hosts (or the configured Slack API's host).
 */
export class SlackMessageFiles implements InputFileSource {
  constructor(
    private readonly client: WebClient,
    private readonly channel: string,
    private readonly threadTs: string,
    private readonly messageTs: string,
  ) {}

  async list(): Promise<InputFile[]> {
    const answer = await this.client.conversations.replies({ channel: this.channel, ts: this.threadTs, limit: 200 });
    const messages = (answer.messages ?? []) as Array<{ ts?: string; files?: SlackFile[] }>;
    const own = messages.find((m) => m.ts === this.messageTs)?.files ?? [];
    const root = messages.find((m) => m.ts === this.threadTs)?.files ?? [];
    const files = own.length ? own : root;
    return files.flatMap((file) => {
      const url = file.url_private_download ?? file.url_private;
      return file.mode !== 'tombstone' && file.mode !== 'hidden_by_limit' && url ? [this.inputFile(file, url)] : [];
    });
  }

  private inputFile(file: SlackFile, url: string): InputFile {
    const name = file.name ?? file.title ?? file.id ?? 'attachment';
    return {
      name,
      size: file.size ?? 0,
      mimetype: file.mimetype,
      download: (maxBytes) => this.download(url, name, maxBytes),
    };
  }

  private async download(url: string, name: string, maxBytes: number): Promise<Buffer> {
    if (!this.trusted(url)) throw new WrenchError('input_untrusted_url', `The attachment ${name} is not hosted by Slack; I did not download it.`);
    const response = await fetch(url, { headers: { Authorization: `Bearer ${this.client.token ?? ''}` } });
    if (!response.ok || !response.body) throw new WrenchError('input_download_failed', `Slack answered HTTP ${response.status} for the attachment ${name}.`);
    const chunks: Buffer[] = [];
    let total = 0;
    for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
      total += chunk.byteLength;
      if (total > maxBytes) throw new WrenchError('input_too_large', `The attachment ${name} is larger than ${Math.round(maxBytes / 1_000_000)} MB.`);
      chunks.push(Buffer.from(chunk));
    }
    return Buffer.concat(chunks);
  }

  private trusted(url: string): boolean {
    try {
      const target = new URL(url);
      const api = new URL(this.client.slackApiUrl);
      return target.protocol === 'https:' &&
        (target.hostname === 'slack.com' || target.hostname.endsWith('.slack.com') || target.hostname.endsWith('.slack-edge.com'))
        ? true
        : target.origin === api.origin;
    } catch {
      return false;
    }
  }
}
