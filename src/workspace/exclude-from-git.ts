import { appendFile, mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';

/** Adds patterns to the checkout's `.git/info/exclude`: files the run creates that are never committed. */
export async function excludeFromGit(dir: string, patterns: readonly string[]): Promise<void> {
  const file = path.join(dir, '.git', 'info', 'exclude');
  await mkdir(path.dirname(file), { recursive: true });
  const current = await readFile(file, 'utf8').catch(() => '');
  const missing = patterns.filter((pattern) => !current.split('\n').includes(pattern));
  if (missing.length) await appendFile(file, `${current && !current.endsWith('\n') ? '\n' : ''}${missing.join('\n')}\n`);
}
