import { detectGo } from './detect-go.js';
import { detectMake } from './detect-make.js';
import { detectNode } from './detect-node.js';
import { detectPython } from './detect-python.js';
import { detectRust } from './detect-rust.js';
import type { Detection } from './detection.js';
import { repoFiles, type RepoFiles } from './repo-files.js';
import type { CommandKey, VerificationCommands, VerificationOverride } from './verification-types.js';

const DETECTORS: ReadonlyArray<(files: RepoFiles) => Promise<Detection[]>> = [detectNode, detectMake, detectPython, detectGo, detectRust];
const KEYS: readonly CommandKey[] = ['setup', 'test', 'lint', 'coverage'];

/**
 * The repository's own setup, test, lint and coverage commands. Each key comes from the first ecosystem that
 * provides it (package.json, Makefile, Python, Go, Rust); an override wins per key, and an empty override
 * turns that command off.
 */
export async function detectCommands(dir: string, override: VerificationOverride = {}): Promise<VerificationCommands> {
  const files = repoFiles(dir);
  const chosen = new Map<CommandKey, Detection>();
  for (const detect of DETECTORS) {
    for (const found of await detect(files)) if (!chosen.has(found.key)) chosen.set(found.key, found);
  }

  const commands: VerificationCommands = { sources: [] };
  for (const key of KEYS) {
    const wanted = override[key];
    if (wanted !== undefined) {
      if (wanted.trim()) {
        commands[key] = wanted.trim();
        commands.sources.push(`${key}: \`${wanted.trim()}\` (override in wrench.config.yml)`);
      } else {
        commands.sources.push(`${key}: turned off by an empty override in wrench.config.yml`);
      }
      continue;
    }
    const found = chosen.get(key);
    if (!found) continue;
    commands[key] = found.command;
    commands.sources.push(`${key}: \`${found.command}\` (${found.reason})`);
  }
  return commands;
}
