import { toolError, toolOk, type ToolResult } from '../tool-result.js';
import { atomicWrite } from './atomic-write.js';
import { missingParameter, multipleMatches, NO_MATCH, REPLACED } from './editor-messages.js';
import { describeFileError } from './file-errors.js';
import { readTextFile } from './read-text-file.js';
import { lineOfOffset } from './text-lines.js';

/** `str_replace`: replace `old_str`, which must occur exactly once, by `new_str` (absent: delete it). */
export async function strReplace(file: string, display: string, oldStr: unknown, newStr: unknown, maxFileBytes: number): Promise<ToolResult> {
  if (typeof oldStr !== 'string' || oldStr === '') return toolError(missingParameter('old_str', 'str_replace'));
  if (newStr !== undefined && newStr !== null && typeof newStr !== 'string') return toolError('Error: Parameter `new_str` must be a string.');
  const read = await readTextFile(file, display, maxFileBytes);
  if (!read.ok) return toolError(read.error);

  const offsets = occurrences(read.text, oldStr);
  const [at, ...others] = offsets;
  if (at === undefined) return toolError(NO_MATCH);
  if (others.length) return toolError(multipleMatches(offsets.map((offset) => lineOfOffset(read.text, offset))));

  const updated = read.text.slice(0, at) + (newStr ?? '') + read.text.slice(at + oldStr.length);
  try {
    await atomicWrite(file, updated);
  } catch (error) {
    return toolError(describeFileError(error, display, 'write'));
  }
  return toolOk(REPLACED);
}

/** Start offsets of the non-overlapping occurrences of `needle`. */
function occurrences(text: string, needle: string): number[] {
  const found: number[] = [];
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) found.push(at);
  return found;
}
