import { instructionCommands } from '../repository-instructions/instruction-commands.js';
import { ROOT_INSTRUCTION_FILES } from '../repository-instructions/instruction-files.js';
import { detection, type Detection } from './detection.js';
import type { RepoFiles } from './repo-files.js';

/** Characters of an instruction file read for its commands (as much as the agent is given of it). */
const MAX_READ = 12_000;

/**
 * The test and lint commands the repository's instructions for agents name (`AGENTS.md`, `CLAUDE.md`,
 * `.github/copilot-instructions.md` at the root, in that order): the last source Wrench asks, so they count only
 * where nothing else in the repository declares a command.
 */
export async function detectAgentInstructions(files: RepoFiles): Promise<Detection[]> {
  const found: Detection[] = [];
  const taken = new Set<string>();
  for (const path of ROOT_INSTRUCTION_FILES) {
    const text = await files.read(path);
    if (text === undefined) continue;
    const commands = instructionCommands(text.slice(0, MAX_READ));
    for (const command of [commands.test, commands.lint]) {
      if (!command || taken.has(command.key)) continue;
      taken.add(command.key);
      found.push(detection(command.key, command.command, command.section ? `${path}, under "${command.section}"` : path));
    }
  }
  return found;
}
