import type { GitHubClient } from './create-octokit.js';

export interface FailingJob {
  id: number;
  name: string;
}

/** Actions timestamps (2026-01-01T00:00:00.0000000Z) and ANSI colours say nothing to the agent. */
const NOISE = /^\d{4}-\d\d-\d\dT[\d:.]+Z ?|\u001b\[[0-9;]*m/g;

/** The failing jobs of a check run (its id is its Actions job's id) or of a whole workflow run. */
export async function failingJobs(
  octokit: GitHubClient,
  owner: string,
  repo: string,
  source: { jobIds: number[]; workflowRunId?: number; checkName: string },
): Promise<FailingJob[]> {
  if (source.workflowRunId === undefined) return source.jobIds.map((id) => ({ id, name: source.checkName }));
  const { data } = await octokit.actions.listJobsForWorkflowRun({ owner, repo, run_id: source.workflowRunId, filter: 'latest', per_page: 100 });
  return data.jobs.filter((job) => job.conclusion === 'failure' || job.conclusion === 'timed_out').map((job) => ({ id: job.id, name: job.name }));
}

/**
 * The end of a failing job's log (GET /repos/{owner}/{repo}/actions/jobs/{job_id}/logs answers with a redirect to
 * the plain text), where test runners print their failures; at most `maxLines` lines and `maxChars` characters.
 */
export async function jobLogExcerpt(octokit: GitHubClient, owner: string, repo: string, jobId: number, maxLines = 80, maxChars = 6000): Promise<string> {
  const response = await octokit.actions.downloadJobLogsForWorkflowRun({ owner, repo, job_id: jobId });
  const text = typeof response.data === 'string' ? response.data : Buffer.from(response.data as ArrayBuffer).toString('utf8');
  const lines = text
    .replace(NOISE, '')
    .split('\n')
    .map((line) => line.replace(NOISE, '').slice(0, 400))
    .filter((line) => line.trim());
  let excerpt = lines.slice(-maxLines).join('\n');
  if (excerpt.length > maxChars) excerpt = excerpt.slice(excerpt.length - maxChars);
  return excerpt;
}
