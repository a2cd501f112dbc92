import { enqueueTriage } from '../src/queue/queues.js';
import { jobIdFor } from '../src/queue/task-job.js';
import type { RepoRef } from '../src/repository/resolve-repository.js';
import { escapeMrkdwn } from '../src/slack/slack-escape.js';
import { statusCardKey } from '../src/slack/slack-reporter-factory.js';
import type { AcceptOutcome, HandlerDeps, InstructionInput } from './handler-deps.js';
import { notQueuedMessage } from '../src/slack/help-messages.js';
import { stringsFor } from '../src/slack/strings/index.js';

/**
 * "@wrench triage: <what is happening>": the same read-only investigation as for a PagerDuty
 * incident, on the channel's repository, reported in the message's thread. The job id comes from the
 * Slack event, so a redelivered mention never starts a second triage.
 */
export async function startManualTriage(input: InstructionInput, repo: RepoRef, deps: HandlerDeps, language: string): Promise<AcceptOutcome> {
  const outbox = deps.outbox;
  const thread = { channel: input.channel, threadTs: input.threadTs };
  const repository = `${repo.owner}/${repo.name}`;
  const triageId = jobIdFor('triage', input.dedupKey);
  // The status line waits in the thread's outbox (the triage edits it under the same key): Slack failing now loses nothing.
  const statusKey = statusCardKey(triageId);
  await outbox.post(thread, { text: stringsFor(language).triage.queued(`\`${escapeMrkdwn(repository)}\``) }, statusKey);
  try {
    await enqueueTriage(deps.queues, triageId, {
      kind: 'triage',
      triageId,
      source: { type: 'manual', description: input.text, messageTs: input.messageTs },
      repo,
      channel: input.channel,
      threadTs: input.threadTs,
      requester: input.user,
      ...(language === 'en' ? {} : { language }),
      requestedAt: new Date().toISOString(),
    });
  } catch (error) {
    deps.logger.error({ err: error, triageId }, 'could not queue the triage');
    await outbox
      .update(thread, statusKey, { text: notQueuedMessage(error, 'triage', stringsFor(language)) })
      .catch((e: unknown) => deps.logger.error({ err: e, triageId }, 'could not say the triage was not queued'));
    return 'failed';
  }
  // An instruction that first needed details is answered now: nothing is pending in the thread any more.
  await deps.sessions.update(input.channel, input.threadTs, (session) => (session?.pending ? { ...session, pending: undefined } : null));
  deps.logger.info({ triageId, repo: repository, thread: input.threadTs }, 'manual triage queued');
  return 'queued';
}
