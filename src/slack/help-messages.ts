import type { SteeringMessage } from '../sessions/steering-inbox.js';
import { escapeMrkdwn, quoteMrkdwn, truncate } from './slack-escape.js';
import { en, type ThreadStrings } from './strings/en.js';
/** Fixed texts people see; each says what to do next. */
export const helpMessage = (botUserId?: string) => {
  const me = botUserId ? `<@${botUserId}>` : '@wrench';
  return [
    `Hi! Mention ${me} with a development task and I will work on this channel's repository and open a pull request.`,
    `For example: \`${me} add tests for formatBytes in src/lib/format.ts covering 0, 1023 and 1024 bytes; npm test must pass\``,
    `Other things I do: \`${me} review PR #42\`, \`${me} fix the TypeError in src/cart.ts:88\`, \`${me} triage: checkout returns 500 since 14:05\`.`,
  ].join('\n');
};

export const noRepositoryMessage = (channel: string) =>
  [
    'This channel is not linked to a repository yet, so I do not know where to work.',
    'Name one in your message (for example `in acme/web`), or link the channel in `wrench.config.yml`:',
    '```',
    'channels:',
    `  ${channel}: { repo: acme/web, baseBranch: main }`,
    '```',
  ].join('\n');

export const repositoryNotAllowedMessage = (fullName: string) =>
  [
    `I am not allowed to work on \`${fullName}\`.`,
    'An administrator can allow it by adding it (or a glob such as `owner/*`) to `repos:` in `wrench.config.yml`.',
  ].join('\n');

export const notAuthorizedMessage = () =>
  'You are not on the list of people who can start work with Wrench here. Ask an administrator to add your Slack user id to `access.users` in `wrench.config.yml`.';

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
