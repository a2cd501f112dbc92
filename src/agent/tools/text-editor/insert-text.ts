import { toolError, toolOk, type ToolResult } from '../tool-result.js';
import { atomicWrite } from './atomic-write.js';
import { missingParameter } from './editor-messages.js';
import { describeFileError } from './file-errors.js';
import { readTextFile } from './read-text-file.js';
import { splitLines } from './text-lines.js';

/** `insert`: put `text` after line `insertLine` (0: at the beginning) as whole lines. */
export async function insertText(file: string, display: string, insertLine: unknown, text: unknown, maxFileBytes: number): Promise<ToolResult> {
  if (insertLine === undefined || insertLine === null) return toolError(missingParameter('insert_line', 'insert'));
  if (typeof text !== 'string') return toolError(missingParameter('insert_text', 'insert'));
  const read = await readTextFile(file, display, maxFileBytes);
  if (!read.ok) return toolError(read.error);

  const count = splitLines(read.text).length;
  if (typeof insertLine !== 'number' || !Number.isInteger(insertLine) || insertLine < 0 || insertLine > count)
    return toolError(`Error: Invalid \`insert_line\` parameter: ${String(insertLine)}. It should be within the range of lines of the file: [0, ${count}].`);

  try {
    await atomicWrite(file, withInserted(read.text, insertLine, text));
  } catch (error) {
    return toolError(describeFileError(error, display, 'write'));
  }
  return toolOk(`The text has been inserted ${insertLine === 0 ? 'at the beginning' : `after line ${insertLine}`} of ${display}.`);
}

function withInserted(original: string, after: number, text: string): string {
  let offset = 0;
  for (let line = 0; line < after; line++) {
    const newline = original.indexOf('\n', offset);
    offset = newline === -1 ? original.length : newline + 1;
  }
  const before = original.slice(0, offset);
  const rest = original.slice(offset);
  if (rest === '' && before !== '' && !before.endsWith('\n')) return `${before}\n${text}`;
  return before + (text.endsWith('\n') || (rest === '' && text === '') ? text : `${text}\n`) + rest;
}
