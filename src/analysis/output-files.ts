import { lstat, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ResultAttachment } from '../reporting/run-result.js';

export const OUTPUT_DIR = 'wrench-output';

const TEXT = new Set(['.md', '.markdown', '.txt', '.csv', '.tsv', '.json', '.html', '.svg', '.log']);
const IMAGE = new Set(['.png', '.jpg', '.jpeg', '.gif', '.webp']);
export const MAX_OUTPUT_FILES = 10;
const LIMITS = { files: MAX_OUTPUT_FILES, fileBytes: 10_000_000, totalBytes: 30_000_000, depth: 3 };

export interface OutputFiles {
  attachments: ResultAttachment[];
  /** The Markdown report: `report.md` when there is one, else the first Markdown file. */
  report?: { path: string; text: string };
  /** Files not shared, and why: not a report or chart type, over the file count (`MAX_OUTPUT_FILES`), too large. */
  skipped: Array<{ path: string; why: 'type' | 'count' | 'size' }>;
}

/**
 * What the agent left in `wrench-output/` to share: reports (text) and charts (images), regular files
 * only (symbolic links are never followed), within count and size limits.
 */
export async function collectOutputFiles(dir: string): Promise<OutputFiles> {
  const root = path.join(dir, OUTPUT_DIR);
  const result: OutputFiles = { attachments: [], skipped: [] };
  const top = await lstat(root).catch(() => undefined);
  if (!top?.isDirectory()) return result;
  const found = await listFiles(root, '', 0);
  found.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  let total = 0;
  for (const relative of found) {
    const shown = `${OUTPUT_DIR}/${relative}`;
    const ext = path.extname(relative).toLowerCase();
    const kind = IMAGE.has(ext) ? 'image' : TEXT.has(ext) ? 'text' : undefined;
    if (!kind) {
      result.skipped.push({ path: shown, why: 'type' });
      continue;
    }
    const stats = await lstat(path.join(root, relative));
    if (result.attachments.length >= LIMITS.files) result.skipped.push({ path: shown, why: 'count' });
    else if (stats.size > LIMITS.fileBytes || total + stats.size > LIMITS.totalBytes) result.skipped.push({ path: shown, why: 'size' });
    else {
      const content = await readFile(path.join(root, relative));
      total += content.length;
      result.attachments.push({ filename: relative.replace(/\//g, '-'), title: relative, kind, content });
      if (!result.report && (ext === '.md' || ext === '.markdown')) result.report = { path: shown, text: content.toString('utf8') };
    }
  }
  return result;
}

async function listFiles(root: string, relative: string, depth: number): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(path.join(root, relative), { withFileTypes: true });
  } catch {
    return [];
  }
  const files: string[] = [];
  for (const entry of entries) {
    const child = relative ? `${relative}/${entry.name}` : entry.name;
    if (entry.isFile()) files.push(child);
    else if (entry.isDirectory() && depth < LIMITS.depth) files.push(...(await listFiles(root, child, depth + 1)));
  }
  return files;
}

/** report.md first, then other Markdown, then images, then the rest. */
function rank(file: string): number {
  const name = path.basename(file).toLowerCase();
  if (name === 'report.md') return 0;
  if (name.endsWith('.md')) return 1;
  if (IMAGE.has(path.extname(name))) return 2;
  return 3;
}
