import JSON5 from 'json5';
import type { RepoFiles } from './repo-files.js';

const FILES = ['.devcontainer/devcontainer.json', '.devcontainer.json'];
/** The lifecycle commands that prepare the code, in the order a dev container runs them. */
const HOOKS = ['onCreateCommand', 'updateContentCommand', 'postCreateCommand'];

/**
 * The setup commands of the repository's dev container (`onCreateCommand`, `updateContentCommand`,
 * `postCreateCommand`; a string, an argument list, or named commands), joined with `&&`, with the file they came from.
 */
export async function readDevcontainerSetup(files: RepoFiles): Promise<{ command: string; source: string } | undefined> {
  for (const file of FILES) {
    const text = await files.read(file);
    if (text === undefined) continue;
    let config: unknown;
    try {
      config = JSON5.parse(text);
    } catch {
      continue;
    }
    if (!config || typeof config !== 'object') continue;
    const commands = HOOKS.flatMap((hook) => lifecycleCommands((config as Record<string, unknown>)[hook]));
    if (commands.length) return { command: commands.join(' && '), source: `${file} (${HOOKS.filter((hook) => hook in config).join(', ')})` };
  }
  return undefined;
}

function lifecycleCommands(value: unknown): string[] {
  if (typeof value === 'string') return value.trim() ? [value.trim()] : [];
  if (Array.isArray(value)) return value.length && value.every((part) => typeof part === 'string') ? [value.map(quote).join(' ')] : [];
  if (value && typeof value === 'object') return Object.values(value).flatMap(lifecycleCommands);
  return [];
}

function quote(part: string): string {
  return /^[\w@%+=:,./-]+$/.test(part) ? part : `'${part.replace(/'/g, `'\\''`)}'`;
}
