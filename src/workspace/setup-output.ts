import { appendFile, mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { runGit } from './run-git.js';

/**
 * What the setup step creates (node_modules/, a virtualenv, build caches) is never part of the agent's change, whatever
 * the repository's .gitignore says. Before setup, `untrackedPaths` notes what is already untracked; after it,
 * `excludeSetupOutput` adds every path that appeared to the checkout's info/exclude, anchored, so `git add --all`
 * (commitAll) and the change checks no longer see it. Chosen over committing only the paths the agent's tools
 * touched because the agent's shell commands (a formatter, a generator) make real changes no tool call names.
 */
export async function untrackedPaths(dir: string): Promise<Set<string>> {
  const output = await runGit(['ls-files', '--others', '--exclude-standard', '--directory', '-z'], { cwd: dir });
  return new Set(output.split('\0').filter(Boolean));
}

/** Excludes from git what appeared untracked since `before` (the setup step's output); returns those paths. */
export async function excludeSetupOutput(dir: string, before: ReadonlySet<string>): Promise<string[]> {
  const created = [...(await untrackedPaths(dir))].filter((entry) => !before.has(entry));
  if (created.length === 0) return [];
  const file = path.resolve(dir, (await runGit(['rev-parse', '--git-path', 'info/exclude'], { cwd: dir })).trim());
  await mkdir(path.dirname(file), { recursive: true });
  const current = await readFile(file, 'utf8').catch(() => '');
  const patterns = created.map((entry) => `/${entry.replace(/([\\*?[\]!#])/g, '\\$1')}`).filter((p) => !current.split('\n').includes(p));
  if (patterns.length) await appendFile(file, `${current && !current.endsWith('\n') ? '\n' : ''}${patterns.join('\n')}\n`);
  return created;
}
