import { posix } from 'node:path';
import {
  boundText,
  DEFAULT_INSTRUCTION_LIMITS,
  type InstructionLimits,
  listInstructionFiles,
  NESTED_INSTRUCTION_FILE,
  readBlob,
  resolveEntry,
  ROOT_INSTRUCTION_FILES,
  type TreeEntry,
} from './instruction-files.js';

/** One instruction file as the model gets it. */
export interface InstructionFile {
  /** Its path in the repository: `AGENTS.md`, `packages/api/AGENTS.md`. */
  path: string;
  /** The directory it applies to, ending in `/`; empty for the whole repository (the root files). */
  scope: string;
  /** Its text, cut to the limits. */
  text: string;
  /** Its whole length in characters. */
  chars: number;
  /** Part of it was left out (the file, or all files of the run together, were over the limit). */
  truncated: boolean;
  /** Nothing of it was given: the run's total was used up. */
  omitted: boolean;
  /** A link to, or a copy of, a file already read (`CLAUDE.md` → `AGENTS.md`): not given twice. */
  sameAs?: string;
}

/** What the run page and the report name: each file read, and whether it was cut. */
export interface InstructionFileRead {
  path: string;
  truncated?: boolean;
  omitted?: boolean;
  sameAs?: string;
}

/**
 * A repository's instructions for coding agents at one commit: the root files read at once, and the nested
 * `AGENTS.md` files handed out as the agent reaches their directories (the nearest one above a path wins for its
 * subtree), each once. Sizes are bounded per file and for the whole run.
 */
export class RepositoryInstructions {
  private readonly files: InstructionFile[] = [];
  private readonly seen = new Map<string, string>();
  private used = 0;

  private constructor(
    private readonly dir: string,
    readonly commit: string,
    private readonly entries: Map<string, TreeEntry>,
    /** Directories (ending in `/`) that hold an `AGENTS.md` of their own, below the root, deepest first. */
    readonly nestedScopes: readonly string[],
    private readonly limits: InstructionLimits,
  ) {}

  /** Reads the root files of `ref`'s tree in `dir` (a checkout) and notes where nested ones are. */
  static async read(dir: string, options: { ref?: string; limits?: Partial<InstructionLimits> } = {}): Promise<RepositoryInstructions> {
    const { commit, entries } = await listInstructionFiles(dir, options.ref);
    const nested = [...entries.keys()]
      .filter((path) => path.endsWith(`/${NESTED_INSTRUCTION_FILE}`))
      .map((path) => path.slice(0, -NESTED_INSTRUCTION_FILE.length))
      .sort((a, b) => b.length - a.length || a.localeCompare(b));
    const instructions = new RepositoryInstructions(dir, commit, entries, nested, { ...DEFAULT_INSTRUCTION_LIMITS, ...options.limits });
    for (const path of ROOT_INSTRUCTION_FILES) {
      const entry = entries.get(path);
      if (entry) await instructions.take(entry, '');
    }
    return instructions;
  }

  /** The files read so far, in the order they were read (root files first). */
  get read(): readonly InstructionFile[] {
    return this.files;
  }

  /** The root files: what every run starts with. */
  get rootFiles(): InstructionFile[] {
    return this.files.filter((file) => file.scope === '');
  }

  /** Nested `AGENTS.md` paths not handed out yet. */
  get pendingNested(): string[] {
    const given = new Set(this.files.map((file) => file.path));
    return this.nestedScopes
      .map((scope) => `${scope}${NESTED_INSTRUCTION_FILE}`)
      .filter((path) => !given.has(path))
      .sort();
  }

  /** The nested `AGENTS.md` that applies to `path` (a file or directory relative to the root): the nearest above it. */
  nearestScope(path: string): string | undefined {
    const normalized = normalize(path);
    if (normalized === undefined) return undefined;
    return this.nestedScopes.find((scope) => `${normalized}/`.startsWith(scope));
  }

  /**
   * The nested files the agent has not had yet that apply to `paths` (relative to the root): for each, the nearest
   * `AGENTS.md` above it. A directory's file is handed out once per run, whatever touches it next.
   */
  async forPaths(paths: Iterable<string>): Promise<InstructionFile[]> {
    const given = new Set(this.files.map((file) => file.scope));
    const scopes = new Set<string>();
    for (const path of paths) {
      const scope = this.nearestScope(path);
      if (scope && !given.has(scope)) scopes.add(scope);
    }
    const found: InstructionFile[] = [];
    for (const scope of [...scopes].sort()) {
      const entry = this.entries.get(`${scope}${NESTED_INSTRUCTION_FILE}`);
      const file = entry ? await this.take(entry, scope) : undefined;
      if (file) found.push(file);
    }
    return found;
  }

  /** Reads one file within what is left of the run's total (unreadable or binary files are skipped). */
  private async take(entry: TreeEntry, scope: string): Promise<InstructionFile | undefined> {
    const blob = await resolveEntry(this.dir, entry, this.entries).catch(() => undefined);
    if (!blob) return undefined;
    const earlier = this.seen.get(blob.sha);
    if (earlier !== undefined) {
      const same: InstructionFile = { path: entry.path, scope, text: '', chars: 0, truncated: false, omitted: false, sameAs: earlier };
      this.files.push(same);
      return same;
    }
    const text = await readBlob(this.dir, blob.sha).catch(() => undefined);
    if (text === undefined || !text.trim()) return undefined;
    this.seen.set(blob.sha, entry.path);
    const room = Math.min(this.limits.perFileChars, this.limits.totalChars - this.used);
    const bounded = room > 0 ? boundText(text, room) : { text: '', truncated: true };
    this.used += bounded.text.length;
    const file: InstructionFile = { path: entry.path, scope, text: bounded.text, chars: text.length, truncated: bounded.truncated, omitted: !bounded.text };
    this.files.push(file);
    return file;
  }

  /** What the run page and the report name. */
  summary(): InstructionFileRead[] {
    return this.files.map(({ path, truncated, omitted, sameAs }) => ({
      path,
      ...(omitted ? { omitted } : truncated ? { truncated } : {}),
      ...(sameAs ? { sameAs } : {}),
    }));
  }
}

/** A path relative to the root as posix, without `./` or a trailing `/`; '' for the root, undefined outside it. */
function normalize(path: string): string | undefined {
  const normalized = posix.normalize(path.replace(/\\/g, '/')).replace(/\/+$/, '');
  if (normalized === '.' || normalized === '') return '';
  if (normalized.startsWith('../') || normalized === '..' || posix.isAbsolute(normalized)) return undefined;
  return normalized.replace(/^\.\//, '');
}
