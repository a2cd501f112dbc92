import { access } from 'node:fs/promises';
import { findCodeReferences } from '../instruction/code-references.js';
import { plainInstruction } from '../instruction/slack-markup.js';
import { mirrorDir, updateMirror } from '../workspace/mirror-cache.js';
import { runGit } from '../workspace/run-git.js';
import type { RepoRef } from './resolve-repository.js';

/** What an instruction points at in code: paths (files or directories) and symbols (identifiers). */
export interface TreeReferences {
  paths: string[];
  symbols: string[];
}

/** One candidate's tree: a git directory (a bare mirror or a clone) and the revision read (its base branch's head). */
export interface CandidateTree {
  repo: RepoRef;
  gitDir: string;
  rev: string;
}

const MAX_PATHS = 20;
const MAX_SYMBOLS = 10;
const IDENTIFIER = /^[A-Za-z_$][\w$]{2,99}$/;
/** camelCase, PascalCase with an inner capital, snake_case or SCREAMING_CASE: words that name code, not prose. */
const CODE_WORD = /(?<![\w$./-])([A-Za-z_$][\w$]*(?:[a-z0-9][A-Z]|[A-Za-z0-9]_[A-Za-z0-9])[\w$]*)(?![\w$/-]|\.\w)/g;
const BACKTICKED = /`([^`\n]{1,100})`/g;

/** The paths and symbols an instruction names, as far as they could tell its repositories apart. */
export function treeReferences(text: string): TreeReferences {
  const plain = plainInstruction(text);
  const found = findCodeReferences(plain.prose, plain.codeBlocks, plain.urls);
  const paths = [...found.files, ...found.directories]
    .map((path) =>
      path
        .replace(/:\d+(?::\d+)?$/, '')
        .replace(/^\.\//, '')
        .replace(/\/+$/, ''),
    )
    .filter((path) => path.length > 0 && !path.startsWith('/') && !path.startsWith('~') && !path.split('/').includes('..') && !/[*?{}[\]]/.test(path));
  const symbols = [
    ...found.functions.map(
      (name) =>
        name
          .replace(/\(.*$/, '')
          .split(/\.|::|#/)
          .pop() ?? '',
    ),
    ...[...plain.prose.matchAll(BACKTICKED)].map((match) => match[1]?.trim().replace(/\(.*$/, '') ?? ''),
    ...[...plain.prose.matchAll(CODE_WORD)].map((match) => match[1] ?? ''),
  ].filter((name) => IDENTIFIER.test(name) && !paths.includes(name));
  return { paths: [...new Set(paths)].slice(0, MAX_PATHS), symbols: [...new Set(symbols)].slice(0, MAX_SYMBOLS) };
}

/**
 * The candidates holding a path or symbol none of the others hold, read with git at each one's revision within
 * `timeoutMs` (a tree git cannot read in time holds nothing). One candidate: the instruction is about that repository;
 * none or several: it cannot tell.
 */
export async function repositoriesHolding(references: TreeReferences, trees: CandidateTree[], timeoutMs: number): Promise<RepoRef[]> {
  if (references.paths.length === 0 && references.symbols.length === 0) return [];
  const deadline = Date.now() + timeoutMs;
  const held = await Promise.all(trees.map((tree) => referencesIn(tree, references, deadline).catch(() => new Set<string>())));
  const holders = (reference: string) => held.filter((set) => set.has(reference)).length;
  return trees.filter((_tree, index) => [...(held[index] ?? [])].some((reference) => holders(reference) === 1)).map((tree) => tree.repo);
}

/** Which of the references the tree has: `path:<p>` for a file or directory, `symbol:<s>` for a whole word in a file. */
async function referencesIn(tree: CandidateTree, references: TreeReferences, deadline: number): Promise<Set<string>> {
  const git = (args: string[]) => runGit(args, { cwd: tree.gitDir, timeoutMs: Math.max(1, deadline - Date.now()) });
  const found = new Set<string>();
  if (references.paths.length > 0) {
    const files = (await git(['ls-tree', '-r', '--name-only', '-z', tree.rev])).split('\0').filter(Boolean);
    for (const path of references.paths) if (files.some((file) => holdsPath(file, path))) found.add(`path:${path}`);
  }
  for (const symbol of references.symbols) {
    // -q: the first match is enough; exit status 1 is "not found".
    const hit = await git(['grep', '-q', '-I', '-w', '-F', '-e', symbol, tree.rev, '--']).then(
      () => true,
      (error: unknown) => {
        if ((error as { exitCode?: number }).exitCode === 1) return false;
        throw error;
      },
    );
    if (hit) found.add(`symbol:${symbol}`);
  }
  return found;
}

/** `file` is `path`, lies under the directory `path`, or ends with it (a path given from partway down, or a bare file name). */
function holdsPath(file: string, path: string): boolean {
  const f = file.toLowerCase();
  const p = path.toLowerCase();
  return f === p || f.startsWith(`${p}/`) || f.endsWith(`/${p}`) || f.includes(`/${p}/`);
}

export interface PickByTreeOptions {
  dataDir: string;
  gitBaseUrl: string;
  credential?: (owner: string, repo: string) => Promise<string>;
  /** The whole pick (mirror updates and reading) takes at most this long. */
  timeoutMs: number;
}

/**
 * The one candidate whose tree at its base branch's head holds a path or symbol of the instruction that no other holds,
 * read on Wrench's mirrors (brought up to date first, within the time limit; a mirror that cannot be updated in time is
 * read as it is, a missing one holds nothing). Undefined when the trees do not tell.
 */
export async function pickByTree(text: string, candidates: RepoRef[], options: PickByTreeOptions): Promise<RepoRef | undefined> {
  const references = treeReferences(text);
  if (references.paths.length === 0 && references.symbols.length === 0) return undefined;
  const started = Date.now();
  const updateBudget = Math.max(1, Math.floor(options.timeoutMs * 0.7));
  const trees = await Promise.all(
    candidates.map(async (repo): Promise<CandidateTree | undefined> => {
      const gitDir = mirrorDir(options.dataDir, repo.owner, repo.name);
      const credential = await options.credential?.(repo.owner, repo.name).catch(() => undefined);
      await updateMirror({
        dataDir: options.dataDir,
        gitBaseUrl: options.gitBaseUrl,
        owner: repo.owner,
        repo: repo.name,
        credential,
        timeoutMs: updateBudget,
      }).catch(() => undefined);
      const present = await access(gitDir).then(
        () => true,
        () => false,
      );
      return present ? { repo, gitDir, rev: repo.baseBranch ? `refs/heads/${repo.baseBranch}` : 'HEAD' } : undefined;
    }),
  );
  const readable = trees.filter((tree): tree is CandidateTree => !!tree);
  // A candidate whose tree cannot be read might hold the reference too: only a full set of trees can single one out.
  if (readable.length < candidates.length) return undefined;
  const holding = await repositoriesHolding(references, readable, Math.max(1, options.timeoutMs - (Date.now() - started)));
  return holding.length === 1 ? holding[0] : undefined;
}
