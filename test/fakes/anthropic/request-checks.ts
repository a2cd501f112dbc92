/** The checks the real Messages API makes that an agent loop most often trips; returns the 400 message or undefined. */
export function requestProblem(body: Record<string, any>): string | undefined {
  if (!body.model) return 'model: Field required';
  if (body.max_tokens === undefined) return 'max_tokens: Field required';
  if (!Array.isArray(body.messages)) return 'messages: Field required';
  if (body.messages.length === 0) return 'messages: at least one message is required';
  const breakpoints = countCacheControl(body);
  if (breakpoints > 4) return `A maximum of 4 blocks with cache_control may be provided. Found ${breakpoints}.`;
  return toolPairingProblem(body.messages);
}

function toolPairingProblem(messages: any[]): string | undefined {
  for (let index = 0; index < messages.length; index += 1) {
    const message = messages[index];
    const previous = messages[index - 1];
    const results = blocksOf(message).filter((block) => block?.type === 'tool_result');
    const offered = new Set(
      previous?.role === 'assistant'
        ? blocksOf(previous)
            .filter(isToolUse)
            .map((b) => b.id)
        : [],
    );
    const unknown = results.find((block) => !offered.has(block.tool_use_id));
    if (unknown) {
      return `messages.${index}.content.${blocksOf(message).indexOf(unknown)}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${unknown.tool_use_id}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`;
    }
    const uses = message?.role === 'assistant' ? blocksOf(message).filter(isToolUse) : [];
    const next = messages[index + 1];
    if (uses.length === 0 || !next) continue;
    const answered = new Set(
      blocksOf(next)
        .filter((b) => b?.type === 'tool_result')
        .map((b) => b.tool_use_id),
    );
    const missing = uses.filter((use) => !answered.has(use.id)).map((use) => use.id);
    if (missing.length > 0) {
      return `messages.${index}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`;
    }
  }
  return undefined;
}

function countCacheControl(body: Record<string, any>): number {
  const blocks = [
    ...(Array.isArray(body.tools) ? body.tools : []),
    ...(Array.isArray(body.system) ? body.system : []),
    ...(Array.isArray(body.messages) ? body.messages.flatMap(blocksOf) : []),
  ];
  return blocks.filter((block) => block && typeof block === 'object' && block.cache_control).length;
}

function blocksOf(message: any): any[] {
  return Array.isArray(message?.content) ? message.content : [];
}

function isToolUse(block: any): boolean {
  return block?.type === 'tool_use' || block?.type === 'server_tool_use';
}
