import type Anthropic from '@anthropic-ai/sdk';
import type { Config } from '../src/config/load-config.js';
import type { GitHubClient } from '../src/github/create-octokit.js';
import type { Logger } from '../src/logging/logger.js';
import type { QuestionDesk } from '../src/questions/question-desk.js';
import type { NamedSecret, Redactor } from '../src/security/redact.js';
import type { RunReporter, RunResult } from '../src/reporting/run-result.js';
import type { RunRecorder } from '../src/run-log/run-recorder.js';
import type { JobClaim } from '../src/queue/job-claim.js';

/** What runners need; built once per process by the service or the CLI, injected in tests. */
export interface RunnerDeps {
  config: Config;
  logger: Logger;
  redact: Redactor;
  anthropic: Anthropic;
  /** null when no GitHub credential is configured (`wrench run` on a local path). */
  github: GitHubClient | null;
  /** The git credential for one repository, asked for right before git needs it (an App's tokens are renewed). */
  gitCredential?: (owner: string, repo: string) => Promise<string>;
  /** Every configured secret value, kept out of the sandbox and masked everywhere. */
  secrets: string[];
  /** The same secrets with the settings they came from, for saying which one a blocked push held; default: `secrets`, unnamed. */
  credentials?: NamedSecret[];
  /** Where the agent's questions to the requester go (Slack runs of the service); absent: the agent cannot ask. */
  questions?: QuestionDesk;
}

/** Where a change run reports and how it is driven: shared by the task, review and publish steps. */
export interface TaskRunContext {
  jobId: string;
  reporter: RunReporter;
  signal: AbortSignal;
  /**
   * The worker's hold on the job: checked (and renewed) before the stages that act outside (publish, report), so an
   * attempt that lost its job to another never pushes or answers. Absent: a run outside a queue (the CLI).
   */
  claim?: JobClaim;
  /** Set once the agent has started: from then on a failure is final (the job is not retried). */
  onAgentStarted?: () => void;
  /** Called once the agent has made its last model call for the change, before the checks and publishing: steering ends. */
  onAgentDone?: () => Promise<void>;
  threadUrl?: string;
  /**
   * Settles once `threadUrl`, `requesterName` and `requesterEmail` are filled in (Slack lookups made beside the run's
   * start, not before it): the stages that act outside (publish, report) wait for it.
   */
  lookups?: Promise<unknown>;
  /** The run page's signed link (when WRENCH_PUBLIC_URL is set): the pull request's body links it. */
  runPageUrl?: string;
  requesterName?: string;
  /** The requester's Slack profile email, when Slack gave it: their commits' `Co-authored-by:` trailer. */
  requesterEmail?: string;
  /** A follow-up continues the thread's branch (and so its pull request). */
  continueBranch?: string;
  /** Earlier runs in the thread, for the agent's context. */
  history?: string;
  /** The run's record (run page): the agent's steps, verification and the final diff go into it. */
  record?: RunRecorder;
  /**
   * The request's images as the first user message's leading content (Slack runs: the images attached to the thread's
   * messages since the previous request), made ready within the Messages API's limits; never throws.
   */
  images?: () => Promise<Anthropic.Messages.ContentBlockParam[]>;
  /** The thread's messages for the running agent (src/sessions/steering-inbox.ts), as its next user turn; taken once. */
  steering?: () => Promise<string | undefined>;
  /** A change's result just before it is reported: the thread records its branch and pull request first. */
  beforeReport?: (result: RunResult) => Promise<void>;
  /** An earlier attempt of this same job (stopped by a restart) pushed to a branch: this attempt goes on from it. */
  earlierAttempt?: EarlierAttempt;
  /**
   * The run's branch is on the remote (and, once opened, its pull request), recorded at once so an attempt after a
   * restart finds them; null: the run took back the branch it had pushed. Never throws.
   */
  onPushed?: (pushed: PushedWork | null) => Promise<void>;
}

/** What an interrupted attempt of a job left: its branch on the remote and Wrench's record of its steps. */
export interface EarlierAttempt {
  branch: string;
  /** The commit the attempt started from: the run's change counts from it. */
  startSha?: string;
  pullRequest?: { number: number; url: string };
  /** Wrench's own record of the attempt's steps (src/run-log/attempt-digest.ts), for the agent; absent without run records. */
  steps?: string;
}

export interface PushedWork {
  branch: string;
  /** The commit the run started from (its workspace's head at the start). */
  startSha: string;
  pullRequest?: { number: number; url: string };
}
