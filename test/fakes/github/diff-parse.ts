export interface Hunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
}

export interface FileDiff {
  filename: string;
  previous_filename?: string;
  status: 'added' | 'removed' | 'modified' | 'renamed';
  additions: number;
  deletions: number;
  /** Blob sha of the new side (the old side for removed files). */
  sha: string;
  /** The hunks as GitHub shows them: from the first `@@` line on; absent for binary files. */
  patch?: string;
  hunks: Hunk[];
}

const EMPTY_BLOB = '0000000000000000000000000000000000000000';

/** Parses `git diff --full-index -M` output into GitHub's per-file view. */
export function parseDiff(output: string): FileDiff[] {
  const files: FileDiff[] = [];
  const sections = output.split(/^(?=diff --git )/m).filter((section) => section.startsWith('diff --git '));
  for (const section of sections) files.push(parseSection(section));
  return files;
}

function parseSection(section: string): FileDiff {
  const lines = section.replace(/\n$/, '').split('\n');
  const header = /^diff --git a\/(.+) b\/(.+)$/.exec(lines[0]!);
  let oldPath = header?.[1] ?? '';
  let newPath = header?.[2] ?? '';
  let status: FileDiff['status'] = 'modified';
  let oldSha = EMPTY_BLOB;
  let newSha = EMPTY_BLOB;
  let index = 1;
  for (; index < lines.length && !lines[index]!.startsWith('@@'); index += 1) {
    const line = lines[index];
    if (line!.startsWith('new file mode')) status = 'added';
    else if (line!.startsWith('deleted file mode')) status = 'removed';
    else if (line!.startsWith('rename from ')) oldPath = line!.slice('rename from '.length);
    else if (line!.startsWith('rename to ')) {
      newPath = line!.slice('rename to '.length);
      status = 'renamed';
    } else if (line!.startsWith('index ')) {
      const shas = /^index (\w+)\.\.(\w+)/.exec(line!);
      oldSha = shas?.[1] ?? oldSha;
      newSha = shas?.[2] ?? newSha;
    } else if (line!.startsWith('+++ ') && line !== '+++ /dev/null') newPath = line!.slice(6);
    else if (line!.startsWith('--- ') && line !== '--- /dev/null') oldPath = line!.slice(6);
  }
  const body = lines.slice(index);
  const hunks: Hunk[] = [];
  let additions = 0;
  let deletions = 0;
  for (const line of body) {
    const hunk = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(line);
    if (hunk) {
      hunks.push({
        oldStart: Number(hunk[1]),
        oldLines: hunk[2] === undefined ? 1 : Number(hunk[2]),
        newStart: Number(hunk[3]),
        newLines: hunk[4] === undefined ? 1 : Number(hunk[4]),
      });
    } else if (line.startsWith('+')) additions += 1;
    else if (line.startsWith('-')) deletions += 1;
  }
  return {
    filename: status === 'removed' ? oldPath : newPath,
    ...(status === 'renamed' ? { previous_filename: oldPath } : {}),
    status,
    additions,
    deletions,
    sha: status === 'removed' ? oldSha : newSha,
    ...(body.length > 0 ? { patch: body.join('\n') } : {}),
    hunks,
  };
}

/** Whether a review comment on `line` of `side` lands inside one of the hunks. */
export function lineInHunks(hunks: Hunk[], line: number, side: 'LEFT' | 'RIGHT'): Hunk | undefined {
  return hunks.find((hunk) => {
    const start = side === 'RIGHT' ? hunk.newStart : hunk.oldStart;
    const count = side === 'RIGHT' ? hunk.newLines : hunk.oldLines;
    return line >= start && line < start + count;
  });
}

/** Number of lines a legacy `position` may point at (every patch line after the first `@@`). */
export function patchPositions(patch: string | undefined): number {
  return patch ? patch.split('\n').length - 1 : 0;
}

/** The patch position (1-based line index after the first `@@`) of `line` on `side`, if it is shown. */
export function positionOf(patch: string | undefined, line: number, side: 'LEFT' | 'RIGHT'): number | undefined {
  const lines = (patch ?? '').split('\n');
  let oldLine = 0;
  let newLine = 0;
  for (let index = 0; index < lines.length; index += 1) {
    const text = lines[index];
    const hunk = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(text!);
    if (hunk) {
      oldLine = Number(hunk[1]);
      newLine = Number(hunk[2]);
      continue;
    }
    if (text!.startsWith('\\')) continue;
    const isAdded = text!.startsWith('+');
    const isRemoved = text!.startsWith('-');
    if (side === 'RIGHT' && !isRemoved && newLine === line) return index;
    if (side === 'LEFT' && !isAdded && oldLine === line) return index;
    if (!isAdded) oldLine += 1;
    if (!isRemoved) newLine += 1;
  }
  return undefined;
}
