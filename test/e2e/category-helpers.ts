import { appMentionEnvelope } from '../fakes/slack-fake.js';
import { SIGNING_SECRET, type E2eWorld } from './e2e-world.js';
import { threadReply } from './thread-replies.js';

/** Mentions Wrench in a channel (with files shared with the message, if any); returns the thread ts. */
export async function mention(world: E2eWorld, channel: string, text: string, files?: Record<string, unknown>[]): Promise<string> {
  const envelope = appMentionEnvelope({ channel, user: 'U0ALICE', text: `<@U0BOT> ${text}`, files });
  const delivered = await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope);
  if (delivered.status !== 200) throw new Error(`event refused: HTTP ${delivered.status}`);
  return (envelope.event as { ts: string }).ts;
}

/**
 * Waits for the run's reply whose text matches, on whichever surface the thread shows it (thread-replies.ts), then
 * returns the text of every reply of the thread joined: a streamed run's one message, or the card run's replies.
 */
export async function replyIn(world: E2eWorld, threadTs: string, match: RegExp, timeoutMs = 90_000): Promise<{ text: string }> {
  const reply = await threadReply(world, threadTs, match, timeoutMs);
  if (reply.streamed) return { text: reply.text };
  const first = world.slack.calls.find((c) => c.method === 'chat.postMessage' && c.args.thread_ts === threadTs && match.test(String(c.args.text)))!;
  // A long result is posted as several messages in a row: let them all arrive.
  await world.slack
    .waitFor((c) => c.method === 'chat.update' && /Done|Cancelled|Failed/.test(String(c.args.text)) && c.at >= first.at, 30_000)
    .catch(() => undefined);
  const text = world.slack
    .callsTo('chat.postMessage')
    .filter((c) => c.args.thread_ts === threadTs)
    .map((c) => String(c.args.text))
    .join('\n');
  return { text };
}

/** The model's requests of one run, recognised by a marker in its instruction. */
export function requestsOf(world: E2eWorld, marker: string): unknown[] {
  return world.anthropic.requests.map((r) => r.body).filter((body) => JSON.stringify((body as { messages: unknown[] }).messages[0]).includes(marker));
}

/** The text of the first user message (the task message) of a recorded model request. */
export function taskText(body: unknown): string {
  const content = (body as { messages: Array<{ content: unknown }> }).messages[0]?.content;
  if (typeof content === 'string') return content;
  return (content as Array<{ type: string; text?: string }>).map((block) => block.text ?? '').join('\n');
}
