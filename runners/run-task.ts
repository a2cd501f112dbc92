import type { TaskJob } from '../src/queue/task-job.js';
import type { RunResult } from '../src/reporting/run-result.js';
import { runPipeline, type RunContext } from './pipeline/run-pipeline.js';
import { changeProfile } from './profiles/change-profile.js';
import { reviewProfile } from './profiles/review-profile.js';
import type { RunnerDeps } from './runner-deps.js';

/** One task from Slack or the CLI: a review (read-only) or a change (pull request), through the one pipeline. */
export function runTask(job: TaskJob, context: RunContext, deps: RunnerDeps): Promise<RunResult> {
  return job.category === 'code-review'
    ? runPipeline(reviewProfile(), job, context, deps)
    : runPipeline(changeProfile({ resuming: !!job.resume }), job, context, deps);
}
