import { z } from 'zod';
import type Anthropic from '@anthropic-ai/sdk';

export const FINISH_TOOL_NAME = 'finish_task';

export const taskReportSchema = z.object({
  summary: z.string().min(1).describe('What you did and why, in a few sentences a reviewer can trust.'),
  filesChanged: z
    .array(z.object({ path: z.string(), change: z.string() }))
    .default([])
    .describe('Each file you changed and what changed in it.'),
  verification: z.string().min(1).describe('How you verified the change: commands you ran and their results.'),
  openQuestions: z.array(z.string()).default([]).describe('Anything a reviewer should decide or check.'),
});

export type TaskReport = z.infer<typeof taskReportSchema>;

/**
 * A client tool the agent must call to finish: the structured final report. Its input is validated
 * with the zod schema; an invalid report is returned to the model as a tool error to correct.
 */
export function finishToolDefinition<S extends z.ZodType>(schema: S, description: string): Anthropic.Messages.Tool {
  const { $schema: _ignored, ...inputSchema } = z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>;
  return {
    name: FINISH_TOOL_NAME,
    description,
    input_schema: inputSchema as Anthropic.Messages.Tool.InputSchema,
  };
}

export function parseFinishInput<S extends z.ZodType>(schema: S, input: unknown): { ok: true; report: z.infer<S> } | { ok: false; error: string } {
  const parsed = schema.safeParse(input);
  if (parsed.success) return { ok: true, report: parsed.data };
  return {
    ok: false,
    error: `The report is not valid: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; ')}. Call ${FINISH_TOOL_NAME} again with a corrected report.`,
  };
}
