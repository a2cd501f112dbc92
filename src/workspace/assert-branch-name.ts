import { tmpdir } from 'node:os';
import { WrenchError } from '../errors.js';
import { runGit } from './run-git.js';

/** Throws `invalid_branch` unless `name` is a usable branch name per `git check-ref-format`. */
export async function assertBranchName(name: string): Promise<void> {
  try {
    if (name.startsWith('-') || name === 'HEAD') throw new Error('reserved');
    await runGit(['check-ref-format', `refs/heads/${name}`], { cwd: tmpdir() });
  } catch {
    throw new WrenchError('invalid_branch', `"${name}" is not a valid git branch name.`);
  }
}
