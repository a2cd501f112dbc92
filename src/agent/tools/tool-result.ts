/** What a client tool hands back to the model as its `tool_result`. */
export interface ToolResult {
  content: string;
  isError: boolean;
}

export function toolOk(content: string): ToolResult {
  return { content, isError: false };
}

export function toolError(content: string): ToolResult {
  return { content, isError: true };
}
