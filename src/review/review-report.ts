import { z } from 'zod';

/** The review's finish-tool schema: findings with a severity from the requested label set. */
export function reviewReportSchema(labels: readonly string[]) {
  const severity = z.enum(labels as [string, ...string[]]);
  return z.object({
    summary: z.string().min(1).describe('The overall assessment in two or three sentences: is the change sound, what matters most.'),
    findings: z
      .array(
        z.object({
          severity: severity.describe(`One of ${labels.join(', ')} (most severe first).`),
          file: z.string().min(1).describe('Path of the file, relative to the repository root.'),
          line: z.number().int().positive().describe('Line number in the new version of the file (the pull request head).'),
          problem: z.string().min(1).describe('What is wrong and why it matters.'),
          suggestedFix: z.string().min(1).describe('A concrete fix: what to change, with a short code snippet when it helps.'),
        }),
      )
      .default([])
      .describe('Every problem found; an empty list when there is nothing to flag.'),
    focusAreas: z
      .array(z.object({ area: z.string(), assessment: z.string() }))
      .default([])
      .describe('For each focus area the requester named: what you checked and what you concluded.'),
  });
}

export type ReviewReport = z.infer<ReturnType<typeof reviewReportSchema>>;
export type ReviewFinding = ReviewReport['findings'][number];
