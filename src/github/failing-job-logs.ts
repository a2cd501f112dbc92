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

const ANNOTATIONS_READ = 30;

/**
 * What a failing check run says about itself: its output's title, summary and text, and its annotations (file, line,
 * level, message), as another CI (CircleCI, Buildkite...) reports failures on GitHub. Empty when it says nothing.
 */
export async function checkRunReport(octokit: GitHubClient, owner: string, repo: string, checkRunId: number, maxChars = 6000): Promise<string> {
  const { data } = await octokit.checks.get({ owner, repo, check_run_id: checkRunId });
  const parts = [data.output.title, data.output.summary, data.output.text].filter((part): part is string => !!part?.trim());
  if (data.output.annotations_count > 0) {
    const { data: annotations } = await octokit.checks.listAnnotations({ owner, repo, check_run_id: checkRunId, per_page: ANNOTATIONS_READ });
    const lines = annotations.map((a) => {
      const where = a.end_line && a.end_line !== a.start_line ? `${a.path}:${a.start_line}-${a.end_line}` : `${a.path}:${a.start_line}`;
      return `${where} [${a.annotation_level ?? 'notice'}] ${a.title ? `${a.title}: ` : ''}${a.message ?? ''}${a.raw_details ? `\n${a.raw_details}` : ''}`;
    });
    const more = data.output.annotations_count - annotations.length;
    parts.push(`Annotations:\n${lines.join('\n')}${more > 0 ? `\n(${more} more not read)` : ''}`);
  }
  const text = parts.join('\n\n');
  return text.length > maxChars ? `${text.slice(0, maxChars)}\n(cut at ${maxChars} characters)` : text;
}

/** A failing job's evidence for the agent: the end of its Actions log, else its check run's own report; undefined when neither says anything. */
export async function failureEvidence(
  octokit: GitHubClient,
  owner: string,
  repo: string,
  job: FailingJob,
): Promise<{ source: 'log' | 'check-output'; text: string } | undefined> {
  const log = await jobLogExcerpt(octokit, owner, repo, job.id).catch(() => '');
  if (log.trim()) return { source: 'log', text: log };
  const report = await checkRunReport(octokit, owner, repo, job.id).catch(() => '');
  return report.trim() ? { source: 'check-output', text: report } : undefined;
}
