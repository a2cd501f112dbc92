import { answerReportSchema, type AnswerReport } from '../../src/answers/answer-report.js';
import { checkAnswer, type CheckedAnswer } from '../../src/answers/checked-answer.js';
import { answerSystemPrompt } from '../../src/agent/system-prompt.js';
import { taskMessage } from '../../src/agent/task-message.js';
import { createSearchFilesTool, SEARCH_FILES_TOOL_NAME } from '../../src/agent/tools/search-files-tool.js';
import type { TaskJob } from '../../src/queue/task-job.js';
import type { ResultSection, RunResult } from '../../src/reporting/run-result.js';
import { stringsFor } from '../../src/slack/strings/index.js';
import { repositoryUrl } from '../../src/workspace/repository-url.js';
import { continueHint } from '../failure-message.js';
import type { AgentProfile } from '../pipeline/run-pipeline.js';
import type { RunnerDeps } from '../runner-deps.js';
import { threadStopExplanation } from './change-profile.js';

/**
 * A question about the code, answered read-only: the base branch's head in a read-only checkout, an agent with no
 * shell and no editing (the editor's view and a search of the commit's files), a small budget of its own
 * (`limits.answers`); then every citation of its answer checked against that commit, the ones that hold linked to
 * their lines on the repository's web page at that SHA, the others removed and named. Nothing is committed, pushed or
 * verified; the answer and its checked citations are kept as the thread's findings, which a follow-up change starts from.
 */
export function questionProfile(): AgentProfile<TaskJob, AnswerReport, RunResult> {
  return {
    kind: 'question',
    edit: 'agent',
    start: () => undefined,
    readOnly: () => true,
    verifies: () => false,
    repository: (job) => job.repo,
    logFields: (job) => ({ thread: job.origin.type === 'slack' ? job.origin.threadTs : undefined }),
    preparing: (run) => ({ key: 'cloning', repository: run.repository, readOnly: true }),
    workspace: ({ job, shortId }) => ({
      owner: job.repo.owner,
      repo: job.repo.name,
      baseBranch: job.repo.baseBranch,
      branch: `wrench/question-${shortId}`,
      localPath: job.localPath,
    }),
    // Reading needs no network, and the agent has no command to use it with.
    network: () => false,

    agent(run) {
      const { job, workspace, deps } = run;
      const limits = deps.config.file.limits.answers;
      return {
        system: answerSystemPrompt(SEARCH_FILES_TOOL_NAME),
        task: taskMessage({
          instruction: job.instruction,
          repository: run.repository,
          baseBranch: workspace.baseBranch,
          branch: workspace.baseBranch,
          category: job.category,
          complexity: job.complexity,
          elements: job.elements,
          history: run.context.history,
          environment: `A read-only checkout of ${workspace.baseBranch} at commit ${workspace.baseSha}: cite lines as this commit has them.`,
        }),
        report: {
          schema: answerReportSchema,
          description: 'Finish with your answer, each claim with its `path:line` citations, and what you could not find.',
        },
        complexity: 'simple',
        workspaceTools: 'view-only',
        tools: [createSearchFilesTool({ dir: workspace.dir, sha: workspace.baseSha, signal: run.context.signal })],
        budget: { maxSteps: limits.steps, maxMillis: limits.minutes * 60_000, maxCostUsd: limits.costUsd },
      };
    },

    async publish(run, { run: agentRun }) {
      const { job, workspace, context, log } = run;
      const language = job.origin.type === 'slack' ? job.language : undefined;
      const strings = stringsFor(language);
      const t = strings.answer;
      const sha = workspace.baseSha;
      const htmlBase = job.localPath ? undefined : repositoryWebBase(run.deps, job);
      // Without a report the agent's last words are the answer: their citations are checked all the same.
      const report: AnswerReport | undefined =
        agentRun.report ?? (agentRun.finalText.trim() ? { answer: agentRun.finalText.trim().slice(0, 6000), claims: [], notFound: [] } : undefined);
      const checked = report ? await checkAnswer(report, { dir: workspace.dir, sha, htmlBase }, t) : undefined;
      log.info({ citations: checked?.kept.length, removed: checked?.removed.length, sha }, 'question answered');
      const short = `\`${sha.slice(0, 7)}\``;
      const commit = htmlBase ? `[${sha.slice(0, 7)}](${htmlBase}/commit/${sha})` : short;
      const stop = agentRun.stop;
      const thread = job.origin.type === 'slack' && !job.localPath && job.language && job.language !== 'en' ? strings : undefined;
      return {
        status: stop ? 'stopped' : 'answered',
        repository: run.repository,
        instruction: job.instruction,
        headline: t.headline(`\`${run.repository}\``, `\`${workspace.baseBranch}\``, short),
        sections: checked ? answerSections(checked, t, commit) : [{ title: t.answer, body: t.noAnswer }],
        findings: checked ? `Answer read at ${sha} of ${workspace.baseBranch}:\n${checked.findings}` : undefined,
        stopReason: stop ? `${stop.message} ${t.incomplete} ${continueHint(job, false, 'ask again')}` : undefined,
        threadStopReason: stop && thread ? threadStopExplanation(stop, context.signal.reason, thread.stop, t.incomplete) : undefined,
        stopCode: stop?.code,
        filesChanged: [],
        usage: agentRun.usage,
        costUsd: agentRun.costUsd,
        steps: agentRun.steps,
        durationMs: Date.now() - run.started,
      };
    },

    report: (run, result) => run.context.reporter.finished(result),
  };
}

/** The agent's answer and what it could not find, marked as its account; then, in Wrench's words, the citations removed. */
function answerSections(checked: CheckedAnswer, t: ReturnType<typeof stringsFor>['answer'], commit: string): ResultSection[] {
  const sections: ResultSection[] = [
    { title: t.answer, body: [checked.answer, ...(checked.claims.length ? ['', ...checked.claims] : [])].join('\n'), claim: true },
  ];
  if (checked.notFound.length) sections.push({ title: t.notFound, body: checked.notFound.map((line) => `- ${line}`).join('\n'), claim: true });
  if (checked.removed.length)
    sections.push({
      title: t.removedTitle,
      body: [t.removedIntro(commit), ...checked.removed.map((removed) => `- ${t.removed(removed.citation.ref, removed.reason, removed.lines)}`)].join('\n'),
    });
  return sections;
}

/** The repository's web page under the configured base (GIT_BASE_URL: github.com or a GitHub Enterprise host). */
function repositoryWebBase(deps: RunnerDeps, job: TaskJob): string | undefined {
  const url = repositoryUrl(deps.config.env.GIT_BASE_URL, job.repo.owner, job.repo.name).replace(/\.git$/, '');
  return /^https?:\/\//i.test(url) ? url : undefined;
}
