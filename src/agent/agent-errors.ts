import { WrenchError } from '../errors.js';

/** Limits and stops are typed errors that end the loop; the runner keeps the work done so far. */
export class AgentStop extends WrenchError {
  constructor(code: AgentStopCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.name = 'AgentStop';
  }
}

/** Each is also in WRENCH_ERROR_CODES (the constructor's `super` call checks it). */
export type AgentStopCode = 'step_limit' | 'time_limit' | 'cost_limit' | 'token_limit' | 'cancelled' | 'refused' | 'context_exhausted' | 'model_failed';
