import { z } from 'zod';

export const RUN_STATUSES = ['queued', 'running', 'done', 'failed', 'cancelled'] as const;

const usageSchema = z.object({
  inputTokens: z.number(),
  outputTokens: z.number(),
  cacheWriteTokens: z.number(),
  cacheReadTokens: z.number(),
});

/** The head of a run's record: who asked what where, how it stands, what it cost. Rewritten as the run goes. */
export const runSummarySchema = z.object({
  id: z.string(),
  repository: z.string(),
  instruction: z.string(),
  category: z.string(),
  requester: z.string(),
  /** The requester's Slack display name, from the name directory, when it answered. */
  requesterName: z.string().optional(),
  channel: z.string().optional(),
  threadTs: z.string().optional(),
  threadUrl: z.string().optional(),
  status: z.enum(RUN_STATUSES),
  /** The RunResult status once finished (pr_opened, answered, stopped, ...) or `failed`. */
  outcome: z.string().optional(),
  startedAt: z.number(),
  finishedAt: z.number().optional(),
  phases: z.array(z.object({ name: z.string(), startedAt: z.number(), endedAt: z.number().optional() })).default([]),
  usage: usageSchema.optional(),
  costUsd: z.number().optional(),
  pullRequest: z.object({ number: z.number(), url: z.string(), draft: z.boolean().optional() }).optional(),
  summary: z.string().optional(),
  /** Bytes of entries stored, and whether later ones were dropped at the cap. */
  bytes: z.number().default(0),
  truncated: z.boolean().default(false),
});

export type RunSummary = z.infer<typeof runSummarySchema>;

/** One step of the timeline. Texts are redacted and bounded before they are stored. */
export type RunEntry =
  | { kind: 'phase'; at: number; phase: string; detail?: string }
  | { kind: 'text'; at: number; step: number; text: string }
  /** One model call: its own tokens (not the run's total) and how long the API took to answer, retries included. */
  | { kind: 'turn'; at: number; step: number; latencyMs: number; usage: z.infer<typeof usageSchema>; budgetWaitMs?: number }
  | {
      kind: 'tool';
      at: number;
      step: number;
      name: string;
      title: string;
      input: string;
      output: string;
      isError: boolean;
      durationMs?: number;
      /** A command's exit code; null when a signal killed it. */
      exitCode?: number | null;
    }
  | { kind: 'edit'; at: number; step: number; path: string; diff: string; durationMs?: number }
  | { kind: 'verification'; at: number; text: string; passed: boolean }
  | { kind: 'changes'; at: number; diff: string }
  | { kind: 'note'; at: number; text: string; level: 'info' | 'warning' | 'error' };
