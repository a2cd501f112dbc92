import { pollFor } from '../fakes/shared/wait-for.js';
import { streamText } from '../fakes/slack/streams.js';
import type { E2eWorld } from './e2e-world.js';

/** A streamed message's text as a reply reads: markdown links `[label](url)` as `label (url)`. */
function readable(markdown: string): string {
  return markdown.replace(/\[([^\]]*)\]\(([^)]*)\)/g, '$1 ($2)');
}

/**
 * The run's reply in a thread whose text matches, on whichever surface the run used: a streamed run (slack.streamRuns,
 * the default) answers in its one message, read once the thread's streams have stopped (`streamed: true`); a run
 * reported with the card answers in a thread reply (chat.postMessage), whose text is returned. `since` (a count of
 * Slack calls) leaves out what came before it: the earlier runs of the thread.
 */
export function threadReply(world: E2eWorld, threadTs: string, match: RegExp, timeoutMs = 90_000, since = 0): Promise<{ text: string; streamed: boolean }> {
  const inThread = (method: string) =>
    world.slack.calls.filter((c, i) => c.method === method && c.args.thread_ts === threadTs && !c.error && (i >= since || method !== 'chat.postMessage'));
  return pollFor(
    () => {
      const starts = inThread('chat.startStream');
      const earlier = starts.filter((c) => world.slack.calls.indexOf(c) < since).length;
      if (starts.length > earlier) {
        const streams = world.slack.streamsIn(String(starts[0]!.args.channel), threadTs).slice(earlier);
        if (streams.length > 0 && streams.every((s) => s.state !== 'streaming')) {
          const text = streams.map((s) => readable(streamText(s))).join('\n');
          if (match.test(text)) return { text, streamed: true };
        }
      }
      const reply = inThread('chat.postMessage').find((c) => match.test(String(c.args.text)));
      return reply ? { text: String(reply.args.text), streamed: false } : undefined;
    },
    timeoutMs,
    () =>
      `no reply matched ${match} in ${threadTs}; Slack calls there: ${world.slack.calls
        .filter((c) => c.args.thread_ts === threadTs)
        .map((c) => c.method)
        .join(', ')}`,
  );
}

/**
 * The last word a streamed run's thread got, or undefined while it has none: the reply of a stream that stopped (a
 * stream still open, or stopped with no reply, is no last word); a stopped stream's message edited afterwards into its
 * final form, with no Cancel button (a restarted or resumed run goes on in its message by chat.update); or a message
 * posted in the thread (a reply Slack would not take as a stream, a failure, the watchdog's word). A status note (the
 * run restarted) is not one.
 */
export function finalWord(world: E2eWorld, channel: string, threadTs: string): string | undefined {
  const stopped = world.slack.streamsIn(channel, threadTs).filter((s) => s.state !== 'streaming');
  const streamed = stopped.map((s) => readable(streamText(s))).find((text) => text.trim() !== '');
  if (streamed) return streamed;
  const edited = world.slack
    .messages(channel, threadTs)
    .filter((m) => m.edited && stopped.some((s) => s.ts === m.ts))
    .find((m) => !JSON.stringify(m.blocks ?? []).includes('"type":"actions"'));
  if (edited) return edited.text;
  const posted = world.slack.calls.filter(
    (c) => c.method === 'chat.postMessage' && c.args.thread_ts === threadTs && c.args.channel === channel && !c.error && c.status === 200,
  );
  return posted.map((c) => String(c.args.text)).find((text) => !/restarted after an interruption/.test(text));
}
