import type { WebClient } from '@slack/web-api';
import { readInstruction } from '../src/instruction/read-instruction.js';
import { enqueueTask } from '../src/queue/queues.js';
import { jobIdFor, type TaskJob } from '../src/queue/task-job.js';
import { resolveRepository } from '../src/repository/resolve-repository.js';
import { canStartWork } from '../src/security/authorize.js';
import { claimEvent } from '../src/slack/event-dedup.js';
import { helpMessage, noRepositoryMessage, notAuthorizedMessage, repositoryNotAllowedMessage } from '../src/slack/help-messages.js';
import { stripBotMention } from '../src/slack/mention-text.js';
import { ThreadPoster } from '../src/slack/thread-poster.js';
import type { HandlerDeps } from './handler-deps.js';

export interface MentionInput {
  eventId: string;
  teamId?: string;
  botUserId?: string;
  event: { channel: string; user?: string; text: string; ts: string; thread_ts?: string; bot_id?: string };
  client: WebClient;
}

export type MentionOutcome = 'duplicate' | 'ignored' | 'help' | 'no_repository' | 'not_allowed' | 'unauthorized' | 'queued';

/**
 * @wrench <task>: after Bolt has acknowledged the event, claim it once, resolve the repository,
 * read the instruction and enqueue the job. Only Redis and Slack replies here: no model, no git.
 */
export async function handleAppMention(input: MentionInput, deps: HandlerDeps): Promise<MentionOutcome> {
  const { event } = input;
  if (!event.user || event.bot_id) return 'ignored';
  if (!(await claimEvent(deps.redis, deps.config.env.WRENCH_QUEUE_PREFIX, input.eventId))) return 'duplicate';

  const poster = new ThreadPoster(input.client, deps.redact);
  const threadTs = event.thread_ts ?? event.ts;
  const log = deps.logger.child({ eventId: input.eventId, channel: event.channel, thread: threadTs });
  const text = stripBotMention(event.text, input.botUserId);

  const permission = canStartWork(deps.config.file.access, event.user);
  if (!permission.allowed) {
    log.warn({ user: event.user, reason: permission.reason }, 'refused: user may not start work');
    await poster.ephemeral(event.channel, event.user, threadTs, notAuthorizedMessage());
    return 'unauthorized';
  }
  if (!text) {
    await poster.reply(event.channel, threadTs, { text: helpMessage(input.botUserId) });
    return 'help';
  }
  const resolution = resolveRepository(text, event.channel, deps.config.file);
  if (!resolution.ok) {
    const message = resolution.reason === 'no_repository' ? noRepositoryMessage(event.channel) : repositoryNotAllowedMessage(resolution.named);
    log.info({ reason: resolution.reason }, 'refused: no usable repository');
    await poster.reply(event.channel, threadTs, { text: message });
    return resolution.reason === 'no_repository' ? 'no_repository' : 'not_allowed';
  }

  const reading = readInstruction(text);
  const job: TaskJob = {
    kind: 'task',
    origin: { type: 'slack', teamId: input.teamId, channel: event.channel, threadTs, messageTs: event.ts, eventId: input.eventId },
    repo: resolution.repo,
    instruction: text,
    category: reading.category,
    complexity: reading.complexity,
    elements: reading.elements as Record<string, unknown>,
    requester: { slackUserId: event.user },
    requestedAt: new Date().toISOString(),
  };
  try {
    await enqueueTask(deps.queues, jobIdFor('mention', input.eventId), job);
  } catch (error) {
    log.error({ err: error }, 'could not queue the task');
    await poster.reply(event.channel, threadTs, {
      text: 'I could not queue this task because my job queue is unavailable. Please mention me again in a minute; if it keeps failing, ask an administrator to run `wrench doctor`.',
    });
    return 'ignored';
  }
  log.info({ repo: `${resolution.repo.owner}/${resolution.repo.name}`, category: reading.category }, 'task queued');
  await poster.react(event.channel, event.ts, 'eyes');
  await poster.reply(event.channel, threadTs, {
    text: `On it: ${reading.category} task on \`${resolution.repo.owner}/${resolution.repo.name}\` (${reading.complexity}). I will reply here with the result.`,
  });
  return 'queued';
}
