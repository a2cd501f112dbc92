import { detection, type Detection } from './detection.js';
import { firstExisting, type RepoFiles } from './repo-files.js';

const MAKEFILES = ['GNUmakefile', 'makefile', 'Makefile'];

/** `make test` / `make lint` / `make coverage` when the Makefile defines those targets. */
export async function detectMake(files: RepoFiles): Promise<Detection[]> {
  const makefile = await firstExisting(files, MAKEFILES);
  if (!makefile) return [];
  const targets = makeTargets((await files.read(makefile)) ?? '');
  const found: Detection[] = [];
  const test = ['test', 'check'].find((target) => targets.has(target));
  if (test) found.push(detection('test', `make ${test}`, `${makefile} target "${test}"`));
  if (targets.has('lint')) found.push(detection('lint', 'make lint', `${makefile} target "lint"`));
  const coverage = ['coverage', 'cover'].find((target) => targets.has(target));
  if (coverage) found.push(detection('coverage', `make ${coverage}`, `${makefile} target "${coverage}"`));
  return found;
}

/** Target names defined at the start of a line (`name:` or `a b: deps`), not variable assignments (`:=`, `::=`). */
export function makeTargets(text: string): Set<string> {
  const targets = new Set<string>();
  for (const line of text.split('\n')) {
    const names = /^([A-Za-z0-9_.\- ]+?)\s*(?:::(?!=)|:(?![:=]))/.exec(line)?.[1];
    if (names === undefined) continue;
    for (const name of names.split(/\s+/)) if (name) targets.add(name);
  }
  return targets;
}
