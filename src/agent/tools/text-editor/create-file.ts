import { stat } from 'node:fs/promises';
import { toolError, toolOk, type ToolResult } from '../tool-result.js';
import { atomicWrite } from './atomic-write.js';
import { missingParameter } from './editor-messages.js';
import { describeFileError } from './file-errors.js';

/** `create`: write `file_text` to a new file (parent directories made), or replace an existing one keeping its mode. */
export async function createFile(file: string, display: string, fileText: unknown): Promise<ToolResult> {
  if (typeof fileText !== 'string') return toolError(missingParameter('file_text', 'create'));
  const existing = await stat(file).catch(() => undefined);
  if (existing?.isDirectory()) return toolError(`Error: ${display} is a directory; give the path of a file to create.`);
  try {
    await atomicWrite(file, fileText);
  } catch (error) {
    return toolError(describeFileError(error, display, 'write'));
  }
  return toolOk(existing ? `File overwritten successfully at: ${display}` : `File created successfully at: ${display}`);
}
