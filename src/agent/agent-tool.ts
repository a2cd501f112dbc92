import type Anthropic from '@anthropic-ai/sdk';

export interface ToolOutput {
  content: string;
  isError?: boolean;
}

/** A client tool the agent may call: its definition as sent to the API, and how Wrench carries it out. */
export interface AgentTool {
  readonly name: string;
  readonly definition: Anthropic.Messages.ToolUnion;
  /** Short human text for live status, e.g. "running npm test". */
  describe?(input: unknown): string;
  execute(input: unknown, context: { signal: AbortSignal }): Promise<ToolOutput>;
}
