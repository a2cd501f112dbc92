import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describeError } from '../errors.js';
import type { InputFile } from './input-files.js';

export const INPUT_DIR = 'wrench-input';

export interface InputLimits {
  maxFiles: number;
  maxFileBytes: number;
  maxTotalBytes: number;
}

export const DEFAULT_INPUT_LIMITS: InputLimits = { maxFiles: 10, maxFileBytes: 25_000_000, maxTotalBytes: 50_000_000 };

export interface StagedInputs {
  /** Paths relative to the workspace, e.g. `wrench-input/sales.csv`, with their sizes. */
  staged: Array<{ path: string; bytes: number }>;
  skipped: Array<{ name: string; reason: string }>;
}

/** Downloads the attachments into `<workspace>/wrench-input/` (safe, unique names), within the limits. */
export async function stageInputFiles(dir: string, files: readonly InputFile[], limits: InputLimits = DEFAULT_INPUT_LIMITS): Promise<StagedInputs> {
  const result: StagedInputs = { staged: [], skipped: [] };
  if (files.length === 0) return result;
  const target = path.join(dir, INPUT_DIR);
  await mkdir(target, { recursive: true });
  const used = new Set<string>();
  let total = 0;
  for (const file of files) {
    if (result.staged.length >= limits.maxFiles) {
      result.skipped.push({ name: file.name, reason: `more than ${limits.maxFiles} files` });
      continue;
    }
    const room = Math.min(limits.maxFileBytes, limits.maxTotalBytes - total);
    if (file.size > room) {
      result.skipped.push({ name: file.name, reason: `too large (${megabytes(file.size)}; the limit is ${megabytes(room)})` });
      continue;
    }
    try {
      const bytes = await file.download(room);
      const name = uniqueName(safeFileName(file.name), used);
      await writeFile(path.join(target, name), bytes, { mode: 0o644 });
      total += bytes.length;
      result.staged.push({ path: `${INPUT_DIR}/${name}`, bytes: bytes.length });
    } catch (error) {
      result.skipped.push({ name: file.name, reason: describeError(error) });
    }
  }
  return result;
}

/** A plain file name: no directories, no leading dots, only portable characters. */
export function safeFileName(name: string): string {
  const base = path.posix.basename(name.replace(/\\/g, '/'));
  const cleaned = base
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^[._]+/, '')
    .slice(0, 120);
  return cleaned || 'attachment';
}

function uniqueName(name: string, used: Set<string>): string {
  const ext = path.extname(name);
  const stem = name.slice(0, name.length - ext.length);
  let candidate = name;
  for (let n = 2; used.has(candidate.toLowerCase()); n += 1) candidate = `${stem}-${n}${ext}`;
  used.add(candidate.toLowerCase());
  return candidate;
}

function megabytes(bytes: number): string {
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}
