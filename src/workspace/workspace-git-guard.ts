import { lstat, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { WrenchError } from '../errors.js';
import { runGit } from './run-git.js';

const ALLOWED_KEYS = [
  /^core\.(repositoryformatversion|filemode|bare|logallrefupdates|ignorecase|precomposeunicode|symlinks)$/,
  /^remote\.origin\.(url|fetch)$/,
  /^branch\.[^\n]+\.(remote|merge)$/,
  /^user\.(name|email)$/,
];

/**
 * The agent can write anywhere in its workspace, `.git` included. Before the runner runs git there (outside
 * the sandbox), the repository-local config is cut back to plain keys, so nothing the agent planted (filters,
 * merge drivers, includes, url rewrites, alternative git dirs) runs or redirects anything.
 * Returns the keys that were removed.
 */
export async function sanitizeWorkspaceGit(dir: string): Promise<string[]> {
  const gitDir = join(dir, '.git');
  await assertPlainDirectory(gitDir);
  if (await exists(join(gitDir, 'commondir'))) tampered(dir, '.git/commondir');

  const configPath = join(gitDir, 'config');
  const listing = await runGit(['config', '--file', configPath, '--no-includes', '--list', '-z'], { cwd: dir });
  const entries = listing
    .split('\0')
    .filter(Boolean)
    .map((entry) => {
      const newline = entry.indexOf('\n');
      return newline < 0 ? { key: entry, value: 'true' } : { key: entry.slice(0, newline), value: entry.slice(newline + 1) };
    });
  const removed = entries.filter(({ key }) => !ALLOWED_KEYS.some((pattern) => pattern.test(key))).map((e) => e.key);
  if (removed.length === 0) return [];

  const kept = entries.filter(({ key }) => !removed.includes(key));
  const staging = `${configPath}.wrench-${process.pid}`;
  await writeFile(staging, formatConfig(kept), { mode: 0o600 });
  await rename(staging, configPath);
  return removed;
}

function formatConfig(entries: { key: string; value: string }[]): string {
  const sections = new Map<string, string[]>();
  for (const { key, value } of entries) {
    const first = key.indexOf('.');
    const last = key.lastIndexOf('.');
    const section = key.slice(0, first);
    const header = first === last ? `[${section}]` : `[${section} "${key.slice(first + 1, last).replace(/(["\\])/g, '\\$1')}"]`;
    const lines = sections.get(header) ?? [];
    lines.push(`\t${key.slice(last + 1)} = ${quote(value)}`);
    sections.set(header, lines);
  }
  return [...sections].map(([header, lines]) => `${header}\n${lines.join('\n')}\n`).join('');
}

function quote(value: string): string {
  const escaped = value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\t/g, '\\t');
  return `"${escaped}"`;
}

async function assertPlainDirectory(path: string): Promise<void> {
  const stats = await lstat(path).catch(() => undefined);
  if (!stats?.isDirectory()) tampered(path, '.git is not a plain directory');
}

async function exists(path: string): Promise<boolean> {
  return lstat(path).then(
    () => true,
    () => false,
  );
}

function tampered(dir: string, what: string): never {
  throw new WrenchError('workspace_tampered', `The workspace ${dir} has an unexpected git layout (${what}); start a new job instead of reusing it.`);
}
