import { stat } from 'node:fs/promises';
import path from 'node:path';
import { toolError, toolOk, type ToolResult } from '../tool-result.js';
import { describeFileError } from './file-errors.js';
import { listDirectory } from './list-directory.js';
import { formatBytes, readTextFile } from './read-text-file.js';
import { numberLines, splitLines } from './text-lines.js';

export interface ViewLimits {
  /** Truncate what is shown to this many characters (the tool's `max_characters`). */
  maxCharacters?: number;
  /** Files larger than this need a view_range. */
  maxViewBytes: number;
  /** Files larger than this are refused. */
  maxFileBytes: number;
}

/** `view`: a file as numbered lines (optionally a range), or a directory two levels deep. */
export async function view(file: string, display: string, viewRange: unknown, limits: ViewLimits): Promise<ToolResult> {
  const info = await stat(file).catch((error: unknown) => error as Error);
  if (info instanceof Error) return toolError(describeFileError(info, display, 'read'));
  if (info.isDirectory()) {
    if (viewRange !== undefined && viewRange !== null) return toolError('Error: The `view_range` parameter is not allowed when `path` points to a directory.');
    return toolOk(truncate(await directoryListing(file, display), limits.maxCharacters));
  }

  const range = parseRange(viewRange);
  if (typeof range === 'string') return toolError(range);
  if (!range && info.size > limits.maxViewBytes)
    return toolError(
      `Error: ${display} is too large to view at once (${formatBytes(info.size)}). Use \`view_range\` to view part of it, e.g. [1, 200], or search it with the bash tool (\`grep -n PATTERN ${display}\`).`,
    );
  const read = await readTextFile(file, display, limits.maxFileBytes);
  if (!read.ok) return toolError(read.error);

  const lines = splitLines(read.text);
  if (lines.length === 0) return toolOk(`${display} is empty.`);
  const [start, end] = range ?? [1, lines.length];
  if (start > lines.length)
    return toolError(
      `Error: Invalid \`view_range\` [${start}, ${end}]. Its first element should be within the range of lines of the file: [1, ${lines.length}].`,
    );
  const last = end === -1 ? lines.length : Math.min(end, lines.length);
  return toolOk(truncate(numberLines(lines.slice(start - 1, last), start), limits.maxCharacters));
}

function parseRange(value: unknown): [number, number] | string | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.length !== 2 || !value.every((n) => Number.isInteger(n)))
    return 'Error: Invalid `view_range`. It should be a list of two integers: [start, end], 1-indexed, with -1 as end for the end of the file.';
  const [start, end] = value as [number, number];
  if (start < 1) return `Error: Invalid \`view_range\` [${start}, ${end}]. Line numbers start at 1.`;
  if (end !== -1 && end < start)
    return `Error: Invalid \`view_range\` [${start}, ${end}]. Its second element should be -1 or larger than or equal to its first.`;
  return [start, end];
}

async function directoryListing(dir: string, display: string): Promise<string> {
  const { entries, more } = await listDirectory(dir);
  const shown = entries.map((entry) => path.join(display, entry));
  const header = `Here's the files and directories up to 2 levels deep in ${display}, excluding hidden items and node_modules:`;
  const footer = more > 0 ? [`... and ${more} more entries not shown`] : [];
  return [header, ...shown, ...footer].join('\n') + '\n';
}

function truncate(text: string, maxCharacters: number | undefined): string {
  if (!maxCharacters || text.length <= maxCharacters) return text;
  return `${text.slice(0, maxCharacters)}\n\n[Output truncated to ${maxCharacters} characters. Use \`view_range\` to view the rest of the file.]`;
}
