import { WrenchError } from '../errors.js';

/** Limits and stops are typed errors that end the loop; the runner keeps the work done so far. */
export class AgentStop extends WrenchError {
  /** A limit's figures, for saying the message in another language. */
  readonly limit?: LimitFigures;
  /** Who cancelled the run while it waited for an answer to its question (a Slack mention, `<@U…>`). */
  readonly cancelledBy?: string;
  constructor(code: AgentStopCode, message: string, options?: { cause?: unknown; limit?: LimitFigures; cancelledBy?: string }) {
    super(code, message, options);
    this.name = 'AgentStop';
    this.limit = options?.limit;
    this.cancelledBy = options?.cancelledBy;
  }
}

/** The figures of the limit a run reached: the budget, and for the cost cap what was spent (two decimals). */
export interface LimitFigures {
  steps?: number;
  minutes?: number;
  capUsd?: string;
  spentUsd?: string;
  tokens?: number;
}

/** Each is also in WRENCH_ERROR_CODES (the constructor's `super` call checks it). */
export type AgentStopCode =
  | 'step_limit'
  | 'time_limit'
  | 'cost_limit'
  | 'token_limit'
  | 'cancelled'
  | 'refused'
  | 'context_exhausted'
  | 'model_failed'
  | 'no_answer';

/**
 * Not an error: the run waits for someone (a question to the requester). The conversation is kept; the answer
 * comes back as the tool_result of `toolUseId` when the run resumes (`AgentOptions.resume.toolResult`).
 */
export interface AgentPause {
  toolUseId: string;
  tool: string;
  /** What the tool asked for (its validated input), e.g. the question and suggested answers. */
  request: unknown;
}
