import { WrenchError, wrenchErrorSaying } from '../errors.js';
import { findSecrets, type ScannedLine } from '../security/secret-scan.js';
import type { NamedSecret } from '../security/redact.js';
import type { SecretKind } from '../security/secret-kind.js';
import type { GitIdentity } from './git-identity.js';
import type { HeldWork } from './hold-refused-work.js';
import { runGit } from './run-git.js';

/** What every push checks and fixes in the commits it is about to send. */
export interface PushGuard {
  /** The commit the run started from (trusted: recorded by Wrench, not read from the workspace). */
  baseSha?: string;
  /** Wrench's own credentials: a push holding any of them, in a file or a commit message, is refused. */
  secrets: readonly NamedSecret[];
  /** Author and committer of every commit pushed; default Wrench. */
  identity?: GitIdentity;
  /** The person who asked, credited with a `Co-authored-by:` trailer (see coAuthorOf in commit-trailers.ts). */
  coAuthor?: GitIdentity;
  /** Where a refused push keeps the run's commits as a bundle (hold-refused-work.ts); unset: not kept. */
  heldDir?: string;
  /** How long such a bundle is kept (WRENCH_HELD_RETENTION_DAYS), told in the thread. */
  heldDays?: number;
  /** The worker that keeps it (its host id: WRENCH_HOST_ID, default hostname and pid), told in the thread. */
  heldOn?: string;
}

/**
 * The commits of HEAD that the remote does not have: reachable from HEAD, but neither from the run's base nor from
 * any commit the remote advertised (only those this repository holds; the others cannot be ancestors). Oldest first.
 */
export async function outgoingCommits(dir: string, exclude: readonly string[]): Promise<string[]> {
  const known = await existingCommits(dir, exclude);
  const input = known.map((sha) => `^${sha}\n`).join('');
  const out = await runGit(['rev-list', '--reverse', '--topo-order', '--stdin', 'HEAD'], { cwd: dir, input });
  return out.split('\n').filter(Boolean);
}

/** Those of `shas` this repository holds as commits. */
export async function existingCommits(dir: string, shas: readonly string[]): Promise<string[]> {
  const wanted = [...new Set(shas.filter((sha) => /^[0-9a-f]{40}$/.test(sha)))];
  if (wanted.length === 0) return [];
  const out = await runGit(['cat-file', '--batch-check=%(objectname) %(objecttype)'], { cwd: dir, input: `${wanted.join('\n')}\n` });
  return out
    .split('\n')
    .map((line) => line.split(' '))
    .flatMap(([sha, type]) => (sha !== undefined && type === 'commit' ? [sha] : []));
}

/**
 * Re-creates `commits` (oldest first) so each is authored and committed by `identity` and carries the co-author
 * trailer; trees, messages and author dates stay. Commits already so (with unchanged parents) are kept as they
 * are. Moves HEAD's branch to the result; returns the new shas in the same order.
 */
export async function rewriteIdentity(dir: string, commits: readonly string[], identity: GitIdentity, coAuthor?: GitIdentity): Promise<string[]> {
  const replaced = new Map<string, string>();
  const result: string[] = [];
  for (const sha of commits) {
    const fields = (await runGit(['log', '-1', '--format=%an%x00%ae%x00%cn%x00%ce%x00%aI%x00%T%x00%P%x00%B', sha], { cwd: dir })).split('\0');
    if (fields.length < 8) throw new WrenchError('git_failed', `git log did not print the fields of commit ${sha}.`);
    const [authorName, authorEmail, committerName, committerEmail, authorDate = '', tree = '', parentList = ''] = fields;
    const body = fields.slice(7).join('\0');
    const parents = parentList.split(' ').filter(Boolean);
    const newParents = parents.map((parent) => replaced.get(parent) ?? parent);
    const trailer = coAuthor ? `Co-authored-by: ${coAuthor.name} <${coAuthor.email}>` : undefined;
    const ours = [authorName, committerName].every((n) => n === identity.name) && [authorEmail, committerEmail].every((e) => e === identity.email);
    const hasTrailer = !trailer || body.split('\n').some((line) => line.trim() === trailer);
    if (ours && hasTrailer && newParents.every((p, i) => p === parents[i])) {
      result.push(sha);
      continue;
    }
    const message = trailer
      ? await runGit(['interpret-trailers', '--where', 'end', '--if-exists', 'addIfDifferent', '--trailer', trailer], { cwd: dir, input: body })
      : body;
    const parentArgs = newParents.flatMap((p) => ['-p', p]);
    const created = (
      await runGit(['commit-tree', '--no-gpg-sign', ...parentArgs, '-F', '-', tree], {
        cwd: dir,
        identity,
        input: message,
        env: { GIT_AUTHOR_DATE: authorDate },
      })
    ).trim();
    replaced.set(sha, created);
    result.push(created);
  }
  const head = (await runGit(['rev-parse', 'HEAD'], { cwd: dir })).trim();
  const newHead = replaced.get(head);
  if (newHead) await runGit(['update-ref', '-m', 'wrench: pushed as the bot identity', 'HEAD', newHead, head], { cwd: dir });
  return result;
}

/** One place in the outgoing commits that holds a credential. */
export interface OutgoingSecret {
  /** `file` is a path in the commit's tree; `message` a commit's message. */
  where: { file: string; commit: string } | { message: string };
  line: number;
  kind: SecretKind;
}

/** Every added line of every commit (against its first parent) and every commit message, scanned for credentials. */
export async function scanOutgoing(dir: string, commits: readonly string[], secrets: readonly NamedSecret[]): Promise<OutgoingSecret[]> {
  const found: OutgoingSecret[] = [];
  for (const sha of commits) {
    const message = await runGit(['log', '-1', '--format=%B', sha], { cwd: dir });
    const messageLines = message.split('\n').map((text, i) => ({ line: i + 1, text }));
    for (const hit of await findSecrets(messageLines, secrets)) found.push({ where: { message: sha }, line: hit.line, kind: hit.kind });
    const patch = await runGit(
      ['diff-tree', '-p', '--root', '--first-parent', '-m', '--text', '--no-color', '--no-ext-diff', '--no-renames', '--no-commit-id', sha],
      {
        cwd: dir,
      },
    );
    for (const [file, lines] of addedLines(patch)) {
      for (const hit of await findSecrets(lines, secrets)) found.push({ where: { file, commit: sha }, line: hit.line, kind: hit.kind });
    }
  }
  return found;
}

/** The added lines of a unified diff, by the file they were added to, numbered as in the new file. */
export function addedLines(patch: string): Map<string, ScannedLine[]> {
  const files = new Map<string, ScannedLine[]>();
  let current: ScannedLine[] | undefined;
  let lineNumber = 0;
  for (const raw of patch.split('\n')) {
    if (raw.startsWith('diff --git ')) {
      current = undefined;
      continue;
    }
    if (raw.startsWith('+++ ')) {
      const target = raw.slice(4);
      if (target === '/dev/null') current = undefined;
      else {
        const file = target.replace(/^b\//, '').replace(/^"b\/(.*)"$/, '$1');
        current = files.get(file) ?? [];
        files.set(file, current);
      }
      continue;
    }
    const hunk = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(raw);
    if (hunk) {
      lineNumber = Number(hunk[1]);
      continue;
    }
    if (!current || raw.startsWith('--- ')) continue;
    if (raw.startsWith('+')) {
      current.push({ line: lineNumber, text: raw.slice(1) });
      lineNumber += 1;
    } else if (raw.startsWith(' ')) lineNumber += 1;
  }
  return files;
}

/**
 * "I did not push: `config/dev.env` line 3 holds what looks like a GitHub token; …": where, never the value, and
 * every place (the one left out is the one the requester then pushes again).
 */
export function blockedPushError(found: readonly OutgoingSecret[], branch: string, held?: HeldWork & { days?: number; host?: string }): WrenchError {
  const places = found.map(({ where, line, kind }) =>
    'file' in where ? { file: where.file, line, kind } : { message: where.message.slice(0, 12), line, kind },
  );
  return wrenchErrorSaying('push_blocked_secret', {
    key: 'pushBlockedSecret',
    branch,
    places,
    reword: found.some((hit) => 'message' in hit.where),
    held,
  });
}
