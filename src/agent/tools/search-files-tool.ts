import { GitError, runGit } from '../../workspace/run-git.js';
import type { AgentTool } from '../agent-tool.js';

export const SEARCH_FILES_TOOL_NAME = 'search_files';

const MAX_MATCHES = 200;
const MAX_OUTPUT_CHARS = 24_000;
const MAX_LINE_CHARS = 300;

/**
 * Searches the repository's files at one commit for a fixed string (`git grep -F` on the commit's tree, so it reads
 * exactly what a question is answered from, never the working tree): "path:line: text" for each match, bounded. For
 * runs without a shell (a question about the code): with the editor's view it is how the agent finds its way.
 */
export function createSearchFilesTool(options: { dir: string; sha: string; signal?: AbortSignal }): AgentTool {
  return {
    name: SEARCH_FILES_TOOL_NAME,
    definition: {
      name: SEARCH_FILES_TOOL_NAME,
      description:
        'Search the repository (at the commit being read) for a fixed string, like `git grep -F`. Returns matching lines as `path:line: text`, at most 200. Use a `path` to search one file or directory only.',
      input_schema: {
        type: 'object',
        properties: {
          text: { type: 'string', description: 'The exact text to look for (not a regular expression).' },
          path: { type: 'string', description: 'Optional: a file or directory relative to the repository root to search in.' },
          ignore_case: { type: 'boolean', description: 'Match regardless of case. Default false.' },
        },
        required: ['text'],
      },
    },
    describe: (input) => ({ key: 'tool', name: `${SEARCH_FILES_TOOL_NAME} "${oneLine(String((input as { text?: unknown })?.text ?? ''))}"` }),
    async execute(input) {
      const { text, path, ignore_case: ignoreCase } = (input ?? {}) as { text?: unknown; path?: unknown; ignore_case?: unknown };
      if (typeof text !== 'string' || text.trim() === '' || text.length > 500 || text.includes('\n'))
        return { content: 'Error: `text` must be one line of 1 to 500 characters.', isError: true };
      if (path !== undefined && (typeof path !== 'string' || path.startsWith('/') || path.split('/').includes('..')))
        return { content: 'Error: `path` must be relative to the repository root and stay inside it.', isError: true };
      const args = ['grep', '-n', '-I', '-F', '--no-color', '--full-name', ...(ignoreCase === true ? ['-i'] : []), '-e', text, options.sha, '--'];
      if (typeof path === 'string' && path.replace(/^\.\/?/, '') !== '') args.push(path.replace(/^\.\//, ''));
      let output: string;
      try {
        output = await runGit(args, { cwd: options.dir, timeoutMs: 60_000 });
      } catch (error) {
        if (error instanceof GitError && error.exitCode === 1 && !error.stderr.trim()) return { content: 'No matches.' };
        return { content: `Error: the search failed: ${(error as Error).message.split('\n')[0]}`, isError: true };
      }
      const prefix = `${options.sha}:`;
      const lines = output.split('\n').filter(Boolean);
      const shown: string[] = [];
      let chars = 0;
      for (const line of lines.slice(0, MAX_MATCHES)) {
        const match = /^(.*?):(\d+):(.*)$/s.exec(line.startsWith(prefix) ? line.slice(prefix.length) : line);
        const entry = match ? `${match[1]}:${match[2]}: ${clip(match[3] ?? '')}` : clip(line);
        if (chars + entry.length > MAX_OUTPUT_CHARS) break;
        shown.push(entry);
        chars += entry.length + 1;
      }
      const more = lines.length - shown.length;
      return { content: `${shown.join('\n')}${more > 0 ? `\n… ${more} more matches not shown: narrow the search with a longer text or a path.` : ''}` };
    },
  };
}

function clip(text: string): string {
  const trimmed = text.trim();
  return trimmed.length > MAX_LINE_CHARS ? `${trimmed.slice(0, MAX_LINE_CHARS - 1)}…` : trimmed;
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 40 ? `${flat.slice(0, 39)}…` : flat;
}
