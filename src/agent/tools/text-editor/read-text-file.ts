import { readFile, stat } from 'node:fs/promises';
import { describeFileError } from './file-errors.js';

export type TextFile = { ok: true; text: string; mode: number; uid: number; gid: number } | { ok: false; error: string };

const decoder = new TextDecoder('utf-8', { fatal: true });

/** Read a UTF-8 text file no larger than `maxBytes`; binary and oversized files are explained, never thrown. */
export async function readTextFile(file: string, display: string, maxBytes: number): Promise<TextFile> {
  try {
    const info = await stat(file);
    if (info.isDirectory()) return { ok: false, error: `Error: ${display} is a directory, not a file. Use the view command to list it.` };
    if (!info.isFile()) return { ok: false, error: `Error: ${display} is not a regular file.` };
    if (info.size > maxBytes)
      return {
        ok: false,
        error: `Error: ${display} is too large for the text editor (${formatBytes(info.size)}; the limit is ${formatBytes(maxBytes)}). Use the bash tool to work on it, e.g. \`grep -n PATTERN ${display}\` or \`sed -n '1,200p' ${display}\`.`,
      };
    const bytes = await readFile(file);
    const text = bytes.includes(0) ? undefined : decode(bytes);
    if (text === undefined)
      return {
        ok: false,
        error: `Error: ${display} is a binary file; the text editor only handles UTF-8 text. Use the bash tool to inspect it (e.g. \`file ${display}\`).`,
      };
    return { ok: true, text, mode: info.mode & 0o7777, uid: info.uid, gid: info.gid };
  } catch (error) {
    return { ok: false, error: describeFileError(error, display, 'read') };
  }
}

function decode(bytes: Buffer): string | undefined {
  try {
    return decoder.decode(bytes);
  } catch {
    return undefined;
  }
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 ** 2) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
}
