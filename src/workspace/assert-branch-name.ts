import { tmpdir } from 'node:os';
import { WrenchError } from '../errors.js';
import { runGit } from './run-git.js';

/**
 * Names made only of letters, digits and `._-/` that break none of git's rules for them (no `..` or `//`, no part
 * starting with `.` or ending in `.lock`, no leading `/` or trailing `/` or `.`): valid without asking git.
 */
const PLAINLY_VALID = /^(?!.*\.\.)(?!.*\/\/)(?!.*(?:^|\/)\.)(?!.*\.lock(?:\/|$))[A-Za-z0-9_][A-Za-z0-9._/-]*(?<![/.])$/;

/** Throws `invalid_branch` unless `name` is a usable branch name per `git check-ref-format` (asked unless plainly valid). */
export async function assertBranchName(name: string): Promise<void> {
  try {
    if (name.startsWith('-') || name === 'HEAD') throw new Error('reserved');
    if (PLAINLY_VALID.test(name)) return;
    await runGit(['check-ref-format', `refs/heads/${name}`], { cwd: tmpdir() });
  } catch {
    throw new WrenchError('invalid_branch', `"${name}" is not a valid git branch name.`);
  }
}
