import type { TaskReport } from '../../src/agent/finish-tool.js';
import type { InputFileSource } from '../../src/inputs/input-files.js';
import type { Logger } from '../../src/logging/logger.js';
import type { ProgressDetail } from '../../src/reporting/progress.js';
import type { TaskJob } from '../../src/queue/task-job.js';
import type { ResultAttachment, ResultSection } from '../../src/reporting/run-result.js';
import type { Sandbox } from '../../src/sandbox/sandbox.js';
import type { ChangeVerifier, VerificationOutcome } from '../verify-change.js';

/** What a category's own steps work with: the job, its checkout and sandbox, and the runner's verifier. */
export interface StepContext {
  job: TaskJob;
  /** The job's working tree. */
  dir: string;
  /** The commit the work started from. */
  startSha: string;
  sandbox: Sandbox;
  verifier?: ChangeVerifier;
  /** Whether the agent's commands have network. */
  network: boolean;
  /** Files attached to the request (Slack), when the job has a source for them. */
  inputs?: InputFileSource;
  log: Logger;
  signal: AbortSignal;
  /** A progress line in the run's status. */
  progress(detail: ProgressDetail): Promise<void>;
}

export interface BeforeAgent {
  /** Lines added to the agent's environment note. */
  environment?: string[];
  /** Hard requirements added to the task message. */
  requirements?: string[];
  /** Do not start the agent: reply with this instead. */
  stop?: { headline: string; answer: string; inThread?: { headline: string; answer: string } };
}

export interface AfterAgentInput {
  report?: TaskReport;
  verification?: VerificationOutcome;
}

export interface AfterAgent {
  sections?: ResultSection[];
  attachments?: ResultAttachment[];
  /** Makes the pull request a draft, with this reason. */
  draftReason?: string;
  /** The same in the thread's language, when that is not English. */
  threadDraftReason?: string;
}

/**
 * A category's own work around the agent: before it (baselines, inputs, requirements, or a reason not to
 * start) and after it, before the commit (measurements, checks, files to share).
 */
export interface CategorySteps {
  before?(): Promise<BeforeAgent>;
  after?(input: AfterAgentInput): Promise<AfterAgent>;
}
