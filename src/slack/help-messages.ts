import type { SteeringMessage } from '../sessions/steering-inbox.js';
import { escapeMrkdwn, quoteMrkdwn, truncate } from './slack-escape.js';
import { en, type ThreadStrings } from './strings/en.js';
/** Fixed texts people see; each says what to do next (in `t`'s words, English by default). */
export const helpMessage = (botUserId?: string, t: ThreadStrings = en) => t.help(botUserId ? `<@${botUserId}>` : '@wrench');

export const noRepositoryMessage = (channel: string, t: ThreadStrings = en) =>
  t.noRepository(['```', 'channels:', `  ${channel}: { repo: acme/web, baseBranch: main }`, '```'].join('\n'));

export const repositoryNotAllowedMessage = (fullName: string, t: ThreadStrings = en) => t.repositoryNotAllowed(`\`${fullName}\``);

export const notAuthorizedMessage = (t: ThreadStrings = en) => t.notAuthorized;

/** Why a task or triage could not be queued, told truthfully: a bug in Wrench is not an unavailable queue. */
export function notQueuedMessage(error: unknown, kind: 'task' | 'triage', t: ThreadStrings = en): string {
  const code = (error as { code?: unknown } | null)?.code;
  const what = t.notQueued[kind];
  if (code === 'invalid_job') return t.notQueued.invalidJob(what, (error as Error).message);
  if (code === 'queue_unavailable') return t.notQueued.queueUnavailable(what);
  return t.notQueued.unexpected(what);
}

/** Steering messages that reached a run after its last model call: said (in the thread's language), never dropped silently. */
export function unreadSteeringMessage(messages: SteeringMessage[], t: ThreadStrings = en): string {
  const quoted = messages.map((m) => `${t.steeringWrote(escapeMrkdwn(m.from))}\n${quoteMrkdwn(truncate(m.text, 1500))}`).join('\n');
  return `:envelope: ${t.steeringUnread(messages.length)}\n${quoted}\n${t.steeringFollowUp}`;
}
