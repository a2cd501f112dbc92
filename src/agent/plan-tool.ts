import { z } from 'zod';
import type { AgentTool } from './agent-tool.js';

export const PLAN_TOOL_NAME = 'update_plan';
export const MAX_PLAN_STEPS = 10;

export const planInputSchema = z
  .object({
    steps: z
      .array(
        z
          .object({
            step: z.string().trim().min(1).max(120).describe('The step, a few words.'),
            status: z.enum(['pending', 'in_progress', 'done']),
          })
          .strict(),
      )
      .min(1)
      .max(MAX_PLAN_STEPS),
  })
  .strict();

/** The agent's plan as it last stated it: its steps in order, each with the status the agent gave it. */
export type AgentPlan = z.infer<typeof planInputSchema>['steps'];

/** The agent's plan from an `update_plan` call's input; undefined when the input is not one. */
export function parsePlan(input: unknown): AgentPlan | undefined {
  const parsed = planInputSchema.safeParse(input);
  return parsed.success ? parsed.data.steps : undefined;
}

/**
 * The agent states its plan (like Claude Code's TodoWrite): the whole list of steps each time, with their status.
 * Wrench shows it to the requester as the agent's own account, beside the stages it measures; it changes nothing else.
 */
export function createPlanTool(): AgentTool {
  const { $schema: _ignored, ...inputSchema } = z.toJSONSchema(planInputSchema, { io: 'input' }) as Record<string, unknown>;
  return {
    name: PLAN_TOOL_NAME,
    definition: {
      name: PLAN_TOOL_NAME,
      description: [
        `For work of several steps: state your plan (at most ${MAX_PLAN_STEPS} short steps) and update it as you go, sending the whole list`,
        'each time with each step pending, in_progress or done. The requester sees it live as your plan. Optional.',
      ].join(' '),
      input_schema: inputSchema as never,
    },
    describe: () => ({ key: 'updatingPlan' }),
    async execute(input) {
      const parsed = planInputSchema.safeParse(input);
      if (!parsed.success) {
        const issues = parsed.error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; ');
        return { content: `The plan is not valid: ${issues}. Call ${PLAN_TOOL_NAME} again with a corrected input.`, isError: true };
      }
      return { content: 'Plan noted.' };
    },
  };
}
