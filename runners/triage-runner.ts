import type { TriageRunJob } from '../src/queue/triage-job.js';
import { runPipeline, type RunContext } from './pipeline/run-pipeline.js';
import { triageProfile, type TriageOutcome } from './profiles/triage-profile.js';
import type { TriageDeps } from './triage-deps.js';

/** One triage through the one pipeline, with the triage profile; it reports through `context.reporter`. */
export function runTriage(job: TriageRunJob, context: RunContext, deps: TriageDeps): Promise<TriageOutcome> {
  return runPipeline(triageProfile(deps), job, context, deps);
}
