import { z } from 'zod';
import { CATEGORIES } from '../categories.js';

export const runRecordSchema = z.object({
  jobId: z.string(),
  instruction: z.string(),
  requester: z.string(),
  /** The Slack message that asked for it: runs of a thread go in this order. */
  messageTs: z.string().optional(),
  /** `waiting`: the run asked the requester a question and is paused until the answer (see `waiting` below). */
  status: z.enum(['queued', 'running', 'waiting', 'done', 'failed', 'cancelled']),
  /** The category the run was read as: a follow-up keeps its thread's. */
  category: z.enum(CATEGORIES).optional(),
  summary: z.string().optional(),
  /** A question's answer with its checked citations: the findings a follow-up change starts from. */
  findings: z.string().max(12_000).optional(),
  usage: z.record(z.string(), z.number()).optional(),
  costUsd: z.number().optional(),
  at: z.string(),
  /** Set once the agent made its last model call for the change (checks and publishing go on): messages for it are no longer read. */
  agentDone: z.literal(true).optional(),
  /** Set once its job is in the task queue: from then on, a job the queue no longer has is one that ended. */
  inQueue: z.literal(true).optional(),
  /**
   * The branch this run pushed its work to, written at its first push (cleared if the run takes the branch back): an
   * attempt after a restart goes on from it instead of starting a second branch.
   */
  branch: z.string().optional(),
  /** The commit the run started from, with `branch`: its change counts from there. */
  startSha: z.string().optional(),
});

export const pendingInstructionSchema = z.object({
  text: z.string(),
  requester: z.string(),
  messageTs: z.string(),
  eventId: z.string().optional(),
  /** The clarification card, updated when the work starts. */
  cardTs: z.string().optional(),
  /** `repository`: held until someone chooses which of the channel's repositories it is for (`repositories`). */
  verdict: z.enum(['ill-formed', 'unrealistic', 'repository']),
  /** The repositories (`owner/name`) the card offers, while the choice is open. */
  repositories: z.array(z.string()).optional(),
  /** The questions the card asked when the model read the instruction, in the thread's language: the modal asks them too. */
  questions: z.array(z.object({ element: z.string(), question: z.string() })).optional(),
  /** When a press or submission began starting it: another one meanwhile finds it taken (released if it did not start). */
  claimedAt: z.string().optional(),
});

/** A run of the thread paused on a question to the requester (the agent's ask_requester). */
export const waitingQuestionSchema = z.object({
  pauseId: z.string(),
  /** The job that resumes the run (delayed until the timeout; promoted by the answer). */
  jobId: z.string(),
  requester: z.string(),
  question: z.string(),
  askedAt: z.string(),
  timeoutAt: z.string(),
  /** Asked in the run's own streamed message, not in a message of its own: no question message to edit once settled. */
  inRunMessage: z.literal(true).optional(),
});

/** The last question of the thread's run that nobody answered in time: that run went on without it. */
export const timedOutQuestionSchema = z.object({
  pauseId: z.string(),
  /** The resume job, which then finished the run with what it had. */
  jobId: z.string(),
  requester: z.string(),
  question: z.string(),
  timedOutAt: z.string(),
});

/** Everything Wrench knows about one Slack thread, kept in Redis across restarts and workers. */
export const threadSessionSchema = z.object({
  channel: z.string(),
  threadTs: z.string(),
  /** The thread's repository: every run of the thread works on it. Unset only while its first request waits for the choice of one. */
  repo: z.object({ owner: z.string(), name: z.string(), baseBranch: z.string().optional() }).optional(),
  requester: z.string(),
  branch: z.string().optional(),
  baseBranch: z.string().optional(),
  pullRequest: z.object({ number: z.number(), url: z.string() }).optional(),
  /** The pull request is someone else's that Wrench was asked to work on: only mentions of Wrench act on it. */
  guestPull: z.boolean().optional(),
  /** The language the thread speaks, decided at its first instruction (BCP 47 primary subtag). */
  language: z.string().optional(),
  pending: pendingInstructionSchema.optional(),
  waiting: waitingQuestionSchema.optional(),
  timedOutQuestion: timedOutQuestionSchema.optional(),
  runs: z.array(runRecordSchema).default([]),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export type ThreadSession = z.infer<typeof threadSessionSchema>;
export type RunRecord = z.infer<typeof runRecordSchema>;
export type PendingInstruction = z.infer<typeof pendingInstructionSchema>;
export type WaitingQuestion = z.infer<typeof waitingQuestionSchema>;
export type TimedOutQuestion = z.infer<typeof timedOutQuestionSchema>;

/** A compact history of earlier runs for the agent's context: instructions and outcomes, oldest first. */
export function sessionSummary(session: ThreadSession, maxChars = 6000): string {
  const lines = session.runs
    .filter((run) => run.status !== 'queued')
    .map(
      (run, i) =>
        `Run ${i + 1} (${run.status}) asked: ${oneLine(run.instruction, 400)}\n  Result: ${oneLine(run.summary ?? 'no report', 800)}` +
        (run.findings ? `\n  Findings (its answer; every citation checked against the commit it read):\n${indent(clip(run.findings, 4000))}` : ''),
    );
  if (session.branch)
    lines.unshift(`Branch: ${session.branch}${session.pullRequest ? `; pull request #${session.pullRequest.number} (${session.pullRequest.url})` : ''}`);
  const text = lines.join('\n');
  return text.length > maxChars ? `…${text.slice(text.length - maxChars)}` : text;
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
