import { z } from 'zod';
import type { AgentTool } from './agent-tool.js';

export const ASK_REQUESTER_TOOL_NAME = 'ask_requester';
export const MAX_QUESTIONS_PER_RUN = 3;
export const MAX_SUGGESTED_ANSWERS = 5;

export const askRequesterInputSchema = z
  .object({
    question: z.string().trim().min(1).max(2000).describe('One question, in the language the requester wrote in, that only they can answer.'),
    suggestedAnswers: z
      .array(z.string().trim().min(1).max(75))
      .max(MAX_SUGGESTED_ANSWERS)
      .default([])
      .describe(
        `Up to ${MAX_SUGGESTED_ANSWERS} short likely answers (75 characters each at most), shown as buttons; the requester may also reply in their own words.`,
      ),
  })
  .strict();

export type RequesterQuestion = z.infer<typeof askRequesterInputSchema>;

/** How many questions the run has asked; kept across pauses and resumed with the conversation. */
export interface QuestionCount {
  asked: number;
}

/**
 * The agent asks the requester in the thread. A valid call pauses the run (the loop returns `paused` with the
 * question); the answer comes back as this call's tool_result when the run resumes. The fourth call in a run,
 * and any call the input schema refuses, is a tool error the agent reads and decides on.
 */
export function createAskRequesterTool(count: QuestionCount, max = MAX_QUESTIONS_PER_RUN): AgentTool {
  const { $schema: _ignored, ...inputSchema } = z.toJSONSchema(askRequesterInputSchema, { io: 'input' }) as Record<string, unknown>;
  return {
    name: ASK_REQUESTER_TOOL_NAME,
    pauses: true,
    definition: {
      name: ASK_REQUESTER_TOOL_NAME,
      description: [
        'Ask the person who requested this task one question in their Slack thread, and wait for the answer.',
        'Use it only for what you cannot find out from the code, the repository or the task itself: a product decision, a choice between',
        'behaviours the requester must make, missing information nobody else has. Never ask for permission to do the task.',
        `At most ${max} questions per run; the run pauses until the answer comes (it may take hours), then continues with the answer as this tool's result.`,
      ].join(' '),
      input_schema: inputSchema as never,
    },
    describe: () => ({ key: 'askingRequester' }),
    async execute(input) {
      const parsed = askRequesterInputSchema.safeParse(input);
      if (!parsed.success) {
        const issues = parsed.error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; ');
        return { content: `The question is not valid: ${issues}. Call ${ASK_REQUESTER_TOOL_NAME} again with a corrected input.`, isError: true };
      }
      if (count.asked >= max) {
        return {
          content: `You have already asked ${count.asked} questions in this run, the most allowed. Do not ask again: decide yourself from the code and sensible defaults, go on with the task, and list the assumption under openQuestions in your final report.`,
          isError: true,
        };
      }
      count.asked += 1;
      return { content: '', pause: parsed.data };
    },
  };
}
