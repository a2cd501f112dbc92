import type { TaskJob } from '../src/queue/task-job.js';
import type { RunResult } from '../src/reporting/run-result.js';
import { runPipeline, type RunContext } from './pipeline/run-pipeline.js';
import { changeProfile } from './profiles/change-profile.js';
import { questionProfile } from './profiles/question-profile.js';
import { reviewProfile } from './profiles/review-profile.js';
import type { RunnerDeps } from './runner-deps.js';

/** One task from Slack or the CLI: a review or a question (read-only) or a change (pull request), through the one pipeline. */
export function runTask(job: TaskJob, context: RunContext, deps: RunnerDeps): Promise<RunResult> {
  if (job.category === 'code-review') return runPipeline(reviewProfile(), job, context, deps);
  if (job.category === 'question') return runPipeline(questionProfile(), job, context, deps);
  return runPipeline(changeProfile({ resuming: !!job.resume }), job, context, deps);
}
