import { WrenchError } from '../errors.js';
import { runGit } from './run-git.js';

export interface RecentCommitsOptions {
  dir: string;
  since: Date;
  until?: Date;
  /** Branch, tag or sha whose history is read, e.g. `origin/main`. */
  ref: string;
  /** Default 200. */
  maxCount?: number;
}

export interface RecentCommit {
  sha: string;
  author: string;
  authorEmail: string;
  /** Committer date (when the change landed), ISO 8601; the window applies to it. */
  date: string;
  subject: string;
  /** Files the commit changed; for a merge, relative to its first parent. */
  files: string[];
}

const RECORD = '\x1e';
const FIELD = '\x1f';

/** Commits reachable from `ref` that landed in [since, until], newest first, with the files each changed. */
export async function recentCommits(options: RecentCommitsOptions): Promise<RecentCommit[]> {
  if (!options.ref || options.ref.startsWith('-')) {
    throw new WrenchError('invalid_ref', `"${options.ref}" is not a branch, tag or commit.`);
  }
  const args = [
    'log',
    `--max-count=${options.maxCount ?? 200}`,
    `--since=${options.since.toISOString()}`,
    ...(options.until ? [`--until=${options.until.toISOString()}`] : []),
    `--format=${RECORD}%H${FIELD}%an${FIELD}%ae${FIELD}%cI${FIELD}%s`,
    '--name-only',
    '--diff-merges=first-parent',
    '--no-renames',
    options.ref,
    '--',
  ];
  const output = await runGit(args, { cwd: options.dir });
  return output
    .split(RECORD)
    .filter((record) => record.trim())
    .map((record) => {
      const [header = '', ...fileLines] = record.split('\n');
      const [sha = '', author = '', authorEmail = '', date = '', subject = ''] = header.split(FIELD);
      return { sha, author, authorEmail, date: new Date(date).toISOString(), subject, files: fileLines.filter(Boolean) };
    });
}
