import type { ScheduleRequest } from '../schedules/schedule-phrase.js';
import type { Category } from '../categories.js';
import type { CodeReferences } from './code-references.js';
import type { SectionKind } from './labelled-sections.js';

export type Complexity = 'simple' | 'medium' | 'complex';

/** Indicative duration of each complexity, in minutes. */
export const COMPLEXITY_MINUTES: Record<Complexity, { min: number; max?: number; label: string }> = {
  simple: { min: 5, max: 15, label: '5–15 min' },
  medium: { min: 15, max: 45, label: '15–45 min' },
  complex: { min: 45, label: '45+ min' },
};

export type Verdict = 'well-formed' | 'ill-formed' | 'unrealistic';

/**
 * Why the rules hold an instruction back whoever else reads it: a whole rewrite, an ask that names nothing, or a
 * goal that is only a matter of taste. The model reader cannot overrule these (model-reader.ts).
 */
export type SureHold = 'whole-rewrite' | 'empty' | 'subjective';

export interface ObservedProblem {
  /** What the requester says goes wrong, when stated apart from expected/actual. */
  description?: string;
  error?: string;
  expected?: string;
  actual?: string;
  reproduction?: string[];
  /** Changes named as the likely cause: commit SHAs, `PR #311`, `release 5.2.0`. */
  suspectCommits?: string[];
}

export interface References {
  prNumbers?: number[];
  commits?: string[];
  urls?: string[];
  repositories?: string[];
  functions?: string[];
}

/** The recognised parts of an instruction; absent ones are omitted. */
export interface InstructionElements {
  task?: string;
  background?: string;
  requirements?: string[];
  constraints?: string[];
  successCriteria?: string[];
  /** File paths, path:line, functions, directories. */
  location?: string[];
  observedProblem?: ObservedProblem;
  outputFormat?: string;
  examples?: string[];
  references?: References;
  rateLimit?: string;
  severityLabels?: string[];
  focusAreas?: string[];
}

/** Elements Wrench may report as missing, in the order it asks for them. */
export const MISSING_ELEMENTS = [
  'target',
  'observed-problem',
  'location',
  'scope',
  'requirements',
  'success-criteria',
  'focus-areas',
  'output-format',
  'rate-limit',
  'error-handling',
  'logging',
] as const;
export type MissingElement = (typeof MISSING_ELEMENTS)[number];

export interface InstructionReading {
  category: Category;
  complexity: Complexity;
  verdict: Verdict;
  /** Recommended elements that are absent, e.g. 'target', 'location', 'observed-problem'. */
  missing: string[];
  elements: InstructionElements;
  /**
   * 'unreadable' when the rules cannot read the language the instruction is written in: the verdict is then
   * left to the model reader and the agent (never a guess from English cues). Not part of `wrench classify --json`.
   */
  language?: 'unreadable';
  /** The language the requester wrote in (BCP 47), as the model read it, or as the rules saw it in text they cannot read. */
  writtenIn?: string;
  /** Set when the rules are sure the instruction must be held back, whatever the model reads. */
  hold?: SureHold;
  /** Which reader decided: the fast model, or the rules (alone, or because the model did not answer in time). */
  readBy?: 'model' | 'rules';
  /** The model's one-line account of the task, in the requester's language (shown on the cards). */
  summary?: string;
  /** The model's questions for what is missing, in the requester's language (else the rules ask). */
  questions?: { element: string; question: string }[];
  /**
   * Recurring work the model reader recognised ("on Mondays at nine, …"), its cron checked; the rules' own reading of
   * schedule phrases comes before any reading (handlers/schedule-requests.ts).
   */
  schedule?: ScheduleRequest;
  /** What the model reading cost, counted in the run's usage. */
  readerUsage?: { inputTokens: number; outputTokens: number; latencyMs: number };
}

/** What the classifiers need besides the elements themselves. */
export interface InstructionCues {
  /** Plain prose without code blocks. */
  prose: string;
  /** The prose lowercased, with file paths and directories masked so their names do not read as words. */
  lower: string;
  /** The main ask, lowercased and masked like `lower`: the Task section or the first plain sentence. */
  head: string;
  codeBlocks: string[];
  references: CodeReferences;
  sections: Partial<Record<SectionKind, string>>;
  /** A stack trace, error output or a named exception. */
  errorOutput: boolean;
  /** The words of `lower` that name something in particular (target-cues.ts `specificWords`). */
  specific: string[];
  /** Whether the prose describes what concretely goes wrong (problem-cues.ts `describesSymptom`). */
  symptom: boolean;
}

export interface RecognisedInstruction {
  elements: InstructionElements;
  cues: InstructionCues;
}
