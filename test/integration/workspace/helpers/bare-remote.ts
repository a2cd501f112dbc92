import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { testGit } from './git-sandbox.js';

export interface BareRemote {
  /** Directory holding `<owner>/<repo>.git`; GIT_BASE_URL is `file://` + this. */
  root: string;
  gitBaseUrl: string;
  bareDir: string;
  owner: string;
  repo: string;
  /** Commits files (null deletes) on `branch` (created from main when new) and pushes; returns the sha. */
  commit(files: Record<string, string | null>, message: string, options?: { branch?: string; date?: Date }): string;
  /** The sha a ref of the bare repository points at, or '' when it does not exist. */
  sha(ref: string): string;
}

/** A bare repository with three commits on main: README, an app file and a .gitignore. */
export function createBareRemote(root: string, owner = 'acme', repo = 'web'): BareRemote {
  const bareDir = join(root, owner, `${repo}.git`);
  const scratch = join(root, '.scratch', owner, repo);
  mkdirSync(dirname(bareDir), { recursive: true });
  testGit(['init', '--quiet', '--bare', '--initial-branch=main', bareDir], root);
  mkdirSync(dirname(scratch), { recursive: true });
  testGit(['clone', '--quiet', bareDir, scratch], root);

  const commit: BareRemote['commit'] = (files, message, options = {}) => {
    const branch = options.branch ?? 'main';
    testGit(['fetch', '--quiet', 'origin'], scratch);
    const exists = testGit(['ls-remote', 'origin', `refs/heads/${branch}`], scratch) !== '';
    const hasMain = testGit(['ls-remote', 'origin', 'refs/heads/main'], scratch) !== '';
    if (exists) testGit(['checkout', '--quiet', '-B', branch, `origin/${branch}`], scratch);
    else if (hasMain) testGit(['checkout', '--quiet', '-B', branch, 'origin/main'], scratch);
    else testGit(['checkout', '--quiet', '--orphan', branch], scratch);
    for (const [path, content] of Object.entries(files)) {
      const full = join(scratch, path);
      if (content === null) rmSync(full, { force: true });
      else {
        mkdirSync(dirname(full), { recursive: true });
        writeFileSync(full, content);
      }
    }
    const date = options.date?.toISOString();
    const env: Record<string, string> = date ? { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date } : {};
    testGit(['add', '--all'], scratch);
    testGit(['commit', '--quiet', '-m', message], scratch, env);
    testGit(['push', '--quiet', 'origin', `HEAD:refs/heads/${branch}`], scratch);
    return testGit(['rev-parse', 'HEAD'], scratch);
  };

  commit({ 'README.md': '# Web\n' }, 'Initial commit');
  commit({ 'src/app.js': 'export const greeting = "hello";\n' }, 'Add app');
  commit({ '.gitignore': '*.log\nnode_modules/\n' }, 'Ignore logs');

  return {
    root,
    gitBaseUrl: `file://${root}`,
    bareDir,
    owner,
    repo,
    commit,
    sha: (ref) => {
      try {
        return testGit(['rev-parse', '--verify', '--quiet', ref], bareDir);
      } catch {
        return '';
      }
    },
  };
}
