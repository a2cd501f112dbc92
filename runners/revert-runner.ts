import { isWrenchError, WrenchError } from '../src/errors.js';
import type { RevertJob } from '../src/queue/triage-job.js';
import { renderProgress } from '../src/reporting/progress.js';
import type { RunReporter } from '../src/reporting/run-result.js';
import { stringsFor } from '../src/slack/strings/index.js';
import { errorSaid } from './failure-message.js';
import { runPipeline } from './pipeline/run-pipeline.js';
import { revertBranch, revertProfile, type RevertOutcome } from './profiles/revert-profile.js';
import type { TriageDeps } from './triage-deps.js';

export type { RevertOutcome } from './profiles/revert-profile.js';

/**
 * A revert job through the run pipeline with the revert profile. Everything it says goes into one status message
 * of the triage's thread, edited in place through the thread's outbox: Slack failing never holds up or fails the revert.
 * It speaks the triage's language (a triage a person asked for in German is reverted in German; an incident's in English).
 */
export async function runRevert(job: RevertJob, context: { jobId: string; signal: AbortSignal }, deps: TriageDeps): Promise<Omit<RevertOutcome, 'message'>> {
  const record = await deps.records.get(job.triageId);
  if (!record) throw new WrenchError('triage_expired', `Triage ${job.triageId} is no longer stored, so I cannot revert from it.`);
  const strings = stringsFor(record.language);
  const t = strings.triage;
  const short = `\`${job.sha.slice(0, 7)}\``;
  const thread = { channel: record.channel, threadTs: record.threadTs };
  const tell = (text: string) => deps.outbox.update(thread, `revert:${context.jobId}`, { text });
  const reporter: RunReporter = {
    phase: (_phase, detail) => tell(t.revertDoing(short, detail ? renderProgress(detail, strings.progress) : t.revertWorking)),
    finished: (result) => tell(t.revertDoing(short, result.pullRequest ? `PR #${result.pullRequest.number}: ${result.pullRequest.url}` : result.status)),
    failed: (message) => tell(t.revertFailed(short, message)),
  };
  await tell(t.reverting(short, `\`${record.baseBranch}\``, `<@${job.requester}>`));
  try {
    const { message: _told, ...outcome } = await runPipeline(
      revertProfile(deps, tell),
      { job, record },
      { jobId: context.jobId, signal: context.signal, reporter },
      deps,
    );
    return outcome;
  } catch (error) {
    if (isWrenchError(error) && error.code === 'branch_exists') {
      // Pushed before without a pull request (by hand, or a PR closed since): the branch is left as it is.
      await tell(t.revertBranchExists(`\`${revertBranch(job.sha)}\``));
      return { status: 'already_reverting' };
    }
    await reporter.failed(errorSaid(error, strings.errors));
    throw error;
  }
}
