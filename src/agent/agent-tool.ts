import type { ProgressDetail } from '../reporting/progress.js';
import type Anthropic from '@anthropic-ai/sdk';

export interface ToolOutput {
  content: string;
  isError?: boolean;
  /** The run pauses on this call (e.g. a question to the requester): the loop returns `paused` with this request. */
  pause?: unknown;
  /** A command's exit code (null: killed by a signal), for the run record. */
  exitCode?: number | null;
}

/** A client tool the agent may call: its definition as sent to the API, and how Wrench carries it out. */
export interface AgentTool {
  readonly name: string;
  readonly definition: Anthropic.Messages.ToolUnion;
  /** A tool that may pause the run (see ToolOutput.pause); at most one such call pauses a turn. */
  readonly pauses?: boolean;
  /** What a call does, for the live status: a typed progress detail (`{ key: 'running', command: 'npm test' }`). */
  describe?(input: unknown): ProgressDetail;
  execute(input: unknown, context: { signal: AbortSignal }): Promise<ToolOutput>;
}
