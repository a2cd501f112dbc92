import type { WebClient } from '@slack/web-api';
import { namedAmong, repoRefOf, type RepoRef } from '../src/repository/resolve-repository.js';
import type { PendingInstruction, ThreadSession } from '../src/sessions/thread-session.js';
import { decodeRepositoryChoice, type ThreadRef } from '../src/slack/action-ids.js';
import { clarificationCardKey } from '../src/slack/clarification-card.js';
import { repositoryChoiceCard } from '../src/slack/repository-choice-card.js';
import { stringsFor } from '../src/slack/strings/index.js';
import { acceptInstruction } from './accept-instruction.js';
import { editCard, mayAct } from './clarification-actions.js';
import type { AcceptOutcome, HandlerDeps, InstructionInput } from './handler-deps.js';
import { claimed, withPendingClaimed } from './pending-claim.js';
import { replyLanguage } from './requester-language.js';

const fullName = (repo: RepoRef) => `${repo.owner}/${repo.name}`;

/**
 * A request in a channel with several repositories: named in it, or the only one whose tree holds a path or symbol
 * it names (read on the mirrors, bounded in time); undefined when neither tells.
 */
export async function pickRepository(text: string, candidates: RepoRef[], deps: HandlerDeps): Promise<RepoRef | undefined> {
  const [named, ...more] = namedAmong(text, candidates);
  if (named && more.length === 0) return named;
  const among = more.length > 0 && named ? [named, ...more] : candidates;
  return deps.pickRepository?.(text, among).catch((error: unknown) => {
    deps.logger.warn({ err: error }, 'could not read the repositories to pick one');
    return undefined;
  });
}

/**
 * Holds the request in the thread's session (no repository yet) and asks which repository it is for, one button each.
 * The card is posted straight away; while Slack fails, the thread's outbox posts it when Slack answers again.
 */
export async function askForRepository(input: Omit<InstructionInput, 'repo' | 'force'>, candidates: RepoRef[], deps: HandlerDeps): Promise<'choosing'> {
  const thread = { channel: input.channel, threadTs: input.threadTs };
  const repositories = candidates.map(fullName);
  const t = stringsFor(await replyLanguage(thread, input.user, deps));
  const pending: PendingInstruction = { text: input.text, requester: input.user, messageTs: input.messageTs, verdict: 'repository', repositories };
  // Stored before the card is posted: its buttons may be pressed at once.
  await deps.sessions.update(input.channel, input.threadTs, (current) => ({ ...(current ?? sessionWithoutRepository(input)), pending }));
  const card = repositoryChoiceCard(repositories, thread, t);
  const cardTs = await deps
    .posterFor(input.client)
    .reply(input.channel, input.threadTs, card)
    .catch(async (error: unknown) => {
      deps.logger.warn({ err: error, channel: input.channel, thread: input.threadTs }, 'could not ask which repository; queued in the outbox');
      await deps.outbox.post(thread, card, clarificationCardKey(input.messageTs));
      return undefined;
    });
  await deps.sessions.update(input.channel, input.threadTs, (current) =>
    current?.pending?.messageTs === input.messageTs ? { ...current, pending: { ...current.pending, cardTs } } : null,
  );
  deps.logger.info({ channel: input.channel, thread: input.threadTs, repositories }, 'asked which repository');
  return 'choosing';
}

function sessionWithoutRepository(input: Omit<InstructionInput, 'repo' | 'force'>): ThreadSession {
  const now = new Date().toISOString();
  return { channel: input.channel, threadTs: input.threadTs, requester: input.user, runs: [], createdAt: now, updatedAt: now };
}

/**
 * Starts the held request on `repo` for the one press or reply that claims it (two presses start it once): the thread's
 * session records the repository, the card says who chose it, and the request is read and queued as a new one would be.
 */
async function startOn(
  repo: RepoRef,
  pending: PendingInstruction,
  thread: ThreadRef,
  start: { client: WebClient; user: string; text: string; dedupKey: string; teamId?: string },
  deps: HandlerDeps,
): Promise<AcceptOutcome | 'taken'> {
  return withPendingClaimed(deps, thread, pending.messageTs, async () => {
    await deps.sessions.update(thread.channel, thread.threadTs, (current) => {
      if (current?.pending?.messageTs !== pending.messageTs) return null;
      const { repositories: _asked, ...rest } = current.pending;
      return { ...current, repo, pending: rest };
    });
    const t = stringsFor(await replyLanguage(thread, pending.requester, deps));
    await editCard(pending, thread, { text: t.repositoryChosen(start.user, fullName(repo)) }, deps, start.client);
    return acceptInstruction(
      {
        client: start.client,
        channel: thread.channel,
        threadTs: thread.threadTs,
        messageTs: pending.messageTs,
        teamId: start.teamId,
        dedupKey: start.dedupKey,
        user: pending.requester,
        text: start.text,
      },
      deps,
    );
  });
}

/** The repository a choice names, with the channel's base branch: only one the card offered. */
function offered(pending: PendingInstruction, repository: string, deps: HandlerDeps, channel: string): RepoRef | undefined {
  const match = pending.repositories?.find((candidate) => candidate.toLowerCase() === repository.toLowerCase());
  if (!match) return undefined;
  const baseBranch = deps.config.file.channels[channel]?.baseBranch;
  return { ...repoRefOf(match), ...(baseBranch ? { baseBranch } : {}) };
}

/** A repository button: the requester (or an approver) chooses; the request starts there once. */
export async function handleRepositoryChoice(
  input: { client: WebClient; user: string; value?: string; teamId?: string },
  deps: HandlerDeps,
): Promise<AcceptOutcome | 'stale' | 'not_allowed'> {
  const choice = decodeRepositoryChoice(input.value);
  if (!choice) return 'stale';
  const thread = { channel: choice.channel, threadTs: choice.threadTs };
  const poster = deps.posterFor(input.client);
  const session = await deps.sessions.get(thread.channel, thread.threadTs);
  const pending = session?.pending;
  const t = stringsFor(session?.language ?? (await replyLanguage(thread, input.user, deps)));
  const repo = pending?.repositories && offered(pending, choice.repository, deps, thread.channel);
  if (!pending || !repo || claimed(pending)) {
    await poster.ephemeral(thread.channel, input.user, thread.threadTs, pending && claimed(pending) ? t.requestBusy : t.requestGone);
    return 'stale';
  }
  if (!mayAct(deps, pending.requester, input.user)) {
    await poster.ephemeral(thread.channel, input.user, thread.threadTs, t.onlyRequesterChoosesRepository);
    return 'not_allowed';
  }
  const outcome = await startOn(
    repo,
    pending,
    thread,
    { client: input.client, user: input.user, text: pending.text, dedupKey: `repository-${thread.threadTs}-${pending.messageTs}`, teamId: input.teamId },
    deps,
  );
  if (outcome !== 'taken') return outcome;
  const now = (await deps.sessions.get(thread.channel, thread.threadTs))?.pending;
  await poster.ephemeral(thread.channel, input.user, thread.threadTs, now && claimed(now) ? t.requestBusy : t.requestGone);
  return 'stale';
}

/**
 * A reply in a thread whose request waits for its repository: with what it adds, the request may name one (or a path
 * only one has); then it starts there, else the reply is told to choose.
 */
export async function answerRepositoryChoice(
  session: ThreadSession,
  pending: PendingInstruction & { repositories: string[] },
  input: Omit<InstructionInput, 'repo' | 'force'>,
  deps: HandlerDeps,
): Promise<AcceptOutcome | 'taken'> {
  const thread = { channel: input.channel, threadTs: input.threadTs };
  const combined = `${pending.text}\n\n${input.text}`;
  const candidates = pending.repositories.flatMap((name) => offered(pending, name, deps, input.channel) ?? []);
  const picked = (await pickRepository(input.text, candidates, deps)) ?? (await pickRepository(combined, candidates, deps));
  if (!picked) {
    const t = stringsFor(session.language ?? (await replyLanguage(thread, input.user, deps)));
    await deps.posterFor(input.client).ephemeral(input.channel, input.user, input.threadTs, t.nameTheRepository(pending.repositories.join(', ')));
    return 'clarifying';
  }
  return startOn(picked, pending, thread, { client: input.client, user: input.user, text: combined, dedupKey: input.dedupKey, teamId: input.teamId }, deps);
}
