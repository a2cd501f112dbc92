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

interface ThreadMessage {
  ts?: string;
  bot_id?: string;
  subtype?: string;
  files?: SlackFile[];
}

/** Slack timestamps in order (`1700000000.000100`: seconds, then microseconds), exactly, without floating point. */
export function compareSlackTs(a: string, b: string): number {
  const [aSeconds = '0', aFraction = ''] = a.split('.');
  const [bSeconds = '0', bFraction = ''] = b.split('.');
  const whole = (digits: string) => (/^\d+$/.test(digits) ? BigInt(digits) : 0n);
  const seconds = whole(aSeconds) - whole(bSeconds);
  if (seconds !== 0n) return seconds < 0n ? -1 : 1;
  const [x, y] = [aFraction.padEnd(6, '0'), bFraction.padEnd(6, '0')];
  return x < y ? -1 : x > y ? 1 : 0;
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
    return this.usable(own.length ? own : root);
  }

  async threadFiles(after?: string): Promise<InputFile[]> {
    const messages: ThreadMessage[] = [];
    let cursor: string | undefined;
    // A thread of a few thousand messages is read whole; the request's own message comes within them.
    for (let page = 0; page < 10; page += 1) {
      const answer = await this.client.conversations.replies({
        channel: this.channel,
        ts: this.threadTs,
        latest: this.messageTs,
        ...(after ? { oldest: after } : {}),
        inclusive: true,
        limit: 200,
        ...(cursor ? { cursor } : {}),
      });
      messages.push(...((answer.messages ?? []) as ThreadMessage[]));
      cursor = answer.response_metadata?.next_cursor || undefined;
      if (!answer.has_more || !cursor) break;
    }
    // Slack answers with the thread's parent whatever the window: the window is applied here, people's messages only.
    const byTs = new Map<string, ThreadMessage>();
    for (const m of messages) {
      const inWindow = m.ts && compareSlackTs(m.ts, this.messageTs) <= 0 && (!after || compareSlackTs(m.ts, after) > 0);
      if (inWindow && m.ts && !m.bot_id && m.subtype !== 'bot_message') byTs.set(m.ts, m);
    }
    return [...byTs.entries()].sort(([a], [b]) => compareSlackTs(a, b)).flatMap(([, m]) => this.usable(m.files ?? []));
  }

  private usable(files: SlackFile[]): InputFile[] {
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
