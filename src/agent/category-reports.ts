import { z } from 'zod';
import type { Category } from '../categories.js';
import { taskReportSchema } from './finish-tool.js';

/** Refactoring: what moved where and what was renamed, so reviewers can follow the structure change. */
export const refactoringReportSchema = taskReportSchema.extend({
  moved: z
    .array(z.object({ what: z.string().min(1), from: z.string().min(1), to: z.string().min(1) }))
    .default([])
    .describe('Code moved to another file or module: what (function, class, block), from where, to where (paths).'),
  renamed: z
    .array(z.object({ from: z.string().min(1), to: z.string().min(1), kind: z.string().optional() }))
    .default([])
    .describe('Renamed identifiers or files: old name, new name, and the kind (function, class, file, ...).'),
});

/** Bug fixing: the regression test that fails before the fix and passes after; Wrench checks it. */
export const bugFixReportSchema = taskReportSchema.extend({
  rootCause: z.string().min(1).optional().describe('The root cause in one or two sentences.'),
  regressionTests: z
    .array(
      z.object({
        name: z.string().min(1).describe('The test name as the test runner prints it.'),
        file: z.string().min(1).describe('Path of the test file.'),
        command: z.string().min(1).optional().describe('A command that runs just this test (e.g. `node --test test/x.test.js`).'),
      }),
    )
    .default([])
    .describe('The regression tests you added: they fail without the fix and pass with it.'),
});

export type RefactoringReport = z.infer<typeof refactoringReportSchema>;
export type BugFixReport = z.infer<typeof bugFixReportSchema>;

/** The finish-tool schema of a change run of this category. */
export function reportSchemaFor(category: Category): typeof taskReportSchema | typeof refactoringReportSchema | typeof bugFixReportSchema {
  if (category === 'refactoring') return refactoringReportSchema;
  if (category === 'bug-fixing') return bugFixReportSchema;
  return taskReportSchema;
}
