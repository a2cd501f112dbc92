import type { TaskReport } from '../agent/finish-tool.js';
import type { AgentPlan } from '../agent/plan-tool.js';
import type { TokenUsage } from '../agent/pricing.js';
import type { InputFileSource } from '../inputs/input-files.js';
import type { InstructionFileRead } from '../repository-instructions/repository-instructions.js';
import type { VerificationVerdict } from '../verification/verification-types.js';
import type { ProgressDetail } from './progress.js';

/** What a finished run produced, rendered for Slack, the PR body and the CLI alike. */
export interface RunResult {
  /** `waiting`: the run paused on a question to the requester; it goes on when they answer. */
  status: 'pr_opened' | 'pr_updated' | 'answered' | 'stopped' | 'failed' | 'waiting';
  repository: string;
  instruction: string;
  branch?: string;
  /** `wrench run --repo PATH`: the local checkout the branch was pushed back to. */
  pushedTo?: string;
  pullRequest?: { number: number; url: string; draft: boolean; title?: string };
  report?: TaskReport;
  /** The agent's answer when it changed nothing, or its last words. */
  answer?: string;
  /** Why the run stopped early, and what is left. */
  stopReason?: string;
  /** The same in the thread's language, when that is not English and Wrench has the words for it (a cancel, a restart). */
  threadStopReason?: string;
  /** Wrench's own answer (no file changed, the agent said nothing) in the thread's language, when that is not English. */
  threadAnswer?: string;
  /** The AgentStop code when the run stopped early (cancelled, time_limit, ...). */
  stopCode?: string;
  /** Why the pull request is a draft (besides stopping early). */
  draftReason?: string;
  /** The same in the thread's language, when that is not English (Wrench's own reasons translated, others as they are). */
  threadDraftReason?: string;
  filesChanged: string[];
  /** Lines added and removed per file in the diff Wrench committed (`git diff --numstat`); binary files have none. */
  diffStat?: FileDiffStat[];
  /** What Wrench measured of the tests after the change, to set the agent's claims against. */
  measuredTests?: MeasuredTests;
  /** Wrench's own checks after the change, rendered (Markdown); shown before anything the agent says. */
  verification?: string;
  /** The same checks in the words of the thread's language, when that is not English (the thread's reply shows it). */
  threadVerification?: string;
  /** The verdict of those checks: when `regressed`, the agent's claims are quoted as claims, never shown as fact. */
  verificationVerdict?: VerificationVerdict;
  usage?: TokenUsage;
  costUsd?: number;
  steps?: number;
  durationMs: number;
  /** No reply: the thread already says why the run ended (its pull request was merged or closed meanwhile). */
  quiet?: boolean;
  /** Replaces the status headline of the reply (a review, an input that was not found). */
  headline?: string;
  /** The same in the thread's language, when that is not English (a category's own stop). */
  threadHeadline?: string;
  /** Category-specific parts of the report (review findings, main table, coverage, moved/renamed). */
  sections?: ResultSection[];
  /** A question's answer with its checked citations, in plain text: what a follow-up in the thread starts from. */
  findings?: string;
  /** Files to share with the result: a report and charts, uploaded into the thread. */
  attachments?: ResultAttachment[];
  /** The repository's instructions for agents the run read (AGENTS.md, CLAUDE.md…), and which of them were cut. */
  instructionFiles?: InstructionFileRead[];
}

export interface FileDiffStat {
  path: string;
  added?: number;
  removed?: number;
}

export interface MeasuredTests {
  command: string;
  /** The command failed (or timed out) after the change. */
  failed: boolean;
  /** "1 passed, 1 failed" as Wrench read it, when the output had counts. */
  counts?: string;
  /** The dependency setup command, when it failed: the tests ran without their dependencies. */
  setupFailed?: string;
}

export interface ResultSection {
  title: string;
  /** Markdown. */
  body: string;
  /** The agent's own account (a root cause, what it moved): shown quoted and marked as its claim, never as a finding. */
  claim?: boolean;
  /** The same in the thread's language, when that is not English (the pull request body keeps `title` and `body`). */
  inThread?: { title: string; body: string };
}

export interface ResultAttachment {
  filename: string;
  title?: string;
  /** Text files are redacted before they leave; images go as they are. */
  kind: 'text' | 'image';
  content: Buffer;
}

export type RunPhase = 'queued' | 'preparing' | 'working' | 'waiting' | 'verifying' | 'publishing' | 'done' | 'failed' | 'cancelled';

/** A question the agent asked the requester while the run pauses (the question desk's paused run, as shown). */
export interface AskedQuestion {
  pauseId: string;
  question: string;
  suggestedAnswers: string[];
  /** The Slack user id asked. */
  requester: string;
  timeoutAt: string;
}

/** What settled a question: an answer (`by` a Slack user id), the timeout, or a cancel (`by` a Slack mention). */
export type QuestionOutcome = { kind: 'answer'; text: string; by: string } | { kind: 'timeout' } | { kind: 'cancelled'; by: string };

/** A question the run asked before its latest one, and what settled it (`requester`: the Slack user id asked). */
export interface SettledQuestion {
  question: string;
  requester: string;
  outcome: QuestionOutcome;
}

/** Where a run tells people how it goes: a Slack thread, or the terminal for `wrench run`. */
export interface RunReporter {
  /** The run reached `phase`, doing `detail` (a typed value: each surface says it in its own words). */
  phase(phase: RunPhase, detail?: ProgressDetail): Promise<void>;
  finished(result: RunResult): Promise<void>;
  failed(message: string): Promise<void>;
  /** A message in the run's thread besides the status and the result (e.g. a restart), when there is a thread. */
  note?(text: string): Promise<void>;
  /** The run starts again after an interruption (`text` says so), shown with the run's status; without it, `note` says it. */
  restarted?(text: string): Promise<void>;
  /** The agent's plan as it last stated it (its update_plan tool), where the reporter can show it; only then has the agent the tool. */
  plan?(steps: AgentPlan): Promise<void>;
  /**
   * The agent asked the requester `question` and the run pauses (its `waiting` phase follows): a reporter that shows the
   * question in the run's own message (Slack's streamed run) does so there, with its suggested answers to pick.
   */
  asked?(question: AskedQuestion): Promise<void>;
  /**
   * This run resumes after its question was settled (answered, not in time, or cancelled), which its message keeps,
   * below the run's `earlier` questions (oldest first) and what settled each.
   */
  resumedAfter?(question: AskedQuestion, settlement: QuestionOutcome, earlier?: SettledQuestion[]): Promise<void>;
  /** Files attached to the request where the reporter reports (input data for the run), when there can be any. */
  inputFiles?: InputFileSource;
}
