import { z } from 'zod';
import { CATEGORIES } from '../categories.js';
import { gitHubTriggerSchema } from './github-job.js';

export const TASK_QUEUE = 'tasks';

export const slackOriginSchema = z.object({
  type: z.literal('slack'),
  teamId: z.string().optional(),
  channel: z.string(),
  /** The thread every reply goes to. */
  threadTs: z.string(),
  /** The message that asked for the work. */
  messageTs: z.string(),
  eventId: z.string().optional(),
  /** The status message Wrench posted when it queued the work, updated in place. */
  statusTs: z.string().optional(),
  /** The run reports as one streamed message (slack.streamRuns), which the handler started instead of a status card. */
  stream: z.boolean().optional(),
});

export const cliOriginSchema = z.object({ type: z.literal('cli') });

export const taskJobSchema = z.object({
  kind: z.literal('task'),
  origin: z.discriminatedUnion('type', [slackOriginSchema, cliOriginSchema]),
  repo: z.object({ owner: z.string(), name: z.string(), baseBranch: z.string().optional() }),
  /** A local checkout given to `wrench run --repo PATH`; used instead of cloning. */
  localPath: z.string().optional(),
  instruction: z.string().min(1),
  category: z.enum(CATEGORIES),
  complexity: z.enum(['simple', 'medium', 'complex']),
  elements: z.record(z.string(), z.unknown()).default({}),
  /** The language the thread speaks (BCP 47 primary subtag: en, de, ja…): its cards and questions are in it. */
  language: z.string().optional(),
  /** The model reader's one-line account of the task, in the requester's language. */
  summary: z.string().optional(),
  /** What reading the instruction with the model cost; added to the run's usage. */
  reader: z.object({ model: z.string(), inputTokens: z.number(), outputTokens: z.number(), latencyMs: z.number() }).optional(),
  requester: z.object({ slackUserId: z.string(), name: z.string().optional() }),
  /** Whose run slot it takes when not the Slack requester's (a GitHub reviewer's run: `github:<login>`). */
  slotHolder: z.string().optional(),
  requestedAt: z.string(),
  /** Set when a pull request review, comment or failing check asked for this run: it is answered there too. */
  github: gitHubTriggerSchema.optional(),
  /** Set by the worker while the job waits (for its thread's earlier run, a free slot or free disk space), so it says so once. */
  waitingFor: z.enum(['thread', 'global', 'repository', 'user', 'disk']).optional(),
  /** When a worker first gave the job back for a worker holding its repository warm (src/queue/host-affinity.ts), ms since epoch. */
  affinitySince: z.number().optional(),
  /** Continues a run paused on its question to the requester (src/questions/): its stored conversation and pushed branch. */
  resume: z
    .object({
      pauseId: z.string().min(1),
      /** The outbox key of the run's status (its first job's): a streamed run goes on in the message it paused in. */
      statusKey: z.string().min(1).optional(),
    })
    .optional(),
  /** Not a run: reminds the requester of a paused run's question, halfway to its timeout, if it is still open. */
  remind: z.object({ pauseId: z.string().min(1) }).optional(),
});

export type TaskJob = z.infer<typeof taskJobSchema>;
export type TaskWaitReason = NonNullable<TaskJob['waitingFor']>;
export type SlackOrigin = z.infer<typeof slackOriginSchema>;

/** BullMQ job ids may not contain ':'; Slack event ids are safe, but normalise anyway. */
export function jobIdFor(prefix: string, key: string): string {
  return `${prefix}-${key.replace(/[^A-Za-z0-9_.-]/g, '_')}`;
}
