import { isWrenchError, wrenchErrorSaying } from '../../src/errors.js';
import { openOrUpdatePullRequest } from '../../src/github/pull-request.js';
import type { RevertJob } from '../../src/queue/triage-job.js';
import type { TriageRecord } from '../../src/triage/triage-record.js';
import { pushBranch } from '../../src/workspace/push-branch.js';
import { credentialsOf } from '../publish-change.js';
import { hostId } from '../../src/queue/host-id.js';
import { heldWorkDir } from '../../src/workspace/hold-refused-work.js';
import { revertCommit } from '../../src/workspace/revert-commit.js';
import { runGit } from '../../src/workspace/run-git.js';
import { stringsFor } from '../../src/slack/strings/index.js';
import { errorSaid } from '../failure-message.js';
import type { NoAgentProfile } from '../pipeline/run-pipeline.js';
import type { TriageDeps } from '../triage-deps.js';

/** A revert and the triage it was pressed on (the repository, the base branch, the suspect's reason). */
export interface RevertRun {
  job: RevertJob;
  record: TriageRecord;
}

export interface RevertOutcome {
  status: 'pr_opened' | 'conflict' | 'not_on_base' | 'already_reverting';
  pullRequest?: { number: number; url: string };
  /** What the thread is told. */
  message: string;
}

export const revertBranch = (sha: string) => `wrench/revert-${sha.slice(0, 7)}`;

/**
 * "Revert <sha>", a change whose edit git makes instead of the agent: a branch `wrench/revert-<short sha>` from the
 * base branch, the repository's checks on it (the ChangeVerifier's baseline, warm caches as for a change), `git revert`
 * of the suspect, the verify stage's checks after it, push (never forced, through the clean-commit and secret guard)
 * and a DRAFT pull request explaining the revert with what was measured and links to the incident and the thread. A
 * conflicting revert, a commit no longer on the base branch or a revert already open get a clear reply and nothing is
 * pushed. `report` is the thread's status line, in the triage's language (the pull request in English).
 */
export function revertProfile(deps: TriageDeps, tell: (text: string) => Promise<void>): NoAgentProfile<RevertRun, RevertOutcome> {
  return {
    kind: 'revert',
    edit: 'none',
    start: () => undefined,
    readOnly: () => false,
    verifies: () => true,
    repository: ({ record }) => record.repo,
    logFields: ({ job, record }) => ({ thread: record.threadTs, sha: job.sha }),

    async gather({ job: { job, record } }) {
      if (!deps.github) throw wrenchErrorSaying('github_not_configured', { key: 'githubNotConfigured', need: 'pullRequest' });
      const branch = revertBranch(job.sha);
      // Reverted before (from another triage of the same incident, or by hand): point at that work.
      const open = await deps.github.pulls.list({
        owner: record.repo.owner,
        repo: record.repo.name,
        head: `${record.repo.owner}:${branch}`,
        state: 'open',
        per_page: 1,
      });
      const pr = open.data[0];
      if (!pr) return undefined;
      const message = stringsFor(record.language).triage.revertOpenAlready(`\`${job.sha.slice(0, 7)}\``, pr.number, pr.html_url);
      return { stop: { status: 'already_reverting', pullRequest: { number: pr.number, url: pr.html_url }, message } };
    },

    preparing: ({ job: { job, record } }) => ({ key: 'preparingBranch', branch: revertBranch(job.sha), base: record.baseBranch }),
    workspace: ({ job: { job, record } }) => ({
      owner: record.repo.owner,
      repo: record.repo.name,
      baseBranch: record.baseBranch,
      branch: revertBranch(job.sha),
    }),
    // The repository's setup installs dependencies as a change's does; the revert itself needs no network.
    network: (_run, phase) => phase === 'setup',

    async change(run) {
      const { job, record } = run.job;
      const { dir, baseBranch } = run.workspace;
      const strings = stringsFor(record.language);
      const short = `\`${job.sha.slice(0, 7)}\``;
      const onBase = await runGit(['merge-base', '--is-ancestor', job.sha, 'HEAD'], { cwd: dir }).then(
        () => true,
        () => false,
      );
      if (!onBase) {
        return { stop: { status: 'not_on_base', message: strings.triage.revertNotOnBase(short, `\`${baseBranch}\``) } };
      }
      const requesterName = await deps.slack.users.info({ user: job.requester }).then(
        (r) => r.user?.real_name || r.user?.name || undefined,
        () => undefined,
      );
      try {
        await revertCommit({
          dir,
          sha: job.sha,
          requester: { name: requesterName ?? job.requester, slackUserId: job.requester },
          threadUrl: run.job.record.threadUrl,
        });
      } catch (error) {
        if (!isWrenchError(error) || error.code !== 'revert_conflict') throw error;
        run.log.info({ message: error.message }, 'revert conflicts');
        return { stop: { status: 'conflict', message: strings.triage.revertConflict(short, errorSaid(error, strings.errors)) } };
      }
      return undefined;
    },

    checkingDetail: { key: 'testsAfterRevert' },

    async publish(run, verification) {
      const { job, record } = run.job;
      const { dir, baseBranch, branch } = run.workspace;
      const short = job.sha.slice(0, 7);
      const subject = (await runGit(['log', '-1', '--format=%s', job.sha], { cwd: dir })).trim();
      const measured = verification?.text ?? 'No checks were run after the revert.';
      await run.progress({ key: 'pushingDraft', branch });
      const { owner, name } = record.repo;
      const guard = {
        baseSha: run.workspace.headSha,
        secrets: credentialsOf(deps),
        identity: deps.config.file.git,
        heldDir: heldWorkDir(deps.config.dataDir),
        heldDays: deps.config.env.WRENCH_HELD_RETENTION_DAYS,
        heldOn: hostId(deps.config.env),
      };
      await pushBranch({
        dir,
        branch,
        gitBaseUrl: deps.config.env.GIT_BASE_URL,
        owner,
        repo: name,
        credential: await deps.gitCredential?.(owner, name),
        guard,
      });
      const github = deps.github;
      if (!github) throw wrenchErrorSaying('github_not_configured', { key: 'githubNotConfigured', need: 'pullRequest' });
      const pr = await openOrUpdatePullRequest(
        github,
        {
          owner,
          repo: name,
          head: branch,
          base: baseBranch,
          title: `Revert ${short}: ${subject}`,
          body: revertBody(record, job, subject, measured),
          draft: true,
        },
        deps.redact,
      );
      run.log.info({ pr: pr.url }, 'revert pull request opened');
      const strings = stringsFor(record.language);
      const verdict = (verification?.textIn(strings.verification) ?? strings.triage.revertNoChecks).split('\n')[0] ?? '';
      return {
        status: 'pr_opened',
        pullRequest: { number: pr.number, url: pr.url },
        message: strings.triage.revertOpened(pr.number, `\`${short}\``, pr.url, verdict),
      };
    },

    report: (_run, outcome) => tell(outcome.message),
  };
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
