import { describeError, isWrenchError, WrenchError } from '../src/errors.js';
import { openOrUpdatePullRequest } from '../src/github/pull-request.js';
import type { RevertJob } from '../src/queue/triage-job.js';
import type { TriageRecord } from '../src/triage/triage-record.js';
import { compareVerification, detectCommands, renderVerification, runSetup, runVerification } from '../src/verification/index.js';
import { prepareWorkspace, removeWorkspace } from '../src/workspace/job-workspace.js';
import { pushBranch } from '../src/workspace/push-branch.js';
import { revertCommit } from '../src/workspace/revert-commit.js';
import { runGit } from '../src/workspace/run-git.js';
import type { TriageDeps } from './triage-deps.js';
import { jobSandbox } from './job-sandbox.js';

export interface RevertOutcome {
  status: 'pr_opened' | 'conflict' | 'not_on_base' | 'already_reverting';
  pullRequest?: { number: number; url: string };
}

/**
 * "Revert <sha>": a branch `wrench/revert-<short sha>` from the base branch, `git revert` of the
 * suspect, the repository's tests before and after, push, and a DRAFT pull request explaining the
 * revert with links to the incident and the thread. A conflicting revert gets a clear reply and
 * nothing is pushed.
 */
export async function runRevert(job: RevertJob, context: { jobId: string; signal: AbortSignal }, deps: TriageDeps): Promise<RevertOutcome> {
  const record = await deps.records.get(job.triageId);
  if (!record) throw new WrenchError('triage_expired', `Triage ${job.triageId} is no longer stored, so I cannot revert from it.`);
  const short = job.sha.slice(0, 7);
  const repository = `${record.repo.owner}/${record.repo.name}`;
  const log = deps.logger.child({ jobId: context.jobId, repo: repository, thread: record.threadTs, sha: job.sha });
  // One status message, edited in place through the thread's outbox: Slack failing never holds up or fails the revert.
  const thread = { channel: record.channel, threadTs: record.threadTs };
  const statusKey = `revert:${context.jobId}`;
  const status = (text: string) => deps.outbox.update(thread, statusKey, { text });
  await status(`:rewind: Reverting \`${short}\` on \`${record.baseBranch}\` at <@${job.requester}>'s request: preparing a branch`);
  if (!deps.github)
    throw new WrenchError(
      'github_not_configured',
      'No GitHub credential is configured, so I cannot open a pull request. Set GITHUB_TOKEN, or GITHUB_APP_ID and GITHUB_APP_PRIVATE_KEY_PATH for a GitHub App.',
    );

  const branch = `wrench/revert-${short}`;
  let workspace: Awaited<ReturnType<typeof prepareWorkspace>>;
  try {
    workspace = await prepareWorkspace({
      dataDir: deps.config.dataDir,
      gitBaseUrl: deps.config.env.GIT_BASE_URL,
      owner: record.repo.owner,
      repo: record.repo.name,
      baseBranch: record.baseBranch,
      branch,
      jobId: context.jobId.replace(/[^A-Za-z0-9_.-]/g, '_'),
      credential: await deps.gitCredential?.(record.repo.owner, record.repo.name),
    });
  } catch (error) {
    if (!isWrenchError(error) || error.code !== 'branch_exists') throw error;
    // Reverted before (from another triage of the same incident, or by hand): point at that work.
    const open = await deps.github.pulls.list({
      owner: record.repo.owner,
      repo: record.repo.name,
      head: `${record.repo.owner}:${branch}`,
      state: 'open',
      per_page: 1,
    });
    const pr = open.data[0];
    await status(
      pr
        ? `:information_source: \`${short}\` is already being reverted in PR #${pr.number}: ${pr.html_url}. Nothing new was pushed.`
        : `:information_source: A branch \`${branch}\` already exists without an open pull request. Delete it (or open a PR from it) and press Revert again. Nothing was pushed.`,
    );
    return { status: 'already_reverting', pullRequest: pr ? { number: pr.number, url: pr.html_url } : undefined };
  }
  try {
    const onBase = await runGit(['merge-base', '--is-ancestor', job.sha, 'HEAD'], { cwd: workspace.dir }).then(
      () => true,
      () => false,
    );
    if (!onBase) {
      await status(
        `:warning: \`${short}\` is not on \`${workspace.baseBranch}\` any more (force-pushed or never merged), so there is nothing to revert. Nothing was pushed.`,
      );
      return { status: 'not_on_base' };
    }
    const subject = (await runGit(['log', '-1', '--format=%s', job.sha], { cwd: workspace.dir })).trim();
    const sandbox = jobSandbox(deps, workspace.dir, { readOnly: false, log });
    const commands = await detectCommands(workspace.dir, deps.config.file.verification[repository] ?? {});
    const setupNetwork = deps.config.file.sandbox.network !== 'off';
    if (commands.setup) {
      await status(`:rewind: Reverting \`${short}\`: installing dependencies`);
      await runSetup({ sandbox, dir: workspace.dir, commands, signal: context.signal, network: setupNetwork });
    }
    await status(`:rewind: Reverting \`${short}\`: running the tests on \`${workspace.baseBranch}\` first`);
    const before = commands.test || commands.lint ? await runVerification({ sandbox, dir: workspace.dir, commands, signal: context.signal }) : undefined;

    const requesterName = await deps.slack.users.info({ user: job.requester }).then(
      (r) => r.user?.real_name || r.user?.name || undefined,
      () => undefined,
    );
    try {
      await revertCommit({
        dir: workspace.dir,
        sha: job.sha,
        requester: { name: requesterName ?? job.requester, slackUserId: job.requester },
        threadUrl: record.threadUrl,
      });
    } catch (error) {
      if (isWrenchError(error) && error.code === 'revert_conflict') {
        log.info({ message: error.message }, 'revert conflicts');
        await status(`:warning: I could not revert \`${short}\` cleanly: ${error.message} Nothing was pushed.`);
        return { status: 'conflict' };
      }
      throw error;
    }

    await status(`:rewind: Reverting \`${short}\`: running the tests after the revert`);
    const after = await runVerification({ sandbox, dir: workspace.dir, commands, signal: context.signal });
    const verification = renderVerification(commands, compareVerification(before, after), before, after);

    await status(`:rewind: Reverting \`${short}\`: pushing \`${branch}\` and opening a draft pull request`);
    await pushBranch({
      dir: workspace.dir,
      branch,
      gitBaseUrl: deps.config.env.GIT_BASE_URL,
      owner: record.repo.owner,
      repo: record.repo.name,
      credential: await deps.gitCredential?.(record.repo.owner, record.repo.name),
    });
    const pr = await openOrUpdatePullRequest(
      deps.github,
      {
        owner: record.repo.owner,
        repo: record.repo.name,
        head: branch,
        base: workspace.baseBranch,
        title: `Revert ${short}: ${subject}`,
        body: revertBody(record, job, subject, verification),
        draft: true,
      },
      deps.redact,
    );
    const verdict = verification.split('\n')[0] ?? '';
    await status(`:rewind: Opened draft PR #${pr.number} reverting \`${short}\`: ${pr.url}\n${verdict}`);
    log.info({ pr: pr.url }, 'revert pull request opened');
    return { status: 'pr_opened', pullRequest: { number: pr.number, url: pr.url } };
  } catch (error) {
    await status(`:x: Reverting \`${short}\` failed: ${describeError(error)}`);
    throw error;
  } finally {
    await removeWorkspace(workspace.dir).catch((error) => log.warn({ err: error }, 'could not remove workspace'));
  }
}

function revertBody(record: TriageRecord, job: RevertJob, subject: string, verification: string): string {
  const suspect = record.suspects.find((s) => s.sha === job.sha);
  const incident = record.incident
    ? `PagerDuty incident ${record.incident.number ? `#${record.incident.number}` : record.incident.id}${record.incident.htmlUrl ? ` (${record.incident.htmlUrl})` : ''}: ${record.incident.title}`
    : `the problem reported in Slack: ${record.description ?? ''}`;
  return [
    `This reverts commit ${job.sha} (${subject}).`,
    '',
    '## Why',
    `Wrench's read-only triage of ${incident} named this commit as a suspect${suspect ? ` (${suspect.confidence} confidence): ${suspect.reason}` : '.'}`,
    `Triage verdict: ${record.report.verdict}`,
    record.threadUrl ? `Slack thread with the evidence: ${record.threadUrl}` : '',
    '',
    '## Verification',
    verification,
    '',
    `Draft: opened by Wrench at the request of Slack user ${job.requester}. Review the revert (and any later commits that build on it) before merging.`,
  ]
    .filter((line, i, all) => line !== '' || all[i - 1] !== '')
    .join('\n');
}
