import type Anthropic from '@anthropic-ai/sdk';
import { z } from 'zod';
import { taskJobSchema } from '../queue/task-job.js';

/** A Messages API message kept as it was sent: its role checked, its content passed back to the API untouched. */
const messageParam = z.custom<Anthropic.Messages.MessageParam>(
  (value) => typeof value === 'object' && value !== null && ['user', 'assistant'].includes(String((value as { role?: unknown }).role)) && 'content' in value,
  { message: 'must be a message with a role (user or assistant) and content' },
);

/** How the question was settled: the first of an answer, the timeout or a cancel wins. */
export const questionSettlementSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('answer'),
    text: z.string(),
    /** The Slack user id of who answered (for the thread), and their display name (for the agent, which never gets ids). */
    by: z.string(),
    byName: z.string().optional(),
    via: z.enum(['reply', 'button']),
    at: z.string(),
  }),
  z.object({ kind: z.literal('timeout'), at: z.string() }),
  z.object({ kind: z.literal('cancelled'), by: z.string(), at: z.string() }),
]);

/** A run paused on the agent's question: everything its resume job needs besides the pushed branch. */
export const pausedRunSchema = z.object({
  pauseId: z.string(),
  job: taskJobSchema,
  /** The job that asked (its status card is reused) and the job that resumes the run. */
  askedByJobId: z.string(),
  resumeJobId: z.string(),
  branch: z.string(),
  /** Whether `branch` exists on the remote (the work so far was pushed, or the thread's branch was continued). */
  pushed: z.boolean(),
  /** Whether `branch` existed before this run began (a follow-up or `--continue`), not only since its own pause. */
  branchExistedBefore: z.boolean().optional(),
  /** Where the run started: its changes (and pull request) are counted from here, across pauses. */
  startSha: z.string(),
  /** The conversation up to the question (as the Messages API takes it back), its usage and steps. */
  messages: z.array(messageParam),
  usage: z.object({ inputTokens: z.number(), outputTokens: z.number(), cacheWriteTokens: z.number(), cacheReadTokens: z.number() }),
  steps: z.number().int().min(0),
  /** The ask_requester call the answer goes back to, as its tool_result. */
  toolUseId: z.string(),
  question: z.string(),
  suggestedAnswers: z.array(z.string()),
  /** Questions asked in this run so far, this one included. */
  questionsAsked: z.number().int().min(1),
  /** The run's questions before this one, oldest first, with what settled each: its final message keeps them all. */
  earlierQuestions: z.array(z.object({ question: z.string(), requester: z.string(), settlement: questionSettlementSchema })).optional(),
  requester: z.string(),
  askedAt: z.string(),
  timeoutAt: z.string(),
});

export type PausedRun = z.infer<typeof pausedRunSchema>;
export type QuestionSettlement = z.infer<typeof questionSettlementSchema>;
