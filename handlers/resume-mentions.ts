import type { WebClient } from '@slack/web-api';
import { jobIdFor } from '../src/queue/task-job.js';
import { stringsFor } from '../src/slack/strings/index.js';
import { handleAppMention, mentionInputOf } from './app-mention.js';
import type { HandlerDeps } from './handler-deps.js';
import { replyLanguage } from './requester-language.js';

export interface MentionResumer {
  /** Resolves when the sweep under way (if any) is over. */
  stop(): Promise<void>;
  /**
   * Redis lost its data: every mention the local journal still holds (handled or not, its run not seen ended) is
   * stored in Redis again and handled as new, its thread told so; one whose run was last seen running is not started
   * a second time: its thread is told its result may still come, else to ask again.
   */
  retakeLost(): Promise<void>;
}

/**
 * Takes over the mentions a web process stored and acknowledged but did not finish handling (it died, or its
 * handling failed): at start-up, then every `WRENCH_MENTION_CLAIM_SECONDS / 2`. Each is handled as if Slack had
 * just delivered it, unless its run is already queued (it died after the enqueue): then it is only marked done.
 */
export function resumeUnfinishedMentions(client: WebClient, deps: HandlerDeps): MentionResumer {
  const { intake } = deps.stores;
  let botUserId: string | undefined;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let sweeping: Promise<void> = Promise.resolve();

  const sweep = async () => {
    botUserId ??= await client.auth.test().then(
      (answer) => answer.user_id,
      () => undefined,
    );
    // Kept on the disk while Redis did not answer: into Redis now, then handled below like any stored mention.
    const { journal } = deps.stores;
    if (journal) await journal.replay(intake, deps.logger);
    const { resume, dropped } = await intake.takeUnfinished();
    for (const record of dropped) {
      deps.logger.error({ eventId: record.eventId, attempts: record.attempts }, 'a stored mention failed every time it was handled; dropped');
      // Never a silent drop: the person who asked hears that it was not done.
      const event = (record.body.event ?? {}) as { channel?: unknown; ts?: unknown; thread_ts?: unknown; user?: unknown };
      if (typeof event.channel === 'string' && typeof event.ts === 'string') {
        const thread = { channel: event.channel, threadTs: typeof event.thread_ts === 'string' ? event.thread_ts : event.ts };
        // In the thread's language, else the requester's Slack locale.
        const language = typeof event.user === 'string' ? await replyLanguage(thread, event.user, deps).catch(() => undefined) : undefined;
        await deps.outbox
          .post(thread, { text: stringsFor(language).mentionDropped(record.attempts) })
          .catch((error: unknown) => deps.logger.warn({ err: error, eventId: record.eventId }, 'could not tell the thread about a dropped mention'));
      }
    }
    for (const record of resume) {
      const log = deps.logger.child({ eventId: record.eventId, attempt: record.attempts });
      if (await deps.queues.tasks.getJob(jobIdFor('run', record.eventId))) {
        await intake.finish(record.eventId);
        log.info('a stored mention was already queued; marked handled');
        continue;
      }
      log.warn({ receivedAt: record.receivedAt }, 'resuming a mention that was acknowledged but never handled (its process stopped)');
      await intake.release(record.eventId);
      const outcome = await handleAppMention(mentionInputOf(record.body, client, botUserId), deps).catch((error: unknown) => {
        log.error({ err: error }, 'a resumed mention failed; it is tried again later');
        return 'failed';
      });
      log.info({ outcome }, 'resumed mention handled');
    }
    await journal?.prune(isOver);
  };

  /** The journalled mentions whose run was running when last looked at. */
  const running = new Set<string>();
  /** Handled, and its run (if it made one) ended: the journal forgets it. */
  const isOver = async (eventId: string) => {
    const state = await deps.queues.tasks.getJobState(jobIdFor('run', eventId));
    // Not forgotten on 'unknown': a sweep between Redis coming back empty and the epoch check sees no job at all.
    if (state === 'active') running.add(eventId);
    else if (state !== 'unknown') running.delete(eventId);
    return (await intake.isHandled(eventId)) && ['unknown', 'completed', 'failed'].includes(state);
  };

  const retakeLost = async () => {
    const { journal } = deps.stores;
    if (!journal) return;
    for (const entry of await journal.entries()) {
      let body: { event?: { channel?: unknown; ts?: unknown; thread_ts?: unknown; user?: unknown } };
      try {
        body = JSON.parse(entry.raw);
      } catch {
        continue;
      }
      const event = body.event ?? {};
      if (typeof event.channel !== 'string' || typeof event.ts !== 'string') continue;
      const thread = { channel: event.channel, threadTs: typeof event.thread_ts === 'string' ? event.thread_ts : event.ts };
      const log = deps.logger.child({ eventId: entry.eventId, channel: thread.channel, thread: thread.threadTs });
      const wasRunning = running.has(entry.eventId);
      if (!wasRunning) await intake.record(entry.raw);
      const language = typeof event.user === 'string' ? await replyLanguage(thread, event.user, deps).catch(() => undefined) : undefined;
      const t = stringsFor(language);
      await deps.outbox
        .post(thread, { text: wasRunning ? t.redisLostWhileRunning : t.redisLostRetaken })
        .catch((error: unknown) => log.warn({ err: error }, 'could not tell the thread about the Redis data loss'));
      if (wasRunning) await journal.remove(entry.eventId);
      log.error(
        { running: wasRunning },
        wasRunning
          ? 'a mention whose run was under way when Redis lost its data: its thread was told'
          : 'a mention Redis lost is taken again from the local journal',
      );
    }
    running.clear();
    if (!stopped) {
      await sweeping;
      sweeping = sweep().catch((error: unknown) => deps.logger.warn({ err: error }, 'could not look for unfinished mentions'));
      await sweeping;
    }
  };

  const tick = () => {
    if (stopped) return;
    sweeping = sweep()
      .catch((error: unknown) => deps.logger.warn({ err: error }, 'could not look for unfinished mentions'))
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, Math.max(1000, (intake.claimSeconds * 1000) / 2));
      });
  };
  tick();
  return {
    retakeLost,
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await sweeping;
    },
  };
}
