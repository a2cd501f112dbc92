import { imageProblem } from './image-checks.js';

/** The checks the real Messages API makes that an agent loop most often trips; returns the 400 message or undefined. */
export function requestProblem(body: Record<string, any>): string | undefined {
  if (!body.model) return 'model: Field required';
  if (body.max_tokens === undefined) return 'max_tokens: Field required';
  if (!Array.isArray(body.messages)) return 'messages: Field required';
  if (body.messages.length === 0) return 'messages: at least one message is required';
  const breakpoints = countCacheControl(body);
  if (breakpoints > 4) return `A maximum of 4 blocks with cache_control may be provided. Found ${breakpoints}.`;
  return newerModelProblem(body) ?? toolPairingProblem(body.messages) ?? imageProblem(body.messages);
}

/**
 * Claude Opus 4.7 and later (the 5.x models Wrench uses among them) think adaptively and dropped the
 * older controls: sampling parameters other than the default temperature, an assistant prefill, and a
 * tool_choice that forces a tool are refused with these messages.
 */
function newerModelProblem(body: Record<string, any>): string | undefined {
  if (!droppedOlderControls(String(body.model))) return undefined;
  if (body.temperature !== undefined && body.temperature !== 1) return '`temperature` is deprecated for this model.';
  if (body.top_p !== undefined) return '`top_p` is deprecated for this model.';
  if (body.top_k !== undefined) return '`top_k` is deprecated for this model.';
  if (body.messages.at(-1)?.role === 'assistant') {
    return 'This model does not support assistant message prefill. The conversation must end with a user message.';
  }
  const forced = body.tool_choice?.type === 'any' || body.tool_choice?.type === 'tool';
  if (forced) return 'Thinking may not be enabled when tool_choice forces tool use.';
  return undefined;
}

export function droppedOlderControls(model: string): boolean {
  const version = /^claude-(?:[a-z]+-)?(\d+)-(\d+)|^claude-[a-z]+-(\d+)(?:$|-\d{8})/.exec(model);
  if (!version) return false;
  const major = Number(version[1] ?? version[3]);
  const minor = Number(version[2] ?? 0);
  return major > 4 || (major === 4 && minor >= 7);
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
