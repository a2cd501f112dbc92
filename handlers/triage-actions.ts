import type { WebClient } from '@slack/web-api';
import { channelHasRepository } from '../src/config/config-file.js';
import { redisKeys } from '../src/redis/redis-keys.js';
import { enqueueTriage } from '../src/queue/queues.js';
import { jobIdFor } from '../src/queue/task-job.js';
import { repoRefOf } from '../src/repository/resolve-repository.js';
import { canApprove } from '../src/security/authorize.js';
import type { SlackApp } from '../src/slack/create-slack-app.js';
import { decodeTriageValue, TRIAGE_ACTIONS } from '../src/slack/triage-action-ids.js';
import { renderTriageReport } from '../src/slack/triage-report-message.js';
import { fixInstruction } from '../src/triage/fix-instruction.js';
import { TriageRecordStore, type TriageRecord } from '../src/triage/triage-record.js';
import { statusCardKey } from '../src/slack/slack-reporter-factory.js';
import { stringsFor, type ThreadStrings } from '../src/slack/strings/index.js';
import { acceptInstruction } from './accept-instruction.js';
import type { AcceptOutcome, HandlerDeps } from './handler-deps.js';
import type { KnownInteractions } from './unknown-interactions.js';

export interface TriageActionInput {
  client: WebClient;
  user: string;
  value?: string;
  /** Where the button was pressed. */
  channel?: string;
  messageTs?: string;
  teamId?: string;
}

type TriageStrings = ThreadStrings['triage'];

type Outcome = AcceptOutcome | 'not_allowed' | 'expired' | 'already' | 'dismissed';

const stores = (deps: HandlerDeps) => ({
  records: new TriageRecordStore(deps.redis, deps.config.env.WRENCH_QUEUE_PREFIX),
  threads: deps.stores.incidentThreads,
});

/**
 * Only approvers press triage buttons; anyone else gets an ephemeral explanation (in the triage's language) and a log
 * line, and nothing changes. `action` names the button as the report shows it.
 */
async function approverOnly(input: TriageActionInput, deps: HandlerDeps, action: (t: TriageStrings) => string, language?: string): Promise<boolean> {
  const permission = canApprove(deps.config.file.access, input.user);
  if (permission.allowed) return true;
  const t = stringsFor(language).triage;
  deps.logger.warn(
    { user: input.user, action: action(stringsFor('en').triage), reason: permission.reason, channel: input.channel },
    'refused: triage action by a non-approver',
  );
  await tell(input, deps, t.approversOnlyAction(action(t)));
  return false;
}

/** The button's triage, when it is still kept. */
async function pressedTriage(input: TriageActionInput, deps: HandlerDeps) {
  const value = decodeTriageValue(input.value);
  const record = value?.triageId ? await stores(deps).records.get(value.triageId) : null;
  return { value, record };
}

/** Once per button and subject, across all web processes (double clicks, two people at once). */
async function claimAction(deps: HandlerDeps, key: string): Promise<boolean> {
  return (await deps.redis.set(redisKeys(deps.config.env.WRENCH_QUEUE_PREFIX).triageAction(key), '1', 'EX', 30 * 24 * 3600, 'NX')) === 'OK';
}

async function tell(input: TriageActionInput, deps: HandlerDeps, text: string): Promise<void> {
  if (input.channel) await deps.posterFor(input.client).ephemeral(input.channel, input.user, undefined, text);
}

/** The ts of the report's last message (the one with the buttons), once Slack has it. */
async function reportMessageTs(record: TriageRecord, deps: HandlerDeps): Promise<string | undefined> {
  const key = record.reportKeys?.at(-1);
  if (key) return deps.outbox.tsOf({ channel: record.channel, threadTs: record.threadTs }, key);
  return record.reportTs.at(-1);
}

/** "Revert <sha>": queues the revert runner (branch, git revert, tests, draft PR). */
export async function handleRevertAction(input: TriageActionInput, deps: HandlerDeps): Promise<Outcome> {
  const { value, record } = await pressedTriage(input, deps);
  if (!(await approverOnly(input, deps, (t) => t.revert(value?.sha?.slice(0, 7) ?? '').trim(), record?.language))) return 'not_allowed';
  const suspect = record?.suspects.find((s) => s.resolved && s.sha === value?.sha);
  if (!record || !suspect) {
    await tell(input, deps, 'This triage has expired or no longer offers that revert.');
    return 'expired';
  }
  if (!(await claimAction(deps, `revert:${record.triageId}:${suspect.sha}`))) {
    await tell(input, deps, stringsFor(record.language).triage.revertAlready(`\`${suspect.sha.slice(0, 7)}\``));
    return 'already';
  }
  await enqueueTriage(deps.queues, jobIdFor('revert', `${record.triageId}-${suspect.sha.slice(0, 12)}`), {
    kind: 'revert',
    triageId: record.triageId,
    sha: suspect.sha,
    requester: input.user,
    requestedAt: new Date().toISOString(),
  });
  deps.logger.info({ user: input.user, triageId: record.triageId, sha: suspect.sha }, 'revert queued');
  return 'queued';
}

/** "Open fix PR": a bug-fixing run in the same thread through the normal task flow, with the findings as context. */
export async function handleOpenFixAction(input: TriageActionInput, deps: HandlerDeps): Promise<Outcome> {
  const { record } = await pressedTriage(input, deps);
  if (!(await approverOnly(input, deps, (t) => t.openFixPr, record?.language))) return 'not_allowed';
  if (!record) {
    await tell(input, deps, 'This triage has expired; mention me in the thread with the fix you want instead.');
    return 'expired';
  }
  if (!(await claimAction(deps, `fix:${record.triageId}`))) {
    await tell(input, deps, stringsFor(record.language).triage.fixAlready);
    return 'already';
  }
  return acceptInstruction(
    {
      client: input.client,
      channel: record.channel,
      threadTs: record.threadTs,
      messageTs: (await reportMessageTs(record, deps)) ?? record.threadTs,
      teamId: input.teamId,
      dedupKey: `fix-${record.triageId}`,
      user: input.user,
      text: fixInstruction(record),
      repo: { owner: record.repo.owner, name: record.repo.name, baseBranch: record.baseBranch },
      force: true,
      category: 'bug-fixing',
      // The fix instruction is Wrench's words, not the person's: the thread speaks the triage's language.
      language: record.language ?? 'en',
    },
    deps,
  );
}

/** "Dismiss": the report stays, its buttons go, and who dismissed it is shown. */
export async function handleDismissAction(input: TriageActionInput, deps: HandlerDeps): Promise<Outcome> {
  const { record } = await pressedTriage(input, deps);
  if (!(await approverOnly(input, deps, (t) => t.dismiss, record?.language))) return 'not_allowed';
  if (!record) return 'expired';
  if (!(await stores(deps).records.dismiss(record.triageId, input.user))) return 'already';
  const parts = renderTriageReport({
    triageId: record.triageId,
    subject: record.incident
      ? `incident ${record.incident.number ? `#${record.incident.number}` : record.incident.id} on ${record.repo.owner}/${record.repo.name}`
      : `${record.repo.owner}/${record.repo.name}`,
    report: record.report,
    suspects: record.suspects,
    links: record.links,
    baseBranch: record.baseBranch,
    monitoring: record.monitoring,
    withActions: false,
    language: record.language,
  });
  const last = parts[parts.length - 1];
  if (last) {
    const blocks = [
      ...last.blocks,
      { type: 'context' as const, elements: [{ type: 'mrkdwn' as const, text: stringsFor(record.language).triage.dismissedBy(input.user) }] },
    ];
    const thread = { channel: record.channel, threadTs: record.threadTs };
    const lastKey = record.reportKeys?.at(-1);
    const lastTs = record.reportTs.at(-1);
    // Through the thread's outbox: it edits the report once Slack has it, even when it was delivered late.
    if (lastKey) await deps.outbox.update(thread, lastKey, { text: last.text, blocks });
    else if (lastTs) await deps.posterFor(input.client).update(record.channel, lastTs, { text: last.text, blocks });
  }
  deps.logger.info({ user: input.user, triageId: record.triageId }, 'triage dismissed');
  return 'dismissed';
}

/** "Re-triage with these notes": the incident is investigated again, with the responders' notes. */
export async function handleRetriageAction(input: TriageActionInput, deps: HandlerDeps): Promise<Outcome> {
  // An incident's re-triage: its thread is the responders' and speaks English.
  if (!(await approverOnly(input, deps, () => 'Re-triage'))) return 'not_allowed';
  const value = decodeTriageValue(input.value);
  const thread = value?.incidentId ? await stores(deps).threads.get(value.incidentId) : null;
  if (!thread?.cardTs) {
    await tell(input, deps, 'This incident is no longer tracked, so I cannot triage it again.');
    return 'expired';
  }
  const key = `${thread.incidentId}-${input.messageTs ?? 'x'}`;
  if (!(await claimAction(deps, `retriage:${key}`))) {
    await tell(input, deps, 'A re-triage with this note was already requested; follow it in the thread.');
    return 'already';
  }
  const channelConfig = deps.config.file.channels[thread.channel];
  const baseBranch = channelHasRepository(channelConfig, thread.repo) ? channelConfig?.baseBranch : undefined;
  const triageId = jobIdFor('triage', key);
  // The status line waits in the thread's outbox under the key the triage edits it with.
  await deps.outbox.post(
    { channel: thread.channel, threadTs: thread.cardTs },
    { text: `:repeat: Re-triage requested by <@${input.user}>, with the responders' notes: queued` },
    statusCardKey(triageId),
  );
  await enqueueTriage(deps.queues, triageId, {
    kind: 'triage',
    triageId,
    source: { type: 'pagerduty', incidentId: thread.incidentId, withNotes: true },
    repo: { ...repoRefOf(thread.repo), ...(baseBranch ? { baseBranch } : {}) },
    channel: thread.channel,
    threadTs: thread.cardTs,
    requester: input.user,
    requestedAt: new Date().toISOString(),
  });
  deps.logger.info({ user: input.user, incidentId: thread.incidentId, triageId }, 're-triage queued');
  return 'queued';
}

type ActionBody = {
  user: { id: string };
  team?: { id: string } | null;
  channel?: { id: string };
  container?: { channel_id?: string; message_ts?: string };
  actions: Array<{ value?: string }>;
};

/** The triage buttons; registered from register-handlers.ts. */
export function registerTriageHandlers(app: SlackApp, deps: HandlerDeps, known: KnownInteractions): void {
  const button =
    (handler: (input: TriageActionInput, deps: HandlerDeps) => Promise<unknown>) =>
    async ({ ack, body, client }: { ack: () => Promise<void>; body: unknown; client: WebClient }) => {
      await ack();
      const b = body as ActionBody;
      await handler(
        {
          client,
          user: b.user.id,
          value: b.actions[0]?.value,
          channel: b.channel?.id ?? b.container?.channel_id,
          messageTs: b.container?.message_ts,
          teamId: typeof b.team?.id === 'string' ? b.team.id : undefined,
        },
        deps,
      );
    };
  app.action(known.action(TRIAGE_ACTIONS.openFixPr), button(handleOpenFixAction));
  app.action(known.action(new RegExp(`^${TRIAGE_ACTIONS.revert}(?::\\d+)?$`)), button(handleRevertAction));
  app.action(known.action(TRIAGE_ACTIONS.dismiss), button(handleDismissAction));
  app.action(known.action(TRIAGE_ACTIONS.retriage), button(handleRetriageAction));
}
