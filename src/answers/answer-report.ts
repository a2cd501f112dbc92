import { z } from 'zod';

/** The question run's finish-tool schema: the answer, each claim with where the code shows it, what was not found. */
export const answerReportSchema = z.object({
  answer: z
    .string()
    .min(1)
    .max(6000)
    .describe(
      'The direct answer to the question in a few sentences, in the language the question was asked in, citing `path:line` where it says something about the code.',
    ),
  claims: z
    .array(
      z.object({
        statement: z.string().min(1).max(2000).describe('One claim about the code, in the language of the question.'),
        citations: z
          .array(z.string().min(1).max(300))
          .min(1)
          .max(8)
          .describe(
            'Where the code shows it: `path:line` or `path:start-end`, the path relative to the repository root, lines as the file has them at this commit.',
          ),
      }),
    )
    .max(30)
    .default([])
    .describe('The claims the answer rests on, each with its citations.'),
  notFound: z
    .array(z.string().min(1).max(1000))
    .max(20)
    .default([])
    .describe('What you looked for and could not find, or could not tell from the code; empty when nothing.'),
});

export type AnswerReport = z.infer<typeof answerReportSchema>;
