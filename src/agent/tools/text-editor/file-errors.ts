import { FILE_NOT_FOUND, PERMISSION_DENIED_READ, PERMISSION_DENIED_WRITE } from './editor-messages.js';

/** The model-facing text for a file system error while reading or writing `display`. */
export function describeFileError(error: unknown, display: string, action: 'read' | 'write'): string {
  const code = (error as NodeJS.ErrnoException)?.code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return FILE_NOT_FOUND;
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') return action === 'write' ? PERMISSION_DENIED_WRITE : PERMISSION_DENIED_READ;
  if (code === 'EISDIR') return `Error: ${display} is a directory, not a file. Use the view command to list it.`;
  return `Error: Could not ${action} ${display}: ${(error as Error)?.message ?? String(error)}`;
}
