import { runGit } from '../workspace/run-git.js';

/** A place in the repository an answer cites: `path:line`, `path:start-end`, or a whole file (no lines). */
export interface Citation {
  /** As the agent wrote it (trimmed). */
  ref: string;
  path: string;
  start?: number;
  end?: number;
}

/** Why a citation was removed: no such file at the commit, a directory, lines past the file's end, or no valid reference. */
export type RemovalReason = 'no-such-file' | 'not-a-file' | 'beyond-end' | 'outside-repository' | 'invalid';

export type CheckedCitation = { citation: Citation; ok: true; lines: number } | { citation: Citation; ok: false; reason: RemovalReason; lines?: number };

/** A listed citation: any path (checked later: it must be a file inside the repository), then its lines, if any. */
const REF = /^(?:\.\/)?([^:\n]+?)(?::L?(\d{1,7})(?:\s*[-–]\s*L?(\d{1,7}))?)?$/;

/** Reads one citation as written ("src/a.ts:10", "src/a.ts:10-14", "`src/a.ts`"); undefined when it is none. */
export function parseCitation(ref: string): Citation | undefined {
  const text = ref.trim().replace(/^`+|`+$/g, '');
  const match = REF.exec(text);
  if (!match) return undefined;
  const [, path = '', start, end] = match;
  return { ref: text, path, ...(start ? { start: Number(start) } : {}), ...(end ? { end: Number(end) } : start ? { end: Number(start) } : {}) };
}

/**
 * `path:line` and `path:start-end` inside prose, optionally in backticks; the path has a directory or an extension so
 * that times ("14:05") and hosts with ports after a scheme ("https://host:443") are not read as citations.
 */
const INLINE =
  /\x60?(?<![\w./@+:-])((?:[\w@+-][\w.@+-]*\/)+[\w.@+-]+|[\w@+-][\w@+-]*(?:\.[\w@+-]+)*\.[A-Za-z][\w]*):(\d{1,7})(?:\s?[-–]\s?L?(\d{1,7}))?(?![\w/])\x60?/g;

export interface InlineCitation {
  citation: Citation;
  /** Where it stands in the text, backticks included. */
  index: number;
  length: number;
}

/** Every `path:line` citation written in `text`, in order. */
export function inlineCitations(text: string): InlineCitation[] {
  const found: InlineCitation[] = [];
  for (const match of text.matchAll(INLINE)) {
    const [whole, path = '', start, end] = match;
    const ref = `${path}:${start}${end ? `-${end}` : ''}`;
    found.push({ citation: { ref, path, start: Number(start), end: Number(end ?? start) }, index: match.index, length: whole.length });
  }
  return found;
}

/** At most this many different files are looked up for one answer; citations of the others are removed. */
export const MAX_CITED_FILES = 60;

/**
 * Checks each citation against the tree at `sha` in the git repository at `dir` (never the working tree, which the
 * agent could have changed): the file must exist there as a file, and its lines must lie within the file.
 */
export async function checkCitations(dir: string, sha: string, citations: readonly Citation[]): Promise<CheckedCitation[]> {
  const files = new Map<string, Promise<FileAtCommit>>();
  const lookup = (path: string) => {
    let file = files.get(path);
    if (!file) {
      file = files.size >= MAX_CITED_FILES ? Promise.resolve({ kind: 'missing' as const }) : fileAt(dir, sha, path);
      files.set(path, file);
    }
    return file;
  };
  return Promise.all(
    citations.map(async (citation): Promise<CheckedCitation> => {
      if (!isRepositoryPath(citation.path)) return { citation, ok: false, reason: 'outside-repository' };
      if (citation.start !== undefined && (citation.start < 1 || (citation.end ?? citation.start) < citation.start))
        return { citation, ok: false, reason: 'invalid' };
      const file = await lookup(citation.path);
      if (file.kind === 'missing') return { citation, ok: false, reason: 'no-such-file' };
      if (file.kind === 'tree') return { citation, ok: false, reason: 'not-a-file' };
      if ((citation.end ?? 0) > file.lines) return { citation, ok: false, reason: 'beyond-end', lines: file.lines };
      return { citation, ok: true, lines: file.lines };
    }),
  );
}

type FileAtCommit = { kind: 'missing' } | { kind: 'tree' } | { kind: 'blob'; lines: number };

async function fileAt(dir: string, sha: string, path: string): Promise<FileAtCommit> {
  const object = `${sha}:${path}`;
  const type = await runGit(['cat-file', '-t', object], { cwd: dir, timeoutMs: 30_000 }).then(
    (out) => out.trim(),
    () => undefined,
  );
  if (type === 'tree') return { kind: 'tree' };
  if (type !== 'blob') return { kind: 'missing' };
  const content = await runGit(['cat-file', 'blob', object], { cwd: dir, timeoutMs: 30_000 });
  return { kind: 'blob', lines: lineCount(content) };
}

/** Lines as an editor numbers them: a final newline ends the last line, it does not start another. */
export function lineCount(content: string): number {
  if (content === '') return 0;
  const newlines = content.split('\n').length - 1;
  return content.endsWith('\n') ? newlines : newlines + 1;
}

function isRepositoryPath(path: string): boolean {
  return path !== '' && !path.startsWith('/') && !path.split('/').some((part) => part === '..' || part === '.' || part === '' || part === '.git');
}
