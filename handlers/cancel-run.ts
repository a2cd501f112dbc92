import type { WebClient } from '@slack/web-api';
import { canApprove } from '../src/security/authorize.js';
import { stringsFor } from '../src/slack/strings/index.js';
import { withdrawQuestion } from './answer-question.js';
import type { HandlerDeps } from './handler-deps.js';

/**
 * Stop the thread's current (or queued) runs: the Cancel button, "@wrench stop", or an :x: reaction; from a run page,
 * only that run (`jobId`), and the thread reads where it was asked (`via`: "on the run page").
 */
export async function cancelThreadRuns(
  input: { client: WebClient; channel: string; threadTs: string; user: string; quiet?: boolean; jobId?: string; via?: string },
  deps: HandlerDeps,
): Promise<'cancelled' | 'nothing_running' | 'not_allowed'> {
  const poster = deps.posterFor(input.client);
  const session = await deps.sessions.get(input.channel, input.threadTs);
  // A run paused on its question ends now, with what it has.
  if (session?.waiting && !input.jobId && (await withdrawQuestion(input, deps))) return 'cancelled';
  const active = session?.runs.filter((r) => (r.status === 'queued' || r.status === 'running') && (!input.jobId || r.jobId === input.jobId)) ?? [];
  if (!session || active.length === 0) {
    if (!input.quiet) await poster.ephemeral(input.channel, input.user, input.threadTs, stringsFor(session?.language).nothingRunning);
    return 'nothing_running';
  }
  const allowed = active.some((r) => r.requester === input.user) || canApprove(deps.config.file.access, input.user).allowed;
  if (!allowed) {
    deps.logger.warn({ user: input.user, thread: input.threadTs }, 'refused: cancel by someone who is neither requester nor approver');
    if (!input.quiet) await poster.ephemeral(input.channel, input.user, input.threadTs, stringsFor(session.language).cancelNotAllowed);
    return 'not_allowed';
  }
  const cancellation = deps.stores.cancellation;
  for (const run of active) await cancellation.request(run.jobId, `<@${input.user}>${input.via ? ` ${input.via}` : ''}`);
  deps.logger.info({ user: input.user, jobs: active.map((r) => r.jobId) }, 'cancel requested');
  return 'cancelled';
}

/**
 * The Wrench thread a reacted message belongs to: the thread's first message itself, or, for the status card
 * and every reply, the thread_ts Slack reports for it. Undefined when the message is not in a Wrench thread.
 */
export async function threadOfMessage(input: { client: WebClient; channel: string; ts: string }, deps: HandlerDeps): Promise<string | undefined> {
  if (await deps.sessions.get(input.channel, input.ts)) return input.ts;
  const found = await input.client.conversations.replies({ channel: input.channel, ts: input.ts, limit: 1 }).catch((error) => {
    deps.logger.debug({ err: error, channel: input.channel, ts: input.ts }, 'could not look up the thread of a reacted message');
    return undefined;
  });
  const threadTs = found?.messages?.[0]?.thread_ts;
  return threadTs && threadTs !== input.ts && (await deps.sessions.get(input.channel, threadTs)) ? threadTs : undefined;
}
